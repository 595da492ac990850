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

    @Argument(help: "Decks to export (default: all).")
    var decks: [String] = []

    @Option(name: .shortAndLong, help: "The file to write; .apkg, .colpkg or .txt.", completion: .file())
    var out: String

    @Option(help: ArgumentHelp("apkg, apkg-legacy (for Anki before 2.1.50), colpkg or txt (default: from the file name).", valueName: "format"))
    var format: String?

    static let formats = ["apkg", "apkg-legacy", "colpkg", "txt"]

    func validate() throws {
        if let format, !Self.formats.contains(format) { throw ValidationError("--format takes apkg, apkg-legacy, colpkg or txt") }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let kind = format ?? Self.formats.first { out.lowercased().hasSuffix(".\($0)") } ?? "apkg"
        let chosen = self.decks.isEmpty ? try collection.decks() : try DeckNames.resolve(self.decks, in: collection)
        let exported = try Exporter(collection: collection).export(chosen, now: context.now)
        let url = URL(fileURLWithPath: out)
        if kind == "txt" {
            try Data(AnkiTextWriter.text(exported).utf8).write(to: url, options: .atomic)
        } else {
            // Review due days are counted in the first deck's study days.
            let rollover = exported.decks.first.map { $0.preset.rolloverHour } ?? 4
            let clock = DayClock(timeZone: context.environment.timeZone, rolloverHour: rollover)
            try AnkiPackageWriter.write(exported, to: url, format: kind == "apkg-legacy" ? .legacy : .current, now: context.now, clock: clock)
        }
        let notes = exported.decks.reduce(0) { $0 + $1.notes.count }
        let decks = exported.decks.count
        context.line("Exported \(notes) note\(notes == 1 ? "" : "s") from \(decks) deck\(decks == 1 ? "" : "s")"
                     + (exported.media.isEmpty || kind == "txt" ? "" : " with \(counted(exported.media.count, "media file"))") + " to \(out)")
    }
}
