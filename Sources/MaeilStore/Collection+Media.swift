import Foundation
import GRDB

/// A file of the media folder as the media sync knows it.
package struct MediaFileState: Sendable, Equatable {
    package var sha1: String          // "" once deleted here, until the deletion is synced
    package var mtime: Int64
    package var size: Int64
    package var pending: Bool

    package init(sha1: String, mtime: Int64, size: Int64, pending: Bool) {
        (self.sha1, self.mtime, self.size, self.pending) = (sha1, mtime, size, pending)
    }
}

extension Collection {
    /// Every file the media sync knows, and the server's media usn at the last media sync.
    package func mediaState() throws -> (files: [String: MediaFileState], usn: Int) {
        try read { db in
            var files: [String: MediaFileState] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT name, sha1, mtime, size, pending FROM media_file") {
                files[row["name"]] = MediaFileState(sha1: row["sha1"], mtime: row["mtime"], size: row["size"], pending: row["pending"])
            }
            let usn = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'media_usn'").flatMap(Int.init) ?? 0
            return (files, usn)
        }
    }

    /// Records files as they now are (nil forgets one) and, when given, the server's media usn.
    package func saveMediaState(_ changes: [String: MediaFileState?], usn: Int? = nil) throws {
        try checkBeforeWriting()
        try StoreError.during(path) {
            try pool.write { db in
                for (name, state) in changes {
                    if let state {
                        try db.execute(sql: "INSERT OR REPLACE INTO media_file (name, sha1, mtime, size, pending) VALUES (?, ?, ?, ?, ?)",
                                       arguments: [name, state.sha1, state.mtime, state.size, state.pending])
                    } else {
                        try db.execute(sql: "DELETE FROM media_file WHERE name = ?", arguments: [name])
                    }
                }
                if let usn { try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('media_usn', ?)", arguments: ["\(usn)"]) }
            }
        }
    }
}
