import Foundation
import CPrefetch
import MaeilCore

/// What a run produced, day by day.
public struct SimulationResult: Sendable, Codable {
    public struct Day: Sendable, Codable, Equatable {
        public var reviews = 0
        public var correct = 0
        public var new = 0
        public var seconds = 0.0
        /// Expected number of items remembered: the sum of true retrievability.
        public var memorized = 0.0

        /// Share of the day's reviews recalled; nil on a day without reviews.
        public var retention: Double? { reviews == 0 ? nil : Double(correct) / Double(reviews) }
    }

    public var days: [Day]
    public var elapsedMilliseconds: Double

    public var memorizedAtEnd: Double { days.last?.memorized ?? 0 }
    public var reviewsTotal: Int { days.reduce(0) { $0 + $1.reviews } }
    public var newTotal: Int { days.reduce(0) { $0 + $1.new } }
    public var secondsTotal: Double { days.reduce(0) { $0 + $1.seconds } }
    public var correctTotal: Int { days.reduce(0) { $0 + $1.correct } }
}

/// Runs study schedules on simulated learners. Every interval comes from the same `Scheduler`
/// the review sessions use, answered with the ratings the learner model draws; the learner's
/// true memory follows FSRS-6. Memory grows with the number of items, not items × days.
public struct Simulator: Sendable {
    public let config: SimulationConfig

    public init(config: SimulationConfig) { self.config = config }

    /// The simulation day `d` is study day `firstDay + d` of a UTC clock.
    static let clock = DayClock.utc(rolloverHour: 0)
    /// `Card.lastDay` of a card never answered.
    static let unseen = Int32.min
    static let firstDay = 20_000

    struct Card {
        /// The learner's true memory.
        var stability: Double, difficulty: Double
        /// Day of the last answer (`unseen` while new; below 0 before the simulation began), and
        /// the day it is next due.
        var lastDay: Int32, dueDay: Int32
        var lapses: Int16
        /// What the scheduler knows of the card.
        var state: CardState
    }

    public func run(seed: UInt64? = nil) -> SimulationResult {
        let started = DispatchTime.now().uptimeNanoseconds
        var engine = Engine(config: config, seed: seed ?? config.seed)
        let days = engine.run()
        return SimulationResult(days: days, elapsedMilliseconds: Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6)
    }

    /// `runs` runs with seeds seed, seed+1, …, on every core.
    public func runAll() -> [SimulationResult] {
        Parallel.map(0..<max(1, config.runs)) { run(seed: config.seed &+ UInt64($0)) }
    }
}

/// Work spread over every core.
public enum Parallel {
    /// `transform` of each element, computed concurrently, in the elements' order.
    public static func map<Element: Sendable, Value: Sendable>(_ elements: some Collection<Element>,
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

/// One run's mutable state.
struct Engine {
    static let prefetchDistance = 16

    let config: SimulationConfig
    let scheduler: any Scheduler
    let fsrs: FSRS
    let recallTable: RecallTable
    var random: SeededGenerator
    var balanceRandom: SeededGenerator
    /// The learner model's arrays as plain values, read without reference counting.
    let odds: LearnerOdds
    /// One context for every answer; only its `now` changes.
    var context: SchedulingContext
    let dayZero: Date
    var cards: [Simulator.Card] = []
    var days: [SimulationResult.Day]
    /// Cards due on each day: the queue, bucketed by day instead of a heap.
    var dueOn: [[Int32]]
    /// Reviews (not new cards) due on each day: what the load balancer weighs.
    var reviewsDueOn: [Int]

    init(config: SimulationConfig, seed: UInt64) {
        self.config = config
        var settings = config.scheduler
        settings.maximumInterval = max(1, settings.maximumInterval)
        scheduler = settings.makeScheduler()
        // The learner's memory, as fsrs-rs's simulator models it: same-day answers below good may lower stability.
        fsrs = FSRS(parameters: config.learner.parameters, sameDayFloor: .good)
        recallTable = RecallTable(fsrs: fsrs)
        random = SeededGenerator(seed: seed)
        balanceRandom = SeededGenerator(seed: seed ^ 0x5EED_BA1A_11CE)
        odds = LearnerOdds(config.learner)
        dayZero = Simulator.clock.start(ofDay: Simulator.firstDay)
        context = SchedulingContext(now: dayZero, clock: Simulator.clock)
        days = Array(repeating: SimulationResult.Day(), count: config.days)
        dueOn = Array(repeating: [], count: config.days)
        reviewsDueOn = Array(repeating: 0, count: config.days)
        // New card i is due on day i / newPerDay; cards beyond the span are never queued.
        let perDay = config.newPerDay ?? Int.max
        guard config.startingCards.isEmpty else {
            start(from: config.startingCards)
            return
        }
        cards.reserveCapacity(config.items)
        if perDay > 0 {
            for index in 0..<config.items {
                let day = perDay == Int.max ? 0 : index / perDay
                cards.append(Simulator.Card(stability: 0, difficulty: 0, lastDay: Simulator.unseen, dueDay: Int32(day), lapses: 0, state: .new))
                if day < config.days { dueOn[day].append(Int32(index)) }
            }
        }
    }

    /// A deck's cards as they are: the reviewed ones due when they are due, with their memory;
    /// the new ones in order, as the new-card limit lets them in. Dates move onto the simulation's
    /// clock, so the scheduler sees the same elapsed days and intervals.
    mutating func start(from starting: [StartingCard]) {
        cards.reserveCapacity(starting.count)
        for card in starting {
            let index = Int32(cards.count)
            guard card.state.phase != .new, let memory = card.memory else {
                cards.append(Simulator.Card(stability: 0, difficulty: 0, lastDay: Simulator.unseen, dueDay: 0, lapses: 0, state: .new))
                dueOn[0].append(index)
                continue
            }
            var state = card.state
            let dueDay = max(0, card.dueInDays)
            state.due = moment(day: dueDay, step: 0)
            state.lastReview = state.lastReview.map { _ in moment(day: -card.daysSinceReview, step: 0) }
            cards.append(Simulator.Card(stability: memory.stability, difficulty: memory.difficulty, lastDay: Int32(-card.daysSinceReview),
                                        dueDay: Int32(dueDay), lapses: Int16(clamping: card.lapses), state: state))
            if dueDay < config.days {
                dueOn[dueDay].append(index)
                reviewsDueOn[dueDay] += 1
            }
        }
    }

    mutating func run() -> [SimulationResult.Day] {
        var memorizedDelta = [Double](repeating: 0, count: config.days + 1)
        // Reviews first, easiest (lowest difficulty, in hundredths) first, ties in the order
        // they became due; then the day's new cards. ⌊100·D⌋ is 100…1000, so a counting sort
        // over 902 ranks (the last for new cards) orders a day in linear time, stably.
        let newRank = 901
        var rankCounts = [Int](repeating: 0, count: newRank + 2)
        var ranks: [Int] = []
        var order: [Int32] = []
        for day in 0..<config.days {
            let due = dueOn[day]
            dueOn[day] = []
            ranks.removeAll(keepingCapacity: true)
            for index in due {
                let card = cards[Int(index)]
                ranks.append(card.lastDay == Simulator.unseen ? newRank : min(max(Int(card.difficulty * 100) - 100, 0), newRank - 1))
            }
            for rank in 0..<rankCounts.count { rankCounts[rank] = 0 }
            for rank in ranks { rankCounts[rank + 1] += 1 }
            for rank in 1..<rankCounts.count { rankCounts[rank] += rankCounts[rank - 1] }
            order = Array(repeating: 0, count: due.count)
            for (position, rank) in ranks.enumerated() {
                order[rankCounts[rank]] = due[position]
                rankCounts[rank] += 1
            }
            for position in order.indices {
                // The cards a few places on are loaded while this one is answered: visited in
                // the order they fall due, they are spread over the whole array.
                if position + Self.prefetchDistance < order.count {
                    cards.withUnsafeBufferPointer {
                        maeil_prefetch($0.baseAddress! + Int(order[position + Self.prefetchDistance]), MemoryLayout<Simulator.Card>.stride)
                    }
                }
                process(Int(order[position]), day: day, memorized: &memorizedDelta)
            }
        }
        // Cards keep counting after their last answer, with decaying recall, to the end.
        for card in cards where card.lastDay != Simulator.unseen {
            addRecall(from: Int(card.lastDay), to: config.days - 1, stability: card.stability, into: &memorizedDelta)
        }
        for day in 0..<config.days { days[day].memorized = memorizedDelta[day] }
        return days
    }

    /// Adds R(i − from, S) to each day i in from…to.
    func addRecall(from: Int, to: Int, stability: Double, into memorized: inout [Double]) {
        let first = max(from, 0)
        guard first <= to else { return }
        recallTable.addRecall(stability: stability, days: to - first + 1, into: &memorized, from: first, elapsed: first - from)
    }

    mutating func process(_ index: Int, day: Int, memorized: inout [Double]) {
        let card = cards[index]
        let isNew = card.lastDay == Simulator.unseen
        if let limit = config.suspendAfterLapses, Int(card.lapses) >= limit { return }
        // Admission: limits and the time budget; a blocked card waits for tomorrow.
        var blocked = false
        if isNew {
            blocked = days[day].new + 1 > (config.newPerDay ?? Int.max)
            if config.newCardsCountAsReviews { blocked = blocked || days[day].new + days[day].reviews + 1 > (config.reviewsPerDay ?? Int.max) }
        } else {
            blocked = days[day].reviews + 1 > (config.reviewsPerDay ?? Int.max)
        }
        if let budget = config.secondsPerDay, days[day].seconds > budget { blocked = true }
        if blocked {
            cards[index].dueDay = Int32(day + 1)
            if day + 1 < config.days {
                dueOn[day + 1].append(Int32(index))
                if !isNew { reviewsDueOn[day + 1] += 1 }
            }
            return
        }
        if isNew {
            learn(index, day: day)
        } else {
            review(index, day: day, memorized: &memorized)
        }
        let next = cards[index]
        if Int(next.dueDay) < config.days {
            dueOn[Int(next.dueDay)].append(Int32(index))
            reviewsDueOn[Int(next.dueDay)] += 1
        }
    }

    /// The moment of the `step`-th answer on day `day`: steps a minute apart stay within the
    /// day, so the scheduler sees same-day answers as the learner model does.
    func moment(day: Int, step: Int) -> Date {
        dayZero.addingTimeInterval(TimeInterval(day * 86_400 + 8 * 3600 + step * 60))
    }

    mutating func answer(_ index: Int, _ rating: Rating, day: Int, step: Int) {
        context.now = moment(day: day, step: step)
        if config.scheduler.loadBalancing {
            // Balancing picks within the fuzz range, so it needs a draw; from a generator of its
            // own, so the learner answers the same with and without it.
            context.fuzzFactor = balanceRandom.nextUnit()
            context.loadBalance = LoadBalance(
                dueCounts: (0..<LoadBalance.maximumInterval * 11 / 10).map { day + $0 < reviewsDueOn.count ? reviewsDueOn[day + $0] : 0 },
                easyDays: config.scheduler.easyDays, tomorrowWeekday: (Simulator.firstDay + day + 1 + 3) % 7)
        }
        cards[index].state = scheduler.answer(cards[index].state, rating, context: context).state
    }

    mutating func learn(_ index: Int, day: Int) {
        let first = Rating(rawValue: draw(odds.firstRating) + 1)!
        var memory = fsrs.initialMemory(first)
        var cost = odds.learningCosts[first.rawValue - 1]
        answer(index, first, day: day, step: 0)
        cost += steps(index, &memory, previous: first, transitions: odds.learningSteps, costs: odds.learningCosts, day: day)
        cards[index].stability = memory.stability
        cards[index].difficulty = memory.difficulty
        days[day].new += 1
        days[day].seconds += cost
        schedule(index, day: day)
    }

    mutating func review(_ index: Int, day: Int, memorized: inout [Double]) {
        let card = cards[index]
        let elapsed = day - Int(card.lastDay)
        let memory = MemoryState(stability: card.stability, difficulty: card.difficulty)
        let recall = recallTable.recall(elapsedDays: Double(elapsed), stability: card.stability)
        // The days since the last answer count with the old stability.
        addRecall(from: Int(card.lastDay), to: day - 1, stability: card.stability, into: &memorized)
        var next: MemoryState
        var cost: Double
        if random.nextUnit() < recall {
            let rating = Rating(rawValue: draw(odds.reviewRating) + 2)!
            next = MemoryState(stability: fsrs.stabilityAfterSuccess(memory, retrievability: recall, rating: rating),
                               difficulty: fsrs.nextDifficulty(memory.difficulty, rating))
            cost = odds.reviewCosts[rating.rawValue - 1]
            days[day].correct += 1
            answer(index, rating, day: day, step: 0)
        } else {
            cards[index].lapses += 1
            next = MemoryState(stability: fsrs.stabilityAfterFailure(memory, retrievability: recall),
                               difficulty: fsrs.nextDifficulty(memory.difficulty, .again))
            cost = odds.reviewCosts[0]
            answer(index, .again, day: day, step: 0)
            cost += steps(index, &next, previous: .again, transitions: odds.relearningSteps, costs: odds.relearningCosts, day: day)
        }
        cards[index].stability = next.stability
        cards[index].difficulty = next.difficulty
        days[day].reviews += 1
        days[day].seconds += cost
        schedule(index, day: day)
    }

    /// Same-day steps while the scheduler keeps the card in (re)learning: each answer drawn
    /// from the transition row of the one before, the true memory moved by FSRS's short-term
    /// formula. A learner who has stepped `maximumSteps` times graduates the card with good.
    mutating func steps(_ index: Int, _ memory: inout MemoryState, previous first: Rating, transitions: LearnerOdds.Transitions,
                        costs: SIMD4<Double>, day: Int) -> Double {
        var previous = first
        var cost = 0.0
        var step = 0
        while cards[index].state.phase.isInSteps, step < config.learner.maximumSteps, previous != .easy {
            step += 1
            let rating = Rating(rawValue: draw(transitions[min(previous.rawValue, 3) - 1]) + 1)!
            memory = MemoryState(stability: fsrs.stabilityShortTerm(memory.stability, rating: rating),
                                 difficulty: fsrs.nextDifficulty(memory.difficulty, rating))
            cost += costs[rating.rawValue - 1]
            answer(index, rating, day: day, step: step)
            previous = rating
        }
        var extra = 0
        while cards[index].state.phase.isInSteps, extra < 10 {
            extra += 1
            answer(index, .good, day: day, step: step + extra)
        }
        return cost
    }

    /// The scheduler's due date, as a simulation day.
    mutating func schedule(_ index: Int, day: Int) {
        cards[index].lastDay = Int32(day)
        // The clock is UTC with the rollover at midnight: a day is 86,400 s from dayZero.
        let dueDay = cards[index].state.due.map { Int(($0.timeIntervalSince(dayZero) / 86_400).rounded(.down)) } ?? day + 1
        cards[index].dueDay = Int32(max(dueDay, day + 1))
    }

    /// A weighted draw from up to four weights (unused ones zero); they need not sum to one.
    mutating func draw(_ weights: SIMD4<Double>) -> Int {
        var target = random.nextUnit() * weights.sum()
        var last = 0
        for index in 0..<4 where weights[index] > 0 {
            if target < weights[index] { return index }
            target -= weights[index]
            last = index
        }
        return last
    }
}

extension Simulator {
    /// The runs one after another, on this thread (sweeps and comparisons spread their
    /// settings over the cores instead).
    public func runAllSequentially() -> [SimulationResult] {
        (0..<max(1, config.runs)).map { run(seed: config.seed &+ UInt64($0)) }
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
    /// Bytes one run holds at its peak: each item's card (learner memory and scheduler state)
    /// and its place in the due queue, each day's totals and queue, and the summary's series.
    public var bytesPerRun: Int {
        items * (MemoryLayout<Simulator.Card>.stride + 3 * MemoryLayout<Int32>.stride + MemoryLayout<Int>.stride)
            + days * (MemoryLayout<SimulationResult.Day>.stride * 2 + MemoryLayout<[Int32]>.stride + MemoryLayout<Double>.stride
                + MemoryLayout<Int>.stride)
    }

    /// Bytes the simulation will hold at its peak when `concurrent` runs go at once.
    public func estimatedPeakBytes(concurrent: Int) -> Int {
        bytesPerRun * max(1, concurrent)
    }
}
