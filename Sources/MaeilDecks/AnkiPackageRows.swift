import Foundation
import GRDB
import GRDBSQLite
import MaeilCore
import MaeilPrograms
import MaeilSQLite

// GRDB's row subscripts trap on NULL or on a value of another type; a package is untrusted, so
// its rows are decoded once, with errors, into these.

/// A row of one of the package's tables, read by position in the query's own select list,
/// with an error that names the column instead of a trap when a value has the wrong type.
struct PackageRow {
    let row: Row
    let table: String
    let file: String

    func value<T: DatabaseValueConvertible>(_ index: Int) throws -> T {
        do {
            return try row.decode(T.self, atIndex: index)
        } catch {
            let column = Array(row.columnNames)[index]
            throw ImportProblem(file: file, message: "the package's \(table) table holds a value that is not \(T.self) in column \(column) (\(row[index] as DatabaseValue))")
        }
    }
}

// Each row type lists its columns next to the order it reads them in.

struct NoteRow {
    static let columns = "id, guid, mid, tags, flds, mod"
    var id: Int64, guid: String, noteType: Int64, tags: String, fields: String, modified: Int64

    init(_ row: PackageRow) throws {
        (id, guid, noteType, tags, fields) = (try row.value(0), try row.value(1), try row.value(2), try row.value(3), try row.value(4))
        modified = try row.value(5)
    }

    init(id: Int64, guid: String, noteType: Int64, tags: String, fields: String, modified: Int64) {
        (self.id, self.guid, self.noteType, self.tags, self.fields, self.modified) = (id, guid, noteType, tags, fields, modified)
    }
}

extension NoteRow {
    /// The rows `sql` selects (`columns`), read straight (`StraightRows`); nil where a value is
    /// not of the type read, for `PackageRow` to read the rows and say what is wrong.
    static func straight(_ db: Database, sql: String) throws -> [NoteRow]? {
        var rows: [NoteRow] = []
        let read = try StraightRows.read(db, sql: sql, types: [SQLITE_INTEGER, SQLITE_TEXT, SQLITE_INTEGER, SQLITE_TEXT, SQLITE_TEXT, SQLITE_INTEGER]) { row in
            rows.append(NoteRow(id: row.int64(0), guid: row.text(1), noteType: row.int64(2), tags: row.text(3), fields: row.text(4), modified: row.int64(5)))
        }
        return read ? rows : nil
    }
}

/// A package's rows read straight through SQLite's C API (`SQLiteRow`), where GRDB's decoding
/// of each value was most of reading them. Each row's values must be of the types given, or the
/// reading stops and answers false: the caller then reads the rows as `PackageRow`s, which say
/// what is wrong with a value.
enum StraightRows {
    private struct Mistyped: Error {}

    /// `nullable` lists the columns that may also be NULL.
    static func read(_ db: Database, sql: String, arguments: StatementArguments = [], types: [Int32], nullable: Set<Int> = [],
                     _ body: (SQLiteRow) -> Void) throws -> Bool {
        do {
            try db.makeStatement(sql: sql).forEachRow(arguments) { row in
                guard types.indices.allSatisfy({ row.type($0) == types[$0] || (row.type($0) == SQLITE_NULL && nullable.contains($0)) }) else {
                    throw Mistyped()
                }
                body(row)
            }
            return true
        } catch is Mistyped {
            return false
        }
    }
}

struct CardRow {
    static let columns = "id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, left, odue, odid, data, mod, flags"
    var id: Int64, note: Int64, deck: Int64, ordinal: Int, type: Int64, queue: Int64, due: Int64, interval: Int64, factor: Int64
    var reps: Int64, lapses: Int64, left: Int64, originalDue: Int64, originalDeck: Int64, data: String, modified: Int64, flags: Int64

    init(_ row: PackageRow) throws {
        (id, note, deck) = (try row.value(0), try row.value(1), try row.value(2))
        ordinal = Int((try row.value(3) as Int64).clamped(to: 0...10_000))
        (type, queue, due, interval) = (try row.value(4), try row.value(5), try row.value(6), try row.value(7))
        (factor, reps, lapses, left) = (try row.value(8), try row.value(9), try row.value(10), try row.value(11))
        (originalDue, originalDeck) = (try row.value(12), try row.value(13))
        data = (try row.value(14) as String?) ?? ""
        modified = try row.value(15)
        flags = (try? row.value(16) as Int64?).flatMap { $0 } ?? 0
    }

    init(id: Int64, note: Int64, deck: Int64, ordinal: Int, type: Int64, queue: Int64, due: Int64, interval: Int64, factor: Int64,
         reps: Int64, lapses: Int64, left: Int64, originalDue: Int64, originalDeck: Int64, data: String, modified: Int64, flags: Int64) {
        (self.id, self.note, self.deck, self.ordinal, self.type, self.queue) = (id, note, deck, ordinal, type, queue)
        (self.due, self.interval, self.factor, self.reps, self.lapses, self.left) = (due, interval, factor, reps, lapses, left)
        (self.originalDue, self.originalDeck, self.data, self.modified, self.flags) = (originalDue, originalDeck, data, modified, flags)
    }
}

extension CardRow {
    /// The rows `sql` selects (`columns`), read straight; nil where a value is not of the type read.
    static func straight(_ db: Database, sql: String) throws -> [CardRow]? {
        var rows: [CardRow] = []
        var types = Array(repeating: SQLITE_INTEGER, count: 17)
        types[14] = SQLITE_TEXT  // data
        let read = try StraightRows.read(db, sql: sql, types: types, nullable: [14, 16]) { row in
            rows.append(CardRow(id: row.int64(0), note: row.int64(1), deck: row.int64(2), ordinal: Int(row.int64(3).clamped(to: 0...10_000)),
                                type: row.int64(4), queue: row.int64(5), due: row.int64(6), interval: row.int64(7), factor: row.int64(8),
                                reps: row.int64(9), lapses: row.int64(10), left: row.int64(11), originalDue: row.int64(12),
                                originalDeck: row.int64(13), data: row.text(14), modified: row.int64(15), flags: row.int64(16)))
        }
        return read ? rows : nil
    }
}

struct RevlogRow {
    static let columns = "id, cid, ease, ivl, lastIvl, factor, time, type"
    var id: Int64, card: Int64, ease: Int64, interval: Int64, lastInterval: Int64, factor: Int64, milliseconds: Int64, type: Int64

    init(_ row: PackageRow) throws {
        (id, card, ease, interval) = (try row.value(0), try row.value(1), try row.value(2), try row.value(3))
        (lastInterval, factor, milliseconds, type) = (try row.value(4), try row.value(5), try row.value(6), try row.value(7))
    }

    init(id: Int64, card: Int64, ease: Int64, interval: Int64, lastInterval: Int64, factor: Int64, milliseconds: Int64, type: Int64) {
        (self.id, self.card, self.ease, self.interval) = (id, card, ease, interval)
        (self.lastInterval, self.factor, self.milliseconds, self.type) = (lastInterval, factor, milliseconds, type)
    }

    /// The rows `sql` selects (`columns`), read straight; nil where a value is not of the type read.
    static func straight(_ db: Database, sql: String) throws -> [RevlogRow]? {
        var rows: [RevlogRow] = []
        let read = try StraightRows.read(db, sql: sql, types: Array(repeating: SQLITE_INTEGER, count: 8)) { row in
            rows.append(RevlogRow(id: row.int64(0), card: row.int64(1), ease: row.int64(2), interval: row.int64(3),
                                  lastInterval: row.int64(4), factor: row.int64(5), milliseconds: row.int64(6), type: row.int64(7)))
        }
        return read ? rows : nil
    }
}
