import Foundation

/// Where a card stands in its life: never seen, in (re)learning steps, or in day-based review.
public enum CardPhase: String, Sendable, Codable, CaseIterable {
    case new
    case learning
    case review
    case relearning

    public var isInSteps: Bool { self == .learning || self == .relearning }
}

/// A card's complete scheduling state. One flat value for every scheduler, so the store
/// keeps one row layout and the review log can hold the exact state before and after.
public struct CardState: Hashable, Sendable, Codable {
    public var phase: CardPhase
    /// Index of the current learning or relearning step.
    public var step: Int
    /// The delay the last step answer gave, in seconds (learning and relearning only).
    public var scheduledSeconds: Int
    /// The review interval in days. In relearning it is the interval the card returns with.
    public var intervalDays: Int
    /// SM-2 ease in thousandths (2.5 is 2500), as Anki stores it, so arithmetic stays exact.
    public var easePermille: Int
    /// FSRS memory state; nil until an FSRS scheduler has seen the card.
    public var stability: Double?
    public var difficulty: Double?
    /// When the card is next due; nil while new. Review cards fall due at the start of a day.
    public var due: Date?
    public var reps: Int
    public var lapses: Int
    /// Passing answers since the last "again": classic SM-2's repetition number n.
    public var streak: Int
    public var lastReview: Date?

    public init(
        phase: CardPhase = .new, step: Int = 0, scheduledSeconds: Int = 0, intervalDays: Int = 0,
        easePermille: Int = 2500, stability: Double? = nil, difficulty: Double? = nil,
        due: Date? = nil, reps: Int = 0, lapses: Int = 0, streak: Int = 0, lastReview: Date? = nil
    ) {
        self.phase = phase
        self.step = step
        self.scheduledSeconds = scheduledSeconds
        self.intervalDays = intervalDays
        self.easePermille = easePermille
        self.stability = stability
        self.difficulty = difficulty
        self.due = due
        self.reps = reps
        self.lapses = lapses
        self.streak = streak
        self.lastReview = lastReview
    }

    public static let new = CardState()

    /// The state with every damaged number put right: memory dropped unless finite, counts and
    /// intervals moved into range, a due date that is not a date removed (due now).
    public var rebuilt: CardState {
        var state = self
        state.memory = memory
        state.intervalDays = intervalDays.clamped(to: 0...36_500)
        state.scheduledSeconds = scheduledSeconds.clamped(to: 0...(36_500 * 86_400))
        state.step = max(step, 0)
        if !(1...1_000_000).contains(easePermille) { state.easePermille = easePermille.clamped(to: 1300...1_000_000) }
        state.reps = max(reps, 0)
        state.lapses = max(lapses, 0)
        if let due, !due.timeIntervalSince1970.isFinite { state.due = nil }
        return state
    }

    /// Whether every number is one a scheduler can work from: finite, and in its range. The
    /// store refuses to write any other state, and `check` reports one it finds.
    public var isValid: Bool {
        func valid(_ value: Double?, _ range: ClosedRange<Double>) -> Bool { value.map { $0.isFinite && range.contains($0) } ?? true }
        return (0...36_500).contains(intervalDays) && (0...(36_500 * 86_400)).contains(scheduledSeconds) && step >= 0
            && (1...1_000_000).contains(easePermille) && reps >= 0 && lapses >= 0
            && valid(stability, FSRS.stabilityRange) && valid(difficulty, 1...10) && (stability == nil) == (difficulty == nil)
            && (due.map { $0.timeIntervalSince1970.isFinite } ?? true)
    }

    public var ease: Double { Double(easePermille) / 1000 }

    /// The FSRS memory state, when the card has one that is a pair of finite numbers (kept in
    /// FSRS's ranges): a damaged row must not send infinity into the next interval.
    public var memory: MemoryState? {
        get {
            guard let stability, let difficulty, stability.isFinite, difficulty.isFinite else { return nil }
            return MemoryState(stability: stability.clamped(to: FSRS.stabilityRange), difficulty: difficulty.clamped(to: 1...10))
        }
        set {
            stability = newValue?.stability
            difficulty = newValue?.difficulty
        }
    }
}

/// FSRS's two-component model of a memory: stability S (days until recall falls to 90 %)
/// and difficulty D (1 to 10).
public struct MemoryState: Hashable, Sendable, Codable {
    public var stability: Double
    public var difficulty: Double

    public init(stability: Double, difficulty: Double) {
        self.stability = stability
        self.difficulty = difficulty
    }

    /// The state as Anki stores it after an answer, and as the next answer then starts from:
    /// stability to 4 decimals and difficulty to 3, rounded in 32 bits.
    public var stored: MemoryState {
        func rounded(_ value: Double, _ scale: Float) -> Double {
            Double((Float(value) * scale).rounded(.toNearestOrAwayFromZero) / scale)
        }
        return MemoryState(stability: rounded(stability, 10_000), difficulty: rounded(difficulty, 1000))
    }
}
