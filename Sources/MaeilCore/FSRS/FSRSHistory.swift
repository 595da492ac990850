import Foundation

/// A card's answers as FSRS reads them, built from its review log the way Anki builds them
/// when FSRS is switched on: from the start of the latest run of learning answers (after the
/// latest reset), each answer with the whole days since the one before, counted back from the
/// next day's rollover. Same-day answers stay, with 0 days.
public struct FSRSHistory: Hashable, Sendable {
    public struct Review: Hashable, Sendable {
        public var rating: Rating
        public var elapsedDays: Int

        public init(rating: Rating, elapsedDays: Int) {
            self.rating = rating
            self.elapsedDays = elapsedDays
        }
    }

    public var reviews: [Review]
    /// Where the history begins when the log lost the card's first learning answers (a card
    /// reviewed elsewhere before its history was kept): the memory its first kept answer left,
    /// from that answer's interval and ease. Nil when the history starts with learning.
    public var startingState: MemoryState?

    /// Whether an entry is what Anki calls a learning, review or relearning answer; resets and
    /// other manual changes carry no rating.
    enum EntryKind {
        case learning, review, relearning, reset, other
    }

    static func kind(of entry: ReviewLogEntry) -> EntryKind {
        guard entry.kind != .manual, entry.rating != nil else {
            return entry.kind == .manual && entry.after?.phase == .new ? .reset : .other
        }
        switch entry.before?.phase ?? .new {
        case .new, .learning: return .learning
        case .review: return .review
        case .relearning: return .relearning
        }
    }

    /// The history of one card's log (oldest first), or nil when it has no answer FSRS can
    /// start from. `nextDayStart` is when the study day after today begins.
    ///
    /// A log whose learning answers are missing (cut short, or kept elsewhere) starts at its
    /// first answer that left the card a day or more away: the memory that answer implies, from
    /// its interval and ease, is the starting state, and the answers after it follow, as Anki
    /// does (an answer in relearning says nothing of the memory SM-2 had assumed).
    public init?(log: [ReviewLogEntry], nextDayStart: Date, fsrs: FSRS, historicalRetention: Double = 0.9) {
        var firstLearning: Int?
        var firstInterday: Int?
        var complete = false
        var index = log.count - 1
        scan: while index >= 0 {
            let entry = log[index]
            let kind = Self.kind(of: entry)
            let graded = kind == .learning || kind == .review || kind == .relearning
            if graded, Self.isInterday(entry) { firstInterday = index }
            if kind == .learning {
                firstLearning = index
                complete = true
            } else if kind == .reset {
                // Answers before a reset do not count; with no answer since, nothing does.
                if firstLearning != nil {
                    complete = true
                } else if firstInterday != nil {
                    complete = false
                } else {
                    return nil
                }
                break scan
            } else if firstLearning != nil {
                break scan
            }
            index -= 1
        }
        guard let start = firstLearning ?? firstInterday else { return nil }
        let kept = log[start...].filter { $0.rating != nil && $0.kind != .manual }
        guard let first = kept.first else { return nil }
        func day(_ entry: ReviewLogEntry) -> Int {
            max(0, Int((nextDayStart.timeIntervalSince(entry.time) / 86_400).rounded(.down)))
        }
        var reviews: [Review] = []
        var previousDay: Int?
        for entry in kept {
            let today = day(entry)
            reviews.append(Review(rating: entry.rating!, elapsedDays: previousDay.map { max(0, $0 - today) } ?? 0))
            previousDay = today
        }
        if !complete {
            // The first kept answer becomes the starting state; the history goes on after it.
            let after = first.after
            if let memory = after?.memory {
                startingState = memory  // an FSRS answer: its own memory
            } else {
                let interval = Double(max(after?.intervalDays ?? 1, 1))
                let ease = after.map { $0.easePermille == 0 ? 2.5 : $0.ease } ?? 2.5
                startingState = fsrs.memoryFromSM2(ease: ease, intervalDays: interval, retention: historicalRetention)
            }
            reviews.removeFirst()
        }
        self.reviews = reviews
    }

    /// Whether an answer left the card a day or more away.
    static func isInterday(_ entry: ReviewLogEntry) -> Bool {
        guard let after = entry.after else { return false }
        switch after.phase {
        case .new: return false
        case .review: return after.intervalDays >= 1
        case .learning, .relearning: return after.scheduledSeconds >= 86_400
        }
    }

    public init(reviews: [Review], startingState: MemoryState? = nil) {
        self.reviews = reviews
        self.startingState = startingState
    }

    /// The memory the answers leave, step by step from the starting state (or from the first
    /// answer's initial memory).
    public func memory(_ fsrs: FSRS) -> MemoryState? {
        var memory = startingState
        for review in reviews {
            memory = fsrs.nextMemory(memory, elapsedDays: review.elapsedDays, rating: review.rating)
        }
        return memory
    }
}
