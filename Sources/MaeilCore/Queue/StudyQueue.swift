/// A card waiting in today's queue; a session loads the whole card when it shows it.
public struct QueuedCard: Hashable, Sendable {
    public var id: Int64
    public var noteID: Int64
    public var deckID: Int64
    public var phase: CardPhase
    /// A new card's template as Anki numbers it (its "ord"): its place among its note type's
    /// templates, or its blank's number less one; 0 for other cards.
    public var template: Int16
    /// Unix seconds; for a new card, its place in the new-card order (its unit's, its note's,
    /// its template's and its blank's, in that order of weight). A card takes 40 bytes: a day's
    /// queue is copied whole a few times as it is built, and a larger one is a slower queue.
    public var due: Int64

    /// Set in a new card's `due` when the rest of it is the card's position in Anki's new queue
    /// (shifted past the template and blank bits), not a place in its deck's own order.
    public static let ankiPositionFlag: Int64 = 1 << 62

    /// A new card's position in Anki's new queue, when it came from Anki.
    public var ankiPosition: Int64? { due & Self.ankiPositionFlag == 0 ? nil : (due & ~Self.ankiPositionFlag) >> 10 }

    public init(id: Int64, noteID: Int64, deckID: Int64, phase: CardPhase, due: Int64, template: Int16 = 0) {
        self.id = id
        self.noteID = noteID
        self.deckID = deckID
        self.phase = phase
        self.due = due
        self.template = template
    }
}

/// Today's work for some decks, as Anki queues it: learning cards due later today wait for
/// their time; the rest (reviews, learning cards whose step ended on an earlier day, new cards)
/// is one line in the order the deck's options set (`StudyOrder`).
public struct StudyQueue: Sendable, Equatable {
    /// Learning and relearning cards answered today and due again before the next rollover,
    /// soonest first.
    public var learning: [QueuedCard] = []
    /// Reviews, learning cards from an earlier day and new cards, in the order they are shown.
    public var main: [QueuedCard] = []

    public init() {}

    public var isEmpty: Bool { learning.isEmpty && main.isEmpty }

    /// The day's reviews still to show.
    public var reviews: [QueuedCard] { main.filter { $0.phase == .review } }
    /// The day's new cards still to show.
    public var new: [QueuedCard] { main.filter { $0.phase == .new } }
    public var reviewCount: Int { main.count { $0.phase == .review } }
    public var newCount: Int { main.count { $0.phase == .new } }
    /// Learning cards still to show today, of either kind.
    public var learningCount: Int { learning.count + main.count { $0.phase.isInSteps } }

    /// Anki's learn-ahead limit: learning cards due within 20 minutes may be shown early when
    /// nothing else is left.
    public static let learnAheadSeconds: Int64 = 1200

    /// Puts a card that is still learning back in line by its due time.
    public mutating func requeue(_ card: QueuedCard) {
        let index = learning.firstIndex { $0.due > card.due } ?? learning.endIndex
        learning.insert(card, at: index)
    }

    /// The next card to show at `now` (unix seconds), taken off the queue: a learning card that
    /// is due first, then the main line; when nothing else is left, a learning card due within
    /// the learn-ahead limit.
    public mutating func takeNext(now: Int64) -> QueuedCard? {
        if let first = learning.first, first.due <= now { return learning.removeFirst() }
        if !main.isEmpty { return main.removeFirst() }
        if let first = learning.first, first.due <= now + Self.learnAheadSeconds { return learning.removeFirst() }
        return nil
    }
}
