import Foundation

/// What a queue builder asks of a collection. The answers are rows; every rule (daily limits,
/// curriculum gating, sibling burying, the order of reviews) is the builder's.
public protocol QueueSource {
    /// A deck's unsuspended learning and relearning cards due before `dueBefore` (unix seconds)
    /// and not buried at `visibleAt`, each with the time it was last answered (unix seconds).
    func learningCards(deck: Int64, dueBefore: Int64, visibleAt: Int64) throws -> [(card: QueuedCard, lastAnswered: Int64?)]
    /// A deck's unsuspended, unburied review cards due before `dueBefore`, soonest due first,
    /// at most `limit`; each with its rank among cards due the same day (`AnkiTieBreak.rank` of
    /// its id in Anki and its modification time).
    func reviewCards(deck: Int64, dueBefore: Int64, visibleAt: Int64, limit: Int) throws -> [(card: QueuedCard, tie: Int64)]
    /// Every one of those, with what the other review orders sort by.
    func reviewCardsWithFacts(deck: Int64, dueBefore: Int64, visibleAt: Int64) throws -> [(card: QueuedCard, facts: ReviewFacts?, tie: Int64)]
    /// A deck's unsuspended, unburied new cards, lowest position first, at most `limit` (all
    /// when nil), or highest note position first with `descending`; only those of curriculum
    /// unit `unit` (its position; `.some(nil)` for cards outside any unit) when given.
    func newCards(deck: Int64, unit: Int??, visibleAt: Int64, limit: Int?, descending: Bool) throws -> [QueuedCard]
    /// The unit position of the first unsuspended card, in new-card order, that is new or still
    /// in learning: nil when there is none, `.some(nil)` when that card is in no unit.
    func firstUnlearnedUnit(deck: Int64) throws -> Int??
    /// Answers given in a deck since `since`: how many to cards that were new and to cards in
    /// review, and for each answer to a learning or relearning card, when it was due and when
    /// it had been answered before.
    func answeredSince(deck: Int64, since: Date) throws -> AnsweredToday
}

/// A deck's answers of the day, as its limits count them.
public struct AnsweredToday: Sendable, Equatable {
    public var new = 0, reviews = 0
    /// Answers to learning and relearning cards: due and answered before (unix seconds).
    public var learning: [Step] = []
    /// The time every answer of the day took (Anki keeps it beside its counts).
    public var milliseconds = 0

    public struct Step: Sendable, Equatable {
        public var due: Int64, answeredBefore: Int64
        public init(due: Int64, answeredBefore: Int64) { (self.due, self.answeredBefore) = (due, answeredBefore) }
    }

    public init(new: Int = 0, reviews: Int = 0, learning: [Step] = []) { (self.new, self.reviews, self.learning) = (new, reviews, learning) }

    /// New cards and reviews as the day's limits count them: an answer to interday learning
    /// counts as a review, as Anki counts it (the card was in line with the reviews, under
    /// their limit).
    public func counted(clock: DayClock) -> (new: Int, reviews: Int) {
        let interday = learning.count { step in
            CardState.isInterdayLearning(phase: .learning, due: Date(timeIntervalSince1970: TimeInterval(step.due)),
                                         lastReview: Date(timeIntervalSince1970: TimeInterval(step.answeredBefore)), clock: clock)
        }
        return (new, reviews + interday)
    }
}

/// Builds today's queue from rows a `QueueSource` hands over, with Anki's rules: each deck's
/// preset sets its limits, its rollover hour, its burying and (for the deck studied) the
/// display order; answers already given today count against the limits, so separate sessions
/// on one day share them.
public struct QueueBuilder {
    /// One deck to queue, with what its rules depend on.
    public struct Deck: Sendable {
        public var id: Int64
        public var preset: Preset
        public var clock: DayClock
        /// The nearest of the decks queued whose subdeck this is (Anki's parent): its limits cap
        /// this deck's, and this deck's answers count against them.
        public var parentID: Int64?
        /// Its own limits over its preset's.
        public var limits: DeckLimits
        /// False for a deck that is there for its limits and its answers only: a deck above the
        /// one studied, or beside it, when every parent's limits apply.
        public var gathers: Bool

        public init(id: Int64, preset: Preset, clock: DayClock, parentID: Int64? = nil, limits: DeckLimits = DeckLimits(), gathers: Bool = true) {
            self.id = id
            self.preset = preset
            self.clock = clock
            self.parentID = parentID
            self.limits = limits
            self.gathers = gathers
        }
    }

    public var now: Date
    /// The collection's seed: new cards gathered or sorted at random are shuffled reproducibly
    /// from it and the day (reviews go in Anki's own order of ties).
    public var seed: UInt64
    /// Whether a sibling a review would leave out (burying) is left out of the counts too.
    /// Anki's deck list counts it; its study screen does not.
    public var leavesOutSiblings = true
    /// How the collection's limits count (Anki's collection-wide options).
    public var rules = LimitRules()

    public init(now: Date, seed: UInt64, rules: LimitRules = LimitRules()) {
        self.now = now
        self.seed = seed
        self.rules = rules
    }

    /// The day's queue of `decks`, in the display order of the first deck's preset (the deck
    /// studied, as Anki takes the selected deck's), within Anki's tree of limits (`DayLimits`).
    /// Cards are gathered kind by kind, in Anki's order (learning, interday learning, reviews,
    /// new), so that a sibling is left out as Anki leaves it out.
    public func build(_ decks: [Deck], from source: some QueueSource) throws -> StudyQueue {
        guard let first = decks.first else { return StudyQueue() }
        let order = first.preset.order
        let today = first.clock.dayNumber(of: now)
        let daySeed = seed ^ UInt64(truncatingIfNeeded: today) &* 0x2545_F491_4F6C_DD1D
        let days = try decks.map { try DeckDay($0, now: now, source: source) }
        var seen = SeenNotes(leavesOutSiblings ? decks : [])

        // A step that ended on an earlier day than it began is Anki's interday learning: due for
        // the whole of its day, in line with the reviews; the others wait for their time.
        var learning: [(card: QueuedCard, burying: UInt8)] = [], dayLearning: [(card: QueuedCard, burying: UInt8)] = []
        for day in days where day.deck.gathers {
            for (card, answered) in try source.learningCards(deck: day.deck.id, dueBefore: day.rollover, visibleAt: day.visibleAt) {
                let dueDay = day.deck.clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(card.due)))
                if let answered, day.deck.clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(answered))) < dueDay {
                    dayLearning.append((card, day.burying))
                } else {
                    learning.append((card, day.burying))
                }
            }
        }
        learning.sort { $0.card.due < $1.card.due }
        for (card, burying) in learning { _ = seen.meet(card.noteID, bits: burying) }
        dayLearning.sort { ($0.card.due, $0.card.id) < ($1.card.due, $1.card.id) }
        let interday = dayLearning.filter { seen.meet($0.card.noteID, bits: $0.burying)?.interday != true }.map(\.card)

        var limits = DayLimits(days, rules: rules)
        let deckRank = Dictionary(decks.enumerated().map { ($1.id, $0) }) { first, _ in first }
        let reviews = try gatherReviews(days, order: order, limits: &limits, seen: &seen, deckRank: deckRank, from: source)
        if !rules.newIgnoresReviewLimit { limits.capNewToReviews() }
        let new = try gatherNew(days, order: order, limits: &limits, seen: &seen, from: source, seed: daySeed)

        let fsrs = first.preset.scheduler.kind == .fsrs ? FSRS(parameters: first.preset.scheduler.fsrsParameters) : nil
        let context = QueueOrdering.ReviewContext(today: today, now: Int64(now.timeIntervalSince1970.rounded(.down)), fsrs: fsrs,
                                                  desiredRetention: first.preset.scheduler.desiredRetention, deckRank: deckRank)
        let sortedReviews = QueueOrdering.sortedCards(reviews, order: order.reviews, context: context)
        let sortedNew = QueueOrdering.sorted(new, order.newSort, seed: daySeed)

        var queue = StudyQueue()
        queue.learning = learning.map(\.card)
        queue.main = QueueOrdering.mix(QueueOrdering.mix(sortedReviews, with: interday, order.interdayLearningMix), with: sortedNew, order.newMix)
        return queue
    }

    /// One deck's study day as its own clock and today's answers make it.
    private struct DeckDay {
        let deck: Deck
        let today: Int
        let rollover: Int64
        let visibleAt: Int64
        let done: (new: Int, reviews: Int)
        /// Its burying switches, as `SeenNotes.bits` makes them.
        let burying: UInt8

        init(_ deck: Deck, now: Date, source: some QueueSource) throws {
            self.deck = deck
            burying = SeenNotes.bits(deck.preset)
            today = deck.clock.dayNumber(of: now)
            rollover = Int64(deck.clock.start(ofDay: today + 1).timeIntervalSince1970)
            visibleAt = Int64(now.timeIntervalSince1970.rounded(.down))
            done = try source.answeredSince(deck: deck.id, since: deck.clock.start(ofDay: today)).counted(clock: deck.clock)
        }
    }

    /// The burying switches each note was met under so far, as Anki keeps them while it gathers
    /// a day's cards: a later card of the note is left out when the switch for its kind is on.
    private struct SeenNotes {
        typealias Switches = (new: Bool, reviews: Bool, interday: Bool)
        /// Per note, the switches as bits: 1 new, 2 reviews, 4 interday learning.
        private var notes: [Int64: UInt8] = [:]
        /// Where every deck has the same switches, only which notes were met (the usual case:
        /// one deck, or decks sharing one preset; a set is the cheaper to keep).
        private var met = NoteIDSet()
        private let uniform: UInt8?
        /// False when no deck buries anything: nothing need be kept.
        let active: Bool

        init(_ decks: [Deck]) {
            let switches = Set(decks.map { Self.bits($0.preset) })
            active = !switches.isEmpty && switches != [0]
            uniform = switches.count == 1 ? switches.first : nil
        }

        static func bits(_ preset: Preset) -> UInt8 {
            (preset.buryNew ? 1 : 0) | (preset.buryReviews ? 2 : 0) | (preset.buryInterdayLearning ? 4 : 0)
        }

        mutating func expect(_ count: Int) {
            guard active else { return }
            if uniform != nil { met.reserve(count) } else { notes.reserveCapacity(notes.count + count) }
        }

        /// Meets `note` under `preset`'s switches; answers those it was met under before, if it was.
        /// (The switches as `bits` makes them: a preset is large to copy per card.)
        mutating func meet(_ note: Int64, bits: UInt8) -> Switches? {
            guard active else { return nil }
            let previous: UInt8
            if let uniform {
                guard !met.insert(note) else { return nil }
                previous = uniform
            } else if let index = notes.index(forKey: note) {
                previous = notes.values[index]
                notes.values[index] = previous | bits
            } else {
                notes[note] = bits
                return nil
            }
            return (previous & 1 != 0, previous & 2 != 0, previous & 4 != 0)
        }
    }

    /// Every deck's remaining limits for the day, as Anki keeps them in a tree: a deck's own
    /// limit less what it and its subdecks took today (an answer to a new card counts against
    /// both limits), capped by its parent's; a card taken counts against its deck and every
    /// deck above it.
    private struct DayLimits {
        var review: [Int], new: [Int]
        let parent: [Int?]

        init(_ days: [DeckDay], rules: LimitRules) {
            let index = Dictionary(days.enumerated().map { ($1.deck.id, $0) }) { first, _ in first }
            parent = days.map { $0.deck.parentID.flatMap { index[$0] } }
            var done = days.map(\.done)
            // Answers in a subdeck count in every deck above it.
            for deck in days.indices {
                var above = parent[deck], hops = 0
                while let up = above, hops < days.count {
                    done[up].new += days[deck].done.new
                    done[up].reviews += days[deck].done.reviews
                    (above, hops) = (parent[up], hops + 1)
                }
            }
            // A deck's own limit for the day, else its preset's; answers to new cards use up
            // reviews too, unless new cards ignore the review limit.
            review = days.indices.map { index in
                let day = days[index]
                let limit = day.deck.limits.reviews(on: day.today) ?? day.deck.preset.reviewsPerDay
                return max(0, limit - done[index].reviews - (rules.newIgnoresReviewLimit ? 0 : done[index].new))
            }
            new = days.indices.map { index in
                let day = days[index]
                return max(0, (day.deck.limits.new(on: day.today) ?? day.deck.preset.newPerDay) - done[index].new)
            }
        }

        /// The least room left in `deck` and the decks above it.
        func room(_ deck: Int, new isNew: Bool) -> Int {
            var least = Int.max, current: Int? = deck, hops = 0
            while let index = current, hops <= parent.count {
                least = min(least, isNew ? new[index] : review[index])
                (current, hops) = (parent[index], hops + 1)
            }
            return least
        }

        /// A card of `deck` taken: one less room there and in every deck above it.
        mutating func take(_ deck: Int, new isNew: Bool) {
            var current: Int? = deck, hops = 0
            while let index = current, hops <= parent.count {
                if isNew { new[index] -= 1 } else { review[index] -= 1 }
                (current, hops) = (parent[index], hops + 1)
            }
        }

        /// New cards are limited by the reviews left too (Anki's default): what remains of a
        /// review limit after the day's reviews is the most new cards a deck can take.
        mutating func capNewToReviews() {
            for deck in new.indices { new[deck] = min(new[deck], review[deck]) }
        }
    }

    /// The day's reviews: each deck's read, then taken in the review order (all decks as one
    /// line, as Anki gathers them) while the deck and every deck above it have room, less
    /// siblings buried.
    private func gatherReviews(_ days: [DeckDay], order: StudyOrder, limits: inout DayLimits, seen: inout SeenNotes, deckRank: [Int64: Int],
                               from source: some QueueSource) throws -> QueueOrdering.DueReviews {
        // Siblings left out free their places: where a deck buries, a few more than its room are
        // read, and all of them only when those were not enough (a rare day: a million cards
        // can have tens of thousands due).
        var readAll = Set<Int>()
        while true {
            var (triedLimits, triedSeen) = (limits, seen)
            let (reviews, short) = try gatherReviews(days, order: order, limits: &triedLimits, seen: &triedSeen, deckRank: deckRank, readAll: readAll,
                                                     from: source)
            guard !short.isSubset(of: readAll) else {
                (limits, seen) = (triedLimits, triedSeen)
                return reviews
            }
            readAll.formUnion(short)
        }
    }

    /// One try: `readAll` names the decks whose due reviews are all read. Answers the reviews
    /// taken and the decks read only in part that still had room.
    private func gatherReviews(_ days: [DeckDay], order: StudyOrder, limits: inout DayLimits, seen: inout SeenNotes, deckRank: [Int64: Int],
                               readAll: Set<Int>, from source: some QueueSource) throws -> (QueueOrdering.DueReviews, Set<Int>) {
        var candidates = QueueOrdering.DueReviews()
        var deckOf: [Int] = []
        var partlyRead = Set<Int>()
        let byDate = [.dueDate, .dueDateThenDeck, .deckThenDueDate].contains(order.reviews)
        for (index, day) in days.enumerated() where day.deck.gathers {
            let room = limits.room(index, new: false)
            guard room > 0 else { continue }
            let read: QueueOrdering.DueReviews
            if byDate {
                let limit = !seen.active ? room : (readAll.contains(index) ? Int.max : room + room / 4 + 16)
                var rows = try source.reviewCards(deck: day.deck.id, dueBefore: day.rollover, visibleAt: day.visibleAt, limit: limit)
                let full = rows.count == limit
                // Anki breaks a day's ties by its hash, not by the order they were read in: the
                // rest of the last day read comes too, so the limit cuts where Anki's order does.
                if full, let last = rows.last?.card.due {
                    let clock = day.deck.clock
                    let dayEnd = Int64(clock.start(ofDay: clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(last))) + 1).timeIntervalSince1970)
                    rows = try source.reviewCards(deck: day.deck.id, dueBefore: min(day.rollover, dayEnd), visibleAt: day.visibleAt, limit: Int.max)
                }
                read = QueueOrdering.DueReviews(rows.map(\.card), ties: rows.map(\.tie), clock: day.deck.clock)
                if seen.active, full { partlyRead.insert(index) }
            } else {
                // The order chooses which reviews the limit takes: all of them are read to sort.
                let all = try source.reviewCardsWithFacts(deck: day.deck.id, dueBefore: day.rollover, visibleAt: day.visibleAt)
                read = QueueOrdering.DueReviews(all.map(\.card), facts: all.map(\.facts), ties: all.map(\.tie), clock: day.deck.clock)
            }
            candidates.append(read)
            deckOf += repeatElement(index, count: read.count)
        }
        // One deck by due date: its reviews as read, soonest due first; else all decks as one line.
        let asRead = byDate && days.count == 1
        let inOrder: [Int]
        if asRead {
            inOrder = []
        } else {
            let first = days[0].deck.preset
            let context = QueueOrdering.ReviewContext(
                today: days[0].today, now: days[0].visibleAt,
                fsrs: first.scheduler.kind == .fsrs ? FSRS(parameters: first.scheduler.fsrsParameters) : nil,
                desiredRetention: first.scheduler.desiredRetention, deckRank: deckRank)
            inOrder = QueueOrdering.sorted(candidates, order: order.reviews, context: context)
        }
        seen.expect(candidates.count)
        // The places taken, kept only once one is left out (until then, the first `kept` in order).
        var taken: [Int]?, kept = 0
        for position in 0..<candidates.count {
            let index = asRead ? position : inOrder[position]
            let deck = asRead ? 0 : deckOf[index]
            guard limits.room(deck, new: false) > 0,
                  seen.meet(candidates.cards[index].noteID, bits: days[deck].burying)?.reviews != true else {
                if taken == nil { taken = Array((asRead ? Array(0..<candidates.count) : inOrder).prefix(kept)) }
                continue
            }
            limits.take(deck, new: false)
            if taken != nil { taken!.append(index) } else { kept += 1 }
        }
        let short = partlyRead.filter { limits.room($0, new: false) > 0 }
        if let taken { return (candidates.picking(taken), short) }
        return (asRead ? candidates : candidates.picking(inOrder), short)
    }

    /// The day's new cards: each deck's gathered in the gather order (with gating, of the open
    /// unit only), then taken in that order, all decks as one line, while the deck and every
    /// deck above it have room, less siblings buried.
    private func gatherNew(_ days: [DeckDay], order: StudyOrder, limits: inout DayLimits, seen: inout SeenNotes, from source: some QueueSource,
                           seed: UInt64) throws -> [QueuedCard] {
        var perDeck: [[QueuedCard]] = []
        var deckOf: [Int64: Int] = [:]
        for (index, day) in days.enumerated() {
            deckOf[day.deck.id] = index
            let room = limits.room(index, new: true)
            guard room > 0, day.deck.gathers else {
                perDeck.append([])
                continue
            }
            let preset = day.deck.preset
            // With gating, the open unit is the first one still holding a card that has not left learning.
            let unit: Int?? = preset.curriculumGating ? try source.firstUnlearnedUnit(deck: day.deck.id) : nil
            switch order.newGather {
            case .deck, .ascendingPosition, .descendingPosition:
                // Siblings are buried once one is answered, so one card per note is taken: ask for
                // more than the room, since some will be left out.
                perDeck.append(try source.newCards(deck: day.deck.id, unit: unit, visibleAt: day.visibleAt, limit: seen.active ? room * 4 + 8 : room,
                                                   descending: order.newGather == .descendingPosition))
            case .deckThenRandomNotes, .randomNotes, .randomCards:
                perDeck.append(QueueOrdering.gathered(try source.newCards(deck: day.deck.id, unit: unit, visibleAt: day.visibleAt, limit: nil,
                                                                          descending: false), order.newGather, seed: seed))
            }
        }
        var new: [QueuedCard] = []
        for card in QueueOrdering.merged(perDeck, order.newGather, seed: seed) {
            guard let deck = deckOf[card.deckID], limits.room(deck, new: true) > 0 else { continue }
            if seen.meet(card.noteID, bits: days[deck].burying)?.new == true { continue }
            limits.take(deck, new: true)
            new.append(card)
        }
        return new
    }
}
