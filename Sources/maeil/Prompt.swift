import ArgumentParser
import Foundation
import MaeilREPL
import MaeilStore

/// The prompt on this command tree: its lines are parsed as `maeil`'s arguments are.
enum Prompt {
    static func run(_ context: CommandContext, collection: Collection) {
        PromptLoop(
            context: context, collection: collection,
            commands: Maeil.visibleSubcommands.map { ($0.configuration.commandName!, $0.configuration.abstract) },
            perform: { perform($0, in: context) },
            commandHelp: { name in Maeil.subcommand(named: name).map { Maeil.helpMessage(for: $0, columns: TextWrap.terminalWidth()) } },
            unknownCommand: { CommandWords.unknownCommand([$0], commands: Maeil.commandNames) ?? "no command '\($0)'" }
        ).run()
    }

    /// Runs one command line, reporting a failure and carrying on.
    static func perform(_ words: [String], in context: CommandContext) {
        if let unknown = CommandWords.unknownCommand(words, commands: Maeil.commandNames) {
            return context.console.error(unknown + "; help lists them")
        }
        do {
            let parsed = try Maeil.parseAsRoot(words)
            guard let command = parsed as? MaeilCommand else {
                var other = parsed
                return try other.run()
            }
            try command.run(in: context)
        } catch {
            let failure = CommandFailure(error)
            guard let message = failure.message else { return }
            if failure.status == 0 { context.line(message) } else { context.console.error(message) }
        }
    }
}
