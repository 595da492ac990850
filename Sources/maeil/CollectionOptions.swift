import ArgumentParser
import Foundation
import MaeilStore
import MaeilREPL

/// `--collection PATH`, shared by every command that opens a collection.
struct CollectionOptions: ParsableArguments {
    @Option(name: .customLong("collection"), help: ArgumentHelp(
        "The collection file (default: $MAEIL_COLLECTION, else $XDG_DATA_HOME/maeil/collection.sqlite).", valueName: "path"))
    var path: String?

    var resolvedPath: String {
        CollectionLocation.resolve(explicit: path, environment: ProcessInfo.processInfo.environment)
    }
}

extension StoreError {
    /// The store says what is wrong; the command line adds what to run about it.
    var advice: String? {
        switch self {
        case .newerSchema: "upgrade Maeil to open it"
        case .notACollection: "pass another --collection, or move the file away"
        case .noSuchDeck: "`maeil decks` lists them"
        case .missingPreset, .missingDeck: "run `maeil check --repair`"
        case .noSuchNote: "`maeil find TEXT` gives note numbers"
        case .damaged: "`maeil check --repair` recovers what it can into a new file beside it"
        case .busy: "another Maeil (or Anki's sync) may be writing to it; try again when it is done"
        case .readOnly: "make the file and its folder writable, or pass another --collection"
        case .diskFull: "free some space and try again"
        case .cannotOpen: "pass the path of a collection file with --collection"
        default: nil
        }
    }

    var userError: UserError { UserError(advice.map { "\(description); \($0)" } ?? description) }
}

/// Decks named on the command line (quoted or not, or by slug), or all of them.
func deckIDs(_ names: [String], in collection: Collection) throws -> [Int64]? {
    guard !names.isEmpty else { return nil }
    return try DeckNames.resolve(names, in: collection).map(\.id)
}
