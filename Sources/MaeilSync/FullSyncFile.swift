import Foundation
import GRDB
import MaeilDecks

/// An Anki collection file on its way across a full sync.
package enum FullSyncFile {
    /// Makes a collection file ready to replace the server's, as Anki's own client does before
    /// an upload: nothing left pending (every usn −1 becomes 0, in the rows and in the note
    /// types, decks, options and tags), no deletions, the usn one on, and a new schema time,
    /// which tells every other device that only a full sync will do.
    package static func prepareForUpload(_ file: URL, now: Date) throws {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        let milliseconds = Int64(now.timeIntervalSince1970 * 1000)
        try queue.write { db in
            for table in ["notes", "cards", "revlog"] {
                try db.execute(sql: "UPDATE \(table) SET usn = 0 WHERE usn = -1")
            }
            try db.execute(sql: "DELETE FROM graves")
            var tags: [String: Int] = [:]
            for line in try String.fetchAll(db, sql: "SELECT DISTINCT tags FROM notes") {
                for tag in line.split(separator: " ") { tags[String(tag)] = 0 }
            }
            guard let row = try Row.fetchOne(db, sql: "SELECT models, decks, dconf FROM col") else {
                throw SyncError(.server, "the collection file to upload has no collection row")
            }
            var columns: [String] = []
            for name in ["models", "decks", "dconf"] {
                let json: String = row[name]
                guard var objects = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any] else {
                    throw SyncError(.server, "the collection file to upload has unreadable \(name)")
                }
                for (key, value) in objects {
                    guard var object = value as? [String: Any] else { continue }
                    if (object["usn"] as? NSNumber)?.intValue == -1 { object["usn"] = 0 }
                    objects[key] = object
                }
                columns.append(String(decoding: try JSONSerialization.data(withJSONObject: objects, options: [.sortedKeys]), as: UTF8.self))
            }
            let tagJSON = String(decoding: try JSONSerialization.data(withJSONObject: tags, options: [.sortedKeys]), as: UTF8.self)
            try db.execute(sql: "UPDATE col SET models = ?, decks = ?, dconf = ?, tags = ?, usn = usn + 1, scm = ?, ls = ?",
                           arguments: [columns[0], columns[1], columns[2], tagJSON, milliseconds, milliseconds])
        }
    }

    /// What a downloaded file holds, or why it is not a collection Anki wrote.
    package struct Contents: Sendable, Equatable {
        package var notes: Int
        package var cards: Int
        package var reviews: Int
        package var modified: Int64
        package var schema: Int64
        package var usn: Int
    }

    /// What a collection file this side wrote holds (no check: it is not the server's word).
    package static func contents(of file: URL) throws -> Contents {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        return try queue.read { db in try counted(db, try Row.fetchOne(db, sql: "SELECT mod, scm, usn FROM col")) }
    }

    /// Checks a file the server sent is a whole Anki collection, and counts it.
    package static func check(_ file: URL) throws -> Contents {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase(AnkiPackage.addAnkiCollations)
        do {
            let queue = try DatabaseQueue(path: file.path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                guard try String.fetchOne(db, sql: "PRAGMA quick_check") == "ok",
                      let version = try Int.fetchOne(db, sql: "SELECT ver FROM col"), (11...18).contains(version),
                      let row = try Row.fetchOne(db, sql: "SELECT mod, scm, usn FROM col") else {
                    throw SyncError(.server, "the sync server sent a collection that is damaged or of an Anki Maeil does not know")
                }
                return try counted(db, row)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.server, "the sync server sent something that is not a collection (\(error))")
        }
    }

    /// The rows of each table, and the collection's times and usn from its `col` row.
    static func counted(_ db: Database, _ col: Row?) throws -> Contents {
        Contents(notes: try Int.fetchOne(db, sql: "SELECT count(*) FROM notes") ?? 0,
                 cards: try Int.fetchOne(db, sql: "SELECT count(*) FROM cards") ?? 0,
                 reviews: try Int.fetchOne(db, sql: "SELECT count(*) FROM revlog") ?? 0,
                 modified: col?["mod"] ?? 0, schema: col?["scm"] ?? 0, usn: col?["usn"] ?? 0)
    }
}
