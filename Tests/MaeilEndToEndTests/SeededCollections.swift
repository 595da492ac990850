import Foundation
import GRDB
import MaeilCore
import MaeilDecks
import MaeilREPL
import MaeilSession
import MaeilStore
import Testing
import MaeilTestSupport

/// What the suites over seeded collections share: collections made by Anki's own library
/// (scripts/anki/seeded.py) in one time zone and taken to another, and Maeil and Anki run on them.
protocol SeededCollections {
    /// The folder the collections are made in.
    var folder: URL { get }
}

extension SeededCollections {
    static var script: String { "scripts/anki/seeded.py" }
    static var zones: [String] { ["Asia/Seoul", "Europe/London", "America/New_York"] }
    static var seedsPerZone: Int { seeds(default: 201) }
    /// For the tests beside the one that does what a learner does on both sides (201 seeds):
    /// on two cores the 201-seed runs of all three took about 40 minutes of a test thread.
    static var fewerSeedsPerZone: Int { seeds(default: 99) }

    /// MAEIL_ANKI_SEEDS's count, else `count`, spread over the zones.
    static func seeds(default count: Int) -> Int {
        max(1, (Int(ProcessInfo.processInfo.environment["MAEIL_ANKI_SEEDS"] ?? "") ?? count) / zones.count)
    }

    /// Makes `perZone` collections in each zone; returns (seed, zone made in, zone studied in).
    /// `only`: some of those seeds, comma-separated, to look into a failure. `studiedIn`: only
    /// the collections studied in that zone, for a test that takes each zone as a case of its
    /// own, so that a long suite's zones run side by side.
    func makeCollections(firstSeed: Int, only: String? = nil, perZone: Int = Self.seedsPerZone,
                         studiedIn: String? = nil) throws -> [(seed: String, made: String, studied: String)] {
        var made: [(String, String, String)] = []
        let chosen = only.map { Set($0.split(separator: ",").map(String.init)) }
        for (index, zone) in Self.zones.enumerated() where studiedIn.map({ $0 == Self.zones[(index + 1) % Self.zones.count] }) ?? true {
            let seeds = (0..<(chosen == nil ? perZone : 1000)).map { String(firstSeed + index * 1000 + $0) }.filter { chosen?.contains($0) ?? true }
            guard !seeds.isEmpty else { continue }
            try MadeOnce.shared.copy(seeds, zone: zone, to: folder) { missing, into in
                _ = try SeededAnki(folder: into).python(["make", into.path, zone] + missing, zone: zone)
            }
            made += seeds.map { ($0, zone, Self.zones[(index + 1) % Self.zones.count]) }
        }
        return made
    }

    /// Runs seeded.py in `zone`; returns the JSON object it prints.
    func seeded(_ arguments: [String], zone: String) throws -> [String: Any] {
        let result = try Binary.runProgram(AnkiPython.path!, [AnkiPython.repository.appendingPathComponent(Self.script).path] + arguments,
                                           environment: ["TZ": zone])
        guard result.status == 0, let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any] else {
            throw OneCollectionTests.Failure("seeded.py \(arguments.first ?? ""): \(result.stderr.suffix(1500))")
        }
        return object
    }

    /// Anki's reading of each path, by path.
    func ankiRead(_ paths: [String], zone: String) throws -> [String: [String: Any]] {
        try seeded(["read"] + paths, zone: zone) as? [String: [String: Any]] ?? [:]
    }

    func maeil(_ arguments: [String], collection: String, zone: String, input: String = "") throws -> Binary.Result {
        let result = try Binary.run(arguments + ["--collection", collection], input: input,
                                    environment: ["TZ": zone, "HOME": folder.path, "XDG_DATA_HOME": folder.path, "MAEIL_SPEECH": "stub"])
        if result.status != 0 { throw OneCollectionTests.Failure("maeil \(arguments.joined(separator: " ")): \(result.stderr)") }
        return result
    }

    /// Every row of every table, by table, in rowid order; but a card's `modified_at`, which
    /// SQLite's clock sets, not the caller's.
    static func everyRow(_ path: String) throws -> [String: [String]] {
        try DatabaseQueue(path: path).read { db in
            var tables: [String: [String]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'") {
                tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \"\(table)\" ORDER BY rowid").map { row in
                    row.filter { table != "card" || $0.0 != "modified_at" }.map { "\($0.0):\($0.1)" }.joined(separator: " ")
                }
            }
            return tables
        }
    }
}

/// Seeded collections made once in a test process and copied into each test's folder: the
/// suites that start at the same seed (the mirrored actions and the re-imports) share the
/// collections Anki made, which took a fifth of the suites' time when each made its own. A seed
/// makes the same collection every time (a frozen clock, one generator per seed), so a copy is
/// what the test would have made.
final class MadeOnce: @unchecked Sendable {
    static let shared = MadeOnce()
    private let folder = Fixture.temporaryDirectory()
    /// One lock for each zone: a test waits only while another makes the same zone's seeds.
    private var locks: [String: NSLock] = [:]
    private let locksLock = NSLock()

    /// Copies each of `seeds`' folders, made in `zone`, into `target`; `make(missing, folder)`
    /// makes those not made yet in the shared folder first.
    func copy(_ seeds: [String], zone: String, to target: URL, make: ([String], URL) throws -> Void) throws {
        let lock = locksLock.withLock { () -> NSLock in
            if let lock = locks[zone] { return lock }
            let lock = NSLock()
            locks[zone] = lock
            return lock
        }
        try lock.withLock {
            let zoneFolder = folder.appendingPathComponent(zone.replacingOccurrences(of: "/", with: "-"))
            try FileManager.default.createDirectory(at: zoneFolder, withIntermediateDirectories: true)
            let missing = seeds.filter { !FileManager.default.fileExists(atPath: zoneFolder.appendingPathComponent("\($0)/made.json").path) }
            if !missing.isEmpty { try make(missing, zoneFolder) }
            for seed in seeds {
                try FileManager.default.copyItem(at: zoneFolder.appendingPathComponent(seed), to: target.appendingPathComponent(seed))
            }
        }
    }
}
