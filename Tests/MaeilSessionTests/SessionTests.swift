import Foundation
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilSession
@testable import MaeilStore

@Suite("Review sessions")
struct SessionTests {
    /// Answers every card the session shows with `rating` until it ends; returns the card ids in order.
    @discardableResult
    func answerAll(_ session: ReviewSession, _ rating: Rating = .good, clock: TestClock? = nil, limit: Int = 10_000) throws -> [Int64] {
        var shown: [Int64] = []
        while let current = session.state.current, shown.count < limit {
            shown.append(current.card.id)
            clock?.advance(seconds: 5)
            try session.send(.answer(rating))
        }
        return shown
    }

    @Test func newCardsComeInCurriculumOrderWithinTheDailyLimit() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 30, templates: [Fixture.wordTemplates[0]],
                                        preset: Preset(name: "p", newPerDay: 7, burySiblings: false))
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        #expect(session.state.remaining.new == 6)  // one is on screen
        let notes = try collection.notes(deckID: deck.id)
        let firstCards = try notes.prefix(7).map { try collection.cards(noteID: $0.id)[0].id }
        let seen = try answerAll(session, .easy, clock: clock)
        #expect(seen == firstCards)
        // A second session the same day gets no more new cards: the limit holds across sessions.
        clock.advance(seconds: 3600)
        let again = try Fixture.session(collection, clock: clock)
        #expect(again.state.current == nil)
        #expect(again.state.finished)
        // The next day brings the next seven.
        clock.advance(days: 1)
        let tomorrow = try Fixture.session(collection, clock: clock)
        #expect(tomorrow.state.remaining.new == 6)
        #expect(tomorrow.state.current?.note.position == 7)
    }

    /// Leaving with a learning card on screen, the summary counts it among the learning cards
    /// still due today, as `decks` and `stats` count them.
    @Test func theSummaryCountsLearningAsTheQueueDoes() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 5, templates: [Fixture.wordTemplates[0]], preset: Preset(name: "p", burySiblings: false))
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        for _ in 0..<5 {
            clock.advance(seconds: 5)
            try session.send(.answer(.good))
        }
        clock.advance(seconds: 700)  // the first learning cards are due again; one is shown
        try session.send(.reveal)
        #expect(session.state.current?.card.state.phase == .learning)
        let events = try session.send(.leave)
        guard case .finished(let summary)? = events.last else {
            Issue.record("no summary")
            return
        }
        let queue = try collection.studyQueue(now: clock.now, timeZone: Fixture.utc)
        #expect(summary.learningLaterToday == queue.learning.count)
        #expect(summary.learningLaterToday == 5)
    }

    /// Two sessions on one collection: a card the other session answered is skipped with a
    /// reason, whether it was on screen here when it was answered there or still waiting in
    /// the queue; no answer goes unacknowledged and unexplained.
    @Test func aCardAnsweredInAnotherSessionIsSaidToBeSkipped() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 4, templates: [Fixture.wordTemplates[0]], preset: Preset(name: "p", burySiblings: false))
        let clock = TestClock(Fixture.noon)
        let first = try Fixture.session(collection, clock: clock)
        let second = try Fixture.session(try collection.reopened(), clock: clock)
        let cards = try collection.cards(deckID: try collection.decks()[0].id).map(\.id)
        #expect(first.state.current?.card.id == cards[0])
        #expect(second.state.current?.card.id == cards[0])
        // The first session answers all four while the second still shows the first card.
        for _ in 0..<4 {
            clock.advance(seconds: 3)
            try first.send(.answer(.good))
        }
        clock.advance(seconds: 3)
        let events = try second.send(.answer(.easy))
        let skipped = events.compactMap { event -> Int64? in
            guard case .skipped(let card, let reason) = event, reason == ReviewSession.answeredElsewhere else { return nil }
            return card
        }
        #expect(skipped == cards, "on screen, then waiting in the queue: \(events)")
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 4)
    }

    @Test func learningCardsReturnWhenDueAndWithinLearnAhead() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 1, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        let id = session.state.current!.card.id
        try session.send(.answer(.good))   // 10 minutes: within the 20-minute learn-ahead, shown at once
        #expect(session.state.current?.card.id == id)
        #expect(session.state.current?.card.state.phase == .learning)
        try session.send(.answer(.good))   // graduates
        #expect(session.state.finished)
        #expect(try collection.card(id: id).state.phase == .review)
    }

    @Test func siblingsAreBuriedUntilTomorrow() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 3)
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        let shown = try answerAll(session, .easy, clock: clock)
        let templates = try shown.map { try collection.card(id: $0).template }
        #expect(templates == ["recognize", "recognize", "recognize"])
        let recall = try collection.cards(deckID: deck.id).filter { $0.template == "recall" }
        #expect(recall.allSatisfy { $0.buriedUntil == Date(timeIntervalSince1970: 1_767_672_000) })  // 2026-01-06 04:00 UTC
        clock.advance(days: 1)
        let tomorrow = try Fixture.session(collection, clock: clock)
        #expect(tomorrow.state.current?.card.template == "recall")
    }

    @Test func suspendedCardsAreNeverShown() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 3, templates: [Fixture.wordTemplates[0]])
        let cards = try collection.cards(deckID: deck.id)
        try collection.setSuspended(cardID: cards[0].id, true)
        let clock = TestClock(Fixture.noon)
        let shown = try answerAll(try Fixture.session(collection, clock: clock), .easy, clock: clock)
        #expect(shown == [cards[1].id, cards[2].id])
    }

    @Test func reviewsDueTodayOldestDayFirstThenShuffledReproducibly() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 40, templates: [Fixture.wordTemplates[0]])
        let cards = try collection.cards(deckID: deck.id)
        let clock = DayClock(timeZone: Fixture.utc)
        let today = clock.dayNumber(of: Fixture.noon)
        for (index, card) in cards.enumerated() {
            var state = CardState(phase: .review, intervalDays: 3, lastReview: clock.start(ofDay: today - 3))
            // Ten cards each due 3, 2, 1 and 0 days ago.
            state.due = clock.start(ofDay: today - index / 10)
            try collection.setState(cardID: card.id, state, at: Fixture.noon.addingTimeInterval(-86_400 * 5))
        }
        let queue = try collection.studyQueue(now: Fixture.noon, timeZone: Fixture.utc)
        #expect(queue.reviews.count == 40)
        let days = queue.reviews.map { clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval($0.due))) }
        #expect(days == days.sorted())
        #expect(queue.reviews.map(\.id) != queue.reviews.sorted { $0.id < $1.id }.map(\.id))
        #expect(try collection.studyQueue(now: Fixture.noon.addingTimeInterval(60), timeZone: Fixture.utc).reviews == queue.reviews)
    }

    @Test func reviewLimitHoldsAcrossSessions() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 10, templates: [Fixture.wordTemplates[0]],
                                        preset: Preset(name: "p", reviewsPerDay: 4))
        let clock = DayClock(timeZone: Fixture.utc)
        for card in try collection.cards(deckID: deck.id) {
            try collection.setState(cardID: card.id, CardState(phase: .review, intervalDays: 2, due: Fixture.noon.addingTimeInterval(-3600),
                                                               lastReview: Fixture.noon.addingTimeInterval(-2 * 86_400)), at: Fixture.noon)
        }
        _ = clock
        let testClock = TestClock(Fixture.noon)
        let first = try answerAll(try Fixture.session(collection, clock: testClock), .good, clock: testClock, limit: 3)
        #expect(first.count == 3)
        let second = try answerAll(try Fixture.session(collection, clock: testClock), .good, clock: testClock)
        #expect(second.count == 1)
    }

    @Test func curriculumGatingOpensUnitsOneAtATime() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 6, templates: [Fixture.wordTemplates[0]], unitSize: 3,
                                        preset: Preset(name: "gated", newPerDay: 20, burySiblings: false, curriculumGating: true))
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        #expect(session.state.remaining.new == 2)  // unit 1 only: three cards, one on screen
        // Leave one card of unit 1 in learning: unit 2 stays closed.
        try session.send(.answer(.again))
        try session.send(.answer(.easy))
        try session.send(.answer(.easy))
        #expect(try collection.studyQueue(deckIDs: [deck.id], now: clock.now, timeZone: Fixture.utc).new.isEmpty)
        // Once it graduates, unit 2 opens.
        clock.advance(seconds: 120)
        while let current = session.state.current { _ = current; try session.send(.answer(.easy)) }
        let queue = try collection.studyQueue(deckIDs: [deck.id], now: clock.now, timeZone: Fixture.utc)
        let positions = try queue.new.map { try collection.note(id: $0.noteID).position }
        #expect(positions == [3, 4, 5])
    }

    @Test func curriculumWithoutGatingFlowsAcrossUnits() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 6, templates: [Fixture.wordTemplates[0]], unitSize: 2,
                             preset: Preset(name: "open", newPerDay: 5, burySiblings: false))
        let queue = try collection.studyQueue(now: Fixture.noon, timeZone: Fixture.utc)
        let positions = try queue.new.map { try collection.note(id: $0.noteID).position }
        #expect(positions == [0, 1, 2, 3, 4])
    }

    @Test func anAnswerIsCommittedBeforeTheNextCard() throws {
        let path = Fixture.temporaryPath()
        let collection = try Collection(path: path)
        try Fixture.wordDeck(collection, count: 3, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        let first = session.state.current!.card.id
        try session.send(.answer(.easy))
        // Another connection, as another process would open it, sees the answer already.
        let other = try Collection(path: path)
        #expect(try other.card(id: first).state.phase == .review)
        #expect(try other.reviewLog(cardID: first).map(\.rating) == [.easy])
    }

    @Test func undoRestoresEveryStepExactly() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 4)
        let clock = TestClock(Fixture.noon)
        let before = try collection.cards(deckID: deck.id)
        let session = try Fixture.session(collection, clock: clock)
        var steps = 0
        for rating in [Rating.good, .again, .easy, .hard, .good, .good] where session.state.current != nil {
            clock.advance(seconds: 30)
            try session.send(.answer(rating))
            steps += 1
        }
        #expect(steps == 6)
        for _ in 0..<steps { try session.send(.undo) }
        #expect(try collection.cards(deckID: deck.id) == before)
        #expect(try before.allSatisfy { try collection.reviewLog(cardID: $0.id).isEmpty })
        #expect(session.state.current?.card.id == before.first?.id)
        #expect(session.state.answers.isEmpty)
        #expect(throws: StoreError.nothingToUndo) { try session.send(.undo) }
    }

    @Test func leechesAreTaggedOrSuspendedAndUndoReversesIt() throws {
        for action in LeechAction.allCases {
            let collection = try Fixture.collection()
            var settings = SchedulerSettings()
            settings.leechThreshold = 2
            settings.leechAction = action
            let deck = try Fixture.wordDeck(collection, count: 1, templates: [Fixture.wordTemplates[0]],
                                            preset: Preset(name: "p", scheduler: settings))
            let card = try collection.cards(deckID: deck.id)[0]
            try collection.setState(cardID: card.id, CardState(phase: .review, intervalDays: 5, due: Fixture.noon.addingTimeInterval(-60),
                                                               lapses: 1, lastReview: Fixture.noon.addingTimeInterval(-5 * 86_400)), at: Fixture.noon)
            let session = try Fixture.session(collection, clock: TestClock(Fixture.noon))
            let events = try session.send(.answer(.again))
            #expect(events.contains(.leech(cardID: card.id, suspended: action == .suspend)))
            #expect(try collection.note(id: card.noteID).tags.contains("leech"))
            #expect(try collection.card(id: card.id).suspended == (action == .suspend))
            try session.send(.undo)
            #expect(try !collection.note(id: card.noteID).tags.contains("leech"))
            #expect(try !collection.card(id: card.id).suspended)
            #expect(try collection.card(id: card.id).state.lapses == 1)
        }
    }

    @Test func starSuspendBuryAndTheirUndo() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 3, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        let first = session.state.current!.card.id
        try session.send(.toggleStar)
        #expect(try collection.card(id: first).starred)
        try session.send(.suspend)
        #expect(try collection.card(id: first).suspended)
        let second = session.state.current!.card.id
        try session.send(.bury)
        #expect(try collection.card(id: second).buriedUntil != nil)
        try session.send(.undo)
        #expect(session.state.current?.card.id == second)
        #expect(try collection.card(id: second).buriedUntil == nil)
        try session.send(.undo)
        #expect(session.state.current?.card.id == first)
        #expect(try !collection.card(id: first).suspended)
        try session.send(.undo)
        #expect(try !collection.card(id: first).starred)
    }

    @Test func forgetAndEditKeepWhatTheyShould() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 1, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        let card = session.state.current!.card
        try session.send(.edit([NoteField(name: "word", value: "\u{1100}\u{1175}\u{11B7}\u{110E}\u{1175}", language: "ko"),
                                NoteField(name: "meaning", value: "kimchi")]))
        #expect(session.state.current?.note.fields.value("word") == "김치")  // NFC
        try session.send(.answer(.easy))
        #expect(try collection.card(id: card.id).state.phase == .review)
        let logID = try collection.forget(cardID: card.id, at: clock.now)
        // New again, its count of reviews kept, as Anki's Forget keeps it.
        let forgotten = try collection.card(id: card.id).state
        #expect(forgotten.phase == .new && forgotten.due == nil && forgotten.intervalDays == 0 && forgotten.reps == 1 && forgotten.lapses == 0)
        try collection.undo(logID: logID)
        #expect(try collection.card(id: card.id).state.phase == .review)
    }

    @Test func typedAnswersAreJudgedAfterNormalization() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 1, templates: [Fixture.wordTemplates[1]])
        let session = try Fixture.session(collection, clock: TestClock(Fixture.noon))
        // Decomposed jamo, as some input methods send them, for 단어0.
        let events = try session.send(.type("\u{1103}\u{1161}\u{11AB}\u{110B}\u{1165}0 "))
        guard case .revealed(_, let judgement?) = events.first else { Issue.record("no judgement"); return }
        #expect(judgement.correct)
        let wrong = AnswerJudgement(typed: "단아0", expected: "단어0")
        #expect(!wrong.correct)
        #expect(wrong.diff == [.same("단"), .extra("아"), .missing("어"), .same("0")])
        #expect(AnswerJudgement(typed: "SEOUL", expected: "Seoul").correct)
        #expect(AnswerJudgement(typed: "ka", expected: "ga / ka").correct)
        // Punctuation never decides: the bundled decks' questions, typed without their mark.
        for (typed, expected) in [("얼마예요", "얼마예요?"), ("어디예요", "어디예요?"), ("화장실이 어디예요", "화장실이 어디예요?"),
                                  ("ありがとう", "ありがとう。"), ("hello", "Hello!"), ("얼마예요?", "얼마예요")] {
            #expect(AnswerJudgement(typed: typed, expected: expected).correct, "\(typed) for \(expected)")
        }
        // Marks inside a word are the word's: "dont" is not "don't".
        #expect(!AnswerJudgement(typed: "dont", expected: "don't").correct)
        #expect(!AnswerJudgement(typed: "얼마", expected: "얼마예요?").correct)
    }

    @Test func missedCardsCanBePractisedWithoutTouchingTheirSchedule() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 3, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        let missed = session.state.current!.card.id
        try session.send(.answer(.again))
        try answerAll(session, .easy, clock: clock)
        #expect(session.missedCardIDs == [missed])
        let before = try collection.card(id: missed)
        let practice = ReviewSession(collection: collection, practicing: session.missedCardIDs,
                                     environment: SessionEnvironment(now: { clock.now }, timeZone: Fixture.utc))
        try practice.start()
        #expect(practice.state.current?.card.id == missed)
        try practice.send(.answer(.again))
        #expect(practice.state.current?.card.id == missed)  // a miss comes round again
        try practice.send(.answer(.good))
        #expect(practice.state.finished)
        #expect(try collection.card(id: missed) == before)
        let mostMissed = try collection.mostMissed(deckID: nil, now: clock.now)
        #expect(mostMissed.first?.cardID == missed)
    }

    @Test func summaryAndStats() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 5, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        var events: [SessionEvent] = []
        while session.state.current != nil {
            clock.advance(seconds: 4)
            events += try session.send(.answer(.easy))
        }
        guard case .finished(let summary) = events.last else { Issue.record("no summary"); return }
        #expect(summary.reviewed == 5)
        #expect(summary.correctPercent == 100)
        #expect(summary.seconds == 20)
        #expect(summary.nextDue == Date(timeIntervalSince1970: 1_767_672_000 + 3 * 86_400))
        // Review them on their due day, missing one.
        clock.advance(days: 4)
        let day4 = try Fixture.session(collection, clock: clock)
        try day4.send(.answer(.again))
        try answerAll(day4, .good, clock: clock)
        let stats = try collection.stats(now: clock.now, timeZone: Fixture.utc)
        #expect(stats.retention[0].reviews == 5)
        #expect(stats.retention[0].passed == 4)
        #expect(stats.retention[0].rate == 0.8)
        #expect(stats.streak == 1)
        #expect(stats.reviewsPerDay.last?.count == 6)  // five reviews and the relearning step of the miss
        #expect(stats.forecast.reduce(0) { $0 + $1.count } == 5)
        // Day by day, as the cards' own due dates say.
        let cards = try collection.cards(deckID: 1)
        let dayClock = DayClock(timeZone: Fixture.utc)
        let today = dayClock.dayNumber(of: clock.now)
        for (offset, day) in stats.forecast.enumerated() {
            let due = cards.filter { $0.state.phase != .new && !$0.suspended && $0.state.due.map { dayClock.dayNumber(of: $0) } == today + offset + 1 }
            #expect(day.count == due.count, "\(day.date)")
        }
        try collection.setStarred(cardID: cards[0].id, true)
        try collection.setSuspended(cardID: cards[1].id, true)
        let counted = try collection.stats(now: clock.now, timeZone: Fixture.utc)
        #expect((counted.totalCards, counted.suspended, counted.starred) == (5, 1, 1))
        #expect(counted.forecast.reduce(0) { $0 + $1.count } == 4, "a suspended card is not due")
    }

    @Test func checkFindsAndRepairsACardThatDisagreesWithItsLog() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 2, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        let id = session.state.current!.card.id
        try session.send(.answer(.easy))
        #expect(try collection.check(repair: false, now: Fixture.noon).isHealthy)
        try collection.transaction { try $0.execute(sql: "UPDATE card SET interval_days = 999 WHERE id = ?", arguments: [id]) }
        let report = try collection.check(repair: false, now: Fixture.noon)
        #expect(report.problems.count == 1)
        #expect(report.integrity == "ok")
        let repaired = try collection.check(repair: true, now: Fixture.noon)
        #expect(repaired.repaired == 1)
        #expect(try collection.card(id: id).state.intervalDays == 4)
        #expect(try collection.check(repair: false, now: Fixture.noon).isHealthy)
    }

    @Test func aClockMovedBackNeverGivesANegativeInterval() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 2, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock)
        let id = session.state.current!.card.id
        try session.send(.answer(.easy))
        // The clock jumps back two days and the zone changes: review the card "before" its last review.
        clock.advance(days: -2)
        let seoul = try ReviewSession(collection: collection, deckIDs: nil,
                                      environment: SessionEnvironment(now: { clock.now.addingTimeInterval(5 * 86_400) }, timeZone: TimeZone(identifier: "Asia/Seoul")!))
        try seoul.start()
        var card = try collection.card(id: id)
        let scheduler = SchedulerSettings().makeScheduler()
        let context = SchedulingContext(now: clock.now, clock: DayClock(timeZone: TimeZone(identifier: "Pacific/Honolulu")!), fuzzFactor: 0.3)
        for rating in Rating.allCases {
            let state = scheduler.answer(card.state, rating, context: context).state
            #expect(state.due! >= clock.now)
            #expect(state.intervalDays >= 1 || state.phase.isInSteps)
        }
        card = try collection.card(id: id)
        #expect(card.state.intervalDays >= 1)
    }
}
