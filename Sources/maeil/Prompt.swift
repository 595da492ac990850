import ArgumentParser
import Foundation
import MaeilCore
import MaeilFocus
import MaeilREPL
import MaeilStore

/// The interactive prompt. A line is split by shell rules and parsed by the same command tree
/// as `maeil`'s arguments, so every command and option behaves alike here and in a shell; only
/// a few short aliases and `help` are the prompt's own. From a pipe it reads commands line by
/// line with no prompt and no colour, so it can be scripted and tested.
final class Prompt {
    let context: CommandContext
    let collection: Collection
    private var style: Style { context.style }

    init(context: CommandContext, collection: Collection) {
        self.context = context
        self.collection = collection
    }

    /// The prompt's own words, in front of the command tree.
    static let aliases: [String: [String]] = ["r": ["review"], "?": ["help"]]
    static let leaving: Set<String> = ["q", "quit", "exit"]

    func run() {
        greet()
        while true {
            let prompt = context.console.isInteractive ? style.bold("매일") + style.dim(" › ") : ""
            switch context.input.readLine(LineRequest(prompt: prompt, remember: true)) {
            case .end:
                return
            case .interrupted:
                continue  // Ctrl-C clears the line
            case .line(let line):
                var words = ShellWords.split(line)
                guard let first = words.first else { continue }
                if Self.leaving.contains(first.lowercased()) { return }
                if let alias = Self.aliases[first.lowercased()] { words = alias + words.dropFirst() }
                if words[0] == "help" {
                    help(Array(words.dropFirst()))
                } else {
                    perform(words)
                }
            }
        }
    }

    /// Runs one command line, reporting a failure and carrying on.
    func perform(_ words: [String]) {
        if let unknown = CommandLineWords.unknownCommand(words) {
            context.console.error(unknown + "; help lists them")
            return
        }
        do {
            let parsed = try Maeil.parseAsRoot(words)
            guard let command = parsed as? MaeilCommand else {
                var other = parsed
                try other.run()
                return
            }
            try command.run(in: context)
        } catch {
            let failure = CommandFailure(error)
            guard let message = failure.message else { return }
            if failure.status == 0 { context.line(message) } else { context.console.error(message) }
        }
    }

    // MARK: Greeting

    private func greet() {
        guard context.console.isInteractive else { return }
        let decks = (try? collection.decks()) ?? []
        if decks.isEmpty {
            offerBundledDecks()
            return
        }
        let today = (try? TodayCounts(collection, deckIDs: nil, now: context.now, timeZone: context.environment.timeZone))
            .map { $0.text(style) } ?? ""
        context.line(style.bold("매일 Maeil") + style.dim(" · ") + today + style.dim(" · ")
                     + decks.map { TerminalText.sanitize($0.name) }.joined(separator: ", "))
        for reading in (try? TodayReading.load(collection, now: context.now, timeZone: context.environment.timeZone)) ?? [] {
            context.line(ReadingView.greeting(reading, style: style))
        }
        context.line(style.dim("review to start · help for the commands · quit to leave"))
    }

    /// A new learner with an empty collection is reviewing Hangul within a minute.
    private func offerBundledDecks() {
        context.line(style.bold("매일 Maeil") + " — welcome. Your collection is empty.")
        guard let directory = BundledDecks.directory() else {
            context.line("Import a deck to begin: import FILE (Anki .apkg, text, CSV, or a deck folder).")
            return
        }
        // The question stays short: libedit draws a prompt as it is, and a long one would wrap mid-word.
        let starters = BundledDecks.starterFolders(in: directory)
        let names = starters.map(\.lastPathComponent).joined(separator: ", ")
        context.line("Maeil comes with these decks: \(names).")
        let later = BundledDecks.folders(in: directory).map(\.lastPathComponent).filter(BundledDecks.later.contains)
        if !later.isEmpty {
            context.line(style.dim("For later: \(later.joined(separator: ", ")); import a folder from Decks/ when its time comes (maeil about shows where)."))
        }
        guard ask("Add the bundled decks? [Y/n] ") else {
            context.line("import FILE adds a deck when you are ready.")
            return
        }
        do {
            let summary = try BundledDecks.importAll(from: directory, into: collection, now: context.now)
            context.line("Added \(summary.added) notes in \(summary.decks.count) decks.")
        } catch {
            context.console.error("\(error)")
            return
        }
        if ask("Start with Hangul now? [Y/n] ") {
            perform(["review", "hangul-jamo"])
        } else {
            context.line(style.dim("review to start · help for the commands"))
        }
    }

    private func ask(_ question: String) -> Bool {
        guard let answer = context.ask(question) else { return false }
        let trimmed = answer.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty || trimmed.hasPrefix("y")
    }

    // MARK: Help and completion

    /// `help`: the commands and what each does; `help COMMAND`: the parser's own help for it.
    private func help(_ topic: [String]) {
        if let name = topic.first {
            guard let command = Maeil.subcommand(named: name) else {
                context.console.error(CommandLineWords.unknownCommand([name]) ?? "no command '\(name)'")
                return
            }
            context.line(Maeil.helpMessage(for: command, columns: TextWrap.terminalWidth()).trimmingTrailingNewlines())
            if name == "review" { context.line("\nDuring a review:\n" + ReviewLoop.help) }
            return
        }
        let commands = Maeil.visibleSubcommands
        let width = (commands.map { $0.configuration.commandName!.count }.max() ?? 8) + 2
        for command in commands {
            let name = command.configuration.commandName!
            context.line(style.bold(name.padding(toLength: width, withPad: " ", startingAt: 0)) + command.configuration.abstract)
        }
        context.line(style.bold("quit".padding(toLength: width, withPad: " ", startingAt: 0)) + "Leave (q, Ctrl-D). r is review, ? is help.")
        context.line(style.dim("help COMMAND for one command. Tab completes commands, options and deck names. "
                               + "Each command also runs from a shell as `maeil COMMAND`."))
    }

    /// What Tab completes: the command tree's names and options, this collection's decks and tags.
    static func completer(for collection: Collection) -> Completer {
        Completer(
            commands: {
                Maeil.visibleSubcommands.map { command in
                    Completer.Command(name: command.configuration.commandName!, options: Maeil.optionNames(of: command),
                                      takesDecks: command is any TakesDeckNames.Type)
                }
            },
            decks: { (try? collection.decks().map(\.name)) ?? [] },
            tags: { (try? collection.allTags()) ?? [] })
    }
}

/// A command whose arguments are deck names, for completion.
protocol TakesDeckNames {}

extension ReviewCommand: TakesDeckNames {}
extension AddCommand: TakesDeckNames {}
extension StatsCommand: TakesDeckNames {}
extension MissedCommand: TakesDeckNames {}
extension ExportCommand: TakesDeckNames {}
extension DeckCommand: TakesDeckNames {}
