import Foundation
import PropertyBased
import Testing
@testable import MaeilCore
import MaeilTestSupport

/// A collection's rows held in memory: the queue builder's rules, tested without a database.
final class RowsInMemory: QueueSource {
    struct Row {
        var id: Int64
        var note: Int64
        var deck: Int64 = 1
        var phase: CardPhase
        var due: Int64 = 0
        var unit: Int?
        var suspended = false
        var buriedUntil: Int64?
        var lastAnswered: Int64?
        var position: Int64 = 0
        var facts: ReviewFacts?
    }

    var rows: [Row]
    /// (deck, time, phase before) of today's answers.
    var answers: [(deck: Int64, time: Date, phase: CardPhase)] = []
    /// Today's answers to learning steps: (deck, time, the step's due, the answer before).
    var stepAnswers: [(deck: Int64, time: Date, due: Int64, before: Int64)] = []

    init(_ rows: [Row]) { self.rows = rows }

    private func visible(_ row: Row, _ at: Int64) -> Bool { !row.suspended && (row.buriedUntil ?? 0) <= at }
    private func queued(_ row: Row) -> QueuedCard {
        QueuedCard(id: row.id, noteID: row.note, deckID: row.deck, phase: row.phase, due: row.phase == .new ? row.position : row.due)
    }

    func learningCards(deck: Int64, dueBefore: Int64, visibleAt: Int64) -> [(card: QueuedCard, lastAnswered: Int64?)] {
        rows.filter { $0.deck == deck && $0.phase.isInSteps && visible($0, visibleAt) && $0.due < dueBefore }.map { (queued($0), $0.lastAnswered) }
    }

    /// A row's rank among its day's, as a card last changed at time 0 would have in Anki.
    private func tie(_ row: Row) -> Int64 { AnkiTieBreak.rank(cardID: row.id, modified: 0) }

    func reviewCardsWithFacts(deck: Int64, dueBefore: Int64, visibleAt: Int64) -> [(card: QueuedCard, facts: ReviewFacts?, tie: Int64)] {
        rows.filter { $0.deck == deck && $0.phase == .review && visible($0, visibleAt) && $0.due < dueBefore }.map { (queued($0), $0.facts, tie($0)) }
    }

    func reviewCards(deck: Int64, dueBefore: Int64, visibleAt: Int64, limit: Int) -> [(card: QueuedCard, tie: Int64)] {
        Array(rows.filter { $0.deck == deck && $0.phase == .review && visible($0, visibleAt) && $0.due < dueBefore }
            .sorted { $0.due < $1.due }.prefix(limit)).map { (queued($0), tie($0)) }
    }

    func newCards(deck: Int64, unit: Int??, visibleAt: Int64, limit: Int?, descending: Bool) -> [QueuedCard] {
        let cards = rows.filter { row in
            guard row.deck == deck, row.phase == .new, visible(row, visibleAt) else { return false }
            if case .some(let wanted) = unit { return row.unit == wanted }
            return true
        }.sorted { descending ? ($0.position >> 10, -($0.position & 1023)) > ($1.position >> 10, -($1.position & 1023)) : $0.position < $1.position }
        return Array(cards.prefix(limit ?? cards.count)).map(queued)
    }

    func firstUnlearnedUnit(deck: Int64) -> Int?? {
        rows.first { $0.deck == deck && !$0.suspended && ($0.phase == .new || $0.phase == .learning) }.map(\.unit)
    }

    func answeredSince(deck: Int64, since: Date) -> AnsweredToday {
        let today = answers.filter { $0.deck == deck && $0.time >= since }
        return AnsweredToday(new: today.filter { $0.phase == .new }.count, reviews: today.filter { $0.phase == .review }.count,
                             learning: stepAnswers.filter { $0.deck == deck && $0.time >= since }.map { .init(due: $0.due, answeredBefore: $0.before) })
    }
}

@Suite("Today's queue")
struct QueueBuilderTests {
    static let now = Fixture.noon
    static let today = Int64(Fixture.clock.start(ofDay: Fixture.day0).timeIntervalSince1970)

    func build(_ source: RowsInMemory, _ configure: (inout Preset) -> Void = { _ in }, seed: UInt64 = 1) throws -> StudyQueue {
        var preset = Preset(name: "p")
        configure(&preset)
        return try QueueBuilder(now: Self.now, seed: seed).build([.init(id: 1, preset: preset, clock: Fixture.clock)], from: source)
    }

    static func newCards(_ count: Int, unitSize: Int? = nil, siblings: Int = 1) -> [RowsInMemory.Row] {
        (0..<count).map { index in
            RowsInMemory.Row(id: Int64(index + 1), note: Int64(index / siblings + 1), phase: .new, unit: unitSize.map { index / $0 + 1 })
        }
    }

    @Test func newCardsStopAtTheDailyLimitLessTodaysAnswers() throws {
        let source = RowsInMemory(Self.newCards(30))
        #expect(try build(source) { $0.newPerDay = 12 }.new.map(\.id) == Array(1...12))
        source.answers = Array(repeating: (1, Self.now, .new), count: 10) + [(1, Self.now.addingTimeInterval(-86_400), .new)]
        #expect(try build(source) { $0.newPerDay = 12 }.new.count == 2)
    }

    /// Anki counts an answer to interday learning (a step that ended on a later day than it
    /// was answered) against the review limit, and an answer to a step within the day against
    /// none.
    @Test func interdayLearningAnsweredTodayCountsAsAReview() throws {
        let nowSeconds = Int64(Self.now.timeIntervalSince1970)
        let source = RowsInMemory((0..<10).map { .init(id: Int64($0 + 1), note: Int64($0 + 1), phase: .review, due: Self.today) })
        #expect(try build(source) { $0.reviewsPerDay = 5 }.reviewCount == 5)
        source.stepAnswers = [
            // Answered yesterday, due this morning: interday, twice.
            (1, Self.now, Self.today + 3600, nowSeconds - 86_400), (1, Self.now, Self.today + 7200, nowSeconds - 90_000),
            // Answered an hour ago, due ten minutes later: a step within the day.
            (1, Self.now, nowSeconds - 3000, nowSeconds - 3600),
        ]
        #expect(try build(source) { $0.reviewsPerDay = 5 }.reviewCount == 3)
    }

    @Test func reviewsStopAtTheirLimitOldestDayFirstInAnkisOrderWithinADay() throws {
        var rows: [RowsInMemory.Row] = []
        for index in 0..<40 {
            // Ten each due 3, 2 and 1 days ago and today.
            rows.append(.init(id: Int64(index + 1), note: Int64(index + 1), phase: .review, due: Self.today - Int64(3 - index / 10) * 86_400))
        }
        let source = RowsInMemory(rows)
        let queue = try build(source) { $0.reviewsPerDay = 25 }
        #expect(queue.reviews.count == 25)
        #expect(queue.reviews.map(\.due) == queue.reviews.map(\.due).sorted())
        // Within a day, in Anki's order of ties (`AnkiTieBreak`), not as read; where the limit
        // cuts a day (the third: 5 of 10), the cards Anki's order puts first.
        func inAnkisOrder(_ ids: ClosedRange<Int64>) -> [Int64] { ids.sorted { AnkiTieBreak.rank(cardID: $0, modified: 0) < AnkiTieBreak.rank(cardID: $1, modified: 0) } }
        #expect(queue.reviews.map(\.id) == inAnkisOrder(1...10) + inAnkisOrder(11...20) + inAnkisOrder(21...30).prefix(5))
        #expect(inAnkisOrder(1...10) != Array(1...10))
        // Anki's order is the cards', not the day's: the collection's seed does not move it.
        #expect(try build(source, { $0.reviewsPerDay = 25 }, seed: 2).reviews == queue.reviews)
        source.answers = Array(repeating: (1, Self.now, .review), count: 20)
        #expect(try build(source) { $0.reviewsPerDay = 25 }.reviews.count == 5)
    }

    @Test func gatingOpensOneUnitAtATime() throws {
        var rows = Self.newCards(9, unitSize: 3)
        let source = RowsInMemory(rows)
        #expect(try build(source) { $0.curriculumGating = true }.new.map(\.id) == [1, 2, 3])
        #expect(try build(source).new.map(\.id) == Array(1...9))
        // Two cards of the first unit learned, one still learning: the unit stays open.
        rows[0].phase = .review
        rows[1].phase = .review
        rows[2].phase = .learning
        source.rows = rows
        #expect(try build(source) { $0.curriculumGating = true }.new.isEmpty)
        rows[2].phase = .review
        source.rows = rows
        #expect(try build(source) { $0.curriculumGating = true }.new.map(\.id) == [4, 5, 6])
    }

    @Test func buryingTakesOneCardPerNoteAndNoneOfANoteUnderReview() throws {
        var rows = Self.newCards(8, siblings: 2)  // notes 1–4, two cards each
        rows.append(.init(id: 100, note: 2, phase: .review, due: Self.today))
        let source = RowsInMemory(rows)
        #expect(try build(source).new.map(\.id) == [1, 5, 7])
        #expect(try build(source) { $0.burySiblings = false }.new.map(\.id) == [1, 2, 3, 4, 5, 6, 7, 8])
    }

    @Test func hiddenCardsStayOutAndLearningCardsComeBackByTheirDueTime() throws {
        let nowSeconds = Int64(Self.now.timeIntervalSince1970)
        let source = RowsInMemory([
            .init(id: 1, note: 1, phase: .learning, due: nowSeconds + 600),
            .init(id: 2, note: 2, phase: .relearning, due: nowSeconds - 60),
            .init(id: 3, note: 3, phase: .review, due: Self.today, suspended: true),
            .init(id: 4, note: 4, phase: .review, due: Self.today, buriedUntil: nowSeconds + 3600),
            .init(id: 5, note: 5, phase: .new),
        ])
        var queue = try build(source)
        #expect(queue.learning.map(\.id) == [2, 1])
        #expect(queue.reviews.isEmpty)
        #expect(queue.takeNext(now: nowSeconds)?.id == 2)
        #expect(queue.takeNext(now: nowSeconds)?.id == 5)
        // Nothing else left: a learning card due within the learn-ahead limit comes early…
        #expect(queue.takeNext(now: nowSeconds - StudyQueue.learnAheadSeconds + 600)?.id == 1)
        // …and one due later does not.
        queue.requeue(QueuedCard(id: 1, noteID: 1, deckID: 1, phase: .learning, due: nowSeconds + 3600))
        #expect(queue.takeNext(now: nowSeconds) == nil)
    }

    @Test func mixingSpreadsTheShorterLineEvenlyAsAnkisIntersperserDoes() {
        func line(_ ids: [Int64]) -> [QueuedCard] { ids.map { QueuedCard(id: $0, noteID: $0, deckID: 1, phase: .review, due: 0) } }
        func mixed(_ one: [Int64], _ two: [Int64]) -> [Int64] { QueueOrdering.intersperse(line(one), line(two)).map(\.id) }
        // Anki's own examples (rslib's intersperser tests).
        #expect(mixed([1, 2, 3], [11, 22, 33]) == [1, 11, 2, 22, 3, 33])
        #expect(mixed([1, 2, 3], [11, 22]) == [1, 11, 2, 22, 3])
        #expect(mixed([1, 2, 3], [11, 22, 33, 44, 55, 66]) == [11, 1, 22, 33, 2, 44, 55, 3, 66])
        #expect(mixed([1, 2, 3], [11, 22, 33, 44, 55, 66, 77, 88]) == [11, 22, 1, 33, 44, 2, 55, 66, 3, 77, 88])
        #expect(mixed([1, 2, 3], []) == [1, 2, 3])
        #expect(QueueOrdering.mix(line([1, 2]), with: line([9]), .afterReviews).map(\.id) == [1, 2, 9])
        #expect(QueueOrdering.mix(line([1, 2]), with: line([9]), .beforeReviews).map(\.id) == [9, 1, 2])
    }

    /// Whatever the lengths, the mix keeps each line's order, and each card of the shorter line
    /// has as many of the longer line's before it as Anki's rule gives: (its place + 1) × the
    /// ratio of the lengths (each plus one), rounded down.
    @Test func mixingKeepsBothLinesAndFollowsAnkisRatio() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...400), Gen.int(in: 0...60)) { oneCount, twoCount in
            let one = (0..<oneCount).map { QueuedCard(id: Int64($0), noteID: 0, deckID: 1, phase: .review, due: 0) }
            let two = (0..<twoCount).map { QueuedCard(id: Int64(10_000 + $0), noteID: 0, deckID: 1, phase: .new, due: 0) }
            let mixed = QueueOrdering.intersperse(one, two)
            #expect(mixed.filter { $0.phase == .review } == one)
            #expect(mixed.filter { $0.phase == .new } == two)
            let ratio = Float(oneCount + 1) / Float(twoCount + 1)
            for (place, index) in mixed.indices.filter({ mixed[$0].phase == .new }).enumerated() {
                let before = min(oneCount, Int((Float(place + 1) * ratio).rounded(.down)))
                #expect(index - place == before, "card \(place) of \(twoCount) mixed into \(oneCount)")
            }
        }
    }

    @Test func aStepEndedOnAnEarlierDayIsInLineWithTheReviewsAllDay() throws {
        let nowSeconds = Int64(Self.now.timeIntervalSince1970)
        let source = RowsInMemory([
            // Answered yesterday, due again this evening: interday, so due from the day's start.
            .init(id: 1, note: 1, phase: .learning, due: nowSeconds + 5 * 3600, lastAnswered: nowSeconds - 86_400),
            // Answered an hour ago, due in ten minutes: waits for its time.
            .init(id: 2, note: 2, phase: .learning, due: nowSeconds + 600, lastAnswered: nowSeconds - 3600),
            .init(id: 3, note: 3, phase: .review, due: Self.today),
        ])
        var queue = try build(source) { $0.order.interdayLearningMix = .beforeReviews }
        #expect(queue.learning.map(\.id) == [2])
        #expect(queue.main.map(\.id) == [1, 3])
        #expect(queue.learningCount == 2)
        #expect(queue.takeNext(now: nowSeconds)?.id == 1)
        #expect(try build(source) { $0.order.interdayLearningMix = .afterReviews }.main.map(\.id) == [3, 1])
    }

    @Test func theReviewOrderChoosesWhichReviewsTheLimitTakes() throws {
        let rows = (1...6).map { index in
            RowsInMemory.Row(id: Int64(index), note: Int64(index), phase: .review, due: Self.today,
                             facts: ReviewFacts(intervalDays: 10 * index, easePermille: 2500, stability: nil, difficulty: nil, lastReview: nil))
        }
        let source = RowsInMemory(rows.reversed())
        #expect(try build(source) { $0.reviewsPerDay = 3; $0.order.reviews = .ascendingIntervals }.reviews.map(\.id) == [1, 2, 3])
        #expect(try build(source) { $0.reviewsPerDay = 3; $0.order.reviews = .descendingIntervals }.reviews.map(\.id) == [6, 5, 4])
    }

    /// Anki's limits are a tree: a deck's cap its subdecks', a subdeck's answers count against
    /// the decks above it, and new cards are limited by the reviews left too.
    @Test func limitsAreATreeAsInAnki() throws {
        var rows: [RowsInMemory.Row] = []
        for deck in [1, 2] as [Int64] {
            for index in 0..<5 {
                let id = deck * 100 + Int64(index)
                rows.append(.init(id: id, note: id, deck: deck, phase: .review, due: Self.today))
                rows.append(.init(id: id + 50, note: id + 50, deck: deck, phase: .new))
            }
        }
        let source = RowsInMemory(rows)
        func build(parent: (new: Int, reviews: Int), child: (new: Int, reviews: Int)) throws -> StudyQueue {
            var top = Preset(name: "top", burySiblings: false), sub = Preset(name: "sub", burySiblings: false)
            (top.newPerDay, top.reviewsPerDay, sub.newPerDay, sub.reviewsPerDay) = (parent.new, parent.reviews, child.new, child.reviews)
            return try QueueBuilder(now: Self.now, seed: 1).build([.init(id: 1, preset: top, clock: Fixture.clock),
                                                                   .init(id: 2, preset: sub, clock: Fixture.clock, parentID: 1)], from: source)
        }
        // The parent's 6 reviews cap both decks' 10, and leave no room for new cards.
        let capped = try build(parent: (4, 6), child: (4, 5))
        #expect(capped.reviewCount == 6 && capped.newCount == 0)
        // The parent's 4 new cards cap both decks' 8; the subdeck's own 5 reviews cap its 5 due.
        let newCapped = try build(parent: (4, 99), child: (3, 4))
        #expect(newCapped.reviewCount == 9 && newCapped.newCount == 4 && newCapped.new.filter { $0.deckID == 2 }.count <= 3)
        // New cards are limited by the reviews left: 12 reviews allowed, 10 taken, 2 left for new.
        let full = try build(parent: (9, 12), child: (9, 9))
        #expect(full.reviewCount == 10 && full.newCount == 2)
        // Answers in the subdeck count against the parent: 3 new answered there leave it 1 of 4.
        source.answers = Array(repeating: (2, Self.now, .new), count: 3)
        #expect(try build(parent: (4, 99), child: (9, 99)).newCount == 1)
    }

    /// A deck's own limits come before its preset's, a limit for today only on that day; and
    /// the collection's rules change how limits count, as Anki's options do.
    @Test func aDecksOwnLimitsAndTheCollectionsRulesAsInAnki() throws {
        var rows: [RowsInMemory.Row] = []
        for deck in [1, 2, 3] as [Int64] {
            for index in 0..<6 {
                let id = deck * 100 + Int64(index)
                rows.append(.init(id: id, note: id, deck: deck, phase: .review, due: Self.today))
                rows.append(.init(id: id + 50, note: id + 50, deck: deck, phase: .new))
            }
        }
        let source = RowsInMemory(rows)
        let preset = Preset(name: "p", newPerDay: 20, reviewsPerDay: 200, burySiblings: false)
        func build(_ decks: [QueueBuilder.Deck], rules: LimitRules = LimitRules()) throws -> StudyQueue {
            try QueueBuilder(now: Self.now, seed: 1, rules: rules).build(decks, from: source)
        }
        let today = Fixture.clock.dayNumber(of: Self.now)
        // This deck's own limits over the preset's 20 and 200.
        let own = try build([.init(id: 1, preset: preset, clock: Fixture.clock, limits: DeckLimits(newPerDay: 2, reviewsPerDay: 4))])
        #expect(own.reviewCount == 4 && own.newCount == 0, "the reviews left cap new cards")
        let ownNew = try build([.init(id: 1, preset: preset, clock: Fixture.clock, limits: DeckLimits(newPerDay: 2, reviewsPerDay: 30))])
        #expect(ownNew.reviewCount == 6 && ownNew.newCount == 2)
        // Today's limit over this deck's; yesterday's no more.
        let todays = DeckLimits(newPerDay: 2, reviewsPerDay: 30, newToday: .init(limit: 5, day: today), reviewsToday: .init(limit: 1, day: today - 1))
        let withToday = try build([.init(id: 1, preset: preset, clock: Fixture.clock, limits: todays)])
        #expect(withToday.newCount == 5 && withToday.reviewCount == 6)
        let reviewsToday = DeckLimits(reviewsToday: .init(limit: 3, day: today))
        #expect(try build([.init(id: 1, preset: preset, clock: Fixture.clock, limits: reviewsToday)]).reviewCount == 3)
        // New cards answered today use up reviews, and the reviews left cap new cards, unless
        // new cards ignore the review limit.
        source.answers = Array(repeating: (1, Self.now, .new), count: 3)
        let tight = [QueueBuilder.Deck(id: 1, preset: preset, clock: Fixture.clock, limits: DeckLimits(newPerDay: 6, reviewsPerDay: 7))]
        let counted = try build(tight)
        #expect(counted.reviewCount == 4 && counted.newCount == 0)
        let ignored = try build(tight, rules: LimitRules(newIgnoresReviewLimit: true))
        #expect(ignored.reviewCount == 6 && ignored.newCount == 3)
        source.answers = []
        // With every parent's limits: deck 1 above the studied deck 2 (and deck 3 beside it)
        // is there for its limit of 4 new, less the 1 answered in deck 3 today.
        source.answers = [(3, Self.now, .new)]
        let family = [QueueBuilder.Deck(id: 2, preset: preset, clock: Fixture.clock, parentID: 1),
                      .init(id: 1, preset: preset, clock: Fixture.clock, limits: DeckLimits(newPerDay: 4), gathers: false),
                      .init(id: 3, preset: preset, clock: Fixture.clock, parentID: 1, gathers: false)]
        let parents = try build(family)
        #expect(parents.newCount == 3 && parents.reviewCount == 6)
        #expect(Set(parents.main.map(\.deckID)) == [2], "only the studied deck's cards")
    }

    /// Siblings left out free their places even when more of them are due than the queue reads
    /// at first: 30 reviews of one note, then two of others, and room for two.
    @Test func buriedSiblingsBeyondTheFirstReadStillLeaveTheirPlaces() throws {
        let siblings = (1...30).map { RowsInMemory.Row(id: Int64($0), note: 1, phase: .review, due: Self.today - 86_400) }
        let others = [RowsInMemory.Row(id: 100, note: 2, phase: .review, due: Self.today), RowsInMemory.Row(id: 101, note: 3, phase: .review, due: Self.today)]
        let queue = try build(RowsInMemory(siblings + others)) { $0.reviewsPerDay = 2 }
        // Of today's two, the one Anki's order of ties puts first.
        let first = others.min { AnkiTieBreak.rank(cardID: $0.id, modified: 0) < AnkiTieBreak.rank(cardID: $1.id, modified: 0) }!
        #expect(queue.reviews.map(\.noteID).sorted() == [1, first.note])
    }
}
