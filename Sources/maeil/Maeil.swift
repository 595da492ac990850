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
        version: MaeilVersion.string,
        subcommands: [PromptCommand.self, ReviewCommand.self, DecksCommand.self, DeckCommand.self, AddCommand.self, FindCommand.self,
                      ShowCommand.self, EditCommand.self, TagCommand.self, DeleteCommand.self, InfoCommand.self, ForgetCommand.self,
                      StarCommand.self, UnstarCommand.self, SuspendCommand.self, UnsuspendCommand.self, UndoCommand.self,
                      StatsCommand.self, MissedCommand.self, FocusCommand.self, ReadCommand.self, SayCommand.self, ImportCommand.self, ExportCommand.self,
                      ConfigCommand.self, CheckCommand.self, ScheduleCommand.self, SimCommand.self, OptimizeCommand.self, BenchCommand.self, AboutCommand.self],
        defaultSubcommand: PromptCommand.self
    )

    static func main() {
        // Everything a command prints goes through one file handle; line buffering keeps
        // anything else printed in order on a pipe.
        setvbuf(stdout, nil, _IOLBF, 0)
        SQLiteSetup.disableMemoryStatistics()
        let words = CommandLineWords.normalized(Array(CommandLine.arguments.dropFirst()))
        if let unknown = CommandLineWords.unknownCommand(words) {
            FileHandle.standardError.write(Data("maeil: \(TerminalText.sanitize(unknown)); `maeil --help` lists them\n".utf8))
            Foundation.exit(2)
        }
        // `maeil bench` measures a child's peak memory this way: the kernel's own figure for a
        // spawned child also counts the parent's pages from before the exec.
        if ProcessInfo.processInfo.environment["MAEIL_PEAK_MEMORY_TO"] != nil {
            atexit { ProcessMemory.writePeak(to: ProcessInfo.processInfo.environment["MAEIL_PEAK_MEMORY_TO"]) }
        }
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

    /// The commands `help` and completion list (the prompt itself is not one of them).
    static var visibleSubcommands: [ParsableCommand.Type] {
        configuration.subcommands.filter { $0.configuration.shouldDisplay }
    }

    static func subcommand(named name: String) -> ParsableCommand.Type? {
        configuration.subcommands.first { $0.configuration.commandName == name }
    }

    /// A command's options (`--json`, `--deck`…), read from its help, for completion.
    static func optionNames(of command: ParsableCommand.Type) -> [String] {
        let help = helpMessage(for: command, columns: 1000)
        var names: [String] = []
        for line in help.split(separator: "\n") where line.hasPrefix("  -") {
            for word in line.split(separator: " ") where word.hasPrefix("--") {
                let name = String(word.prefix { $0 != "," && $0 != "=" && $0 != "<" })
                if name != "--help", !names.contains(name) { names.append(name) }
            }
        }
        return names
    }
}

enum MaeilVersion {
    static let string = "0.1.0"
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

/// What `maeil` makes of its words before the parser sees them.
enum CommandLineWords {
    /// `maeil --collection PATH stats` as `maeil stats --collection PATH`: the collection may
    /// come before the command too, or between a command and its own (`read --collection PATH
    /// done`). It goes after the whole command path, where every command's options are parsed.
    static func normalized(_ words: [String]) -> [String] {
        var path: [String] = [], collection: [String] = []
        var commands = Maeil.configuration.subcommands
        var index = 0
        while index < words.count {
            let word = words[index]
            if word == "--collection", index + 1 < words.count {
                collection += words[index...(index + 1)]
                index += 2
            } else if word.hasPrefix("--collection=") {
                collection.append(word)
                index += 1
            } else if path.isEmpty, word == "help" {
                path.append(word)
                index += 1
                break
            } else if let command = commands.first(where: { $0.configuration.commandName == word }) {
                path.append(word)
                commands = command.configuration.subcommands
                index += 1
            } else {
                break
            }
        }
        guard !path.isEmpty, !collection.isEmpty else { return words }
        // Help opens no collection: the option has nothing to say to it.
        if path == ["help"] { return path + words[index...] }
        return path + collection + words[index...]
    }

    /// "no command 'stat'; the nearest is 'stats'" when the first word names no command.
    static func unknownCommand(_ words: [String]) -> String? {
        guard let first = words.first, !first.hasPrefix("-") else { return nil }
        let names = Maeil.configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(first) else { return nil }
        // The closest name, a name that begins with the word winning a tie ("stat" is "stats").
        let word = first.lowercased()
        func rank(_ name: String) -> (Int, Int) { (distance(word, name), name.hasPrefix(word) ? 0 : 1) }
        let nearest = names.filter { $0 != "repl" }.min { rank($0) < rank($1) }
        return "no command '\(first)'" + (nearest.map { "; the nearest is '\($0)'" } ?? "")
    }

    /// Edit distance: insertions, deletions, substitutions and swaps of neighbours, each one
    /// edit (a typo such as "sttas" is one swap from "stats").
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var d = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in stride(from: 1, through: a.count, by: 1) {
            for j in stride(from: 1, through: b.count, by: 1) {
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[a.count][b.count]
    }
}
