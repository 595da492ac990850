import Foundation
import MaeilCore
import MaeilFocus
import MaeilPrograms
import MaeilSession
import MaeilSpeech
import MaeilStore

/// Where a command runs: the prompt (its open collection, its console and line reader) or a
/// shell (standard input and output). Everything a command needs from the world comes from
/// here: the collection, the console, input lines, the clock, speech and the settings.
package final class CommandContext {
    package let console: Console
    package let input: LineReader
    package let environment: SessionEnvironment
    /// The process's environment variables, read once where the program starts: nothing
    /// below reads them on its own, so a test or the prompt can hand in other ones.
    package let variables: [String: String]
    package var config: UserConfig
    /// True at the prompt, where the session goes on after a command.
    package let atPrompt: Bool
    /// The collection used when a command names none: `--collection` given to the prompt, else
    /// $MAEIL_COLLECTION, else the XDG default.
    package let defaultCollectionPath: String
    private var opened: [String: Collection] = [:]
    private var openedForReading: [String: Collection] = [:]
    /// Why a collection is open only for reading (a read-only place): said to a command that writes.
    private var readOnlyBecause: [String: StoreError] = [:]
    private var madeSpeaker: Speaker?

    package init(console: Console, input: LineReader, environment: SessionEnvironment, variables: [String: String], config: UserConfig,
                 atPrompt: Bool, defaultCollectionPath: String) {
        self.console = console
        self.input = input
        self.environment = environment
        self.variables = variables
        self.config = config
        self.atPrompt = atPrompt
        self.defaultCollectionPath = defaultCollectionPath
    }

    /// A command run from a shell: standard output (colour only at a terminal that wants it),
    /// libedit at a terminal without keeping a history, plain lines from a pipe.
    package static func shell(variables: [String: String]) -> CommandContext {
        let console = StandardConsole(style: .forStandardOutput(environment: variables))
        let input: LineReader = console.isInteractive ? EditLineReader(historyPath: nil, completer: nil) : PipedLineReader()
        return CommandContext(console: console, input: input, environment: SessionEnvironment(), variables: variables,
                              config: UserConfig.standard(environment: variables), atPrompt: false,
                              defaultCollectionPath: CollectionLocation.resolve(explicit: nil, environment: variables))
    }

    /// The prompt's own context: libedit with the prompt's history and completion at a
    /// terminal, plain lines from a pipe; `collection` is the one commands use when they name none.
    /// `readOnlyBecause`: the collection is open only for reading, for that reason.
    package static func prompt(on collection: Collection, path: String, from shell: CommandContext, completer: Completer,
                               readOnlyBecause: StoreError? = nil) -> CommandContext {
        let console = StandardConsole(style: .forStandardOutput(environment: shell.variables))
        let input: LineReader = console.isInteractive
            ? EditLineReader(historyPath: (XDG.stateHome(shell.variables) as NSString).appendingPathComponent("maeil/history"), completer: completer)
            : PipedLineReader()
        let context = CommandContext(console: console, input: input, environment: shell.environment, variables: shell.variables,
                                     config: shell.config, atPrompt: true, defaultCollectionPath: path)
        if let readOnlyBecause {
            context.openedForReading[path] = collection
            context.readOnlyBecause[path] = readOnlyBecause
        } else {
            context.adopt(collection)
        }
        return context
    }

    package var now: Date { environment.now() }
    package var style: Style { console.style }

    /// The collection a command's `--collection` names, or the context's own when it names none.
    /// Only `import` and the prompt start a new one, and a named one only with `--create`: any
    /// other command refuses a path where there is no collection, rather than act on an empty
    /// file (and folders) made by a typo.
    ///
    /// `readOnly` is for commands that only read: they never wait for another process writing.
    package func collection(named given: String?, readOnly: Bool = false, mayCreate: Bool = false, create: Bool = false) throws -> Collection {
        let path = given.map { CollectionLocation.resolve(explicit: $0, environment: variables) }
            ?? defaultCollectionPath
        if let open = opened[path] { return open }
        if !readOnly, let reason = readOnlyBecause[path] { throw reason }
        if let open = openedForReading[path], readOnly || readOnlyBecause[path] != nil { return open }
        if !FileManager.default.fileExists(atPath: path) {
            let named = given.map { " --collection \(ShellWords.quoted($0))" } ?? ""
            guard mayCreate else {
                throw UserError("no collection at \(path); run `maeil\(named)\(named.isEmpty ? "" : " --create")` to start one with "
                                + "the bundled decks, or `maeil import FILE\(named)\(named.isEmpty ? "" : " --create")`")
            }
            guard given == nil || create else {
                throw UserError("no collection at \(path); add --create to start a new one there")
            }
        }
        let integrity = IntegrityRecords(folder: (XDG.stateHome(variables) as NSString).appendingPathComponent("maeil/checked"), now: now)
        let collection = try Collection(path: path, readOnly: readOnly, integrity: integrity) {
            FileHandle.standardError.write(Data("maeil: waiting for another Maeil to finish writing to the collection…\n".utf8))
        }
        if readOnly { openedForReading[path] = collection } else { opened[path] = collection }
        return collection
    }

    /// Speech: espeak-ng when installed, else a stub that shows what would be said.
    /// MAEIL_SPEECH=stub forces the stub (tests, quiet machines); MAEIL_SPEECH_WAV=FILE has
    /// espeak-ng write what it says there (tests that listen).
    package var speaker: Speaker {
        if let madeSpeaker { return madeSpeaker }
        let console = self.console
        let stub = StubSpeaker { console.line($0) }
        let engine = EspeakSpeaker(wavOutput: variables["MAEIL_SPEECH_WAV"], searchPath: variables["PATH"] ?? ExternalProgram.defaultSearchPath)
        let made: Speaker = speechIsStubbed ? stub : FallbackSpeaker(primary: engine, fallback: stub) { console.line(console.style.dim($0)) }
        madeSpeaker = made
        return made
    }

    /// Sounds and pictures are only said, not played or opened (MAEIL_SPEECH=stub).
    package var speechIsStubbed: Bool { variables["MAEIL_SPEECH"] == "stub" }

    /// Rewrites the focus list's widget files (`config focus.export`).
    package func exportFocus(_ collection: Collection) {
        FocusExport.refresh(collection, config: config, variables: variables, now: now, timeZone: environment.timeZone)
    }

    /// Closes every collection this context opened, as the command ends: each records that
    /// it was found sound, so the next command need not check it again.
    package func closeCollections() {
        for collection in opened.values { collection.close() }
        for collection in openedForReading.values { collection.close() }
        opened = [:]
        openedForReading = [:]
    }

    /// The prompt's collection is the one commands use when they name none.
    package func adopt(_ collection: Collection) {
        opened[defaultCollectionPath] = collection
    }

    package func line(_ text: String = "") { console.line(text) }

    /// Output a program reads (JSON): never fitted to the terminal's width.
    package func verbatim(_ text: String) { console.writeVerbatim(text.hasSuffix("\n") ? text : text + "\n") }

    /// The decks named by words (a name may arrive unquoted, in several words), or nil for all.
    package func decks(_ names: [String], in collection: Collection) throws -> [Int64]? {
        try DeckNames.resolveIDs(names, in: collection)
    }

    /// One deck by name or slug.
    package func deck(_ name: String, in collection: Collection) throws -> Deck {
        guard let deck = try DeckNames.find(name, in: collection) else { throw StoreError.noSuchDeck(name) }
        return deck
    }

    /// How many items the focus list holds (`config focus.limit`).
    package var focusLimit: Int { config["focus.limit"].flatMap(Int.init) ?? 10 }

    /// Reads one line; nil when the input ended or was interrupted.
    package func ask(_ prompt: String) -> String? {
        guard case .line(let text) = input.readLine(prompt: console.isInteractive ? prompt : "") else { return nil }
        return text
    }

    /// A yes-or-no question (`[Y/n]` or `[y/N]` in it, matching `default`); nil when the input ended.
    package func confirm(_ question: String, default answer: Bool) -> Bool? {
        ask(question).map { YesNo.reading($0, default: answer) }
    }
}

/// Every yes-or-no question reads its answer one way: Enter takes the default, a word that
/// begins with y is yes, anything else no. (Leaving's offer to sync took "yes" alone, where the
/// others took "yep".)
package enum YesNo {
    package static func reading(_ answer: String, default yes: Bool) -> Bool {
        let word = answer.trimmingCharacters(in: .whitespaces).lowercased()
        return word.isEmpty ? yes : word.hasPrefix("y")
    }
}

/// A command given something it cannot work with: printed as one line, exit status 2, like
/// any other bad argument.
package struct UsageError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// Keeps the focus list's files current (`config focus.export`).
package enum FocusExport {
    /// The files `config focus.export` names, or the default JSON file in the state folder.
    package static func targets(config: UserConfig, variables environment: [String: String]) -> [FocusTarget] {
        let defaultPath = (XDG.stateHome(environment) as NSString).appendingPathComponent("maeil/focus.json")
        return FocusTarget.parse(config["focus.export"], defaultPath: defaultPath, home: environment["HOME"] ?? NSHomeDirectory())
    }

    /// Writes the list to each target atomically; a line for each file written.
    package static func write(_ list: FocusList, to targets: [FocusTarget]) throws -> [String] {
        try targets.map { target in
            do {
                try AtomicFile.write(target.format.render(list), to: target.path)
            } catch {
                throw UserError("\(error)")
            }
            return "Wrote \(list.items.count) item\(list.items.count == 1 ? "" : "s") (\(target.format.rawValue)) to \(target.path)"
        }
    }

    package static func refresh(_ collection: Collection, config: UserConfig, variables: [String: String], now: Date, timeZone: TimeZone) {
        let limit = config["focus.limit"].flatMap(Int.init) ?? 10
        guard let list = try? FocusListBuilder.build(collection, limit: limit, now: now, timeZone: timeZone) else { return }
        for target in targets(config: config, variables: variables) {
            try? AtomicFile.write(target.format.render(list), to: target.path)
        }
    }
}
