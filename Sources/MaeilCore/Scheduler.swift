import Foundation

/// What a scheduler needs besides the card: the answer time, the study-day clock and the
/// fuzz factor. The core reads no clock and no global generator; all of it comes in here.
public struct SchedulingContext: Sendable {
    public var now: Date { didSet { today = clock.dayNumber(of: now) } }
    public var clock: DayClock { didSet { today = clock.dayNumber(of: now) } }
    /// In [0, 1); nil turns fuzz off.
    public var fuzzFactor: Double?
    /// Anki's own draw for this answer, where the fuzz factor is its (`init(now:clock:fuzz:)`):
    /// the learning fuzz then comes from it too, as in Anki.
    public private(set) var fuzzDraw: AnkiFuzzDraw?
    /// The preset's due counts when it balances load (and fuzz is on); nil otherwise.
    public var loadBalance: LoadBalance?
    /// The study day `now` falls on, worked out once: an answer needs it several times.
    public private(set) var today: Int

    public init(now: Date, clock: DayClock, fuzzFactor: Double? = nil) {
        self.now = now
        self.clock = clock
        self.fuzzFactor = fuzzFactor
        today = clock.dayNumber(of: now)
    }

    /// Fuzz as Anki draws it for the answer (nil: off).
    public init(now: Date, clock: DayClock, fuzz draw: AnkiFuzzDraw?) {
        self.init(now: now, clock: clock, fuzzFactor: draw?.factor)
        fuzzDraw = draw
    }

    /// Whole study days since `earlier`; never negative, even when the clock went back.
    public func elapsedDays(since earlier: Date) -> Int {
        max(0, today - clock.dayNumber(of: earlier))
    }
}

/// The result of one answer: the card's next state, and whether this answer made it a leech.
public struct Outcome: Hashable, Sendable {
    public var state: CardState
    public var leech: Bool

    public init(state: CardState, leech: Bool = false) {
        self.state = state
        self.leech = leech
    }
}

/// All four outcomes at once, so a prompt can show what each button will do before the
/// learner presses it.
public struct NextStates: Hashable, Sendable {
    public var current: CardState
    public var again: Outcome
    public var hard: Outcome
    public var good: Outcome
    public var easy: Outcome

    public subscript(rating: Rating) -> Outcome {
        switch rating {
        case .again: again
        case .hard: hard
        case .good: good
        case .easy: easy
        }
    }
}

/// A scheduling algorithm: a pure function from a card and a context to its next states.
public protocol Scheduler: Sendable {
    var kind: SchedulerKind { get }
    var settings: SchedulerSettings { get }
    func nextStates(for card: CardState, context: SchedulingContext) -> NextStates
    /// The outcome of one answer; the same as `nextStates(…)[rating]`, computed alone (the
    /// simulator answers millions of times and needs only the one).
    func answer(_ card: CardState, _ rating: Rating, context: SchedulingContext) -> Outcome
}

extension Scheduler {
    public func answer(_ card: CardState, _ rating: Rating, context: SchedulingContext) -> Outcome {
        nextStates(for: card, context: context)[rating]
    }
}

/// Where an answer sends a card, before the bookkeeping every answer shares.
struct Transition {
    var phase: CardPhase
    var step = 0
    /// Step delay in seconds (learning and relearning).
    var delaySeconds = 0
    /// Review interval, or in relearning the interval the card returns with.
    var intervalDays: Int
    var easePermille: Int
    var memory: MemoryState?
    var lapses: Int
    var leech = false
}

extension Transition {
    /// Applies what every answer does: one more rep, the answer time, the streak, and the due
    /// time. A step that would end at or after the next rollover becomes whole days (Anki's
    /// interday learning); shorter steps get the learning fuzz of up to min(25 %, 5 minutes).
    func finish(from card: CardState, passed: Bool, context: SchedulingContext) -> Outcome {
        var state = CardState(
            phase: phase, step: step, scheduledSeconds: phase.isInSteps ? delaySeconds : 0,
            intervalDays: intervalDays, easePermille: easePermille,
            stability: memory?.stability, difficulty: memory?.difficulty,
            due: nil, reps: card.reps + 1, lapses: lapses,
            streak: passed ? card.streak + 1 : 0, lastReview: context.now)
        let today = context.today
        if phase.isInSteps {
            // Counted to the day's end as Anki reckons it, which differs from the next day's start
            // on the night before a change of offset (`DayClock.ankiDayEnd`).
            let untilRollover = max(0, Int(context.clock.ankiDayEnd(after: context.now).timeIntervalSince(context.now).rounded(.down)))
            if delaySeconds >= untilRollover {
                let days = (delaySeconds - untilRollover) / 86_400 + 1
                state.due = context.clock.start(ofDay: today + days)
            } else {
                let fuzzed = context.fuzzDraw?.learningSeconds(delaySeconds) ?? Self.learningFuzz(delaySeconds, context.fuzzFactor)
                state.due = context.now.addingTimeInterval(TimeInterval(fuzzed))
            }
        } else {
            state.due = context.clock.start(ofDay: today + intervalDays)
        }
        return Outcome(state: state, leech: leech)
    }

    static func learningFuzz(_ secs: Int, _ factor: Double?) -> Int {
        guard let factor else { return secs }
        let extra = Int(min(Float(secs) * 0.25, 300).rounded(.down))
        guard extra > 0 else { return secs }
        return secs + Int((Double(extra) * factor).rounded(.down))
    }
}
