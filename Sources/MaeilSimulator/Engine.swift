import Foundation
import CPrefetch
import MaeilCore

/// What every worker of a run shares, read only.
struct EngineSetup {
    let config: SimulationConfig
    let scheduler: any Scheduler
    let fsrs: FSRS
    let recallTable: RecallTable
    /// The learner model's arrays as plain values, read without reference counting.
    let odds: LearnerOdds
    let dayZero: Date
    let seed: UInt64

    init(config: SimulationConfig, seed: UInt64) {
        self.config = config
        var settings = config.scheduler
        settings.maximumInterval = max(1, settings.maximumInterval)
        scheduler = settings.makeScheduler()
        // The learner's memory, as fsrs-rs's simulator models it: same-day answers below good may lower stability.
        fsrs = FSRS(parameters: config.learner.parameters, sameDayFloor: .good)
        recallTable = RecallTable(fsrs: fsrs)
        odds = LearnerOdds(config.learner)
        dayZero = Simulator.clock.start(ofDay: Simulator.firstDay)
        self.seed = seed
    }
}

/// One run: each day, the cards due are ordered and admitted within the limits, then studied.
///
/// Without a time budget or load balancing, whether a card is admitted depends only on how
/// many came before it. Each card then belongs to one of `chunkCount` chunks (by its index, in
/// blocks of eight neighbours): a day's admitted cards are studied chunk by chunk on every core
/// at once, each worker taking its own chunks first (the same cards every day, still in its
/// core's cache: a card moved between caches costs about what studying it does) and then any
/// left over (`DayWorkers`), and what the chunks did is merged in chunk order, so the result is
/// the same on one core or many, shared or not (`CoreSharing` decides day by day). With a
/// budget (the seconds so far decide) or load balancing (the due counts so far decide), cards
/// are admitted and studied one at a time, in order.
struct Engine {
    static let prefetchDistance = 16
    /// Chunks the cards are shared out in: fixed, so results do not depend on the number of cores.
    static let chunkCount = 16
    /// Admitted cards per worker a day needs before one more worker joins in: below that,
    /// handing the cards out costs more than studying them.
    static let cardsPerWorker = 32

    let setup: EngineSetup
    var config: SimulationConfig { setup.config }
    let cards: OwnedBuffer<Simulator.Card>
    let reviewsDueOn: OwnedBuffer<Int>
    /// Each worker's recall per day (`slotStride` slots each, in `RecallTable`'s fixed point),
    /// summed at the end: integer sums, the same however the cards were shared out.
    let memorized: OwnedBuffer<Int64>
    let slotStride: Int
    /// Each chunk's admitted cards for the day, in order, and what studying them did.
    let chunkCards: OwnedBuffer<[Int32]>
    let outputs: OwnedBuffer<DayOutput>
    let learners: OwnedBuffer<SimulatedLearner>
    let workers: DayWorkers
    var days: [SimulationResult.Day]
    /// Cards due on each day: the queue, bucketed by day instead of a heap.
    var dueOn: [[QueueEntry]]
    /// Whether a card's admission depends on what the cards before it did.
    let oneAtATime: Bool
    /// The day's order and the rank counts that sort it, kept from one day to the next.
    var order: [QueueEntry] = [], rankCounts: [Int] = []
    var sharing: CoreSharing

    init(config: SimulationConfig, seed: UInt64, threads: Int) {
        setup = EngineSetup(config: config, seed: seed)
        days = Array(repeating: SimulationResult.Day(), count: config.days)
        dueOn = Array(repeating: [], count: config.days)
        reviewsDueOn = OwnedBuffer(repeating: 0, count: config.days)
        oneAtATime = config.secondsPerDay != nil || config.scheduler.loadBalancing
        if config.startingCards.isEmpty {
            // New card i is due on day i / newPerDay; cards beyond the span are never queued.
            let perDay = config.newPerDay ?? Int.max
            let count = perDay > 0 ? config.items : 0
            cards = OwnedBuffer(count: count) { index in
                Simulator.Card(stability: 0, difficulty: 0, lastDay: Simulator.unseen, lapses: 0, state: .new)
            }
            for index in 0..<count {
                let day = perDay == Int.max ? 0 : index / perDay
                if day < config.days { dueOn[day].append(QueueEntry(index: index, rank: QueueEntry.newRank)) }
            }
        } else {
            cards = Self.starting(config.startingCards, config: config, dayZero: setup.dayZero, dueOn: &dueOn, reviewsDueOn: reviewsDueOn)
        }
        chunkCards = OwnedBuffer(repeating: [], count: Self.chunkCount)
        outputs = OwnedBuffer(repeating: DayOutput(), count: Self.chunkCount)
        workers = DayWorkers(count: oneAtATime ? 1 : min(max(1, threads), Self.chunkCount))
        sharing = CoreSharing(threads: workers.count)
        // Whole cache lines per worker, so that two cores never write the same line.
        slotStride = (config.days + 1 + 15) / 16 * 16
        memorized = OwnedBuffer(repeating: 0, count: workers.count * slotStride)
        let learner = SimulatedLearner(setup: setup, cards: cards.pointer, reviewsDueOn: reviewsDueOn.pointer)
        learners = OwnedBuffer(repeating: learner, count: workers.count)
    }

    /// The chunk card `index` belongs to: blocks of eight neighbours (whole cache lines mostly),
    /// dealt round the chunks, so that a day's new cards (neighbours) are spread out.
    @inline(__always)
    static func chunk(of index: Int) -> Int { (index >> 3) % chunkCount }

    /// A deck's cards as they are: the reviewed ones due when they are due, with their memory;
    /// the new ones in order, as the new-card limit lets them in. Dates move onto the simulation's
    /// clock, so the scheduler sees the same elapsed days and intervals.
    static func starting(_ starting: [StartingCard], config: SimulationConfig, dayZero: Date, dueOn: inout [[QueueEntry]],
                         reviewsDueOn: OwnedBuffer<Int>) -> OwnedBuffer<Simulator.Card> {
        func moment(day: Int) -> Date { dayZero.addingTimeInterval(TimeInterval(day * 86_400 + 8 * 3600)) }
        // Made in place: an array copied into the buffer held a million cards twice.
        return OwnedBuffer(count: starting.count) { index in
            let card = starting[index]
            guard card.phase != .new, let memory = card.memory else {
                if config.days > 0 { dueOn[0].append(QueueEntry(index: index, rank: QueueEntry.newRank)) }
                return Simulator.Card(stability: 0, difficulty: 0, lastDay: Simulator.unseen, lapses: 0, state: .new)
            }
            var state = card.state
            let dueDay = max(0, card.dueInDays)
            state.due = moment(day: dueDay)
            state.lastReview = state.lastReview.map { _ in moment(day: -card.daysSinceReview) }
            let made = Simulator.Card(stability: memory.stability, difficulty: memory.difficulty, lastDay: Int32(-card.daysSinceReview),
                                      lapses: Int16(clamping: card.lapses), state: state)
            if let limit = config.suspendAfterLapses, card.lapses >= limit { return made }
            if dueDay < config.days {
                dueOn[dueDay].append(QueueEntry(index: index, rank: QueueEntry.rank(of: made)))
                reviewsDueOn[dueDay] += 1
            }
            return made
        }
    }

    mutating func run() -> [SimulationResult.Day] {
        defer { workers.stop() }
        for day in 0..<config.days {
            sortDue(day: day)
            if oneAtATime {
                studyOneAtATime(day: day)
            } else {
                studyInChunks(admitAll(day: day), day: day)
            }
        }
        // Cards keep counting after their last answer, with decaying recall, to the end: a
        // chunk's cards into the sums of the worker that takes it. Then the workers' sums.
        let slots = slotStride, horizon = config.days
        let learners = learners, memorized = memorized, cards = cards
        let recall: @Sendable (Int, Int) -> Void = { worker, chunk in
            let learner = learners[worker]
            let slice = UnsafeMutableBufferPointer(rebasing: memorized.pointer[worker * slots..<(worker + 1) * slots])
            // The chunk's blocks of eight: chunk, chunk + chunkCount, … in blocks.
            for block in stride(from: chunk * 8, to: cards.count, by: Self.chunkCount * 8) {
                for index in block..<min(block + 8, cards.count) where cards.pointer[index].lastDay != Simulator.unseen {
                    learner.addRecall(from: Int(cards.pointer[index].lastDay), to: horizon - 1, stability: cards.pointer[index].stability, into: slice)
                }
            }
        }
        if sharing.shares(cards: cards.count, cpu: workers.cpuSeconds) {
            workers.run(parts: Self.chunkCount, recall)
        } else {
            for chunk in 0..<Self.chunkCount { recall(0, chunk) }
        }
        let total = UnsafeMutableBufferPointer(rebasing: memorized.pointer[0..<slotStride])
        for worker in 1..<workers.count {
            for day in 0..<slotStride { total[day] &+= memorized[worker * slotStride + day] }
        }
        for day in 0..<config.days { days[day].memorized = Double(total[day]) / RecallTable.fixedPointScale }
        return days
    }

    /// Orders the day's due cards by rank (`QueueEntry.rank(of:)`), ties in the order they
    /// became due: a counting sort over the ranks, in linear time, stable.
    mutating func sortDue(day: Int) {
        let due = dueOn[day]
        dueOn[day] = []
        rankCounts.removeAll(keepingCapacity: true)
        rankCounts.append(contentsOf: repeatElement(0, count: QueueEntry.rankCount + 1))
        for entry in due { rankCounts[entry.rank + 1] += 1 }
        for rank in 1..<rankCounts.count { rankCounts[rank] += rankCounts[rank - 1] }
        order.removeAll(keepingCapacity: true)
        order.append(contentsOf: repeatElement(QueueEntry(index: 0, rank: 0), count: due.count))
        for entry in due {
            order[rankCounts[entry.rank]] = entry
            rankCounts[entry.rank] += 1
        }
    }

    /// Whether the limits (and the time budget) let one more card in today.
    func admits(isNew: Bool, day: Int) -> Bool {
        let today = days[day]
        if let budget = config.secondsPerDay, today.seconds > budget { return false }
        if isNew {
            if today.new + 1 > (config.newPerDay ?? Int.max) { return false }
            return !config.newCardsCountAsReviews || today.new + today.reviews + 1 <= (config.reviewsPerDay ?? Int.max)
        }
        return today.reviews + 1 <= (config.reviewsPerDay ?? Int.max)
    }

    /// Counts a card in today (true), or moves it to tomorrow.
    mutating func admit(_ entry: QueueEntry, day: Int) -> Bool {
        guard admits(isNew: entry.isNew, day: day) else {
            if day + 1 < config.days {
                dueOn[day + 1].append(entry)
                if !entry.isNew { reviewsDueOn[day + 1] += 1 }
            }
            return false
        }
        if entry.isNew { days[day].new += 1 } else { days[day].reviews += 1 }
        return true
    }

    /// Shares the cards the limits let in out to their chunks, in order; returns how many.
    mutating func admitAll(day: Int) -> Int {
        for chunk in 0..<Self.chunkCount { chunkCards[chunk].removeAll(keepingCapacity: true) }
        var count = 0
        for entry in order where admit(entry, day: day) {
            chunkCards[Self.chunk(of: entry.index)].append(Int32(entry.index))
            count += 1
        }
        return count
    }

    /// Studies the admitted cards, the chunks shared among the workers as they come (or on
    /// this thread alone: a small day, or a while after a helper was stopped by the system),
    /// and merges what each chunk did in chunk order.
    mutating func studyInChunks(_ count: Int, day: Int) {
        let chunks = Self.chunkCount, slots = slotStride
        let learners = learners, outputs = outputs, chunkCards = chunkCards, memorized = memorized, cards = cards
        let study: @Sendable (Int, Int) -> Void = { worker, chunk in
            // The learner and the chunk's sums are worked on in locals and written back once:
            // neighbours in memory, they would otherwise share cache lines between the cores.
            var learner = learners[worker]
            let slice = UnsafeMutableBufferPointer(rebasing: memorized.pointer[worker * slots..<(worker + 1) * slots])
            do {
                var output = outputs[chunk]
                let admitted = chunkCards[chunk]
                for position in admitted.indices {
                    if position + Self.prefetchDistance < admitted.count {
                        // The cards a few places on are loaded while this one is answered: visited
                        // in the order they fall due, they are spread over the whole array.
                        maeil_prefetch(cards.pointer.baseAddress! + Int(admitted[position + Self.prefetchDistance]), MemoryLayout<Simulator.Card>.stride)
                    }
                    learner.study(Int(admitted[position]), day: day, memorized: slice, into: &output)
                }
                outputs[chunk] = output
            }
            learners[worker] = learner
        }
        if !sharing.shares(cards: count, cpu: workers.cpuSeconds) {
            for chunk in 0..<chunks { study(0, chunk) }
        } else if workers.run(parts: chunks, study) {
            sharing.stalled()
        }
        for chunk in 0..<chunks { merge(chunk, day: day) }
    }

    /// One card at a time: admitted with what the cards before it cost, studied, merged.
    mutating func studyOneAtATime(day: Int) {
        let slice = UnsafeMutableBufferPointer(rebasing: memorized.pointer[0..<slotStride])
        for entry in order where admit(entry, day: day) {
            learners.pointer[0].study(entry.index, day: day, memorized: slice, into: &outputs.pointer[0])
            merge(0, day: day)
        }
    }

    /// Adds what a chunk did to the day, queues its cards for their next days, and clears it.
    mutating func merge(_ chunk: Int, day: Int) {
        days[day].correct += outputs[chunk].correct
        days[day].seconds += outputs[chunk].seconds
        for dated in outputs[chunk].due {
            dueOn[dated.day].append(dated.entry)
            reviewsDueOn[dated.day] += 1
        }
        outputs[chunk].correct = 0
        outputs[chunk].seconds = 0
        outputs[chunk].due.removeAll(keepingCapacity: true)
    }
}

