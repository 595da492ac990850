import Foundation
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
}
