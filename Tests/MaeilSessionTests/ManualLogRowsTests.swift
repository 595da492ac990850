import Foundation
import GRDB
import MaeilCore
import MaeilDecks
import MaeilSession
import MaeilStore
import MaeilTestSupport
import Testing

/// Anki logs a person's Set Due Date and Forget as a manual row even where the card does not
/// change (Anki 26.9.3's library, asked: a due date set twice to the same day writes two rows,
/// the second with its interval as both interval and last interval; Forget on a new card writes
/// a reset row, 0 0 0 0 4). An export writes them so, or the row never goes up to a phone, and
/// a sync keeps waiting for its Anki id.
@Suite struct ManualLogRowsTests {
    @Test func aDueDateSetToTheDayItHadAndANewCardForgottenAreLoggedAsAnkiLogsThem() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 2, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        let answered = try #require(session.state.current?.card.id)
        try session.send(.answer(.easy))
        let new = try #require(try collection.cards(deckID: deck.id).map(\.id).first { $0 != answered })
        var generator = SeededGenerator(seed: 7)
        for _ in 0..<2 {
            clock.advance(seconds: 5)
            try collection.apply(CardChanges.setDueDate([answered], try #require(DueDateChange("5")), now: clock.now, timeZone: Fixture.utc,
                                                        using: &generator))
        }
        clock.advance(seconds: 5)
        try collection.forget(cardID: new, at: clock.now)
        let interval = try collection.card(id: answered).state.intervalDays
        let ease = try collection.card(id: answered).state.easePermille

        let file = Fixture.temporaryDirectory().appendingPathComponent("collection.anki2")
        var exported = try Exporter(collection: collection).export([try collection.deck(id: deck.id)], now: clock.now, timeZone: Fixture.utc)
        try AnkiPackageWriter.writeCollectionFile(&exported, to: file, now: clock.now, clock: ExportFile.clock(for: exported.decks, timeZone: Fixture.utc))
        let manual = try DatabaseQueue(path: file.path).read { db in
            try Row.fetchAll(db, sql: "SELECT ease, ivl, lastIvl, factor, type FROM revlog WHERE type = 4 ORDER BY id").map { row in
                [row[0], row[1], row[2], row[3], row[4]] as [Int]
            }
        }
        #expect(manual == [[0, interval, interval, ease, 4], [0, interval, interval, ease, 4], [0, 0, 0, 0, 4]])
    }

    /// A card with an FSRS memory: Anki logs its difficulty, cut (not rounded) in single
    /// precision (`log_scheduled_review`); the mirrored actions found Maeil logging its ease
    /// (2150 where Anki had 925). At difficulty 8.548 an answer's row says 939, a manual row 938.
    @Test func aDueDateSetOnACardWithAMemoryLogsItsDifficultyAsAnkiDoes() throws {
        let due = Date(timeIntervalSince1970: 1_800_000_000)
        let before = CardState(phase: .review, intervalDays: 12, easePermille: 2150, stability: 20, difficulty: 8.548, due: due, reps: 6)
        var after = before
        after.due = due.addingTimeInterval(5 * 86_400)
        let setDue = ReviewLogEntry(time: due, kind: .manual, rating: nil, scheduler: ReviewLogEntry.setDueDate, before: before, after: after)
        let row = try #require(AnkiPackageWriter.revlog(setDue))
        #expect([row.ease, row.interval, row.lastInterval, row.factor, row.type] as [Int] == [0, 12, 12, 938, 4])
        var answered = after
        answered.intervalDays = 30
        let answer = ReviewLogEntry(time: due, kind: .answer, rating: .good, scheduler: SchedulerKind.fsrs.rawValue, before: before, after: answered)
        #expect(AnkiPackageWriter.revlog(answer)?.factor == 939)
        // Without a memory, the card's ease.
        var sm2 = after
        (sm2.stability, sm2.difficulty) = (nil, nil)
        #expect(AnkiPackageWriter.revlog(ReviewLogEntry(time: due, kind: .manual, rating: nil, scheduler: ReviewLogEntry.setDueDate,
                                                         before: before, after: sm2))?.factor == 2150)
    }
}
