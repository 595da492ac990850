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

    /// Anki's Forget clears a card's memory and keeps its retention and decay in the card's
    /// data; Change Deck works the memory out again and, finding none (nothing answered since
    /// the forget), clears them too (Anki 26.9.3: `{"dr":0.9,"decay":0.154,"lrt":…}` after
    /// Forget, `{"lrt":…}` after a move to any deck). Before, Maeil's export kept them after the
    /// move (the mirrored actions' seeds 1545 and 2532 found it).
    @Test func aForgottenCardKeepsItsRetentionUntilAMoveFindsItNoMemory() throws {
        let collection = try Fixture.collection()
        var scheduler = SchedulerSettings(kind: .fsrs)
        scheduler.desiredRetention = 0.85
        let home = try Fixture.wordDeck(collection, name: "Korean", count: 1, templates: [Fixture.wordTemplates[0]],
                                        preset: Preset(name: "Korean", scheduler: scheduler, burySiblings: false))
        let away = try Fixture.wordDeck(collection, name: "Japanese", count: 1, templates: [Fixture.wordTemplates[0]],
                                        preset: Preset(name: "Japanese", scheduler: scheduler, burySiblings: false))
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [home.id])
        let card = try #require(session.state.current?.card)
        try session.send(.answer(.good))
        try session.send(.answer(.good))
        clock.advance(seconds: 86_400)
        #expect(try collection.card(id: card.id).state.memory != nil)
        let guid = try collection.note(id: card.noteID).guid
        func exported() throws -> ExportCard {
            let decks = try [home.id, away.id].map { try collection.deck(id: $0) }
            let export = try Exporter(collection: collection).export(decks, now: clock.now, timeZone: Fixture.utc)
            return try #require(export.decks.flatMap(\.notes).first { $0.guid == guid }?.cards.first)
        }
        try collection.forget(cardID: card.id, at: clock.now)
        let forgotten = try exported()
        #expect(forgotten.state.phase == .new && forgotten.state.reps == 2)
        #expect(forgotten.desiredRetention == 0.85 && forgotten.decay != nil, "\(forgotten)")
        try collection.apply(NoteMove.note(card.noteID, to: try collection.deck(id: away.id), now: clock.now, timeZone: Fixture.utc))
        let moved = try exported()
        #expect(moved.desiredRetention == nil && moved.decay == nil, "\(moved)")
    }
}
