import Foundation
import GRDB
import MaeilCore
import MaeilDecks
import MaeilSession
import MaeilStore
import MaeilTestSupport
import Testing

/// Anki's load balancer and Maeil's on the same cards: scripts/anki/load-balance.py has Anki
/// 26.9.3 answer them (fuzz and balancing on, the clock frozen at 2026-01-05 12:00 UTC) after
/// exporting each deck; Maeil imports the decks and answers the same cards at the same moment.
/// Where the cards land must agree within sampling error.
@Suite("Load balancing, against Anki's", .serialized)
struct LoadBalanceAgainstAnkiTests {
    static let available = AnkiPython.path != nil && FileManager.default.fileExists(atPath: AnkiPython.faketime)
    static let now = Date(timeIntervalSince1970: 1_767_614_400)
    static let utc = TimeZone(identifier: "UTC")!

    let folder = Fixture.temporaryDirectory()

    /// Day offsets from today, by note guid and ordinal, as Anki left them.
    func ankiDues() throws -> [String: [String: Int]] {
        let result = try AnkiPython.script("scripts/anki/load-balance.py", [folder.path])
        guard result.status == 0 else { throw Failure(description: "load-balance.py failed: \(result.errors.suffix(2000))") }
        return try JSONDecoder().decode([String: [String: Int]].self, from: Data(contentsOf: folder.appendingPathComponent("anki.json")))
    }

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Maeil imports the deck, balances with the preset's burying as given, answers every card
    /// due today good (fuzz on), and returns where each card is due, as Anki's ordinals count.
    func maeilDues(_ deck: String, burySiblings: Bool) throws -> [String: Int] {
        let collection = try Collection(path: folder.appendingPathComponent("\(deck).sqlite").path)
        let package = folder.appendingPathComponent("\(deck).apkg").path
        _ = try Importer(collection: collection, now: Self.now).apply(try DeckReader.read([package], options: ImportOptions()))
        let imported = try #require(try collection.decks().first { $0.name == deck })
        let change = PresetChange(collection: collection)
        for (key, value) in [(PresetKey.loadBalancing, "true"), (.burySiblings, burySiblings ? "true" : "false"), (.reviewsPerDay, "99999")] {
            _ = try change.set(key, .text(value), deck: imported, now: Self.now, timeZone: Self.utc)
        }
        let session = try ReviewSession(collection: collection, environment: SessionEnvironment(now: { Self.now }, timeZone: Self.utc, fuzz: true))
        try session.start()
        while session.state.current != nil { try session.send(.answer(.good)) }
        let clock = DayClock(timeZone: Self.utc)
        let today = clock.dayNumber(of: Self.now)
        let rows = try collection.read { db in
            try Row.fetchAll(db, sql: "SELECT note.guid, card.template, card.due FROM card JOIN note ON note.id = card.note_id")
        }
        // Anki's ordinals are its templates' places: "Card 1" is 0, "Card 2" is 1.
        return Dictionary(uniqueKeysWithValues: rows.map { row in
            let ordinal = Int((row[1] as String).split(separator: " ").last ?? "").map { $0 - 1 } ?? -1
            return ("\(row[0] as String)/\(ordinal)", clock.dayNumber(of: Date(timeIntervalSince1970: Double(row[2] as Int64))) - today)
        })
    }

    /// Pearson's statistic for two samples over the same bins (homogeneity).
    static func chiSquare(_ a: [Int], _ b: [Int]) -> Double {
        let totalA = Double(a.reduce(0, +)), totalB = Double(b.reduce(0, +))
        return zip(a, b).reduce(0) { sum, pair in
            let bin = Double(pair.0 + pair.1)
            guard bin > 0 else { return sum }
            let expectedA = bin * totalA / (totalA + totalB), expectedB = bin * totalB / (totalA + totalB)
            return sum + pow(Double(pair.0) - expectedA, 2) / expectedA + pow(Double(pair.1) - expectedB, 2) / expectedB
        }
    }

    static func histogram(_ values: [Int], bins: ClosedRange<Int>) -> [Int] {
        bins.map { bin in values.filter { $0 == bin }.count }
    }

    @Test(.enabled(if: available, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func cardsLandWhereAnkisDo() throws {
        let anki = try ankiDues()
        // 2,000 cards at interval 10 answered good the same day: each lands 22–28 days out, where
        // 400 other cards are due on each day.
        let spreadAnki = try #require(anki["Spread"])
        let spreadMaeil = try maeilDues("Spread", burySiblings: true).filter { spreadAnki[$0.key] != nil }.map(\.value)
        #expect(spreadMaeil.count == 2000)
        let meanAnki = Double(spreadAnki.values.reduce(0, +)) / Double(spreadAnki.count)
        let meanMaeil = Double(spreadMaeil.reduce(0, +)) / Double(spreadMaeil.count)
        let spread = (Self.histogram(Array(spreadAnki.values), bins: 22...28), Self.histogram(spreadMaeil, bins: 22...28))
        // Anki 24.11's weights put the mean a fifth of a day later; one run's own spread is 0.024.
        #expect(abs(meanAnki - meanMaeil) < 0.1, "mean due day: Anki \(meanAnki), Maeil \(meanMaeil)")
        #expect(Self.chiSquare(spread.0, spread.1) < 22.46, "Anki \(spread.0), Maeil \(spread.1)")  // p = 0.001, 6 degrees

        // 1,400 notes whose second card is due on day 25: how far from it the first one lands,
        // with burying on (siblings steer the balancer) and off (they do not).
        for (deck, bury) in [("Siblings", true), ("Siblings unburied", false)] {
            let ankiDeck = try #require(anki[deck]), maeilDeck = try maeilDues(deck, burySiblings: bury)
            func distances(_ dues: [String: Int]) -> [Int] {
                dues.filter { $0.key.hasSuffix("/0") }.map { abs($0.value - 25) }
            }
            #expect(maeilDeck.filter { $0.key.hasSuffix("/1") }.allSatisfy { $0.value == 25 }, "the second cards stay on day 25")
            let (a, m) = (Self.histogram(distances(ankiDeck), bins: 0...3), Self.histogram(distances(maeilDeck), bins: 0...3))
            #expect(m.reduce(0, +) == 1400)
            #expect(Self.chiSquare(a, m) < 16.27, "\(deck): distance from the sibling 0…3 days, Anki \(a), Maeil \(m)")  // p = 0.001
        }
    }
}
