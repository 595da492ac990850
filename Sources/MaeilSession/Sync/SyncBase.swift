import Foundation
import GRDB
import MaeilPrograms
import MaeilStore

/// What a normal sync compares this collection with to find what changed here: the collection
/// as Anki's file (the same export a sync sends), written when the last sync ended and tagged
/// with that sync's mark. It sits beside the collection (`c.sqlite.sync-base`).
///
/// A sync writes the next base (`.sync-base.next`) before it puts its result in place and
/// renames it after, so a sync killed in between leaves a base whose tag matches the mark the
/// collection recorded: whichever of the two files carries it is the one.
package struct SyncBase {
    package let file: URL
    let next: URL

    package init(collectionPath: String) {
        file = URL(fileURLWithPath: collectionPath + ".sync-base")
        next = URL(fileURLWithPath: collectionPath + ".sync-base.next")
    }

    /// The base for a collection whose last sync left `mark`, if one was written for it.
    package func matching(_ mark: SyncMark) -> URL? {
        for candidate in [next, file] where (try? Self.tags(of: candidate))?.contains(mark) == true {
            if candidate == next { settle() }
            return file
        }
        return nil
    }

    /// Tags an export as the base of the sync that ends with `mark`, ready to take the base's
    /// place; the export is moved there (or copied) and is no longer the caller's. `answersOf`
    /// is the Anki file the collection was built from: its answers to cards that are gone, which
    /// Maeil cannot hold, go into the base, so a sync still counts them.
    func prepare(_ export: URL, mark: SyncMark, answersOf source: URL? = nil) throws {
        let queue = try DatabaseQueue(path: export.path)
        try queue.writeWithoutTransaction { db in
            guard let source else { return }
            try db.execute(sql: "ATTACH DATABASE ? AS source", arguments: [source.path])
            try db.execute(sql: "INSERT OR IGNORE INTO main.revlog SELECT id, cid, 0, ease, ivl, lastIvl, factor, time, type FROM source.revlog")
            try db.execute(sql: "DETACH DATABASE source")
        }
        try queue.write { db in
            try db.execute(sql: "CREATE TABLE IF NOT EXISTS maeil_sync_base (mark TEXT NOT NULL); DELETE FROM maeil_sync_base")
            try db.execute(sql: "INSERT INTO maeil_sync_base VALUES (?)", arguments: [try Self.text(mark)])
        }
        try queue.close()
        try? FileManager.default.removeItem(at: next)
        // Moved where it can be (the export is the caller's to give up), copied across file systems.
        if rename(export.path, next.path) != 0 { try FileCopy.copy(export, to: next) }
    }

    /// The prepared base becomes the base.
    func settle() {
        if FileManager.default.fileExists(atPath: next.path) { _ = rename(next.path, file.path) }
    }

    /// The base stands for `mark` too: a sync that found nothing changed on either side moves
    /// the collection's mark to the server's new time (another device synced and changed
    /// nothing), and the next change here must still merge against this base. It holds both
    /// marks until the next base replaces it, so whichever the collection recorded matches,
    /// however a kill falls. Answers false where the base is not the one for `standing`.
    package func alsoStands(for mark: SyncMark, holding standing: SyncMark) -> Bool {
        guard matching(standing) != nil else { return false }
        do {
            let queue = try DatabaseQueue(path: file.path)
            defer { try? queue.close() }
            let (old, new) = (try Self.text(standing), try Self.text(mark))
            try queue.write { db in
                try db.execute(sql: "DELETE FROM maeil_sync_base")
                try db.execute(sql: "INSERT INTO maeil_sync_base VALUES (?), (?)", arguments: [old, new])
            }
            return true
        } catch {
            return false
        }
    }

    /// The collection config the base holds: the server's as the last sync left it.
    package static func config(of url: URL) -> [String: Any]? {
        let text = try? reading(url) { try String.fetchOne($0, sql: "SELECT conf FROM col") }
        return text.flatMap { $0 }.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func text(_ mark: SyncMark) throws -> String {
        String(decoding: try JSONEncoder().encode(mark), as: UTF8.self)
    }

    static func tags(of url: URL) throws -> [SyncMark] {
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try reading(url) { db in
            try String.fetchAll(db, sql: "SELECT mark FROM maeil_sync_base").map { try JSONDecoder().decode(SyncMark.self, from: Data($0.utf8)) }
        }
    }

    /// `body` over the file at `url` (a base, or a merge), opened only to read.
    static func reading<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read(body)
    }
}
