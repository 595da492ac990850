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

    @Argument(help: "Files or deck folders.", completion: .file()) var files: [String]

    @Option(help: "Put the notes in this deck (for files that name none, or to override).", completion: Completions.decks) var deck: String?

    @Flag(name: .customLong("dry-run"), help: "Show what would change, and change nothing.") var dryRun = false

    @Flag(name: .customLong("skip-invalid"), help: "Skip bad rows and report them instead of refusing the import.") var skipInvalid = false

    @Option(name: .customLong("map"), parsing: .singleValue, help: ArgumentHelp("CSV: rename a column to a field, e.g. --map Korean=front.", valueName: "column=field"))
    var mappings: [String] = []

    @Flag(help: "Print the summary as JSON.") var json = false

    @Flag(help: "Start a new collection at the --collection path if there is none.") var create = false

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
        if let maximumUnpacked { options.allowUnpacked(megabytes: maximumUnpacked) }
        options.map(mappings)
        (options.timeZone, options.now) = (context.environment.timeZone, context.now)
        let summary = try ImportRun.apply(files, options: options, dryRun: dryRun, showProgress: !json, now: context.now) {
            try context.collection(self.collection, mayCreate: true, create: create)
        }
        if json { return context.verbatim(try JSONOutput.string(summary)) }
        context.line(ImportView.describe(summary))
    }
}
