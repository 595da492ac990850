import ArgumentParser
import Foundation
import MaeilCore
import MaeilDecks
import MaeilREPL
import MaeilSession
import MaeilStore

struct ExportCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export decks as an Anki package (.apkg, with scheduling) or an Anki text file.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks to export (default: all).")
    var decks: [String] = []

    @Option(name: .shortAndLong, help: "The file to write; .apkg or .txt.", completion: .file())
    var out: String

    @Option(help: ArgumentHelp("apkg or txt (default: from the file name).", valueName: "format"))
    var format: String?

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let kind = format ?? (out.lowercased().hasSuffix(".txt") ? "txt" : "apkg")
        guard ["apkg", "txt"].contains(kind) else { throw UsageError("--format takes apkg or txt") }
        let decks: [ExportDeck]
        do {
            let chosen = self.decks.isEmpty ? try collection.decks() : try DeckNames.resolve(self.decks, in: collection)
            decks = try Exporter(collection: collection).decks(chosen)
        } catch let error as StoreError {
            throw error.userError
        }
        let url = URL(fileURLWithPath: out)
        if kind == "txt" {
            try Data(AnkiTextWriter.text(decks).utf8).write(to: url, options: .atomic)
        } else {
            let clock = DayClock(timeZone: context.environment.timeZone)
            try AnkiPackageWriter.write(decks, to: url, created: clock.start(ofDay: clock.dayNumber(of: context.now) - 1), clock: clock)
        }
        let notes = decks.reduce(0) { $0 + $1.notes.count }
        context.line("Exported \(notes) note\(notes == 1 ? "" : "s") from \(decks.count) deck\(decks.count == 1 ? "" : "s") to \(out)")
    }
}
