import ArgumentParser
import Foundation
import MaeilCore

struct BenchCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Maeil's speed on this machine (use a release build).",
        discussion: "Build with `swift build -c release` and run .build/release/maeil bench.")

    @Flag(help: "Print one JSON object per figure: name, value, unit.")
    var json = false

    @Option(help: "Only run benchmarks whose name contains this text.")
    var filter: String?

    func run(in context: CommandContext) throws {
        #if DEBUG
        FileHandle.standardError.write(Data("maeil bench: this is a debug build; figures are not representative (swift build -c release)\n".utf8))
        #endif
        var figures: [BenchFigure] = []
        for benchmark in Benchmarks.all where filter.map({ benchmark.name.contains($0) }) ?? true {
            let measured = try benchmark.run()
            figures += measured
            if !json {
                for figure in measured { context.line(figure.line) }
            }
        }
        if json {
            context.verbatim(try JSONOutput.string(figures))
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

enum Benchmarks {
    static var all: [Benchmark] {
        SchedulerBenchmarks.all + StoreBenchmarks.all + ImportBenchmarks.all + StartupBenchmark.all + SimBenchmarks.all + OptimizerBenchmarks.all + MemoryBenchmarks.all
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

enum SchedulerBenchmarks {
    static var all: [Benchmark] {
        SchedulerKind.allCases.map { kind in
            Benchmark(name: "scheduler.\(kind.rawValue)") { [measure(kind)] }
        }
    }

    /// Answers scheduled per second: each answer computes all four next states (as the prompt
    /// needs them) and takes one, over 10,000 cards in mixed states.
    static func measure(_ kind: SchedulerKind) -> BenchFigure {
        let scheduler = SchedulerSettings(kind: kind).makeScheduler()
        let clock = DayClock.utc()
        var generator = SeededGenerator(seed: 7)
        let start = Date(timeIntervalSince1970: 1_767_614_400)
        var cards: [(CardState, Date)] = []
        for _ in 0..<10_000 {
            var card = CardState.new
            var now = start
            for _ in 0..<Int.random(in: 0...8, using: &generator) {
                let rating = Rating(rawValue: Int.random(in: 1...4, using: &generator))!
                card = scheduler.answer(card, rating, context: SchedulingContext(now: now, clock: clock)).state
                now = max(now, card.due ?? now)
            }
            cards.append((card, now))
        }
        var checksum = 0
        let answers = cards.count * 10
        let seconds = Benchmarks.bestTime {
            for round in 0..<10 {
                for (index, (card, now)) in cards.enumerated() {
                    let rating = Rating(rawValue: (index + round) % 4 + 1)!
                    let context = SchedulingContext(now: now, clock: clock, fuzzFactor: 0.5)
                    checksum &+= scheduler.answer(card, rating, context: context).state.intervalDays
                }
            }
        }
        precondition(checksum != Int.min)
        return BenchFigure(name: "scheduler.\(kind.rawValue).answers_per_second", value: Double(answers) / seconds, unit: "answers/s")
    }
}
