import ArgumentParser
import Foundation
import MaeilPrograms
import MaeilREPL

/// `maeil bench` runs `maeil-bench`, which is built beside `maeil`: the measuring lives there.
struct BenchCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Maeil's speed on this machine (use a release build).",
        discussion: "Build with `swift build -c release` and run .build/release/maeil bench.")

    @Flag(help: "Print one JSON object per figure: name, value, unit.") var json = false

    @Option(help: "Only run benchmarks whose name contains this text.") var filter: String?

    func run(in context: CommandContext) throws {
        let bench = ThisProcess.sibling("maeil-bench")
        guard FileManager.default.isExecutableFile(atPath: bench) else {
            throw UserError("\(bench) is not built; run `swift build -c release` (it builds maeil-bench beside maeil)")
        }
        let arguments = (json ? ["--json"] : []) + (filter.map { ["--filter", $0] } ?? [])
        let status = try ExternalProgram.runAttached(bench, arguments)
        if status != 0 { throw ExitCode(status) }
    }
}
