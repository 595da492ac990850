import ArgumentParser
import Foundation
import MaeilFocus
import MaeilREPL
import MaeilStore

struct FocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "focus",
        abstract: "The focus list: starred items, leeches, today's misses and the cards most at risk.",
        discussion: "Widgets: --format waybar, i3status, xbar (SwiftBar, Argos), text (Conky, Polybar) or json.",
        subcommands: [FocusShowCommand.self, FocusExportCommand.self],
        defaultSubcommand: FocusShowCommand.self)
}

struct FocusOptions: ParsableArguments {
    @OptionGroup var collection: CollectionOptions

    @Option(help: "How many items (default: config focus.limit, else 10).") var limit: Int?

    @Option(help: "Only this deck.", completion: Completions.decks) var deck: String?

    @Option(help: ArgumentHelp("json, text, waybar, i3status or xbar (default: text to print, json to a file).", valueName: "format"))
    var format: FocusFormat?

    @Flag(help: "The same as --format json.") var json = false
    var chosenFormat: FocusFormat? { json ? .json : format }

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
        if json, let format, format != .json { throw ValidationError("--json and --format \(format.rawValue) ask for two formats") }
    }

    func build(_ context: CommandContext) throws -> FocusList {
        let collection = try context.collection(self.collection, readOnly: true)
        let deckIDs = try deck.map { [try context.deck($0, in: collection).id] }
        return try FocusListBuilder.build(collection, deckIDs: deckIDs, limit: limit ?? context.focusLimit, now: context.now,
                                          timeZone: context.environment.timeZone)
    }
}

/// A widget format is read from its name, and completes to the names there are.
extension FocusFormat: ExpressibleByArgument {}

struct FocusShowCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the focus list.")
    @OptionGroup var options: FocusOptions

    func run(in context: CommandContext) throws {
        let list = try options.build(context)
        context.verbatim((options.chosenFormat ?? .text).render(list))
    }
}

struct FocusExportCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the focus list for widgets, atomically: to --out, else to every file `config focus.export` names "
            + "(default: json to $XDG_STATE_HOME/maeil/focus.json).",
        discussion: "Maeil refreshes those files itself after each review; run this from a timer to keep counts current between sessions.")
    @OptionGroup var options: FocusOptions

    @Option(help: "The file to write.", completion: .file()) var out: String?

    func validate() throws {
        if options.chosenFormat != nil, out == nil {
            throw ValidationError("--format needs --out; the files `config focus.export` names carry their own formats")
        }
    }

    func run(in context: CommandContext) throws {
        let list = try options.build(context)
        let targets = out.map { [FocusTarget(format: options.chosenFormat ?? .json, path: $0)] } ?? FocusExport.targets(config: context.config, variables: context.variables)
        try FocusExport.write(list, to: targets).forEach(context.line)
    }
}
