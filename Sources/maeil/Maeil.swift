import ArgumentParser
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import MaeilCore
import MaeilPrograms
import MaeilREPL
import MaeilStore

/// The one command tree: `maeil COMMAND` from a shell and `COMMAND` at the prompt parse the
/// same words into the same commands.
@main
struct Maeil: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maeil",
        abstract: "Maeil: spaced repetition in your terminal, every day.",
        discussion: """
            Run without a command to open the review prompt, where each command also runs. Exit status: 0 \
            on success, 1 when something failed (the message says what to do), 2 for bad arguments.
            """,
        version: About.version,
        subcommands: [PromptCommand.self, ReviewCommand.self, QueueCommand.self, DecksCommand.self, DeckCommand.self, AddCommand.self, FindCommand.self,
                      ShowCommand.self, EditCommand.self, TagCommand.self, DeleteCommand.self, InfoCommand.self, ForgetCommand.self,
                      StarCommand.self, UnstarCommand.self, SuspendCommand.self, UnsuspendCommand.self, UnburyCommand.self, FlagCommand.self, SetDueCommand.self, MoveCommand.self, UndoCommand.self,
                      StatsCommand.self, MissedCommand.self, FocusCommand.self, ReadCommand.self, SayCommand.self, ImportCommand.self, ExportCommand.self,
                      BackupCommand.self, RestoreCommand.self, SyncCommand.self, ConfigCommand.self, CheckCommand.self, ScheduleCommand.self, SimCommand.self, OptimizeCommand.self, BenchCommand.self, AboutCommand.self],
        defaultSubcommand: PromptCommand.self
    )

    static func main() {
        // Everything a command prints goes through one file handle; line buffering keeps
        // anything else printed in order on a pipe.
        setvbuf(stdout, nil, _IOLBF, 0)
        SQLiteSetup.disableMemoryStatistics()
        let words = CommandWords.normalized(Array(ThisProcess.arguments.dropFirst()), commands: commandNames)
        if let unknown = CommandWords.unknownCommand(words, commands: commandNames) {
            FileHandle.standardError.write(Data("maeil: \(TerminalText.sanitize(unknown)); `maeil --help` lists them\n".utf8))
            Foundation.exit(2)
        }
        ProcessMemory.reportPeakAtExit()
        do {
            var command = try parseAsRoot(words)
            try command.run()
        } catch {
            let failure = CommandFailure(error)
            if let message = failure.message {
                if failure.status == 0 {
                    FileHandle.standardOutput.write(Data((TerminalText.sanitize(message) + "\n").utf8))
                } else {
                    // Messages quote files and arguments: nothing in them may act on the terminal.
                    FileHandle.standardError.write(Data("maeil: \(TerminalText.sanitize(message))\n".utf8))
                }
            }
            Foundation.exit(failure.status)
        }
    }

    /// The commands `help` lists (the prompt itself is not one of them).
    static var visibleSubcommands: [ParsableCommand.Type] {
        configuration.subcommands.filter { $0.configuration.shouldDisplay }
    }

    /// The command tree's names (no options): enough to find where a command's words start.
    static var commandNames: CommandTree { names(of: Maeil.self) }

    private static func names(of command: ParsableCommand.Type) -> CommandTree {
        CommandTree(name: command.configuration.commandName ?? "", visible: command.configuration.shouldDisplay,
                    subcommands: command.configuration.subcommands.map(names))
    }

    static func subcommand(named name: String) -> ParsableCommand.Type? {
        configuration.subcommands.first { $0.configuration.commandName == name }
    }
}

/// What a failed command prints and the status it exits with, the same from a shell and at
/// the prompt: 0 for help and --version, 2 for bad arguments, 1 when the work failed.
struct CommandFailure {
    let message: String?
    let status: Int32

    init(_ error: Error) {
        switch error {
        case let error as UserError: (message, status) = (error.description, 1)
        case let error as StoreError: (message, status) = (error.userError.description, 1)
        case let error as UsageError: (message, status) = (error.description, 2)
        case let error as SearchError: (message, status) = (error.description, 2)
        case let error as ExitCode: (message, status) = (nil, error.rawValue)
        default:
            let code = Maeil.exitCode(for: error)
            if code == .success {
                let text = Maeil.fullMessage(for: error)
                (message, status) = (text.isEmpty ? nil : text, 0)
            } else if code == .validationFailure {
                // One line, as command-line tools print it; swift-argument-parser's own is the
                // whole usage text with status 64.
                let first = Maeil.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
                (message, status) = (first.replacingOccurrences(of: "Error: ", with: ""), 2)
            } else {
                (message, status) = ("\(error)", 1)
            }
        }
    }
}
