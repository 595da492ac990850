import Foundation
import MaeilCore

/// One worker's learner: answers the cards it is given, as the learner model says, through the
/// same `Scheduler` the review sessions use, and moves the learner's true memory with FSRS-6.
/// Each card answers from a generator of its own for that day, so the same cards give the same
/// answers whichever worker takes them and in whatever order.
struct SimulatedLearner {
    /// The run's scheduler, learner model and seed, shared with the other workers.
    let setup: EngineSetup
    let cards: UnsafeMutableBufferPointer<Simulator.Card>
    /// Reviews due on each day, which the load balancer weighs (read only while balancing,
    /// when the engine studies one card at a time).
    let reviewsDueOn: UnsafeMutableBufferPointer<Int>
    /// One context for every answer; only its time and the balancing change.
    var context: SchedulingContext
    var random = SplitMix64(state: 0)
    var balanceRandom = SplitMix64(state: 0)

    init(setup: EngineSetup, cards: UnsafeMutableBufferPointer<Simulator.Card>, reviewsDueOn: UnsafeMutableBufferPointer<Int>) {
        self.setup = setup
        self.cards = cards
        self.reviewsDueOn = reviewsDueOn
        context = SchedulingContext(now: setup.dayZero, clock: Simulator.clock)
    }

    /// Answers card `index` on `day` (it was admitted): its sums go to `output`, its recall
    /// before today to `memorized` (one slot per day, in `RecallTable`'s fixed point).
    mutating func study(_ index: Int, day: Int, memorized: UnsafeMutableBufferPointer<Int64>, into output: inout DayOutput) {
        // A stream for this card on this day, from the run's seed: a card answers a few times a
        // day at most, so a short SplitMix64 stream is enough.
        let key = setup.seed ^ (UInt64(truncatingIfNeeded: index) &* 0xD6E8_FEB8_6659_FD93) ^ UInt64(truncatingIfNeeded: day) << 40
        random = SplitMix64(mixing: key)
        if setup.config.scheduler.loadBalancing { balanceRandom = SplitMix64(mixing: key ^ 0x5EED_BA1A_11CE) }
        if cards[index].lastDay == Simulator.unseen {
            learn(index, day: day, into: &output)
        } else {
            review(index, day: day, memorized: memorized, into: &output)
        }
        cards[index].lastDay = Int32(day)
        let dueDay = setup.config.intervals == .scheduler ? scheduledDay(index, day: day) : day + memoryInterval(index)
        // A card with as many lapses as the limit is suspended: it is not queued again.
        if let limit = setup.config.suspendAfterLapses, Int(cards[index].lapses) >= limit { return }
        if dueDay < setup.config.days {
            output.due.append(QueueEntry(index: index, rank: QueueEntry.rank(of: cards[index])).due(on: dueDay))
        }
    }

    /// The scheduler's due date, as a simulation day. The clock is UTC with the rollover at
    /// midnight: a day is 86,400 s from dayZero.
    func scheduledDay(_ index: Int, day: Int) -> Int {
        max(cards[index].state.due.map { Int(($0.timeIntervalSince(setup.dayZero) / 86_400).rounded(.down)) } ?? day + 1, day + 1)
    }

    /// fsrs-rs's interval: the learner's stability at the desired retention, rounded half away
    /// from zero, from a day to the maximum interval.
    func memoryInterval(_ index: Int) -> Int {
        let days = Float(setup.fsrs.interval(stability: cards[index].stability, desiredRetention: setup.config.scheduler.desiredRetention))
        return min(max(Int(days.rounded(.toNearestOrAwayFromZero)), 1), max(setup.config.scheduler.maximumInterval, 1))
    }

    /// The moment of the `step`-th answer on day `day`: steps a minute apart stay within the
    /// day, so the scheduler sees same-day answers as the learner model does.
    func moment(day: Int, step: Int) -> Date {
        setup.dayZero.addingTimeInterval(TimeInterval(day * 86_400 + 8 * 3600 + step * 60))
    }

    mutating func answer(_ index: Int, _ rating: Rating, day: Int, step: Int) {
        // fsrs-rs schedules from the learner's memory alone (`stepsRemain`, `memoryInterval`).
        guard setup.config.intervals == .scheduler else { return }
        context.now = moment(day: day, step: step)
        if setup.config.scheduler.loadBalancing {
            // Balancing picks within the fuzz range, so it needs a draw; from a generator of its
            // own, so the learner answers the same with and without it.
            context.fuzzFactor = balanceRandom.nextUnit()
            context.loadBalance = LoadBalance(
                dueCounts: (0..<LoadBalance.horizon).map { day + $0 < reviewsDueOn.count ? reviewsDueOn[day + $0] : 0 },
                easyDays: setup.config.scheduler.easyDays, tomorrowWeekday: (Simulator.firstDay + day + 1 + 3) % 7)
        }
        cards[index].state = setup.scheduler.answer(cards[index].state, rating, context: context).state
    }

    mutating func learn(_ index: Int, day: Int, into output: inout DayOutput) {
        let first = Rating(rawValue: draw(setup.odds.firstRating) + 1)!
        var memory = setup.fsrs.initialMemory(first)
        var cost = setup.odds.learningCosts[first.rawValue - 1]
        answer(index, first, day: day, step: 0)
        cost += steps(index, &memory, previous: first, of: setup.config.scheduler.learningSteps, transitions: setup.odds.learningSteps, costs: setup.odds.learningCosts, day: day)
        cards[index].stability = memory.stability
        cards[index].difficulty = memory.difficulty
        output.seconds += cost
    }

    mutating func review(_ index: Int, day: Int, memorized: UnsafeMutableBufferPointer<Int64>, into output: inout DayOutput) {
        let lastDay = Int(cards[index].lastDay)
        let memory = MemoryState(stability: cards[index].stability, difficulty: cards[index].difficulty)
        let recall = setup.recallTable.recall(elapsedDays: Double(day - lastDay), stability: memory.stability)
        // The days since the last answer count with the old stability.
        addRecall(from: lastDay, to: day - 1, stability: memory.stability, into: memorized)
        var next: MemoryState
        var cost: Double
        if random.nextUnit() < recall {
            let rating = Rating(rawValue: draw(setup.odds.reviewRating) + 2)!
            next = MemoryState(stability: setup.fsrs.stabilityAfterSuccess(memory, retrievability: recall, rating: rating),
                               difficulty: setup.fsrs.nextDifficulty(memory.difficulty, rating))
            cost = setup.odds.reviewCosts[rating.rawValue - 1]
            output.correct += 1
            answer(index, rating, day: day, step: 0)
        } else {
            cards[index].lapses += 1
            next = MemoryState(stability: setup.fsrs.stabilityAfterFailure(memory, retrievability: recall),
                               difficulty: setup.fsrs.nextDifficulty(memory.difficulty, .again))
            cost = setup.odds.reviewCosts[0]
            answer(index, .again, day: day, step: 0)
            cost += steps(index, &next, previous: .again, of: setup.config.scheduler.relearningSteps, transitions: setup.odds.relearningSteps, costs: setup.odds.relearningCosts, day: day)
        }
        cards[index].stability = next.stability
        cards[index].difficulty = next.difficulty
        output.seconds += cost
    }

    /// Adds R(i − from, S) to each day i in from…to.
    func addRecall(from: Int, to: Int, stability: Double, into memorized: UnsafeMutableBufferPointer<Int64>) {
        let first = max(from, 0)
        guard first <= to else { return }
        setup.recallTable.addRecall(stability: stability, days: to - first + 1, into: memorized, from: first, elapsed: first - from)
    }

    /// Same-day steps while the card is in (re)learning: each answer drawn from the transition
    /// row of the one before, the true memory moved by FSRS's short-term formula. A learner who
    /// has stepped `maximumSteps` times graduates the card with good.
    mutating func steps(_ index: Int, _ memory: inout MemoryState, previous first: Rating, of preset: LearningSteps,
                        transitions: LearnerOdds.Transitions, costs: SIMD4<Double>, day: Int) -> Double {
        var previous = first
        var cost = 0.0
        var step = 0
        var passes = StepPasses(first: first, steps: preset)
        while stepsRemain(index, passes), step < setup.config.learner.maximumSteps, previous != .easy {
            step += 1
            let rating = Rating(rawValue: draw(transitions[min(previous.rawValue, 3) - 1]) + 1)!
            memory = MemoryState(stability: setup.fsrs.stabilityShortTerm(memory.stability, rating: rating),
                                 difficulty: setup.fsrs.nextDifficulty(memory.difficulty, rating))
            cost += costs[rating.rawValue - 1]
            answer(index, rating, day: day, step: step)
            passes.count(rating)
            previous = rating
        }
        var extra = 0
        while setup.config.intervals == .scheduler, cards[index].state.phase.isInSteps, extra < 10 {
            extra += 1
            answer(index, .good, day: day, step: step + extra)
        }
        return cost
    }

    /// Whether the card has steps left: while the scheduler keeps it in (re)learning, or as
    /// fsrs-rs counts them (`StepPasses`).
    func stepsRemain(_ index: Int, _ passes: StepPasses) -> Bool {
        setup.config.intervals == .scheduler ? cards[index].state.phase.isInSteps : passes.remain
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

/// fsrs-rs's count of a card's steps: as many good-or-easy answers in a row as there are
/// steps (one fewer when learning starts with good or easy); again starts the count over, hard
/// leaves it. Anki's scheduler differs in one case: after a first good, again starts the steps
/// themselves over.
struct StepPasses {
    let needed: Int
    var inARow = 0

    /// `first` is a new card's first answer, or again for a lapse.
    init(first: Rating, steps: LearningSteps) {
        needed = first >= .good ? max(steps.count - 1, 0) : steps.count
    }

    var remain: Bool { inARow < needed }

    mutating func count(_ rating: Rating) {
        if rating >= .good { inARow += 1 } else if rating == .again { inARow = 0 }
    }
}

/// What the cards of one chunk studied on a day add to it, merged into the day in chunk order.
struct DayOutput {
    /// Each card's queue entry with its next due day (when below the horizon).
    var due: [QueueEntry.Dated] = []
    var correct = 0
    var seconds = 0.0
}

/// A card in the due queue, packed in 64 bits: its index, and the rank it is studied in
/// (`rank(of:)`), so that ordering a day and admitting its cards never reads the cards
/// themselves (which belong to the worker that studies them, in its core's cache).
/// Index in bits 0–31, rank in 32–43, and in a dated entry the day from bit 44: the settings
/// allow 10,000,000 items (under 2^32) and 36,500 days (under 2^20).
struct QueueEntry: Hashable {
    let bits: UInt64

    /// New cards go last.
    static let newRank = 901
    static let rankCount = newRank + 1

    init(index: Int, rank: Int) { bits = UInt64(rank) << 32 | UInt64(truncatingIfNeeded: index) }

    var index: Int { Int(bits & 0xFFFF_FFFF) }
    var rank: Int { Int(bits >> 32) }
    var isNew: Bool { rank == Self.newRank }

    /// Reviews first, easiest (lowest difficulty, in hundredths) first; then new cards.
    /// ⌊100·D⌋ is 100…1000, so reviews take ranks 0…900.
    static func rank(of card: Simulator.Card) -> Int {
        card.lastDay == Simulator.unseen ? newRank : min(max(Int(card.difficulty * 100) - 100, 0), newRank - 1)
    }

    /// The entry with the day it is due, as a study's output carries it.
    func due(on day: Int) -> Dated { Dated(bits: UInt64(day) << 44 | bits) }

    struct Dated {
        let bits: UInt64
        var day: Int { Int(bits >> 44) }
        var entry: QueueEntry { QueueEntry(bits: bits & (1 << 44 - 1)) }
    }

    private init(bits: UInt64) { self.bits = bits }
}
