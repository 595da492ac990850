import ArgumentParser
import Foundation
import MaeilCore
import MaeilDecks
import MaeilREPL
import MaeilSession
import MaeilStore

struct ImportCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import decks: Maeil deck folders (deck.yaml), Anki text files, CSV/TSV, and Anki packages (.apkg, .colpkg).",
        discussion: """
            An import is all or nothing: any problem stops it with the file, line and column, and the \
            collection is unchanged — unless --skip-invalid is given, which skips bad rows and lists them. \
            Importing a changed deck again updates its notes and keeps every card's schedule.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Files or deck folders.", completion: .file())
    var files: [String]

    @Option(help: "Put the notes in this deck (for files that name none, or to override).")
    var deck: String?

    @Flag(name: .customLong("dry-run"), help: "Show what would change, and change nothing.")
    var dryRun = false

    @Flag(name: .customLong("skip-invalid"), help: "Skip bad rows and report them instead of refusing the import.")
    var skipInvalid = false

    @Option(name: .customLong("map"), parsing: .singleValue, help: ArgumentHelp("CSV: rename a column to a field, e.g. --map Korean=front.", valueName: "column=field"))
    var mappings: [String] = []

    @Flag(help: "Print the summary as JSON.")
    var json = false

    @Flag(help: "Start a new collection at the --collection path if there is none.")
    var create = false

    @Option(name: .customLong("max-unpacked"), help: ArgumentHelp(
        "Let a package unpack to this many MB in all (default 1024; one entry may take a quarter of it, at least 256).", valueName: "MB"))
    var maximumUnpacked: Int?

    func validate() throws {
        if let maximumUnpacked, !(1...65_536).contains(maximumUnpacked) {
            throw ValidationError("--max-unpacked takes a number of MB from 1 to 65536")
        }
        for mapping in mappings where !mapping.contains("=") {
            throw ValidationError("--map takes column=field, not '\(mapping)'")
        }
    }

    func run(in context: CommandContext) throws {
        var options = ImportOptions(deckName: deck, skipInvalid: skipInvalid)
        if let maximumUnpacked {
            options.maximumUnpackedBytes = Int64(maximumUnpacked) << 20
            options.maximumEntryBytes = max(options.maximumUnpackedBytes / 4, options.maximumEntryBytes)
        }
        for mapping in mappings {
            let parts = mapping.split(separator: "=", maxSplits: 1).map(String.init)
            options.columnMap[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        let files = files, readOptions = options
        let summary: ImportSummary
        do {
            // A missing file or one that is no deck is refused before the collection is opened.
            for file in files { _ = try DeckReader.format(of: file) }
            // The files are read while the collection is opened and written: see Importer.
            let reading = ImportReading { emit in try DeckReader.stream(files, options: readOptions, emit: emit) }
            let collection = try context.collection(self.collection, mayCreate: true, create: create)
            let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1 && !json)
            let importer = Importer(collection: collection, now: context.now, progress: { done, total in bar.update(done, of: total) })
            summary = try importer.apply(reading, dryRun: dryRun)
            bar.finish()
        } catch let failure as ImportFailure {
            throw UserError("nothing was imported:\n" + failure.description)
        } catch let problem as ImportProblem {
            throw UserError("nothing was imported: " + problem.description)
        }
        if json {
            context.verbatim(try JSONOutput.string(summary))
        } else {
            context.line(Self.describe(summary))
        }
    }

    static func describe(_ summary: ImportSummary) -> String {
        var lines: [String] = []
        if summary.dryRun { lines.append("Dry run — nothing was changed. The import would give:") }
        for deck in summary.decks {
            var line = "\(TerminalText.sanitize(deck.name))\(deck.created ? " (new deck)" : ""): \(deck.added) added, \(deck.updated) updated, \(deck.unchanged) unchanged"
            if deck.cardsWithHistory > 0 { line += ", \(deck.cardsWithHistory) cards with their schedule" }
            lines.append(line)
            if !deck.gone.isEmpty {
                lines.append("  \(deck.gone.count) note\(deck.gone.count == 1 ? " is" : "s are") no longer in the file and were kept: "
                             + deck.gone.prefix(5).map(TerminalText.sanitize).joined(separator: ", ") + (deck.gone.count > 5 ? ", …" : ""))
            }
        }
        for plan in summary.readingPlans {
            lines.append("\(TerminalText.sanitize(plan.name)) (\(plan.created ? "new reading plan" : "reading plan updated; what you read stays marked")): "
                         + "\(plan.days) days; `maeil read` shows the next")
        }
        if summary.media > 0 { lines.append("\(summary.media) media file\(summary.media == 1 ? "" : "s")") }
        if !summary.skipped.isEmpty {
            lines.append("\(summary.skipped.count) skipped:")
            lines += summary.skipped.prefix(20).map { "  " + TerminalText.sanitize($0) }
            if summary.skipped.count > 20 { lines.append("  … and \(summary.skipped.count - 20) more") }
        }
        return lines.joined(separator: "\n")
    }
}

/// A progress bar on standard error, for imports large enough to wait for.
final class ProgressBar {
    let enabled: Bool
    private var shown = false

    init(enabled: Bool) { self.enabled = enabled }

    func update(_ done: Int, of total: Int) {
        guard enabled, total >= 2000 else { return }
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(done)/\(total)".utf8))
        shown = true
    }

    func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
