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
        abstract: "Export decks as an Anki package (.apkg, with scheduling), an Anki collection package (.colpkg) or an Anki text file.",
        discussion: """
            Anki updates the notes of an .apkg it already has (matched by guid and note type), adds the \
            notes and cards it lacks, and never changes the schedule of a card it already has. To take \
            Maeil's schedules and review log to Anki, export a .colpkg: Anki's "Import" of a collection \
            package replaces the whole Anki collection with the decks exported.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks to export (default: all).", completion: Completions.decks) var decks: [String] = []

    @Option(name: .shortAndLong, help: "The file to write; .apkg, .colpkg or .txt.", completion: .file()) var out: String

    @Option(help: ArgumentHelp("apkg, apkg-legacy (for Anki before 2.1.50), colpkg or txt (default: from the file name).", valueName: "format"),
            completion: .list(ExportFile.formats))
    var format: String?

    func validate() throws {
        if let format, !ExportFile.formats.contains(format) { throw ValidationError("--format takes apkg, apkg-legacy, colpkg or txt") }
    }

    func run(in context: CommandContext) throws {
        let kind = ExportFile.format(format, out: out)
        // A .colpkg records the file it was made of, for the next to start from, where the
        // collection can be written; else it is made as any export is.
        let collection = try kind == "colpkg" ? (try? context.collection(self.collection)) ?? context.collection(self.collection, readOnly: true)
            : context.collection(self.collection, readOnly: true)
        let chosen = self.decks.isEmpty ? try collection.decks() : try DeckNames.resolve(self.decks, in: collection)
        let exported = try ExportFile.write(chosen, from: collection, to: URL(fileURLWithPath: out), format: kind, now: context.now,
                                            timeZone: context.environment.timeZone)
        context.line(ImportView.exported(exported, textOnly: kind == "txt", to: out))
        if kind != "txt", let note = ImportView.schedulerNote(exported) { context.line(note) }
    }
}
