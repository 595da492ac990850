import Foundation

/// Anki's v3 scheduler, in both of its modes: SM-2 intervals (`anki-sm2`) or FSRS intervals
/// (`fsrs`). As in Anki's rslib, one set of state transitions serves both; when FSRS is on,
/// its proposed memory states and intervals replace the SM-2 formulas.
///
/// One file per card state, as in rslib's `scheduler/states/`: learning (new cards included),
/// review and relearning. Each returns all four outcomes at once.
/// A class so the settings and FSRS weights (arrays) are shared by every answer's context
/// instead of copied into it: the simulator answers millions of times.
final class AnkiScheduler: Scheduler {
    let settings: SchedulerSettings
    /// Not optional, so that proposals read it in place (unwrapping an optional copies it).
    let fsrs: FSRS
    let usesFSRS: Bool
    /// What turns stability into an interval at the desired retention, computed once.
    let retentionTerm: Float

    init(settings: SchedulerSettings, fsrs: FSRS?) {
        self.settings = settings
        self.fsrs = fsrs ?? FSRS(parameters: settings.fsrsParameters)
        usesFSRS = fsrs != nil
        retentionTerm = self.fsrs.retentionTerm(settings.desiredRetention)
    }

    var kind: SchedulerKind { usesFSRS ? .fsrs : .ankiSM2 }

    func nextStates(for card: CardState, context: SchedulingContext) -> NextStates {
        let answer = AnswerContext(scheduler: self, fsrs: fsrsProposal(for: card, context: context, ratings: .all),
                                   fuzzFactor: context.fuzzFactor, loadBalance: context.loadBalance)
        return NextStates(current: card, again: outcome(card, .again, answer, context), hard: outcome(card, .hard, answer, context),
                          good: outcome(card, .good, answer, context), easy: outcome(card, .easy, answer, context))
    }

    func answer(_ card: CardState, _ rating: Rating, context: SchedulingContext) -> Outcome {
        let needed = Self.proposalsNeeded(for: rating, phase: card.phase)
        let answer = AnswerContext(scheduler: self, fsrs: fsrsProposal(for: card, context: context, ratings: needed),
                                   fuzzFactor: context.fuzzFactor, loadBalance: context.loadBalance)
        return outcome(card, rating, answer, context)
    }

    /// The FSRS proposals one answer depends on: a review's good interval must beat hard's,
    /// easy must beat good's; graduating with easy must beat good.
    static func proposalsNeeded(for rating: Rating, phase: CardPhase) -> RatingSet {
        switch (phase, rating) {
        case (.review, .good): [.hard, .good]
        case (.review, .easy): [.hard, .good, .easy]
        case (_, .easy): [.good, .easy]
        default: RatingSet(rating)
        }
    }

    func outcome(_ card: CardState, _ rating: Rating, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        switch card.phase {
        case .new, .learning: learningOutcome(card, rating, answer, context)
        case .review: reviewOutcome(card, rating, answer, context)
        case .relearning: relearningOutcome(card, rating, answer, context)
        }
    }

    /// FSRS's proposal for each answer, from the days since the last answer (0 on the same
    /// study day, which selects the short-term formula).
    private func fsrsProposal(for card: CardState, context: SchedulingContext, ratings: RatingSet) -> FSRSNextStates? {
        guard usesFSRS else { return nil }
        var memory = card.memory
        if memory == nil, card.phase == .review || card.phase == .relearning {
            // A card reviewed under SM-2 (or imported) gets a memory state from its interval
            // and ease, as Anki does when FSRS is switched on.
            memory = fsrs.memoryFromSM2(ease: card.ease, intervalDays: Double(max(card.intervalDays, 1)))
        }
        let elapsed = card.lastReview.map { Self.fsrsElapsedDays(since: $0, context) } ?? 0
        return fsrs.nextStates(memory: memory, elapsedDays: elapsed, retentionTerm: retentionTerm, ratings: ratings)
    }
}

/// The settings, FSRS proposal and fuzz factor one answer is computed with (Anki's StateContext).
/// The time and clock travel beside it as the caller's `SchedulingContext`, borrowed rather
/// than copied: a copy would retain the clock's time zone on every answer.
struct AnswerContext {
    /// Read through the scheduler, not copied into every answer. Unretained: an AnswerContext
    /// lives only inside the scheduler's own `answer` or `nextStates` call.
    unowned(unsafe) let scheduler: AnkiScheduler
    let fsrs: FSRSNextStates?
    let fuzzFactor: Double?
    var loadBalance: LoadBalance? = nil

    var settings: SchedulerSettings { scheduler.settings }

    /// Fuzzes an interval inside [minimum, maximum] (Anki's `with_review_fuzz`), or balances it
    /// there when the preset balances load.
    func fuzzed(_ interval: Float, minimum: Int, maximum: Int) -> Int {
        if let fuzzFactor, let loadBalance, settings.loadBalancing,
           let balanced = loadBalance.interval(interval, minimum: min(minimum, maximum), maximum: maximum, draw: fuzzFactor) {
            return balanced
        }
        return ReviewFuzz.apply(factor: fuzzFactor, interval: interval, minimum: min(minimum, maximum), maximum: maximum)
    }

    /// A graduating or returning interval: rounded, at least a day, fuzzed, at most the maximum.
    func reviewInterval(_ interval: Float, minimum: Int = 1) -> Int {
        let (minimum, maximum) = settings.reviewIntervalBounds(minimum: minimum)
        return fuzzed(max(interval.rounded(.toNearestOrAwayFromZero), 1), minimum: minimum, maximum: maximum)
    }

    /// A passing review interval (Anki's `constrain_passing_interval`): the interval modifier
    /// (SM-2 only, never on the minimum), then fuzz inside [minimum, maximum].
    func passingInterval(_ interval: Float, minimum: Int, fuzz: Bool = true) -> Int {
        let scaled = fsrs == nil ? interval * settings.intervalModifier : interval
        let (minimum, maximum) = settings.reviewIntervalBounds(minimum: minimum)
        if fuzz { return fuzzed(scaled, minimum: minimum, maximum: maximum) }
        return min(max(ReviewFuzz.roundedDays(scaled), minimum), maximum)
    }

    /// Under FSRS, easy must beat good by a day; good is computed (and fuzzed) first.
    func fsrsEasyInterval(_ fsrs: FSRSNextStates) -> Int {
        let (minimum, maximum) = settings.reviewIntervalBounds(minimum: 1)
        let good = fuzzed(Float(fsrs.good.interval), minimum: minimum, maximum: maximum)
        return fuzzed(max(Float(fsrs.easy.interval).rounded(.toNearestOrAwayFromZero), 1), minimum: good + 1, maximum: maximum)
    }
}

extension AnkiScheduler {
    /// Days since the last answer as Anki counts them for FSRS: whole days from that answer to
    /// the end of today's study day (as Anki reckons it, `DayClock.ankiDayEnd`), so an answer at
    /// the very start of a study day counts a day longer than the study days between them.
    static func fsrsElapsedDays(since last: Date, _ context: SchedulingContext) -> Int {
        let end = context.clock.ankiDayEnd(after: context.now)
        return max(0, Int((end.timeIntervalSince(last) / 86_400).rounded(.down)))
    }
}

extension FSRS {
    /// The memory state an SM-2 card would have, assuming its interval was set for 90 %
    /// recall and its ease was the growth FSRS would give a good answer at that recall.
    public func memoryFromSM2(ease: Double, intervalDays: Double, retention: Double = 0.9) -> MemoryState {
        // As fsrs-rs's memory_state_from_sm2, in 32 bits.
        let decay = decay32, retention = Float(retention)
        let factor = Foundation.pow(Float(0.9), 1 / decay) - 1
        let stability = clampStability(max(Float(intervalDays), 0.001) * factor / (Foundation.pow(retention, 1 / decay) - 1))
        let growthPerDifficulty = Foundation.exp(w[8]) * Foundation.pow(stability, -w[9]) * Foundation.expm1((1 - retention) * w[10])
        let difficulty = Double(clampDifficulty(11 - (Float(ease) - 1) / growthPerDifficulty))
        return MemoryState(stability: Double(stability), difficulty: difficulty)
    }
}
