import Foundation
import GRDB
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// Issue 25, point 7: Anki's Set Due Date ("0", "3", "1-7", "5!") does in Maeil what it does
/// in Anki. Seeded collections (scripts/anki/seeded.py, SM-2 and FSRS, cards new, in
/// learning, relearning and review, suspended, buried, in a filtered deck) in three zones;
/// Anki's library sets every card's due date in a copy, `maeil set-due` in the import, at the
/// same moment under libfaketime; each card's kind, queue (Anki's Set Due Date takes a card out
/// of suspension and burial), interval, ease and due date must agree.
/// `undo` then puts every card back as it was, row for row.
@Suite("Set Due Date against Anki's", .serialized)
struct SetDueAgainstAnkiTests {
    static let zones = ["Asia/Seoul", "Europe/London", "America/New_York"]
    static let specs = ["0", "3", "5!", "1-7"]
    let folder = Fixture.temporaryDirectory()
    var anki: SeededAnki { SeededAnki(folder: folder) }

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func setsDueDatesAsAnkiDoes() throws {
        var compared = 0, differences: [String] = []
        for (index, zone) in Self.zones.enumerated() {
            let seeds = (0..<2).map { String(1700 + index * 100 + $0) }
            let made = try anki.python(["make", folder.path, zone] + seeds, zone: zone)
            for seed in seeds {
                let seedFolder = folder.appendingPathComponent(seed)
                let at = try #require((made[seed] as? [String: Any])?["last"] as? Int) + 3 * 86_400 + 600
                let expected = try anki.python(["set-due", seedFolder.appendingPathComponent("collection.anki2").path, String(at)] + Self.specs, zone: zone)
                for spec in Self.specs {
                    let collection = seedFolder.appendingPathComponent("maeil-\(spec).sqlite").path
                    _ = try anki.maeil(["import", seedFolder.appendingPathComponent("anki.colpkg").path, "--create"], collection, zone, at: at)
                    let store = try Collection(path: collection, readOnly: true)
                    let ids = try store.read { try Row.fetchAll($0, sql: "SELECT id, anki_id FROM card ORDER BY id").map { ($0[0] as Int64, $0[1] as Int64) } }
                    let before = try Self.rows(store)
                    _ = try anki.maeil(["set-due", spec] + ids.map { "card:\($0.0)" }, collection, zone, at: at)
                    let after = try Self.states(store, zone: zone)
                    let ankiCards = try #require(expected[spec] as? [String: [String: Any]])
                    for (id, ankiID) in ids {
                        let ankiCard = try #require(ankiCards[String(ankiID)]), maeilCard = try #require(after[id])
                        compared += 1
                        let ankiDue = ankiCard["due_date"] as? String ?? "", maeilDue = maeilCard.due
                        let dueAgrees = spec == "1-7" ? Self.days(from: ankiDue, to: maeilDue).map { abs($0) <= 6 } ?? false : ankiDue == maeilDue
                        let intervalAgrees = spec == "1-7" ? true : ankiCard["interval"] as? Int == maeilCard.interval
                        if ankiCard["type"] as? Int != 2 || !maeilCard.isReview || ankiCard["queue"] as? Int != maeilCard.queue || !dueAgrees || !intervalAgrees
                            || ankiCard["ease"] as? Int != maeilCard.ease {
                            differences.append("seed \(seed) (\(zone)) \(spec), card \(ankiID): Anki \(ankiCard), Maeil \(maeilCard)")
                        }
                    }
                    _ = try anki.maeil(["undo"], collection, zone, at: at + 60)
                    #expect(try Self.rows(store) == before, "seed \(seed) \(spec): undo puts every card and log row back")
                }
            }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(compared) cards differ:\n\(differences.prefix(30).joined(separator: "\n"))")
        print("set due date against Anki: \(compared) cards, \(differences.count) differ")
    }

    struct MaeilCard: CustomStringConvertible {
        let isReview: Bool, interval: Int, ease: Int, due: String
        /// Anki's queue for a review card: -1 suspended, -2 or -3 buried, else 2.
        let queue: Int
        var description: String { "review \(isReview), queue \(queue), interval \(interval), ease \(ease), due \(due)" }
    }

    /// Each card's state as Anki would read it: review or not, interval, ease, due date in its deck's days.
    static func states(_ store: Collection, zone: String) throws -> [Int64: MaeilCard] {
        try store.read { db in
            var states: [Int64: MaeilCard] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT card.id, card.phase, card.interval_days, card.ease, card.due, preset.rollover_hour,
                       CASE WHEN card.suspended THEN -1 WHEN card.buried_until IS NOT NULL THEN (CASE WHEN card.buried_by_user THEN -3 ELSE -2 END) ELSE 2 END
                FROM card
                JOIN deck ON deck.id = card.deck_id JOIN preset ON preset.id = deck.preset_id
                """) {
                let clock = DayClock(timeZone: TimeZone(identifier: zone)!, rolloverHour: row[5])
                let day = DayClock.civil(clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(row[4] as Int64? ?? 0))))
                states[row[0]] = MaeilCard(isReview: row[1] as String == "review", interval: row[2], ease: row[3],
                                           due: String(format: "%04d-%02d-%02d", day.year, day.month, day.day), queue: row[6])
            }
            return states
        }
    }

    static func rows(_ store: Collection) throws -> [String] {
        try store.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM card ORDER BY id").map(\.description) + Row.fetchAll(db, sql: "SELECT * FROM review_log ORDER BY id").map(\.description)
        }
    }

    static func days(from a: String, to b: String) -> Int? {
        let format = DateFormatter()
        format.dateFormat = "yyyy-MM-dd"
        format.timeZone = TimeZone(identifier: "UTC")
        guard let x = format.date(from: a), let y = format.date(from: b) else { return nil }
        return Int(y.timeIntervalSince(x) / 86_400)
    }
}
