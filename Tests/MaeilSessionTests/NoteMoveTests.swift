import Foundation
import MaeilCore
import MaeilDecks
import MaeilSession
import MaeilStore
import MaeilTestSupport
import Testing

/// Anki's Change Deck works each moved FSRS card's memory out again from its log by the preset
/// of the deck it goes to, and leaves its due date and interval (Anki 26.9.3's `set_deck`; the
/// mirrored actions found a moved card answered later 75 days out here and 80 in Anki). Undo
/// puts the card and its log back. `MirroredActionsTests` moves a note on every seed, against Anki.
@Suite struct NoteMoveTests {
    @Test func aMovedCardTakesTheMemoryItsLogGivesUnderTheNewDecksPreset() throws {
        let collection = try Fixture.collection()
        func fsrs(_ name: String, _ weights: [Double]) throws -> Preset {
            var scheduler = SchedulerSettings(kind: .fsrs)
            scheduler.fsrsParameters = try FSRSParameters(weights: weights)
            return Preset(name: name, scheduler: scheduler, burySiblings: false)
        }
        var other = FSRSParameters.fsrs6Default.weights
        (other[0], other[2], other[9]) = (0.6, 3.1, 0.3)
        let home = try Fixture.wordDeck(collection, name: "Korean", count: 1, templates: [Fixture.wordTemplates[0]],
                                        preset: try fsrs("Korean", FSRSParameters.fsrs6Default.weights))
        let away = try Fixture.wordDeck(collection, name: "Japanese", count: 1, templates: [Fixture.wordTemplates[0]],
                                        preset: try fsrs("Japanese", other))
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [home.id])
        let card = try #require(session.state.current?.card)
        try session.send(.answer(.good))
        try session.send(.answer(.good))
        clock.advance(seconds: 3 * 86_400)
        let before = try collection.card(id: card.id).state
        #expect(before.phase == .review && before.memory != nil)

        try collection.apply(NoteMove.note(card.noteID, to: try collection.deck(id: away.id), now: clock.now, timeZone: Fixture.utc))
        let moved = try collection.card(id: card.id).state
        let log = try collection.reviewLog(cardID: card.id).map(\.entry)
        let answers = log.filter { $0.rating != nil }
        // The memory the two answers give under the new deck's parameters, from the answers alone.
        let fsrs = FSRS(parameters: try FSRSParameters(weights: other))
        let clockThere = DayClock(timeZone: Fixture.utc, rolloverHour: 4)
        let expected = try #require(FSRSHistory(log: answers, nextDayStart: clockThere.start(ofDay: clockThere.dayNumber(of: clock.now) + 1), clock: clockThere, fsrs: fsrs)?
            .memory(fsrs))
        // Stored as Anki stores it: the next answer starts from the rounded memory, as there.
        #expect(moved.memory == expected.stored && moved.memory != before.memory)
        #expect(moved.due == before.due && moved.intervalDays == before.intervalDays && moved.phase == before.phase)
        // Logged as Maeil's own bookkeeping: no row Anki would hold.
        let last = try #require(log.last)
        #expect(log.count == answers.count + 1 && AnkiPackageWriter.revlog(last) == nil)

        _ = try collection.undoLast()
        #expect(try collection.card(id: card.id).state == before)
        #expect(try collection.reviewLog(cardID: card.id).count == answers.count)
    }
}
