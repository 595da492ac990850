import Foundation
import GRDB
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// Seeded random collections made by Anki's own library (scripts/anki/seeded.py), each in one
/// time zone and taken to another: Maeil must hold what Anki holds, as Anki reads it.
/// MAEIL_ANKI_SEEDS sets how many seeds each test runs (more under a flag, fewer never).
@Suite("One collection with Anki, over seeded collections", .serialized)
struct OneCollectionTests {
    static let script = "scripts/anki/seeded.py"
    static let zones = ["Asia/Seoul", "Europe/London", "America/New_York"]
    static let seedsPerZone = max(1, (Int(ProcessInfo.processInfo.environment["MAEIL_ANKI_SEEDS"] ?? "") ?? 60) / zones.count)
    let folder = Fixture.temporaryDirectory()

    /// Makes `seedsPerZone` collections in each zone; returns (seed, zone made in, zone studied in).
    func makeCollections(firstSeed: Int) throws -> [(seed: String, made: String, studied: String)] {
        var made: [(String, String, String)] = []
        for (index, zone) in Self.zones.enumerated() {
            let seeds = (0..<Self.seedsPerZone).map { String(firstSeed + index * 1000 + $0) }
            _ = try seeded(["make", folder.path, zone] + seeds, zone: zone)
            made += seeds.map { ($0, zone, Self.zones[(index + 1) % Self.zones.count]) }
        }
        return made
    }

    /// Runs seeded.py in `zone`; returns the JSON object it prints.
    func seeded(_ arguments: [String], zone: String) throws -> [String: Any] {
        let result = try Binary.runProgram(AnkiPython.path!, [AnkiPython.repository.appendingPathComponent(Self.script).path] + arguments,
                                           environment: ["TZ": zone])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw Failure("seeded.py \(arguments.first ?? ""): \(result.stderr.suffix(1500))")
        }
        return object
    }

    /// Anki's reading of each path, by path.
    func ankiRead(_ paths: [String], zone: String) throws -> [String: [String: Any]] {
        try seeded(["read"] + paths, zone: zone) as? [String: [String: Any]] ?? [:]
    }

    func maeil(_ arguments: [String], collection: String, zone: String) throws -> Binary.Result {
        let result = try Binary.run(arguments + ["--collection", collection],
                                    environment: ["TZ": zone, "HOME": folder.path, "XDG_DATA_HOME": folder.path, "MAEIL_SPEECH": "stub"])
        if result.status != 0 { throw Failure("maeil \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result
    }

    /// Review cards' due dates, note by note, as calendar dates where Maeil is run.
    static func maeilDueDates(_ path: String, zone: String) throws -> [String: [String]] {
        let store = try Collection(path: path, readOnly: true)
        let timeZone = TimeZone(identifier: zone)!
        return try store.read { db in
            var dates: [String: [String]] = [:]
            for row in try Row.fetchAll(db, sql: """
                SELECT note.guid, card.due, preset.rollover_hour FROM card JOIN note ON note.id = card.note_id
                JOIN deck ON deck.id = card.deck_id JOIN preset ON preset.id = deck.preset_id WHERE card.phase = 'review'
                """) {
                let clock = DayClock(timeZone: timeZone, rolloverHour: row[2])
                let day = DayClock.civil(clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(row[1] as Int64))))
                dates[row[0], default: []].append(String(format: "%04d-%02d-%02d", day.year, day.month, day.day))
            }
            return dates.mapValues { $0.sorted() }
        }
    }

    /// The same from Anki's reading: cards of type review.
    static func ankiDueDates(_ read: [String: Any]) -> [String: [String]] {
        var dates: [String: [String]] = [:]
        for (key, value) in read["cards"] as? [String: [String: Any]] ?? [:] where value["type"] as? Int == 2 {
            let guid = String(key[..<key.lastIndex(of: "/")!])
            dates[guid, default: []].append(value["due_date"] as? String ?? "none")
        }
        return dates.mapValues { $0.sorted() }
    }

    /// Issue 23, point 1: a due date is a calendar date. Collections whose day starts at 0, 4
    /// or 6, made in one zone and imported in another, as .apkg and .colpkg: every review card
    /// is due on the date Anki has it; a .colpkg keeps the rollover hour; Maeil's .colpkg,
    /// opened by Anki in the zone it was written in, has every date as Anki had it.
    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(10)))
    func dueDatesAreCalendarDates() throws {
        let made = try makeCollections(firstSeed: 1)
        var compared = 0
        for zone in Self.zones {
            let here = made.filter { $0.studied == zone }
            let originals = try ankiRead(here.map { folder.appendingPathComponent("\($0.seed)/collection.anki2").path }, zone: zone)
            var exported: [String] = []
            for entry in here {
                let seedFolder = folder.appendingPathComponent(entry.seed)
                let original = try #require(originals[seedFolder.appendingPathComponent("collection.anki2").path])
                let expected = Self.ankiDueDates(original)
                for package in ["anki.apkg", "anki.colpkg"] {
                    let collection = seedFolder.appendingPathComponent("maeil-\(package).sqlite").path
                    _ = try maeil(["import", seedFolder.appendingPathComponent(package).path, "--create"], collection: collection, zone: zone)
                    let dates = try Self.maeilDueDates(collection, zone: zone)
                    #expect(dates == expected, "seed \(entry.seed) (\(entry.made) → \(zone)), \(package): rollover \(original["rollover"] ?? "")")
                    compared += expected.values.reduce(0) { $0 + $1.count }
                }
                let colpkg = seedFolder.appendingPathComponent("maeil-anki.colpkg.sqlite").path
                let rollovers = try Collection(path: colpkg, readOnly: true).read { try Int.fetchSet($0, sql: "SELECT rollover_hour FROM preset JOIN deck ON deck.preset_id = preset.id") }
                #expect(rollovers == [original["rollover"] as? Int ?? -1], "seed \(entry.seed): the collection's rollover hour")
                let out = seedFolder.appendingPathComponent("maeil.colpkg").path
                _ = try maeil(["export", "--out", out], collection: colpkg, zone: zone)
                exported.append(out)
            }
            let back = try ankiRead(exported, zone: zone)
            for (entry, path) in zip(here, exported) {
                let original = try #require(originals[folder.appendingPathComponent("\(entry.seed)/collection.anki2").path])
                #expect(Self.ankiDueDates(try #require(back[path])) == Self.ankiDueDates(original), "seed \(entry.seed): Maeil's .colpkg in Anki")
            }
        }
        #expect(compared > 100 * Self.zones.count)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
