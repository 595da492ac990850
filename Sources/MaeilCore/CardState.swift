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

    public var ease: Double { Double(easePermille) / 1000 }

    /// The FSRS memory state, when the card has one.
    public var memory: MemoryState? {
        get {
            guard let stability, let difficulty else { return nil }
            return MemoryState(stability: stability, difficulty: difficulty)
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
