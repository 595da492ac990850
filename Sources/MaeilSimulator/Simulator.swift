import Foundation
import MaeilCore

/// What a run produced, day by day.
package struct SimulationResult: Sendable, Codable {
    package struct Day: Sendable, Codable, Equatable {
        package var reviews = 0
        package var correct = 0
        package var new = 0
        package var seconds = 0.0
        /// Expected number of items remembered: the sum of true retrievability.
        package var memorized = 0.0

        /// Share of the day's reviews recalled; nil on a day without reviews.
        package var retention: Double? { reviews == 0 ? nil : Double(correct) / Double(reviews) }
    }

    package var days: [Day]
    package var elapsedMilliseconds: Double

    package var memorizedAtEnd: Double { days.last?.memorized ?? 0 }
    package var reviewsTotal: Int { days.reduce(0) { $0 + $1.reviews } }
    package var newTotal: Int { days.reduce(0) { $0 + $1.new } }
    package var secondsTotal: Double { days.reduce(0) { $0 + $1.seconds } }
    package var correctTotal: Int { days.reduce(0) { $0 + $1.correct } }
}

/// Runs study schedules on simulated learners. Every interval comes from the same `Scheduler`
/// the review sessions use, answered with the ratings the learner model draws; the learner's
/// true memory follows FSRS-6. Memory grows with the number of items, not items × days.
package struct Simulator: Sendable {
    package let config: SimulationConfig

    package init(config: SimulationConfig) { self.config = config }

    /// The simulation day `d` is study day `firstDay + d` of a UTC clock.
    static let clock = DayClock.utc(rolloverHour: 0)
    /// `Card.lastDay` of a card never answered.
    static let unseen = Int32.min
    static let firstDay = 20_000

    struct Card {
        /// The learner's true memory.
        var stability: Double, difficulty: Double
        /// Day of the last answer (`unseen` while new; below 0 before the simulation began).
        /// When it is due again lives in the queue (`Engine.dueOn`).
        var lastDay: Int32
        var lapses: Int16
        /// What the scheduler knows of the card.
        var state: CardState
    }

    /// One run on `threads` threads (every core by default). The result is the same on any
    /// number of threads.
    package func run(seed: UInt64? = nil, threads: Int = ProcessInfo.processInfo.activeProcessorCount) -> SimulationResult {
        let started = DispatchTime.now().uptimeNanoseconds
        var engine = Engine(config: config, seed: seed ?? config.seed, threads: threads)
        let days = engine.run()
        return SimulationResult(days: days, elapsedMilliseconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
    }

    /// `runs` runs with seeds seed, seed+1, …, on every core: one run on all of them, several
    /// runs side by side on one each.
    package func runAll() -> [SimulationResult] {
        guard config.runs > 1 else { return [run()] }
        return Parallel.map(0..<config.runs) { run(seed: config.seed &+ UInt64($0), threads: 1) }
    }
}

/// Work spread over every core.
package enum Parallel {
    /// `transform` of each element, computed concurrently, in the elements' order.
    package static func map<Element: Sendable, Value: Sendable>(_ elements: some Collection<Element>,
                                                               _ transform: @Sendable (Element) -> Value) -> [Value] {
        let elements = Array(elements)
        let slots = Slots<Value>(count: elements.count)
        DispatchQueue.concurrentPerform(iterations: elements.count) { index in slots.set(index, transform(elements[index])) }
        return slots.values
    }

    /// Results written from several threads, each to its own slot.
    private final class Slots<Value>: @unchecked Sendable {
        private var slots: [Value?]
        private let lock = NSLock()

        init(count: Int) { slots = Array(repeating: nil, count: count) }

        func set(_ index: Int, _ value: Value) { lock.withLock { slots[index] = value } }
        var values: [Value] { lock.withLock { slots.map { $0! } } }
    }
}

extension Simulator {
    /// The runs one after another, on this thread (sweeps and comparisons spread their
    /// settings over the cores instead).
    package func runAllSequentially() -> [SimulationResult] {
        (0..<max(1, config.runs)).map { run(seed: config.seed &+ UInt64($0), threads: 1) }
    }
}

/// The learner model's probabilities and costs as fixed-size values (no arrays to retain and
/// release in the inner loop). Weights missing from a scenario's shorter lists are zero.
struct LearnerOdds {
    struct Transitions {
        let again, hard, good: SIMD4<Double>

        subscript(row: Int) -> SIMD4<Double> { row == 0 ? again : (row == 1 ? hard : good) }
    }

    let firstRating, reviewRating: SIMD4<Double>
    let learningSteps, relearningSteps: Transitions
    let learningCosts, reviewCosts, relearningCosts: SIMD4<Double>

    init(_ learner: LearnerModel) {
        func four(_ values: [Double]) -> SIMD4<Double> {
            SIMD4((0..<4).map { $0 < values.count ? values[$0] : 0 })
        }
        func rows(_ matrix: [[Double]]) -> Transitions {
            Transitions(again: four(matrix.count > 0 ? matrix[0] : []), hard: four(matrix.count > 1 ? matrix[1] : []),
                        good: four(matrix.count > 2 ? matrix[2] : []))
        }
        firstRating = four(learner.firstRatingWeights)
        reviewRating = four(learner.reviewRatingWeights)
        learningSteps = rows(learner.learningTransitions)
        relearningSteps = rows(learner.relearningTransitions)
        learningCosts = four(learner.learningCosts)
        reviewCosts = four(learner.reviewCosts)
        relearningCosts = four(learner.relearningCosts)
    }
}

extension SimulationConfig {
    /// Bytes one run holds at its peak: each item's card (learner memory and scheduler state),
    /// its place in the due queue and the day's order, each day's totals, queue and each
    /// chunk's recall sums, and the summary's series.
    package var bytesPerRun: Int {
        items * (MemoryLayout<Simulator.Card>.stride + 3 * MemoryLayout<QueueEntry>.stride + MemoryLayout<Int32>.stride)
            + days * (MemoryLayout<SimulationResult.Day>.stride * 2 + MemoryLayout<[Int32]>.stride
                + Engine.chunkCount * MemoryLayout<Double>.stride + MemoryLayout<Int>.stride)
    }

    /// Bytes the simulation will hold at its peak when `concurrent` runs go at once: theirs,
    /// and a deck's starting cards, which every run reads (at a million cards, a third of it).
    package func estimatedPeakBytes(concurrent: Int) -> Int {
        bytesPerRun * max(1, concurrent) + startingCards.count * MemoryLayout<StartingCard>.stride
    }
}
