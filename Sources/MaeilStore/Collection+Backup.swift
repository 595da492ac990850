import Foundation
import GRDB
import MaeilCore
import MaeilPrograms

/// One backup of a collection: a whole, consistent copy in `backups/` beside it.
package struct Backup: Sendable, Equatable {
    package var path: String
    package var date: Date
    package var notes: Int
    package var cards: Int
    package var reviews: Int
    package var bytes: Int
}

extension Collection {
    /// Backups live beside the collection, named for it: c.sqlite's are backups/c-….sqlite.
    package var backupFolder: URL { URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("backups") }
    private var backupStem: String { (URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent) + "-" }

    /// Writes a backup of the collection as it is now, then thins the older ones by `retention`.
    /// SQLite's VACUUM INTO reads one snapshot (other processes may write meanwhile) into a
    /// file named for this process; it takes its backup's name only once whole, so a kill
    /// leaves no half backup, and the next backup removes what a killed one left.
    @discardableResult
    package func backUp(now: Date, retention: BackupRetention = BackupRetention(), calendar: Calendar) throws -> Backup {
        let folder = backupFolder
        try StoreError.during(path) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        Leftovers.removeDead(in: folder, prefix: ".backup-")  // the partial file and its journal
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd-HHmmss"
        var target = folder.appendingPathComponent(backupStem + formatter.string(from: now) + ".sqlite")
        if FileManager.default.fileExists(atPath: target.path) {
            target = folder.appendingPathComponent(backupStem + formatter.string(from: now) + "-\(UUID().uuidString.prefix(4)).sqlite")
        }
        let temporary = folder.appendingPathComponent(Leftovers.name(".backup-", ".partial"))
        defer { try? FileManager.default.removeItem(at: temporary) }
        try StoreError.during(path) {
            // VACUUM cannot run inside a transaction; INTO reads a snapshot of its own.
            try pool.unsafeRead { db in try db.execute(sql: "VACUUM INTO ?", arguments: [temporary.path]) }
        }
        guard rename(temporary.path, target.path) == 0 else { throw StoreError.cannotOpen(path: target.path, reason: String(cString: strerror(errno))) }
        try? FileManager.default.setAttributes([.modificationDate: now], ofItemAtPath: target.path)
        let made = try Self.describe(target)
        try thinBackups(retention, calendar: calendar)
        return made
    }

    /// A backup when one is due (the newest older than `retention.interval`) and the collection
    /// changed since; nil when none was.
    @discardableResult
    package func backUpIfDue(now: Date, retention: BackupRetention = BackupRetention(), calendar: Calendar) throws -> Backup? {
        // A handle that only reads changed nothing, and may sit where nothing can be written.
        guard !pool.configuration.readonly else { return nil }
        let newest = try backupDates().max()
        guard retention.isDue(now: now, newest: newest) else { return nil }
        if let newest, let changed = lastChange(), changed <= newest { return nil }
        return try backUp(now: now, retention: retention, calendar: calendar)
    }

    /// The collection's backups, newest first.
    package func backups() throws -> [Backup] {
        try backupFiles().map(Self.describe).sorted { $0.date > $1.date }
    }

    /// Puts `backup` in place of the collection's contents, after backing up the collection as
    /// it is (so a restore can itself be undone). SQLite's backup API copies it in through the
    /// collection's own connection: another process reading sees the old contents or the new.
    package func restore(_ backup: Backup, now: Date, calendar: Calendar) throws -> Backup {
        _ = try Collection(path: backup.path, readOnly: true)  // a Maeil collection, or say why not
        let before = try backUp(now: now, calendar: calendar)
        var configuration = Configuration()
        configuration.readonly = true
        let source = try StoreError.opening(backup.path) { try DatabaseQueue(path: backup.path, configuration: configuration) }
        try checkBeforeWriting()
        try StoreError.during(path) { try source.backup(to: pool) }
        return before
    }

    private func backupFiles() throws -> [URL] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: backupFolder.path)) ?? []
        return names.filter { $0.hasPrefix(backupStem) && $0.hasSuffix(".sqlite") }.map { backupFolder.appendingPathComponent($0) }
    }

    private func backupDates() throws -> [Date] {
        try backupFiles().compactMap { (try? FileManager.default.attributesOfItem(atPath: $0.path))?[.modificationDate] as? Date }
    }

    /// When the collection's files last changed (the write-ahead log holds the newest writes).
    private func lastChange() -> Date? {
        [path, path + "-wal"].compactMap { (try? FileManager.default.attributesOfItem(atPath: $0))?[.modificationDate] as? Date }.max()
    }

    private func thinBackups(_ retention: BackupRetention, calendar: Calendar) throws {
        let files = try backupFiles().compactMap { file -> (URL, Date)? in
            ((try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date).map { (file, $0) }
        }
        let kept = retention.keep(files.map(\.1), calendar: calendar)
        for (file, date) in files where !kept.contains(date) { try? FileManager.default.removeItem(at: file) }
    }

    package static func describe(_ file: URL) throws -> Backup {
        var configuration = Configuration()
        configuration.readonly = true
        let counts = try StoreError.opening(file.path) {
            try DatabaseQueue(path: file.path, configuration: configuration).read { db in
                try ["note", "card", "review_log"].map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \($0)") ?? 0 }
            }
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: file.path)
        return Backup(path: file.path, date: attributes?[.modificationDate] as? Date ?? Date(timeIntervalSince1970: 0),
                      notes: counts[0], cards: counts[1], reviews: counts[2], bytes: attributes?[.size] as? Int ?? 0)
    }
}
