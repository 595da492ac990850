import Foundation
import MaeilCore
import MaeilDecks
import MaeilSimulator

/// The simulation scenarios `maeil sim` names: a file, or a name in Sim/.
package enum ScenarioFiles {
    /// The scenario `name` gives (a path, or a name in Sim/); the default scenario for nil.
    package static func load(_ name: String?) throws -> Scenario {
        guard let name else { return Scenario(name: "default") }
        let path: String
        if FileManager.default.fileExists(atPath: name) {
            path = name
        } else if let file = DataFolders.scenarios()?.appendingPathComponent("\(name).yaml"), FileManager.default.fileExists(atPath: file.path) {
            path = file.path
        } else {
            let names = DataFolders.scenarioNames()
            throw UserError("no scenario '\(name)': give a file, or one of "
                            + (names.isEmpty ? "the names in Sim/ (set MAEIL_SIM to its folder)" : names.joined(separator: ", ")))
        }
        do {
            return try Scenario.load(path: path)
        } catch {
            throw UserError("\(error)")
        }
    }

    /// A scenario can take its items from a bundled deck: as many as the deck has cards.
    package static func cardCount(bundledDeck name: String) throws -> Int {
        guard let decks = BundledDecks.directory() else { throw UserError("the scenario names deck \(name), but Decks/ was not found; set MAEIL_DECKS") }
        let folder = decks.appendingPathComponent(name)
        do {
            let (deck, _) = try MaeilDeckFormat.read(path: folder.path, options: ImportOptions())
            return deck.notes.reduce(0) { total, note in
                total + deck.templates.reduce(0) { $0 + $1.ordinals(for: note.fields, noteType: note.noteType).count }
            }
        } catch {
            throw UserError("the scenario's deck \(name): \(error)")
        }
    }
}
