import Foundation
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// Issue 23: the FSRS memory Maeil works out from a card's log (switching FSRS on, Change Deck)
/// is the one Anki works out from the same rows. scripts/anki/memory-histories.py writes seeded
/// random logs of every kind Anki keeps (answers of each kind, filtered-deck rows, set due dates
/// with an SM-2 ease or an FSRS difficulty, resets, rescheduled rows) into an Anki collection and
/// asks Anki's `compute_memory_state` for each card; Maeil imports the collection and works each
/// card's memory out from its own log, at the same moment, in three time zones.
@Suite("FSRS memory from a card's log against Anki's")
struct MemoryFromLogAgainstAnkiTests {
    static let zones = ["Asia/Seoul", "Europe/London", "America/New_York"]
    let folder = Fixture.temporaryDirectory()

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func memoryFromTheLogIsAnkis() throws {
        let count = Int(ProcessInfo.processInfo.environment["MAEIL_MEMORY_CARDS"] ?? "") ?? 400
        var compared = 0, differences: [String] = []
        for (index, zone) in Self.zones.enumerated() {
            let seedFolder = folder.appendingPathComponent("seed\(index)")
            let script = AnkiPython.repository.appendingPathComponent("scripts/anki/memory-histories.py").path
            let made = try Binary.runProgram(AnkiPython.path!, [script, seedFolder.path, String(3100 + index), String(count)], environment: ["TZ": zone])
            let printed = try #require(try? JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any], "\(made.stderr.suffix(1500))")
            let now = try #require(printed["now"] as? Int), anki = try #require(printed["memory"] as? [String: Any])
            let path = seedFolder.appendingPathComponent("maeil.sqlite").path
            _ = try SeededAnki(folder: folder).maeil(["import", seedFolder.appendingPathComponent("collection.anki2").path, "--create"], path, zone, at: now)
            let collection = try Collection(path: path, readOnly: true)
            let at = Date(timeIntervalSince1970: TimeInterval(now))
            for deck in try collection.decks() {
                let preset = try collection.preset(id: deck.presetID)
                let fsrs = FSRS(parameters: preset.scheduler.fsrsParameters)
                let clock = preset.dayClock(in: TimeZone(identifier: zone)!)
                let nextDay = clock.start(ofDay: clock.dayNumber(of: at) + 1)
                for card in try collection.cards(deckID: deck.id) {
                    let ankiID = try #require(card.ankiID)
                    guard let expected = anki[String(ankiID)] else { continue }
                    compared += 1
                    let log = try collection.reviewLog(cardID: card.id).map(\.entry)
                    let mine = FSRSHistory(log: log, nextDayStart: nextDay, clock: clock, fsrs: fsrs,
                                              historicalRetention: preset.historicalRetention).flatMap { $0.memory(fsrs) }
                    let theirs = (expected as? [Double]).map { MemoryState(stability: $0[0], difficulty: $0[1]) }
                    if !Self.same(mine, theirs) {
                        let rows = log.map { entry in entry.anki.map { "\($0.type)/\($0.ease)/\($0.interval)/\($0.lastInterval)/\($0.factor)@\(clock.dayNumber(of: entry.time))" } ?? "maeil" }
                        differences.append("\(zone) card \(ankiID): Maeil \(mine.map { "\($0.stability) \($0.difficulty)" } ?? "none"), Anki \(theirs.map { "\($0.stability) \($0.difficulty)" } ?? "none"); log \(rows.joined(separator: " "))")
                    }
                }
            }
        }
        #expect(compared >= Self.zones.count * count * 9 / 10, "compared \(compared)")
        #expect(differences.isEmpty, "\(differences.count) of \(compared) cards differ:\n\(differences.prefix(25).joined(separator: "\n"))")
        print("memory from the log against Anki: \(compared) cards, \(differences.count) differ")
    }

    /// Equal as Anki keeps a memory (stability to four decimals, difficulty to three), allowing
    /// for single precision's last digit.
    static func same(_ a: MemoryState?, _ b: MemoryState?) -> Bool {
        guard let a, let b else { return a == nil && b == nil }
        return abs(a.stability - b.stability) <= max(1e-4, 2e-6 * b.stability) && abs(a.difficulty - b.difficulty) <= 1e-3
    }
}
