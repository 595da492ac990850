import Foundation
import GRDB
import GRDBSQLite

/// Binds one row's values to a prepared statement and runs it, straight through SQLite's C API:
/// the one way Maeil writes on the paths that must be fast (an answer, an import, an export).
///
/// GRDB's `StatementArguments` box every value as a `DatabaseValue`; on those paths that boxing
/// was the largest single cost. Texts are gathered in one buffer the binder keeps and reuses,
/// and handed to SQLite without a copy (SQLITE_STATIC) for the one step that reads them: a copy
/// per text, with its malloc and free, was a sixth of writing a note.
package struct Binder {
    private var handle: SQLiteStatement?
    private var index: Int32 = 1
    private var arena: [UInt8] = []
    private var texts: [(index: Int32, start: Int, count: Int)] = []

    package init() {}

    /// Starts a row for `statement`.
    package mutating func begin(_ statement: Statement) {
        handle = statement.sqliteStatement
        index = 1
        arena.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
    }

    package mutating func int(_ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
        index += 1
    }

    package mutating func int(_ value: Int?) { int(value.map(Int64.init)) }

    package mutating func bool(_ value: Bool) { int(Int64(value ? 1 : 0)) }

    package mutating func double(_ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
        index += 1
    }

    package mutating func text(_ value: String?) {
        if let value {
            texts.append((index, arena.count, value.utf8.count))
            arena.append(contentsOf: value.utf8)
        } else {
            sqlite3_bind_null(handle, index)
        }
        index += 1
    }

    package mutating func utf8(_ bytes: [UInt8]) {
        texts.append((index, arena.count, bytes.count))
        arena.append(contentsOf: bytes)
        index += 1
    }

    package mutating func date(_ value: Date?) { int(value?.unixSeconds) }

    /// Binds the texts and runs the statement once; the texts are unbound before the buffer
    /// can change.
    package func step(_ db: Database) throws {
        let code = arena.withUnsafeBufferPointer { buffer -> Int32 in
            let base = UnsafeRawPointer(buffer.baseAddress ?? UnsafePointer(("" as StaticString).utf8Start))
            for text in texts {
                sqlite3_bind_text(handle, text.index, (base + text.start).assumingMemoryBound(to: CChar.self), Int32(text.count), nil)
            }
            let code = sqlite3_step(handle)
            sqlite3_reset(handle)
            sqlite3_clear_bindings(handle)
            return code
        }
        guard code == SQLITE_DONE else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: handle.map { String(cString: sqlite3_sql($0)) })
        }
    }
}

extension Date {
    /// Whole unix seconds, as Maeil's files keep times.
    package var unixSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
    package var unixMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    package init(unixSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(unixSeconds)) }
}
