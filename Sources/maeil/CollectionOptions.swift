import ArgumentParser
import Foundation
import MaeilStore
import MaeilREPL

/// `--collection PATH`, shared by every command that opens a collection.
struct CollectionOptions: ParsableArguments {
    @Option(name: .customLong("collection"), help: ArgumentHelp(
        "The collection file (default: $MAEIL_COLLECTION, else $XDG_DATA_HOME/maeil/collection.sqlite).", valueName: "path"))
    var path: String?
}
