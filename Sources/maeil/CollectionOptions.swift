import ArgumentParser
import Foundation
import MaeilStore

/// `--collection PATH`, shared by every command that opens a collection.
struct CollectionOptions: ParsableArguments {
    @Option(name: .customLong("collection"), help: ArgumentHelp(
        "The collection file (default: $MAEIL_COLLECTION, else $XDG_DATA_HOME/maeil/collection.sqlite).", valueName: "path"))
    var path: String?

    var resolvedPath: String {
        CollectionLocation.resolve(explicit: path, environment: ProcessInfo.processInfo.environment)
    }

    func open() throws -> Collection {
        do {
            return try Collection(path: resolvedPath)
        } catch let error as StoreError {
            throw UserError(error.description)
        }
    }
}

extension StoreError {
    var userError: UserError { UserError(description) }
}

/// Decks named on the command line, or all of them.
func deckIDs(_ names: [String], in collection: Collection) throws -> [Int64]? {
    guard !names.isEmpty else { return nil }
    return try names.map { name in
        guard let deck = try collection.deck(named: name) else { throw StoreError.noSuchDeck(name).userError }
        return deck.id
    }
}
