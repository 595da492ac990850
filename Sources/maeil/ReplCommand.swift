import ArgumentParser
import Foundation
import MaeilFocus
import MaeilREPL
import MaeilSession
import MaeilSpeech
import MaeilStore

/// `maeil` with no subcommand: the interactive prompt.
struct ReplCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "repl", abstract: "Open the review prompt (what `maeil` does with no subcommand).", shouldDisplay: false)

    @OptionGroup var collection: CollectionOptions

    func run() throws {
        let collection = try collection.open()
        let context = ReplContext(collection: collection, collectionPath: self.collection.resolvedPath)
        let console = StandardConsole()
        let input: LineReader = console.isInteractive
            ? EditLineReader(historyPath: (XDG.stateHome(ProcessInfo.processInfo.environment) as NSString).appendingPathComponent("maeil/history"),
                             completer: Repl.completer(for: collection))
            : PipedLineReader()
        context.makeRepl(console: console, input: input).run()
    }
}

/// What the prompt and the script-friendly subcommands share: the collection, speech, the
/// settings, and how to run another subcommand or refresh the focus list.
struct ReplContext {
    let collection: Collection
    let collectionPath: String

    /// Subcommands that open a collection get the prompt's own.
    static let takesCollection: Set<String> = ["review", "import", "export", "decks", "stats", "missed", "check", "focus"]

    func makeRepl(console: Console, input: LineReader) -> Repl {
        let config = UserConfig.standard()
        let stub = StubSpeaker { console.line($0) }
        // MAEIL_SPEECH=stub prints what would be said instead of playing it (tests, quiet machines).
        let engine = ProcessInfo.processInfo.environment["MAEIL_SPEECH"] == "stub" ? nil : EspeakSpeaker()
        let speaker: Speaker = engine == nil && ProcessInfo.processInfo.environment["MAEIL_SPEECH"] == "stub"
            ? stub : FallbackSpeaker(primary: engine, fallback: stub) { console.line(console.style.dim($0)) }
        let path = collectionPath
        return Repl(
            collection: collection, console: console, input: input, speaker: speaker, config: config,
            runCommand: { arguments in Self.run(arguments, collectionPath: path) },
            exportFocus: { [collection] in FocusExport.refresh(collection, config: config) })
    }

    /// Runs `maeil ARGUMENTS…` in this process, printing errors instead of exiting.
    static func run(_ arguments: [String], collectionPath: String) {
        var arguments = arguments
        if let first = arguments.first, takesCollection.contains(first), !arguments.contains("--collection"),
           !(first == "focus" && arguments.dropFirst().first == "--help") {
            arguments += ["--collection", collectionPath]
        }
        do {
            var command = try Maeil.parseAsRoot(arguments)
            try command.run()
        } catch let error as UserError {
            FileHandle.standardError.write(Data("maeil: \(error.description)\n".utf8))
        } catch {
            let message = Maeil.fullMessage(for: error)
            if !message.isEmpty {
                let toStandardOutput = Maeil.exitCode(for: error) == .success
                (toStandardOutput ? FileHandle.standardOutput : FileHandle.standardError).write(Data((message + "\n").utf8))
            }
        }
    }
}

/// Keeps the focus list's files current (`config focus.export`).
enum FocusExport {
    /// The files `config focus.export` names, or the default JSON file in the state folder.
    static func targets(config: UserConfig) -> [FocusTarget] {
        let environment = ProcessInfo.processInfo.environment
        let defaultPath = (XDG.stateHome(environment) as NSString).appendingPathComponent("maeil/focus.json")
        return FocusTarget.parse(config["focus.export"], defaultPath: defaultPath, home: environment["HOME"] ?? NSHomeDirectory())
    }

    static func refresh(_ collection: Collection, config: UserConfig) {
        let targets = targets(config: config)
        let limit = config["focus.limit"].flatMap(Int.init) ?? 10
        guard let list = try? FocusListBuilder.build(collection, limit: limit, now: Date(), timeZone: .current) else { return }
        for target in targets {
            try? AtomicFile.write(target.format.render(list), to: target.path)
        }
    }
}

/// The prompt's own commands, as subcommands for scripts: `maeil find 김치`, `maeil star 12`…
struct PromptAction: ParsableArguments {
    @OptionGroup var collection: CollectionOptions

    @Argument(parsing: .captureForPassthrough, help: "The command's words.")
    var words: [String] = []

    /// Passthrough parsing would hand --help to the command as a word.
    func validate() throws {
        if let first = words.first, first == "--help" || first == "-h" { throw CleanExit.helpRequest() }
    }

    func run(_ name: String) throws {
        let collection = try collection.open()
        let context = ReplContext(collection: collection, collectionPath: self.collection.resolvedPath)
        let console = StandardConsole(isInteractive: false)
        let repl = context.makeRepl(console: console, input: PipedLineReader())
        do {
            try repl.perform(name, words)
        } catch {
            throw UserError("\(error)")
        }
    }
}

struct FindCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "find", abstract: "Find notes: find TEXT, or find tag:NAME [--deck DECK].")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("find") }
}

struct ShowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a note, its cards and their schedule: show ID.")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("show") }
}

struct AddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "add", abstract: "Add a note, one field per line on standard input: add DECK.")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("add") }
}

struct EditCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit", abstract: "Edit a note, one field per line (empty keeps it): edit ID.")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("edit") }
}

struct StarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "star", abstract: "Star a note's cards: star ID.")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("star") }
}

struct UnstarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unstar", abstract: "Unstar a note's cards: unstar ID.")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("unstar") }
}

struct SuspendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "suspend", abstract: "Suspend a note's cards: suspend ID.")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("suspend") }
}

struct UnsuspendCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unsuspend", abstract: "Unsuspend a note's cards: unsuspend ID.")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("unsuspend") }
}

struct UndoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Undo the last answer.")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("undo") }
}

struct SayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "say", abstract: "Speak a text: say TEXT [--lang ko].")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("say") }
}

struct ConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Settings: config, config KEY, config KEY VALUE (speech auto|on|off, focus.export, focus.limit).")
    @OptionGroup var action: PromptAction
    func run() throws { try action.run("config") }
}

struct AboutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "about", abstract: "What Maeil is built on, and where its decks come from.")
    func run() throws { print(Repl.about) }
}
