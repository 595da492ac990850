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

    @Option(help: "How many items (default: config focus.limit, else 10).")
    var limit: Int?

    @Option(help: "Only this deck.")
    var deck: String?

    @Option(help: ArgumentHelp("json, text, waybar, i3status or xbar.", valueName: "format"))
    var format: FocusFormatArgument = .init(.text)

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func build() throws -> (FocusList, FocusFormat) {
        let collection = try collection.open()
        let deckIDs = try deck.map { name -> [Int64] in
            guard let deck = try DeckNames.find(name, in: collection) else { throw UserError(StoreError.noSuchDeck(name).description) }
            return [deck.id]
        }
        let config = UserConfig.standard()
        let list = try FocusListBuilder.build(collection, deckIDs: deckIDs, limit: limit ?? config["focus.limit"].flatMap(Int.init) ?? 10,
                                              now: Date(), timeZone: .current)
        return (list, format.format)
    }
}

struct FocusFormatArgument: ExpressibleByArgument {
    let format: FocusFormat
    init(_ format: FocusFormat) { self.format = format }
    init?(argument: String) {
        guard let format = FocusFormat(rawValue: argument) else { return nil }
        self.format = format
    }
    static var allValueStrings: [String] { FocusFormat.allCases.map(\.rawValue) }
}

struct FocusShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Print the focus list.")
    @OptionGroup var options: FocusOptions

    func run() throws {
        let (list, format) = try options.build()
        FileHandle.standardOutput.write(Data(format.render(list).utf8))
    }
}

struct FocusExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the focus list to a file, atomically (default: $XDG_STATE_HOME/maeil/focus.json).")
    @OptionGroup var options: FocusOptions

    @Option(help: "The file to write.", completion: .file())
    var out: String?

    func run() throws {
        var (list, format) = try options.build()
        if options.format.format == .text, out == nil { format = .json }
        let path = out ?? (XDG.stateHome(ProcessInfo.processInfo.environment) as NSString).appendingPathComponent("maeil/focus.json")
        do {
            try AtomicFile.write(format.render(list), to: path)
        } catch {
            throw UserError("\(error)")
        }
        print("Wrote \(list.items.count) item\(list.items.count == 1 ? "" : "s") (\(format.rawValue)) to \(path)")
    }
}
