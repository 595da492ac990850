import Foundation
import GRDB

/// The Anki file a `.colpkg` is made from, kept beside the collection after each one: which
/// marks it holds, and the file as the export left it (a file changed or replaced since is not
/// it). The next `.colpkg` lays the notes marked since over it, as a sync lays its part over
/// its base, instead of writing every note again.
package struct ExportBaseMark: Codable, Equatable, Sendable {
    /// The marks the file holds: every change up to them.
    package var notes: Int64
    package var guids: Int64
    /// The file: its inode, size and modification time (nanoseconds) when the export settled.
    package var file: FileStamp

    package init(through: SyncDirty.Through, file: FileStamp) {
        (notes, guids, self.file) = (through.notes, through.guids, file)
    }

    var through: SyncDirty.Through { SyncDirty.Through(notes: notes, guids: guids) }
}

/// A file as `stat` sees it: any write, a copy or a rename over it gives another stamp.
package struct FileStamp: Codable, Equatable, Sendable {
    var inode: UInt64
    var size: Int64
    var modified: Int64

    /// Nil where there is no file.
    package init?(_ url: URL) {
        var status = stat()
        guard stat(url.path, &status) == 0 else { return nil }
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec)
    }
}

extension Collection {
    /// Marks every change from now on (the triggers a sync's part relies on), for a kept export
    /// base. Nothing to do where they are made already.
    package func trackChangesForExport() throws {
        try checkBeforeWriting()
        try StoreError.during(path) {
            try pool.write { db in
                if try !db.tableExists("sync_dirty_note") { try Self.installSyncTracking(db) }
            }
        }
    }

    /// The kept export base's mark, where the marks since it are all still here.
    package func exportBase() throws -> ExportBaseMark? {
        try read { db in try Self.exportBase(db) }
    }

    static func exportBase(_ db: Database) throws -> ExportBaseMark? {
        guard try db.tableExists("sync_dirty_note") else { return nil }
        return try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'export_base'")
            .flatMap { try? JSONDecoder().decode(ExportBaseMark.self, from: Data($0.utf8)) }
    }

    /// Records the export base an export left, and clears the marks it holds that no sync's
    /// base still needs: all of them where this collection never began a sync; up to the
    /// marks the last sync's base holds where one settled; none while a sync began and
    /// recorded none (a first sync under way reads the marks as they are and clears its own).
    package func recordExportBase(_ mark: ExportBaseMark) throws {
        try checkBeforeWriting()
        let json = String(decoding: try JSONEncoder().encode(mark), as: UTF8.self)
        try StoreError.during(path) {
            try pool.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('export_base', ?)", arguments: [json])
                var clear: SyncDirty.Through? = mark.through
                if try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync_dirty'") != nil {
                    clear = try Self.syncBaseThrough(db).map { SyncDirty.Through(notes: min($0.notes, mark.notes), guids: min($0.guids, mark.guids)) }
                }
                guard let clear else { return }
                try db.execute(sql: "DELETE FROM sync_dirty_note WHERE rowid <= ?", arguments: [clear.notes])
                try db.execute(sql: "DELETE FROM sync_dirty_guid WHERE rowid <= ?", arguments: [clear.guids])
            }
        }
    }

    /// The marks the last sync's base holds, where a sync settled one and recorded them.
    static func syncBaseThrough(_ db: Database) throws -> SyncDirty.Through? {
        guard try syncTracking(db) != nil,
              let json = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync_marks_through'") else { return nil }
        return try? JSONDecoder().decode(SyncDirty.Through.self, from: Data(json.utf8))
    }
}
