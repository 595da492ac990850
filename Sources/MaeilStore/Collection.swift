import Foundation
import Synchronization
import CSQLiteSetup
import GRDB
import GRDBSQLite
import MaeilCore

/// A learner's collection: one SQLite file holding decks, notes, cards and the review log.
///
/// WAL mode lets a review session and a focus export use the file at once; writes are short
/// IMMEDIATE transactions with a busy timeout, so a second process waits instead of failing
/// with "database is locked". `synchronous = NORMAL` in WAL mode makes every committed answer
/// survive the process being killed; a power cut may lose the last answers but never corrupts.
package final class Collection: Sendable {
    package let path: String
    let pool: DatabasePool
    /// Opened for reading only: nothing is ever written through it.
    package var isReadOnly: Bool { pool.configuration.readonly }
    /// Seeds the queue's random orders and its ties between equal cards, so a day's order is
    /// reproducible; fuzz is Anki's own draw for each card (`AnkiFuzzDraw`).
    package let seed: UInt64
    /// The file's check before this handle's first write: started when the collection is
    /// opened for writing, on a thread of its own, so it runs while the learner looks at the
    /// first card; the first write waits for it.
    private let writeCheck = WriteCheck()
    /// Where this handle learns that the file needs no check, and notes on closing that it
    /// was sound; nil where nothing is remembered (every writable opening is checked).
    private let integrity: IntegrityRecords?
    /// Whether opening started SQLite's quick check.
    package let quickCheckStarted: Bool
    /// A connection of its own that folds the write-ahead log into the file (`foldLog`).
    private let folder = Mutex<DatabaseQueue?>(nil)

    /// Opens (or, when there is no file, creates) the collection at `path`. A writer that has to
    /// wait for another process calls `waiting` once, after a second.
    ///
    /// `readOnly` opens an existing collection for reading only: no write lock is ever taken,
    /// so a command that only reads never waits for another process in the middle of a write
    /// (SQLite's WAL mode lets readers go on beside a writer), and works on a read-only file.
    ///
    /// `integrity` spares the quick check on a file as a checked Maeil left it (see
    /// `IntegrityRecords`); such a handle records the file when it is closed.
    package init(path: String, readOnly: Bool = false, integrity: IntegrityRecords? = nil, waiting: (@Sendable () -> Void)? = nil) throws {
        self.path = path
        self.integrity = readOnly ? nil : integrity
        try ForeignFile.refuse(path)
        if readOnly, FileManager.default.fileExists(atPath: path) {
            let pool = try StoreError.opening(path) {
                try DatabasePool(path: Self.readablePath(path), configuration: Self.configuration(readOnly: true, waiting: nil))
            }
            self.pool = pool
            func seed() throws -> UInt64? {
                let migrator = Schema.migrator
                return try StoreError.opening(path) {
                    try pool.read { db -> UInt64? in
                        if try migrator.hasBeenSuperseded(db) {
                            let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)
                            throw StoreError.newerSchema(path: path, unknown: unknown.sorted())
                        }
                        guard try migrator.hasCompletedMigrations(db) else { return nil }
                        return try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'seed'").flatMap(UInt64.init)
                    }
                }
            }
            // A file an older Maeil wrote, or not a collection: opened for writing once, which
            // upgrades it or says what it is, then read.
            if let found = try seed() {
                self.seed = found
            } else {
                _ = try Collection(path: path, waiting: waiting)
                guard let found = try seed() else { throw StoreError.notACollection(path: path, reason: "it has no seed") }
                self.seed = found
            }
            writeCheck.pass()
            quickCheckStarted = false
            return
        }
        let existed = FileManager.default.fileExists(atPath: path)
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try StoreError.opening(path) { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) }
        }
        // Checked before SQLite opens it: a file it may only read would otherwise get a -wal and
        // -shm with the file's own read-only mode, which then refuse every later write.
        if FileManager.default.fileExists(atPath: path), let reason = StoreError.placeProblem(path) {
            throw StoreError.readOnlyPlace(path: path, reason: reason)
        }
        Self.makeSidecarsWritable(path)
        let lastCheck = integrity?.lastCheck(of: path)
        let configuration = Self.configuration(readOnly: false, waiting: waiting)
        let pool = try StoreError.opening(path) { try DatabasePool(path: path, configuration: configuration) }
        self.pool = pool
        let migrator = Schema.migrator
        let (current, storedSeed) = try StoreError.opening(path) {
            try pool.read { db -> (Bool, UInt64?) in
                if try migrator.hasBeenSuperseded(db) {
                    let unknown = try migrator.appliedIdentifiers(db).subtracting(migrator.migrations)
                    throw StoreError.newerSchema(path: path, unknown: unknown.sorted())
                }
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                let foreign = Set(tables).subtracting(["grdb_migrations"])
                let current = try migrator.hasCompletedMigrations(db)
                if !current, !foreign.isEmpty, !foreign.contains("card") {
                    throw StoreError.notACollection(path: path, reason: "it has tables \(foreign.sorted().prefix(3).joined(separator: ", "))")
                }
                let seed = current ? try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'seed'").flatMap(UInt64.init) : nil
                return (current, seed)
            }
        }
        if current, let storedSeed {
            seed = storedSeed
            if let checked = lastCheck {
                writeCheck.pass(soundSince: checked)
                quickCheckStarted = false
                return
            }
            let pool = pool, path = path, check = writeCheck, now = integrity?.now
            Thread.detachNewThread { check.run(soundSince: now) { try Self.quickCheck(pool, path: path) } }
            quickCheckStarted = true
            return
        }
        // A new file, or one from an older Maeil: the only opening that writes.
        try StoreError.opening(path) { try migrator.migrate(pool) }
        seed = try StoreError.opening(path) {
            try pool.write { db in
                if let text = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'seed'"), let seed = UInt64(text) {
                    return seed
                }
                let seed = UInt64.random(in: 1...UInt64.max)
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('seed', ?)", arguments: ["\(seed)"])
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('created', ?)", arguments: ["\(Int(Date().timeIntervalSince1970))"])
                return seed
            }
        }
        // Just made or migrated: nothing to check. A file made now is sound; one an older
        // Maeil wrote is checked at its next opening.
        writeCheck.pass(soundSince: existed ? nil : integrity?.now)
        quickCheckStarted = false
    }

    /// Folds the write-ahead log into the file from a connection of its own, beside the writer
    /// (SQLite lets one copy while the other commits). Left to itself, SQLite folds the log at
    /// the commit after it passes its limit, and that answer waits for the copy and its fsync:
    /// 3–7 ms at a million cards. Never waits for another connection; what a reader still uses
    /// stays in the log for the next time.
    package func foldLog() {
        guard !pool.configuration.readonly, writeCheck.soundSince != nil else { return }
        folder.withLock { folder in
            if folder == nil {
                var configuration = Configuration()
                configuration.busyMode = .immediateError
                folder = try? DatabaseQueue(path: path, configuration: configuration)
            }
            _ = try? folder?.inDatabase { try $0.checkpoint(.passive) }
        }
    }

    /// Closes the file and, when this handle found it sound, records how it and its write-ahead
    /// log stand, so the next opening need not check it again. Never waits: while the check
    /// still runs on its thread, the handle is left open and nothing is recorded.
    package func close() {
        guard writeCheck.isFinished else { return }
        folder.withLock { folder in
            try? folder?.close()
            folder = nil
        }
        if writeCheck.soundSince != nil, !pool.configuration.readonly {
            // GRDB closes its writer before its readers, and the last to close (a reader) cannot
            // fold the log into the file: the writer does it, or every later opening reads
            // through it (an import of a million cards leaves 500 MB there, and the next answer
            // would fold it in). Another process still reading may keep part of it; nobody waits.
            _ = try? pool.writeWithoutTransaction { db in
                sqlite3_busy_timeout(db.sqliteConnection, 0)
                return try db.checkpoint(.truncate)
            }
        }
        guard (try? pool.close()) != nil, let integrity, let checked = writeCheck.soundSince else { return }
        integrity.record(path, checked: checked)
    }

    /// Where SQLite cannot make the shared-memory file a reader of a WAL database needs (a
    /// read-only file system, a folder it may not write), the file is read as immutable, as
    /// it is there: nothing can change it. So too a file this user may not write (mode 444):
    /// SQLite would make its shared-memory file read-only like it, and every later write,
    /// once the file is writable again, would fail on it. Only when no write-ahead log holds
    /// changes the file has not taken in yet, which reading it that way would miss.
    static func readablePath(_ path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let shm = path + "-shm", wal = path + "-wal"
        let shmUsable = FileManager.default.fileExists(atPath: shm)
            ? access(shm, R_OK | W_OK) == 0
            : access(folder.isEmpty ? "." : folder, W_OK) == 0 && access(path, W_OK) == 0
        // A full disk has no room for a -shm either: the file is read as it is, when its log is empty.
        guard !shmUsable || StoreError.diskIsFull(path) else { return path }
        let walSize = (try? FileManager.default.attributesOfItem(atPath: wal))?[.size] as? Int ?? 0
        guard walSize == 0 else { return path }
        return immutableURI(path)
    }

    /// A -wal or -shm an earlier reader left read-only (it copied a read-only file's mode) next
    /// to a file that is writable again: given the file's mode, so writes work once more.
    static func makeSidecarsWritable(_ path: String) {
        guard let mode = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int, access(path, W_OK) == 0 else { return }
        for sidecar in [path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: sidecar) && access(sidecar, W_OK) != 0 {
            try? FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: sidecar)
        }
    }

    /// SQLite's URI for reading `path` as a file nothing changes: no journal, no -wal or -shm.
    static func immutableURI(_ path: String) -> String {
        let absolute = (path as NSString).isAbsolutePath ? path : FileManager.default.currentDirectoryPath + "/" + path
        let encoded = absolute.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "?#"))) ?? absolute
        return "file:\(encoded)?immutable=1"
    }

    static func configuration(readOnly: Bool, waiting: (@Sendable () -> Void)?) -> Configuration {
        var configuration = Configuration()
        configuration.readonly = readOnly
        configuration.busyMode = .callback(BusyWait(notice: waiting).retry)
        // One user, one or two readers at a time: few connections keep their statement caches warm.
        configuration.maximumReaderCount = 2
        configuration.prepareDatabase { db in
            // A session folds the log itself between answers (`foldLog`); SQLite's own folding,
            // in the commit that passes the limit, is the net under it.
            if !readOnly { try db.execute(sql: "PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 4000") }
            // A collection is tens of megabytes: keep its pages in memory.
            try db.execute(sql: "PRAGMA cache_size = -32000")
        }
        return configuration
    }

    /// SQLite's quick check, once per handle before its first write: a damaged file is not
    /// written to (an answer committed into it could be lost with the rest).
    func checkBeforeWriting() throws {
        try writeCheck.wait()
    }

    static func quickCheck(_ pool: DatabasePool, path: String) throws {
        let result = try StoreError.during(path) { try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") } }
        guard result == ["ok"] else { throw StoreError.damaged(path: path, detail: result.prefix(3).joined(separator: "; ")) }
    }

    /// A second handle on the same file, as another process would have.
    package func reopened() throws -> Collection { try Collection(path: path) }

    /// Runs `body` in one IMMEDIATE transaction: all of it is committed, or none.
    package func transaction<T>(_ body: (Database) throws -> T) throws -> T {
        try checkBeforeWriting()
        return try StoreError.during(path) { try pool.write(body) }
    }

    package func read<T>(_ body: (Database) throws -> T) throws -> T {
        try StoreError.during(path) { try pool.read(body) }
    }

    /// Counts of what the collection holds.
    package func counts() throws -> (decks: Int, notes: Int, cards: Int) {
        try pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM deck") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM note") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM card") ?? 0)
        }
    }
}

/// Where collections live: `--collection PATH`, else `$MAEIL_COLLECTION`, else
/// `$XDG_DATA_HOME/maeil/collection.sqlite` (`~/.local/share/maeil/` when unset).
package enum CollectionLocation {
    package static func resolve(explicit: String?, environment: [String: String]) -> String {
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
package enum XDG {
    package static func dataHome(_ environment: [String: String]) -> String {
        directory("XDG_DATA_HOME", default: ".local/share", environment)
    }

    package static func configHome(_ environment: [String: String]) -> String {
        directory("XDG_CONFIG_HOME", default: ".config", environment)
    }

    package static func stateHome(_ environment: [String: String]) -> String {
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
package enum SQLiteSetup {
    /// SQLite keeps memory statistics behind a global mutex taken on every allocation; Maeil
    /// reads none of them, and an import allocates for every row. Only the first call before
    /// SQLite is used has an effect, so the `maeil` executable makes it first thing.
    package static func disableMemoryStatistics() {
        _ = maeil_sqlite_disable_memory_statistics()
        _ = maeil_sqlite_enable_uri_filenames()
    }
}

/// A check that runs once, in the background, and that writers wait for.
final class WriteCheck: Sendable {
    private let outcome = Mutex<Result<Date?, any Error>?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Runs `check` and records how it went: when it passes, the file was sound at `soundSince`.
    func run(soundSince: Date? = nil, _ check: () throws -> Void) {
        let result = Result { try check(); return soundSince }
        outcome.withLock { $0 = result }
        done.signal()
    }

    /// Nothing to check (the file was last found sound at `soundSince`, when known).
    func pass(soundSince: Date? = nil) { run(soundSince: soundSince) {} }

    /// Waits for the check; throws what it found.
    func wait() throws {
        if outcome.withLock({ $0 }) == nil {
            done.wait()
            done.signal()  // for any later writer
        }
        _ = try outcome.withLock { $0 }!.get()
    }

    var isFinished: Bool { outcome.withLock { $0 != nil } }

    /// When the file was last found sound, if the check has passed by now.
    var soundSince: Date? {
        outcome.withLock { outcome in
            guard case .success(let date)? = outcome else { return nil }
            return date
        }
    }
}
