import Foundation

/// What a queue builder asks of a collection. The answers are rows; every rule (daily limits,
/// curriculum gating, sibling burying, the order of reviews) is the builder's.
public protocol QueueSource {
    /// A deck's unsuspended learning and relearning cards due before `dueBefore` (unix seconds)
    /// and not buried at `visibleAt`, each with the time it was last answered (unix seconds).
    func learningCards(deck: Int64, dueBefore: Int64, visibleAt: Int64) throws -> [(card: QueuedCard, lastAnswered: Int64?)]
    /// A deck's unsuspended, unburied review cards due before `dueBefore`, soonest due first,
    /// at most `limit`.
    func reviewCards(deck: Int64, dueBefore: Int64, visibleAt: Int64, limit: Int) throws -> [QueuedCard]
    /// Every one of those, with what the other review orders sort by.
    func reviewCardsWithFacts(deck: Int64, dueBefore: Int64, visibleAt: Int64) throws -> [(card: QueuedCard, facts: ReviewFacts?)]
    /// A deck's unsuspended, unburied new cards, lowest position first, at most `limit` (all
    /// when nil), or highest note position first with `descending`; only those of curriculum
    /// unit `unit` (its position; `.some(nil)` for cards outside any unit) when given.
    func newCards(deck: Int64, unit: Int??, visibleAt: Int64, limit: Int?, descending: Bool) throws -> [QueuedCard]
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

    /// The day's queue of `decks`, in the display order of the first deck's preset (the deck
    /// studied, as Anki takes the selected deck's), each deck within its own limits.
    public func build(_ decks: [Deck], from source: some QueueSource) throws -> StudyQueue {
        guard let first = decks.first else { return StudyQueue() }
        let order = first.preset.order
        let today = first.clock.dayNumber(of: now)
        let daySeed = seed ^ UInt64(truncatingIfNeeded: today) &* 0x2545_F491_4F6C_DD1D
        var gathered = Gathered()
        for deck in decks { try gather(deck, order: order, from: source, into: &gathered, seed: daySeed) }

        let deckRank = Dictionary(decks.enumerated().map { ($1.id, $0) }) { first, _ in first }
        let fsrs = first.preset.scheduler.kind == .fsrs ? FSRS(parameters: first.preset.scheduler.fsrsParameters) : nil
        let context = QueueOrdering.ReviewContext(today: today, now: Int64(now.timeIntervalSince1970.rounded(.down)), fsrs: fsrs,
                                                  desiredRetention: first.preset.scheduler.desiredRetention, seed: daySeed, deckRank: deckRank)
        let reviews = QueueOrdering.sorted(gathered.reviews, order: order.reviews, context: context).map(\.card)
        let dayLearning = gathered.dayLearning.sorted { ($0.due, $0.id) < ($1.due, $1.id) }
        let new = QueueOrdering.sorted(QueueOrdering.merged(gathered.new, order.newGather, seed: daySeed), order.newSort, seed: daySeed)

        var queue = StudyQueue()
        queue.learning = gathered.learning.sorted { $0.due < $1.due }
        queue.main = QueueOrdering.mix(QueueOrdering.mix(reviews, with: dayLearning, order.interdayLearningMix), with: new, order.newMix)
        return queue
    }

    /// What each deck gives, before the display order puts it in line.
    private struct Gathered {
        var learning: [QueuedCard] = []
        var dayLearning: [QueuedCard] = []
        var reviews: [QueueOrdering.DueReview] = []
        /// Per deck, in the order gathered.
        var new: [[QueuedCard]] = []
        var seenNotes = Set<Int64>()
    }

    private func gather(_ deck: Deck, order: StudyOrder, from source: some QueueSource, into gathered: inout Gathered, seed: UInt64) throws {
        let preset = deck.preset, clock = deck.clock
        let today = clock.dayNumber(of: now)
        let rollover = Int64(clock.start(ofDay: today + 1).timeIntervalSince1970)
        let visibleAt = Int64(now.timeIntervalSince1970.rounded(.down))
        let done = try source.answeredSince(deck: deck.id, since: clock.start(ofDay: today))

        // A step that ended on an earlier day than it began is Anki's interday learning: due for
        // the whole of its day, in line with the reviews; the others wait for their time.
        for (card, answered) in try source.learningCards(deck: deck.id, dueBefore: rollover, visibleAt: visibleAt) {
            let dueDay = clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(card.due)))
            if let answered, clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(answered))) < dueDay {
                gathered.dayLearning.append(card)
            } else {
                gathered.learning.append(card)
            }
        }

        let reviewRoom = max(0, preset.reviewsPerDay - done.reviews)
        if reviewRoom > 0 {
            var reviews: [QueueOrdering.DueReview]
            switch order.reviews {
            case .dueDate, .dueDateThenDeck, .deckThenDueDate:
                let due = try source.reviewCards(deck: deck.id, dueBefore: rollover, visibleAt: visibleAt, limit: reviewRoom)
                reviews = QueueOrdering.dueReviews(due.map { ($0, nil) }, clock: clock)
            default:
                // The order chooses which reviews the limit takes: all of them are read to sort.
                reviews = QueueOrdering.dueReviews(try source.reviewCardsWithFacts(deck: deck.id, dueBefore: rollover, visibleAt: visibleAt), clock: clock)
                let context = QueueOrdering.ReviewContext(
                    today: today, now: visibleAt,
                    fsrs: preset.scheduler.kind == .fsrs ? FSRS(parameters: preset.scheduler.fsrsParameters) : nil,
                    desiredRetention: preset.scheduler.desiredRetention, seed: seed, deckRank: [:])
                reviews = Array(QueueOrdering.sorted(reviews, order: order.reviews, context: context).prefix(reviewRoom))
            }
            gathered.reviews += reviews
            gathered.seenNotes.formUnion(reviews.map(\.card.noteID))
        }

        let newRoom = max(0, preset.newPerDay - done.new)
        guard newRoom > 0 else { return }
        // With gating, the open unit is the first one still holding a card that has not left learning.
        let unit: Int?? = preset.curriculumGating ? try source.firstUnlearnedUnit(deck: deck.id) : nil
        let candidates: [QueuedCard]
        switch order.newGather {
        case .deck, .ascendingPosition, .descendingPosition:
            // Siblings are buried once one is answered, so one card per note is taken: ask for
            // more than the room, since some will be left out.
            candidates = try source.newCards(deck: deck.id, unit: unit, visibleAt: visibleAt, limit: preset.burySiblings ? newRoom * 4 + 8 : newRoom,
                                             descending: order.newGather == .descendingPosition)
        case .deckThenRandomNotes, .randomNotes, .randomCards:
            candidates = QueueOrdering.gathered(try source.newCards(deck: deck.id, unit: unit, visibleAt: visibleAt, limit: nil, descending: false),
                                                order.newGather, seed: seed)
        }
        var new: [QueuedCard] = []
        for card in candidates where new.count < newRoom {
            if preset.burySiblings, !gathered.seenNotes.insert(card.noteID).inserted { continue }
            new.append(card)
        }
        gathered.new.append(new)
    }
}
