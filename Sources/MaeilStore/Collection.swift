import Foundation
import CSQLiteSetup
import GRDB
import MaeilCore

/// A learner's collection: one SQLite file holding decks, notes, cards and the review log.
///
/// WAL mode lets a review session and a focus export use the file at once; writes are short
/// IMMEDIATE transactions with a busy timeout, so a second process waits instead of failing
/// with "database is locked". `synchronous = NORMAL` in WAL mode makes every committed answer
/// survive the process being killed; a power cut may lose the last answers but never corrupts.
public final class Collection: Sendable {
    public let path: String
    let pool: DatabasePool
    /// Seeds the fuzz factors, so a collection's schedule is reproducible.
    public let seed: UInt64

    public init(path: String) throws {
        self.path = path
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        }
        var configuration = Configuration()
        configuration.busyMode = .timeout(15)
        // One user, one or two readers at a time: few connections keep their statement caches warm.
        configuration.maximumReaderCount = 2
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            // A collection is tens of megabytes: keep its pages in memory.
            try db.execute(sql: "PRAGMA cache_size = -32000")
        }
        do {
            pool = try DatabasePool(path: path, configuration: configuration)
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB {
            throw StoreError.notACollection(path: path, reason: "not an SQLite database")
        }
        let migrator = Schema.migrator
        try pool.read { db in
            if try migrator.hasBeenSuperseded(db) {
                let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)
                throw StoreError.newerSchema(path: path, unknown: unknown.sorted())
            }
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            let foreign = Set(tables).subtracting(["grdb_migrations"])
            if try !migrator.hasCompletedMigrations(db), !foreign.isEmpty, !foreign.contains("card") {
                throw StoreError.notACollection(path: path, reason: "it has tables \(foreign.sorted().prefix(3).joined(separator: ", "))")
            }
        }
        try migrator.migrate(pool)
        seed = try pool.write { db in
            if let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'seed'"), let seed = UInt64(text) {
                return seed
            }
            let seed = UInt64.random(in: 1...UInt64.max)
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('seed', ?)", arguments: ["\(seed)"])
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('created', ?)", arguments: ["\(Int(Date().timeIntervalSince1970))"])
            return seed
        }
    }

    /// A second handle on the same file, as another process would have.
    public func reopened() throws -> Collection { try Collection(path: path) }

    /// Runs `body` in one IMMEDIATE transaction: all of it is committed, or none.
    public func transaction<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.write(body)
    }

    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    /// Counts of what the collection holds.
    public func counts() throws -> (decks: Int, notes: Int, cards: Int) {
        try pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM deck") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM note") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM card") ?? 0)
        }
    }
}

/// Where collections live: `--collection PATH`, else `$MAEIL_COLLECTION`, else
/// `$XDG_DATA_HOME/maeil/collection.sqlite` (`~/.local/share/maeil/` when unset).
public enum CollectionLocation {
    public static func resolve(explicit: String?, environment: [String: String]) -> String {
        if let explicit, !explicit.isEmpty { return expand(explicit, environment) }
        if let path = environment["MAEIL_COLLECTION"], !path.isEmpty { return expand(path, environment) }
        return (XDG.dataHome(environment) as NSString).appendingPathComponent("maeil/collection.sqlite")
    }

    static func expand(_ path: String, _ environment: [String: String]) -> String {
        guard path.hasPrefix("~/"), let home = environment["HOME"] else { return path }
        return home + path.dropFirst()
    }
}

/// XDG base directories, read from an environment the caller passes in.
public enum XDG {
    public static func dataHome(_ environment: [String: String]) -> String {
        directory("XDG_DATA_HOME", default: ".local/share", environment)
    }

    public static func configHome(_ environment: [String: String]) -> String {
        directory("XDG_CONFIG_HOME", default: ".config", environment)
    }

    public static func stateHome(_ environment: [String: String]) -> String {
        directory("XDG_STATE_HOME", default: ".local/state", environment)
    }

    private static func directory(_ variable: String, default relative: String, _ environment: [String: String]) -> String {
        // The spec says a relative path in these variables is invalid and must be ignored.
        if let value = environment[variable], value.hasPrefix("/") { return value }
        let home = environment["HOME"] ?? NSHomeDirectory()
        return (home as NSString).appendingPathComponent(relative)
    }
}

/// Process-wide SQLite settings, for a program to apply before it opens any collection.
public enum SQLiteSetup {
    /// SQLite keeps memory statistics behind a global mutex taken on every allocation; Maeil
    /// reads none of them, and an import allocates for every row. Only the first call before
    /// SQLite is used has an effect, so the `maeil` executable makes it first thing.
    public static func disableMemoryStatistics() {
        _ = maeil_sqlite_disable_memory_statistics()
    }
}
