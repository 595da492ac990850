/// A card waiting in today's queue; a session loads the whole card when it shows it.
public struct QueuedCard: Hashable, Sendable {
    public var id: Int64
    public var noteID: Int64
    public var deckID: Int64
    public var phase: CardPhase
    /// Unix seconds; 0 for new cards.
    public var due: Int64

    public init(id: Int64, noteID: Int64, deckID: Int64, phase: CardPhase, due: Int64) {
        self.id = id
        self.noteID = noteID
        self.deckID = deckID
        self.phase = phase
        self.due = due
    }
}

/// Today's work for some decks.
public struct StudyQueue: Sendable {
    /// Learning and relearning cards due before the next rollover, soonest first.
    public var learning: [QueuedCard] = []
    /// Review cards due today, oldest due day first, shuffled within a day.
    public var reviews: [QueuedCard] = []
    /// New cards within today's limit, in curriculum order.
    public var new: [QueuedCard] = []

    public init() {}

    public var isEmpty: Bool { learning.isEmpty && reviews.isEmpty && new.isEmpty }

    /// Anki's learn-ahead limit: learning cards due within 20 minutes may be shown early when
    /// nothing else is left.
    public static let learnAheadSeconds: Int64 = 1200

    /// Puts a card that is still learning back in line by its due time.
    public mutating func requeue(_ card: QueuedCard) {
        let index = learning.firstIndex { $0.due > card.due } ?? learning.endIndex
        learning.insert(card, at: index)
    }

    /// The next card to show at `now` (unix seconds), taken off the queue: learning cards that
    /// are due first, then reviews, then new cards; when nothing else is left, a learning card
    /// due within the learn-ahead limit.
    public mutating func takeNext(now: Int64) -> QueuedCard? {
        if let first = learning.first, first.due <= now { return learning.removeFirst() }
        if !reviews.isEmpty { return reviews.removeFirst() }
        if !new.isEmpty { return new.removeFirst() }
        if let first = learning.first, first.due <= now + Self.learnAheadSeconds { return learning.removeFirst() }
        return nil
    }
}
