import Foundation

/// What review orders other than by due date sort a due review by.
public struct ReviewFacts: Hashable, Sendable {
    public var intervalDays: Int
    public var easePermille: Int
    public var stability: Double?
    public var difficulty: Double?
    /// Unix seconds of the last answer.
    public var lastReview: Int64?
    /// When its note was added (Unix milliseconds, Anki's note id for a note from Anki), and
    /// its template as Anki numbers it: the order added.
    public var added: Int64
    public var template: Int

    public init(intervalDays: Int, easePermille: Int, stability: Double?, difficulty: Double?, lastReview: Int64?, added: Int64 = 0, template: Int = 0) {
        (self.intervalDays, self.easePermille, self.stability, self.difficulty, self.lastReview, self.added, self.template)
            = (intervalDays, easePermille, stability, difficulty, lastReview, added, template)
    }
}

/// Anki's display orders over queue rows. Reviews the order leaves tied go in Anki's own order
/// of ties (`AnkiTieBreak`); where Anki gathers or sorts new cards at random, a hash of the card
/// (or note) and the day's seed does, so the order holds through a day's sessions.
enum QueueOrdering {
    /// Anki's intersperser: `two` spread as evenly as the counts allow through `one`, the
    /// longer line's first card first.
    static func intersperse(_ one: consuming [QueuedCard], _ two: [QueuedCard]) -> [QueuedCard] {
        let ratio = Float(one.count + 1) / Float(two.count + 1)
        let oneCount = one.count
        // How many of `one` go before each of `two`: the next of `two` goes before `one`'s
        // card at `end` once (second + 1) × ratio is below end + 1.
        var before: [Int] = []
        before.reserveCapacity(two.count)
        var end = 0
        for second in two.indices {
            let threshold = Float(second + 1) * ratio
            while end < oneCount, !(threshold < Float(end + 1)) { end += 1 }
            before.append(end)
        }
        // In `one`'s own storage, from the back: each run of `one` moves up by the cards of
        // `two` before it. A day's line is long and the cards mixed in are few; a second copy
        // of the line costs more than the queue's reads.
        var result = one
        result.append(contentsOf: two)
        result.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var runEnd = oneCount
            for second in two.indices.reversed() {
                let runStart = before[second]
                (base + runStart + second + 1).update(from: base + runStart, count: runEnd - runStart)
                base[runStart + second] = two[second]
                runEnd = runStart
            }
        }
        return result
    }

    static func mix(_ reviews: consuming [QueuedCard], with other: [QueuedCard], _ mix: StudyOrder.Mix) -> [QueuedCard] {
        if other.isEmpty { return reviews }
        if reviews.isEmpty { return other }
        switch mix {
        case .mixed: return intersperse(reviews, other)
        case .afterReviews: return reviews + other
        case .beforeReviews: return other + reviews
        }
    }

    /// A stable random rank of `id` for the day.
    static func hash(_ id: Int64, seed: UInt64) -> UInt64 {
        var mixer = SplitMix64(state: seed ^ UInt64(bitPattern: id) &* 0x9E37_79B9_7F4A_7C15)
        return mixer.next()
    }

    // MARK: Reviews

    /// The context a review's rank depends on.
    struct ReviewContext {
        var today: Int
        var now: Int64
        /// The ordering preset's FSRS, when it schedules with FSRS: ease orders then go by
        /// difficulty and overdueness by retrievability, as in Anki.
        var fsrs: FSRS?
        var desiredRetention: Double
        /// Each deck's place in the list of decks studied.
        var deckRank: [Int64: Int]
    }

    /// Due reviews as columns, soonest due first: the cards, their due days (each day's number
    /// worked out once for the run of cards due that day; a zone with summer time asks the
    /// calendar) and, where the order needs them, their facts. A day's queue can hold thousands,
    /// and whole rows copied through every step cost more than the queue's own queries. Each
    /// day's cards are in Anki's order of ties (`AnkiTieBreak`): cards read soonest due first
    /// are in Anki's "due date" order.
    struct DueReviews {
        var cards: [QueuedCard] = []
        var days: [Int] = []
        /// Empty when the order needs none.
        var facts: [ReviewFacts?] = []
        /// Each card's rank among its day's (`AnkiTieBreak.rank`).
        var ties: [Int64] = []

        init() {}

        init(_ cards: [QueuedCard], facts: [ReviewFacts?] = [], ties: [Int64], clock: DayClock) {
            (self.cards, self.facts, self.ties) = (cards, facts, ties)
            days.reserveCapacity(cards.count)
            var day = 0, dayStart = Int64.max, dayEnd = Int64.min
            for card in cards {
                if card.due >= dayEnd || card.due < dayStart {
                    day = clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(card.due)))
                    (dayStart, dayEnd) = (Int64(clock.start(ofDay: day).timeIntervalSince1970), Int64(clock.start(ofDay: day + 1).timeIntervalSince1970))
                }
                days.append(day)
            }
            // Read soonest due first, a day's cards come in their times' order: put in Anki's.
            var sorted = true
            for index in days.indices.dropFirst() where (days[index - 1], ties[index - 1]) > (days[index], ties[index]) {
                sorted = false
                break
            }
            guard !sorted else { return }
            var order = days.indices.map { (day: days[$0], tie: ties[$0], index: $0) }
            // The read's order settles equal ranks, as before: Swift's sort does not promise to keep it.
            order.sort { ($0.day, $0.tie, $0.index) < ($1.day, $1.tie, $1.index) }
            self.cards = order.map { cards[$0.index] }
            self.days = order.map(\.day)
            self.ties = order.map(\.tie)
            if !facts.isEmpty { self.facts = order.map { facts[$0.index] } }
        }

        var count: Int { cards.count }

        func facts(_ index: Int) -> ReviewFacts? { facts.isEmpty ? nil : facts[index] }

        /// These reviews, only those at `indices`, in that order.
        func picking(_ indices: some Sequence<Int>) -> DueReviews {
            var picked = DueReviews()
            for index in indices {
                picked.cards.append(cards[index])
                picked.days.append(days[index])
                picked.ties.append(ties[index])
                if !facts.isEmpty { picked.facts.append(facts[index]) }
            }
            return picked
        }

        mutating func append(_ other: DueReviews) {
            if cards.isEmpty {
                self = other
                return
            }
            if facts.isEmpty != other.facts.isEmpty {
                if facts.isEmpty { facts = Array(repeating: nil, count: cards.count) }
                facts += other.facts.isEmpty ? Array(repeating: nil, count: other.count) : other.facts
            } else {
                facts += other.facts
            }
            cards += other.cards
            days += other.days
            ties += other.ties
        }
    }

    /// The keys review `index` is sorted by, most significant first; ties go to Anki's rank. A
    /// missing value sorts as SQLite sorts NULL, as Anki's query does: first going up, last
    /// going down.
    static func reviewKey(_ index: Int, of reviews: DueReviews, order: StudyOrder.ReviewOrder, context: ReviewContext) -> (Double, Double) {
        let card = reviews.cards[index], facts = reviews.facts(index), day = reviews.days[index]
        let dueDay = Double(day)
        let deck = Double(context.deckRank[card.deckID] ?? 0)
        func ascending(_ value: Double?) -> Double { value ?? -.infinity }
        func descending(_ value: Double?) -> Double { value.map { -$0 } ?? .infinity }
        let interval = facts.map { Double($0.intervalDays) }
        switch order {
        case .dueDate: return (dueDay, 0)
        case .dueDateThenDeck: return (dueDay, deck)
        case .deckThenDueDate: return (deck, dueDay)
        case .ascendingIntervals: return (ascending(interval), 0)
        case .descendingIntervals: return (descending(interval), 0)
        case .ascendingEase:
            return (context.fsrs == nil ? ascending(facts.map { Double($0.easePermille) }) : descending(facts?.difficulty), 0)
        case .descendingEase:
            return (context.fsrs == nil ? descending(facts.map { Double($0.easePermille) }) : ascending(facts?.difficulty), 0)
        case .ascendingRetrievability: return (ascending(retrievability(facts, dueDay: day, context: context)), 0)
        case .descendingRetrievability: return (descending(retrievability(facts, dueDay: day, context: context)), 0)
        case .relativeOverdueness: return (relativeOverdueness(facts, dueDay: day, context: context), 0)
        case .random: return (0, 0)
        case .added: return (Double(facts?.added ?? card.noteID), Double(facts?.template ?? 0))
        case .reverseAdded: return (-Double(facts?.added ?? card.noteID), Double(facts?.template ?? 0))
        }
    }

    /// FSRS's recall now, for a card with a memory.
    static func retrievability(_ facts: ReviewFacts?, dueDay: Int, context: ReviewContext) -> Double? {
        guard let facts, let stability = facts.stability else { return nil }
        let fsrs = context.fsrs ?? FSRS(parameters: .fsrs6Default)
        return fsrs.retrievability(elapsedDays: elapsedDays(facts, dueDay: dueDay, context: context), stability: stability)
    }

    /// Days since the last answer: from its time, else from the due date less the interval.
    static func elapsedDays(_ facts: ReviewFacts, dueDay: Int, context: ReviewContext) -> Double {
        if let last = facts.lastReview { return Double(max(0, context.now - last)) / 86_400 }
        return Double(max(0, context.today - (dueDay - facts.intervalDays)))
    }

    /// Anki's relative overdueness: under FSRS how far recall has fallen next to how far the
    /// desired retention lets it, else the days overdue as a share of the interval; the most
    /// overdue first.
    static func relativeOverdueness(_ facts: ReviewFacts?, dueDay: Int, context: ReviewContext) -> Double {
        let interval = Double(max(facts?.intervalDays ?? 1, 1))
        if let fsrs = context.fsrs, let facts, let stability = facts.stability {
            let decay = fsrs.decay
            let recall = max(fsrs.retrievability(elapsedDays: elapsedDays(facts, dueDay: dueDay, context: context), stability: stability), 0.0001)
            let desired = max(context.desiredRetention, 0.0001)
            return -(pow(recall, -1 / decay) - 1) / (pow(desired, -1 / decay) - 1)
        }
        return -(1 + (Double(context.today - dueDay) + 0.001) / interval)
    }

    /// `reviews` in `order` (taken: sorted in place where they can be).
    static func sortedCards(_ reviews: consuming DueReviews, order: StudyOrder.ReviewOrder, context: ReviewContext) -> [QueuedCard] {
        // By due date, soonest due first as read: each day's run is in Anki's order already.
        if order == .dueDate, zip(reviews.days, reviews.days.dropFirst()).allSatisfy({ $0 <= $1 }) {
            return reviews.cards
        }
        return sorted(reviews, order: order, context: context).map { reviews.cards[$0] }
    }

    /// The places of `reviews` in `order`; what the order leaves tied, in Anki's order of ties.
    static func sorted(_ reviews: DueReviews, order: StudyOrder.ReviewOrder, context: ReviewContext) -> [Int] {
        var keys = (0..<reviews.count).map { index in
            let key = reviewKey(index, of: reviews, order: order, context: context)
            return (key.0, key.1, reviews.ties[index], index)
        }
        keys.sort { ($0.0, $0.1, $0.2, $0.3) < ($1.0, $1.1, $1.2, $1.3) }
        return keys.map(\.3)
    }

    // MARK: New cards

    /// A new card's place among its note's cards, from its position.
    static func siblingPlace(_ card: QueuedCard) -> Int64 { card.due & 0x3FF }

    /// New cards, gathered in position order, in `gather` order where it is random.
    static func gathered(_ cards: [QueuedCard], _ gather: StudyOrder.NewGather, seed: UInt64) -> [QueuedCard] {
        switch gather {
        case .deck, .ascendingPosition, .descendingPosition: cards
        case .deckThenRandomNotes, .randomNotes:
            cards.sorted { (hash($0.noteID, seed: seed), siblingPlace($0)) < (hash($1.noteID, seed: seed), siblingPlace($1)) }
        case .randomCards: cards.sorted { hash($0.id, seed: seed) < hash($1.id, seed: seed) }
        }
    }

    /// Several decks' gathered cards as one line: deck by deck, or merged in the gather order.
    /// A position of Maeil's is a deck's own (its units, its file's order), so such decks are
    /// merged by the order their notes came into the collection: each deck keeps its own order,
    /// and the next card is the deck's whose note came first (or last). Two cards from Anki
    /// compare by their positions in Anki's new queue, as Anki gathers across decks.
    static func merged(_ decks: [[QueuedCard]], _ gather: StudyOrder.NewGather, seed: UInt64) -> [QueuedCard] {
        switch gather {
        case .deck, .deckThenRandomNotes: return decks.flatMap { $0 }
        case .ascendingPosition, .descendingPosition:
            let later = gather == .descendingPosition
            var heads = decks.map { $0[...] }, line: [QueuedCard] = []
            while let next = heads.indices.filter({ !heads[$0].isEmpty }).min(by: { first, second in
                let (one, other) = (heads[first].first!, heads[second].first!)
                if let a = one.ankiPosition, let b = other.ankiPosition, a != b { return later ? a > b : a < b }
                return later ? one.noteID > other.noteID : one.noteID < other.noteID
            }) {
                line.append(heads[next].removeFirst())
            }
            return line
        case .randomNotes, .randomCards: return gathered(decks.flatMap { $0 }, gather, seed: seed)
        }
    }

    /// The day's new cards in `sort` order, from the order they were gathered in.
    static func sorted(_ cards: [QueuedCard], _ sort: StudyOrder.NewSort, seed: UInt64) -> [QueuedCard] {
        // Each card with its place in the gather order, which breaks the ties.
        let gathered = Array(cards.enumerated())
        func by(_ key: (QueuedCard) -> (UInt64, UInt64)) -> [QueuedCard] {
            gathered.sorted { (key($0.element).0, key($0.element).1, $0.offset) < (key($1.element).0, key($1.element).1, $1.offset) }
                .map(\.element)
        }
        func template(_ card: QueuedCard) -> UInt64 { UInt64(card.template) }
        switch sort {
        case .gather: return cards
        case .templateThenGather: return by { (template($0), 0) }
        case .templateThenRandom: return by { (template($0), hash($0.id, seed: seed)) }
        case .randomNoteThenTemplate: return by { (hash($0.noteID, seed: seed), template($0)) }
        case .randomCard: return by { (hash($0.id, seed: seed), 0) }
        }
    }
}
