import Foundation
import GRDB
import MaeilCore
import MaeilDecks
import MaeilSession
import MaeilStore
import MaeilTestSupport
import Testing

/// Anki keeps a deck's answers of the day with the deck and counts them against its limits;
/// an answer counts in its deck and in every deck above it. An export carries them so, or Anki
/// opening it offers the day's new cards again.
@Suite struct ExportStudiedTodayTests {
    @Test func aDecksAnswersOfTheDayCountInItAndTheDecksAboveIt() throws {
        let collection = try Fixture.collection()
        func preset(_ name: String) -> Preset { Preset(name: name, newPerDay: 10, burySiblings: false) }
        let korean = try Fixture.wordDeck(collection, name: "Korean", count: 3, templates: [Fixture.wordTemplates[0]], preset: preset("Korean"))
        let food = try Fixture.wordDeck(collection, name: "Korean::Food", count: 4, templates: [Fixture.wordTemplates[0]], preset: preset("Food"))
        let other = try Fixture.wordDeck(collection, name: "Kana", count: 2, templates: [Fixture.wordTemplates[0]], preset: preset("Kana"))
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [food.id])
        for _ in 0..<2 {
            clock.advance(seconds: 7)
            try session.send(.answer(.good))
        }
        func studied(at now: Date) throws -> [String: ExportDeck.StudiedToday] {
            let decks = try Exporter(collection: collection).export([korean, food, other], now: now, timeZone: Fixture.utc).decks
            return Dictionary(uniqueKeysWithValues: decks.map { ($0.name, $0.studiedToday) })
        }
        let today = try studied(at: clock.now)
        #expect(today["Korean::Food"] == ExportDeck.StudiedToday(new: 2, reviews: 0, milliseconds: 14_000))
        #expect(today["Korean"] == today["Korean::Food"])
        #expect(today["Kana"] == ExportDeck.StudiedToday())
        // The next day they are the day before's.
        #expect(try studied(at: clock.now.addingTimeInterval(86_400)).values.allSatisfy { $0 == ExportDeck.StudiedToday() })
    }

    /// Anki's counts of the day come with a whole collection as far as they are more than its log
    /// shows: an answer to a card deleted since (its log row has no deck) still counts in its deck,
    /// here and in what an export gives Anki back; a file older than the answers given here since
    /// takes none of them back.
    @Test func ankisCountsOfTheDayComeWithTheCollectionBeyondItsLog() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, name: "Korean", count: 8, templates: [Fixture.wordTemplates[0]],
                                        preset: Preset(name: "Korean", newPerDay: 6, burySiblings: false))
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        func answer(_ count: Int) throws {
            for _ in 0..<count {
                clock.advance(seconds: 7)
                try session.send(.answer(.good))
            }
        }
        try answer(3)
        // Anki's file of it, in which the first card answered was then deleted alone.
        let file = Fixture.temporaryDirectory().appendingPathComponent("collection.anki2")
        var exported = try Exporter(collection: collection).export([try collection.deck(id: deck.id)], now: clock.now, timeZone: Fixture.utc)
        try AnkiPackageWriter.writeCollectionFile(&exported, to: file, now: clock.now, clock: ExportFile.clock(for: exported.decks, timeZone: Fixture.utc))
        try DatabaseQueue(path: file.path).write { db in
            try db.execute(sql: "DELETE FROM cards WHERE id = (SELECT cid FROM revlog ORDER BY id LIMIT 1)")
        }
        let options = { var options = ImportOptions(); (options.timeZone, options.now) = (Fixture.utc, clock.now); return options }()
        func imported(into target: Collection) throws -> Int64 {
            _ = try Importer(collection: target, now: clock.now).apply(reading: { try DeckReader.stream([file.path], options: options, emit: $0) })
            return try #require(try target.decks().first { $0.name == "Korean" }).id
        }
        // The day's new cards: how many more the queue holds (of 6 a day), and those an export gives Anki as answered.
        func newToday(_ target: Collection, _ deck: Int64) throws -> (queue: Int, export: Int?) {
            let queue = try target.studyQueue(deckIDs: [deck], now: clock.now, timeZone: Fixture.utc)
            let exported = try Exporter(collection: target).export([try target.deck(id: deck)], now: clock.now, timeZone: Fixture.utc)
            return (queue.newCount, exported.decks.first?.studiedToday.new)
        }
        let fresh = try Fixture.collection()
        let freshDeck = try imported(into: fresh)
        // The deleted card's answer is in the log, in no deck.
        let answers = try fresh.read { db in try Int64.fetchAll(db, sql: "SELECT deck_id FROM review_log WHERE anki_type IS NOT NULL ORDER BY deck_id") }
        #expect(answers == [0, freshDeck, freshDeck])
        let counted = try newToday(fresh, freshDeck)
        #expect(counted.queue == 3 && counted.export == 3, "\(counted)")
        // Two more answered here, then the older file: the five answers still count.
        try answer(2)
        _ = try imported(into: collection)
        let after = try newToday(collection, deck.id)
        #expect(after.queue == 1 && after.export == 5, "\(after)")
    }
}
