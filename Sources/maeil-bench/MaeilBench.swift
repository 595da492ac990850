import ArgumentParser
#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Foundation
import MaeilCore
import MaeilStore

/// `maeil-bench`: Maeil's speed and memory on this machine, measured on the libraries that do
/// the work and on the `maeil` binary beside it. `maeil bench` runs it; so can a shell.
@main
struct MaeilBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "maeil-bench",
        abstract: "Measure Maeil's speed on this machine (use a release build).",
        discussion: "Build with `swift build -c release` and run .build/release/maeil bench (or maeil-bench).")

    @Flag(help: "Print one JSON object per figure: name, value, unit.")
    var json = false

    @Option(help: "Only run benchmarks whose name contains this text.")
    var filter: String?

    func run() throws {
        setvbuf(stdout, nil, _IOLBF, 0)
        // As `maeil` runs: the figures are the program's, not a differently set up SQLite's.
        SQLiteSetup.disableMemoryStatistics()
        #if DEBUG
        FileHandle.standardError.write(Data("maeil bench: this is a debug build; figures are not representative (swift build -c release)\n".utf8))
        #endif
        var figures: [BenchFigure] = []
        // The million-card run takes minutes: only when its name is asked for.
        for benchmark in Benchmarks.all where filter.map({ benchmark.name.contains($0) }) ?? true
            && (!benchmark.name.hasPrefix("million") || filter?.contains("million") == true) {
            let measured = try benchmark.run()
            figures += measured
            if !json {
                for figure in measured { print(figure.line) }
            }
        }
        if json {
            print(try JSONOutput.string(figures))
        }
    }
}

struct BenchFigure: Codable {
    let name: String
    let value: Double
    let unit: String

    var line: String {
        let number = value >= 100 ? String(format: "%.0f", value) : String(format: "%.3f", value)
        return "\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(number) \(unit)"
    }
}

struct Benchmark {
    let name: String
    let run: () throws -> [BenchFigure]
}

struct BenchFailure: Error, CustomStringConvertible { let description: String }

enum Benchmarks {
    static var all: [Benchmark] {
        SchedulerBenchmarks.all + StoreBenchmarks.all + ImportBenchmarks.all + AnkiPackageBenchmarks.all + StartupBenchmark.all + SimBenchmarks.all + OptimizerBenchmarks.all
            + MemoryBenchmarks.all + MillionBenchmarks.all
    }

    /// Wall time of `body` in seconds, best of `repeats` runs.
    static func bestTime(repeats: Int = 5, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repeats {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        return best
    }
}
