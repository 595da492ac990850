import Foundation

/// What a queue builder asks of a collection. The answers are rows; every rule (daily limits,
/// curriculum gating, sibling burying, the order of reviews) is the builder's.
public protocol QueueSource {
    /// A deck's unsuspended learning and relearning cards due before `dueBefore` (unix seconds)
    /// and not buried at `visibleAt`.
    func learningCards(deck: Int64, dueBefore: Int64, visibleAt: Int64) throws -> [QueuedCard]
    /// A deck's unsuspended, unburied review cards due before `dueBefore`, soonest due first,
    /// at most `limit`.
    func reviewCards(deck: Int64, dueBefore: Int64, visibleAt: Int64, limit: Int) throws -> [QueuedCard]
    /// A deck's unsuspended, unburied new cards in new-card order, at most `limit`; only those of
    /// curriculum unit `unit` (its position; `.some(nil)` for cards outside any unit) when given.
    func newCards(deck: Int64, unit: Int??, visibleAt: Int64, limit: Int) throws -> [QueuedCard]
    /// The unit position of the first unsuspended card, in new-card order, that is new or still
    /// in learning: nil when there is none, `.some(nil)` when that card is in no unit.
    func firstUnlearnedUnit(deck: Int64) throws -> Int??
    /// Answers given in a deck since `since` to cards that were new, and to cards in review.
    func answeredSince(deck: Int64, since: Date) throws -> (new: Int, reviews: Int)
}

/// Builds today's queue from rows a `QueueSource` hands over, with Anki's rules: each deck's
/// preset sets its limits and its rollover hour; answers already given today count against the
/// limits, so separate sessions on one day share them.
public struct QueueBuilder {
    /// One deck to queue, with what its rules depend on.
    public struct Deck: Sendable {
        public var id: Int64
        public var preset: Preset
        public var clock: DayClock

        public init(id: Int64, preset: Preset, clock: DayClock) {
            self.id = id
            self.preset = preset
            self.clock = clock
        }
    }

    public var now: Date
    /// The collection's seed: review order is shuffled reproducibly from it and the day.
    public var seed: UInt64

    public init(now: Date, seed: UInt64) {
        self.now = now
        self.seed = seed
    }

    public func build(_ decks: [Deck], from source: some QueueSource) throws -> StudyQueue {
        var queue = StudyQueue()
        for deck in decks { try append(deck, from: source, to: &queue) }
        queue.learning.sort { $0.due < $1.due }
        return queue
    }

    private func append(_ deck: Deck, from source: some QueueSource, to queue: inout StudyQueue) throws {
        let preset = deck.preset, clock = deck.clock
        let today = clock.dayNumber(of: now)
        let rollover = Int64(clock.start(ofDay: today + 1).timeIntervalSince1970)
        let visibleAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let done = try source.answeredSince(deck: deck.id, since: clock.start(ofDay: today))

        queue.learning += try source.learningCards(deck: deck.id, dueBefore: rollover, visibleAt: visibleAt)

        let reviewRoom = max(0, preset.reviewsPerDay - done.reviews)
        if reviewRoom > 0 {
            let reviews = try source.reviewCards(deck: deck.id, dueBefore: rollover, visibleAt: visibleAt, limit: reviewRoom)
            queue.reviews += Self.shuffledWithinDays(reviews, clock: clock, seed: seed ^ UInt64(truncatingIfNeeded: today) &* 0x2545_F491_4F6C_DD1D)
        }

        let newRoom = max(0, preset.newPerDay - done.new)
        guard newRoom > 0 else { return }
        // With gating, the open unit is the first one still holding a card that has not left learning.
        let unit: Int?? = preset.curriculumGating ? try source.firstUnlearnedUnit(deck: deck.id) : nil
        // Siblings are buried once one is answered, so one card per note is taken: ask for more
        // than the room, since some will be left out.
        let candidates = try source.newCards(deck: deck.id, unit: unit, visibleAt: visibleAt,
                                             limit: preset.burySiblings ? newRoom * 4 + 8 : newRoom)
        var seenNotes = Set(queue.reviews.map(\.noteID))
        var new: [QueuedCard] = []
        for card in candidates where new.count < newRoom {
            if preset.burySiblings, !seenNotes.insert(card.noteID).inserted { continue }
            new.append(card)
        }
        queue.new += new
    }

    /// Oldest due day first; within a day a shuffle seeded by the collection and the day, so
    /// the order is stable through a day's sessions but differs from day to day.
    static func shuffledWithinDays(_ cards: [QueuedCard], clock: DayClock, seed: UInt64) -> [QueuedCard] {
        var generator = SeededGenerator(seed: seed)
        var result: [QueuedCard] = []
        result.reserveCapacity(cards.count)
        var index = 0
        while index < cards.count {
            let day = clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(cards[index].due)))
            let dayEnd = Int64(clock.start(ofDay: day + 1).timeIntervalSince1970)
            var end = index
            while end < cards.count && cards[end].due < dayEnd { end += 1 }
            result += cards[index..<end].shuffled(using: &generator)
            index = end
        }
        return result
    }
}
