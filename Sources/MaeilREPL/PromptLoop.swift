import Foundation
import MaeilCore
import MaeilStore

/// The interactive prompt. A line is split by shell rules and handed to the command line's
/// own parser (`perform`), so every command and option behaves alike here and in a shell; only
/// a few short aliases and `help` are the prompt's own. From a pipe it reads commands line by
/// line with no prompt and no colour, so it can be scripted and tested.
package final class PromptLoop {
    /// A command's name and what it does, as `help` lists it.
    package typealias Listing = (name: String, abstract: String)

    let context: CommandContext
    let collection: Collection
    /// Runs a command line, reporting a failure and carrying on.
    let perform: ([String]) -> Void
    /// The parser's help for one command; nil when there is no such command.
    let commandHelp: (String) -> String?
    let commands: [Listing]
    let unknownCommand: (String) -> String
    private var style: Style { context.style }

    package init(context: CommandContext, collection: Collection, commands: [Listing], perform: @escaping ([String]) -> Void,
                commandHelp: @escaping (String) -> String?, unknownCommand: @escaping (String) -> String) {
        self.context = context
        self.collection = collection
        self.commands = commands
        self.perform = perform
        self.commandHelp = commandHelp
        self.unknownCommand = unknownCommand
    }

    /// The prompt's own words, in front of the command tree.
    static let aliases: [String: [String]] = ["r": ["review"], "?": ["help"]]
    static let leaving: Set<String> = ["q", "quit", "exit"]
    static let quitHelp = "Leave (q, Ctrl-D). r is review, ? is help."


    /// A command as a shell runs it works here as written: hints and the README name commands
    /// as `maeil stats`, and "maeil: no command 'maeil'" answered one copied from them. `maeil`
    /// alone is the prompt itself, which says it is already open.
    static func withoutProgramName(_ words: [String]) -> [String] {
        guard words.first == "maeil" else { return words }
        return words.count == 1 ? ["repl"] : Array(words.dropFirst())
    }

    package func run() {
        // On the way out, as Anki backs up (and, logged in, syncs) on close.
        defer {
            offerSync()
            context.backUpIfDue(collection)
        }
        if context.console.isInteractive, PromptGreeting.greet(context, collection: collection) == .startWithHangul {
            perform(["review", "hangul-jamo"])
        }
        while true {
            let prompt = context.console.isInteractive ? style.bold("매일") + style.dim(" › ") : ""
            switch context.input.readLine(LineRequest(prompt: prompt, remember: true)) {
            case .end:
                return
            case .interrupted:
                continue  // Ctrl-C clears the line
            case .line(let line):
                var words = Self.withoutProgramName(ShellWords.split(line))
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

    /// With a sync server set up and something here the server has not seen, leaving asks
    /// whether to sync first (Enter says yes).
    private func offerSync() {
        guard context.console.isInteractive, let server = SyncFlow.serverToOffer(context, collection: collection) else { return }
        guard context.confirm("Sync with \(server) before leaving? [Y/n] ", default: true) == true else { return }
        perform(["sync"])
    }

    /// `help`: the commands and what each does; `help COMMAND`: the parser's own help for it.
    private func help(_ topic: [String]) {
        if let name = topic.first {
            // The prompt's own words, listed below with the commands, are explained too.
            if Self.leaving.contains(name.lowercased()) { return context.line(Self.quitHelp) }
            if let alias = Self.aliases[name.lowercased()] { return help(alias) }
            guard let text = commandHelp(name) else { return context.console.error(unknownCommand(name)) }
            context.line(text.trimmingTrailingNewlines())
            if name == "review" { context.line("\nDuring a review:\n" + ReviewLoop.help) }
            return
        }
        let width = (commands.map(\.name.count).max() ?? 8) + 2
        // At a terminal a long description wraps under itself, not under the command names.
        let room = context.console.isInteractive ? TextWrap.terminalWidth().map { $0 - 1 - width } : nil
        func row(_ name: String, _ text: String) -> String {
            let wrapped = room.map { $0 > 20 ? TextWrap.wrap(text, width: $0) : text } ?? text
            return style.bold(name.padding(toLength: width, withPad: " ", startingAt: 0))
                + wrapped.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: width))
        }
        for command in commands { context.line(row(command.name, command.abstract)) }
        context.line(row("quit", Self.quitHelp))
        context.line(style.dim("help COMMAND for one command. Tab completes commands, options and deck names. "
                               + "Each command also runs from a shell as `maeil COMMAND`."))
    }
}
