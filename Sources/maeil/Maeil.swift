import ArgumentParser
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import MaeilStore

@main
struct Maeil: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maeil",
        abstract: "매일 — spaced repetition in your terminal.",
        discussion: "Run without a subcommand to open the review prompt.",
        version: MaeilVersion.string,
        subcommands: [ReplCommand.self, ReviewCommand.self, DecksCommand.self, AddCommand.self, FindCommand.self, ShowCommand.self,
                      EditCommand.self, StarCommand.self, UnstarCommand.self, SuspendCommand.self, UnsuspendCommand.self, UndoCommand.self,
                      StatsCommand.self, MissedCommand.self, FocusCommand.self, SayCommand.self, ImportCommand.self, ExportCommand.self,
                      ConfigCommand.self, CheckCommand.self, ScheduleCommand.self, SimCommand.self, BenchCommand.self, AboutCommand.self],
        defaultSubcommand: ReplCommand.self
    )

    /// Bad arguments print one line and exit with status 2, as command-line tools do;
    /// swift-argument-parser's own default is 64 with the whole usage text.
    static func main() {
        // Subcommands print() while the prompt writes to the file handle: line buffering keeps
        // their output in order on a pipe.
        setvbuf(stdout, nil, _IOLBF, 0)
        SQLiteSetup.disableMemoryStatistics()
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as UserError {
            FileHandle.standardError.write(Data("maeil: \(error.description)\n".utf8))
            Foundation.exit(1)
        } catch let error as StoreError {
            FileHandle.standardError.write(Data("maeil: \(error.userError.description)\n".utf8))
            Foundation.exit(1)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                let message = Self.message(for: error).split(separator: "\n").first.map(String.init) ?? "invalid arguments"
                FileHandle.standardError.write(Data("maeil: \(message.replacingOccurrences(of: "Error: ", with: ""))\n".utf8))
                Foundation.exit(2)
            }
            exit(withError: error)
        }
    }
}

enum MaeilVersion {
    static let string = "0.1.0"
}

/// An error a person can act on: printed as one line, exit status 1.
struct UserError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
