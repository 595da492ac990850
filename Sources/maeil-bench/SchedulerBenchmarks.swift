import Foundation
import MaeilCore

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
