import Foundation
import GRDB
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilDecks
@testable import MaeilSession
@testable import MaeilStore

/// `maeil deck DECK set …`: one setting changes on the deck's preset, and switching SM-2 to FSRS
/// gives each card the memory state Anki gives it when FSRS is turned on.
@Suite("Deck options")
struct PresetChangeTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    struct Expected: Decodable {
        struct Card: Decodable {
            let front: String
            let reviews: Int
            let truncated: Bool
            let s: Double?
            let d: Double?
        }
        let now: Double
        let cards: [Card]
    }

    /// 60 cards answered under SM-2 in Anki 26.9 for 150 days (a third of them with their first
    /// learning answers cut from the log), imported with their history, then switched to FSRS:
    /// each card's stability and difficulty are the ones Anki's compute_memory_state gave
    /// (scripts/fixtures/make-fsrs-switch.py).
    @Test func switchingToFSRSReadsTheReviewLogAsAnkiDoes() throws {
        let expected = try JSONDecoder().decode(Expected.self, from: Data(contentsOf: Self.fixtures.appendingPathComponent("anki-sm2-history.json")))
        let now = Date(timeIntervalSince1970: expected.now)
        let collection = try Fixture.collection()
        let bundle = try DeckReader.read([Self.fixtures.appendingPathComponent("anki-sm2-history.apkg").path], options: ImportOptions())
        _ = try Importer(collection: collection, now: now).apply(bundle)
        let deck = try #require(try collection.deck(named: "SM2 History"))
        #expect(try collection.preset(id: deck.presetID).scheduler.kind == .ankiSM2)
        let before = try collection.cards(deckID: deck.id)
        #expect(before.allSatisfy { $0.state.memory == nil })
        let result = try PresetChange(collection: collection).set(.scheduler, .text("fsrs"), deck: deck, now: now, timeZone: Fixture.utc)
        #expect(result.preset.scheduler.kind == .fsrs)
        #expect(result.cardsWithMemory == expected.cards.filter { $0.s != nil }.count)
        var compared = 0, truncated = 0
        for card in expected.cards {
            let note = try #require(try collection.findNotes(card.front, deckID: deck.id, now: Date(), timeZone: .current).first { $0.fields.first?.value == card.front })
            let stored = try #require(try collection.cards(noteID: note.id).first)
            guard let s = card.s, let d = card.d else {
                #expect(stored.state.memory == nil, "\(card.front)")
                continue
            }
            let memory = try #require(stored.state.memory, "\(card.front)")
            #expect(abs(memory.stability - s) <= 0.0001 * max(1, s), "\(card.front) truncated \(card.truncated): S \(memory.stability), Anki \(s)")
            #expect(abs(memory.difficulty - d) <= 0.001, "\(card.front): D \(memory.difficulty), Anki \(d)")
            compared += 1
            if card.truncated { truncated += 1 }
        }
        #expect(compared == 60)
        #expect(truncated == 20)
        // Due dates stay where SM-2 put them; the change is in the log, so `check` agrees.
        for (old, new) in zip(before, try collection.cards(deckID: deck.id)) {
            #expect(old.state.due == new.state.due)
            #expect(old.state.intervalDays == new.state.intervalDays)
        }
        #expect(try collection.check(repair: false, now: now).isHealthy)
    }

    @Test func aValueOutsideItsLimitsChangesNothing() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 2)
        let change = PresetChange(collection: collection)
        #expect(throws: PresetChangeProblem.self) {
            try change.set(.newPerDay, .text("-1"), deck: deck, now: Fixture.noon, timeZone: Fixture.utc)
        }
        #expect(try collection.preset(id: deck.presetID).newPerDay == 20)
        let result = try change.set(.learningSteps, .text("2m 20m"), deck: deck, now: Fixture.noon, timeZone: Fixture.utc)
        #expect(result.preset.scheduler.learningSteps.description == "2m 20m")
        #expect(try collection.preset(id: deck.presetID).scheduler.learningSteps.description == "2m 20m")
    }

    /// Anki logs an answer that found its card in steps with that step's delay as the last
    /// interval, and never rewrites a log row: steps changed later leave the rows an export
    /// writes for answers already given as they were logged.
    @Test func changingStepsLeavesTheAnswersGivenInThemAsLogged() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 1, templates: [Fixture.wordTemplates[0]])
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        // Good: the first step (1m) done, on to the second (10m); hard there repeats it; good
        // graduates the card.
        for rating in [Rating.good, .hard, .good] {
            try session.send(.answer(rating))
            clock.advance(seconds: 3_600)
        }
        func revlog() throws -> [String] {
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("steps-\(UUID().uuidString).anki2")
            defer { try? FileManager.default.removeItem(at: file) }
            var exported = try Exporter(collection: collection).export([try collection.deck(id: deck.id)], now: clock.now,
                                                                        timeZone: Fixture.utc)
            try AnkiPackageWriter.writeCollectionFile(&exported, to: file, now: clock.now, clock: ExportFile.clock(for: exported.decks, timeZone: Fixture.utc))
            return try DatabaseQueue(path: file.path).read { db in
                try Row.fetchAll(db, sql: "SELECT ease, ivl, lastIvl, factor, type FROM revlog ORDER BY id").map { "\($0)" }
            }
        }
        let logged = try revlog()
        #expect(logged == ["[ease:3 ivl:-600 lastIvl:0 factor:0 type:0]", "[ease:2 ivl:-600 lastIvl:-600 factor:0 type:0]",
                           "[ease:3 ivl:1 lastIvl:-600 factor:2500 type:0]"])
        _ = try PresetChange(collection: collection).set(.learningSteps, .text("2m 20m"), deck: try collection.deck(id: deck.id),
                                                         now: clock.now, timeZone: Fixture.utc)
        #expect(try revlog() == logged)
    }

    /// The hour a day starts, moved: a burial lasts to the start of the day after the one it
    /// was made on, by the new hour, as Anki counts it (its deck list lifts a burial once a
    /// later day than its last unburied one begins). At 05:00, by 6 o'clock, a card buried
    /// today is buried until 06:00; by 8 o'clock, until 08:00; by 3 o'clock the day it was
    /// buried on has ended, and it is back at once.
    @Test(arguments: [(8, 8), (3, nil)] as [(Int, Int?)])
    func movingTheHourADayStartsMovesBurials(to hour: Int, endsAt expected: Int?) throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 2, templates: [Fixture.wordTemplates[0]])
        let now = Date(timeIntervalSince1970: 1_796_619_600) // 2026-12-07 05:00 UTC
        let change = PresetChange(collection: collection)
        _ = try change.set(.rolloverHour, .text("6"), deck: deck, now: now, timeZone: Fixture.utc)
        let buried = try #require(try collection.cards(deckID: deck.id).first).id
        let sixOClock = now.addingTimeInterval(3600)
        try collection.batch(now: now) { writer in try writer.setFlags(cardID: buried, buriedUntil: sixOClock) }
        _ = try change.set(.rolloverHour, .text("\(hour)"), deck: deck, now: now, timeZone: Fixture.utc)
        let cards = try collection.cards(deckID: deck.id)
        #expect(cards.first { $0.id == buried }?.buriedUntil == expected.map { now.addingTimeInterval(Double($0 - 5) * 3600) })
        #expect(cards.filter { $0.id != buried }.allSatisfy { $0.buriedUntil == nil })
    }
}
