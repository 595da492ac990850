import Foundation
import GRDB

/// What a path holds before SQLite is let near it: SQLite opens a text file, a device or
/// another program's database happily, and writes a journal or a schema into it. A collection
/// is a regular file that is empty (a new one) or starts with SQLite's header; anything else
/// is someone else's and is never opened, let alone written to.
enum ForeignFile {
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Throws `StoreError.notACollection` when `path` holds something that is not a SQLite
    /// database; a missing file passes (it is made new).
    static func refuse(_ path: String) throws {
        var status = stat()
        guard stat(path, &status) == 0 else { return }
        if status.st_mode & S_IFMT == S_IFDIR { throw StoreError.cannotOpen(path: path, reason: "it is a folder, not a collection file") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw StoreError.notACollection(path: path, reason: "it is not a regular file") }
        guard status.st_size > 0 else { return }
        guard let handle = FileHandle(forReadingAtPath: path) else { return }  // unreadable: SQLite says why
        defer { try? handle.close() }
        let start = (try? handle.read(upToCount: sqliteHeader.count)).map(Array.init) ?? []
        guard start == sqliteHeader else {
            throw StoreError.notACollection(path: path, reason: "it is not an SQLite database; nothing was written to it")
        }
        // Another program's database (Anki's collection.anki2, say): opened for writing, it
        // would be switched to write-ahead logging, which rewrites its header.
        // Read as immutable first: a database in write-ahead-log mode (Anki's) opened even to
        // read gets -wal and -shm files beside it. Its log may hold tables made since its last
        // checkpoint, so a file that looks empty that way is read again the ordinary way.
        var configuration = Configuration()
        configuration.readonly = true
        func tables(_ location: String) -> [String]? {
            try? DatabaseQueue(path: location, configuration: configuration).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
            }
        }
        let immutable = tables(Collection.immutableURI(path))
        guard let tables = immutable?.isEmpty == false ? immutable : tables(path) else { return }  // damaged or unreadable: the opening says which
        let maeils = ["grdb_migrations", "card"]
        if !tables.isEmpty, !tables.contains(where: maeils.contains) {
            let anki = ["col", "notes", "cards", "revlog"].allSatisfy(tables.contains)
            throw StoreError.notACollection(path: path, reason: anki
                ? "it is an Anki collection; nothing was written to it. `maeil import \(path)` brings its decks, schedules and history into Maeil's"
                : "it has tables \(tables.sorted().prefix(3).joined(separator: ", ")); nothing was written to it")
        }
    }
}
