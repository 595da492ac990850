import Foundation
import GRDB
import GRDBSQLite

/// One row of a result, its values read straight through SQLite's C API by position. GRDB's
/// rows lowercase every column name of a result each time one is fetched, which on the answer
/// path cost more than reading the values; positions come from names once (`ColumnMap`), so
/// rows are still read by name. Public and inlinable, where the rest of this module is
/// `package`: its readers are the store's hot paths (the queue, an answer) in other modules,
/// and a call per value that cannot be inlined cost the queue a sixth of its time.
public struct SQLiteRow {
    public let handle: SQLiteStatement

    @inlinable public init(handle: SQLiteStatement) { self.handle = handle }

    @inlinable public func isNull(_ column: Int) -> Bool { sqlite3_column_type(handle, Int32(column)) == SQLITE_NULL }
    @inlinable public func int64(_ column: Int) -> Int64 { sqlite3_column_int64(handle, Int32(column)) }
    @inlinable public func int(_ column: Int) -> Int { Int(int64(column)) }
    @inlinable public func bool(_ column: Int) -> Bool { int64(column) != 0 }
    @inlinable public func optionalInt64(_ column: Int) -> Int64? { isNull(column) ? nil : int64(column) }
    @inlinable public func optionalInt(_ column: Int) -> Int? { isNull(column) ? nil : int(column) }
    @inlinable public func optionalDouble(_ column: Int) -> Double? { isNull(column) ? nil : sqlite3_column_double(handle, Int32(column)) }

    @inlinable public func text(_ column: Int) -> String {
        guard let bytes = sqlite3_column_text(handle, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    @inlinable public func optionalText(_ column: Int) -> String? { isNull(column) ? nil : text(column) }

    /// The column's text as SQLite holds it, valid until the next row.
    @inlinable public func bytes(_ column: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: sqlite3_column_text(handle, Int32(column)), count: Int(sqlite3_column_bytes(handle, Int32(column))))
    }

    /// SQLite's type of the column's value: SQLITE_INTEGER, SQLITE_TEXT, …
    @inlinable public func type(_ column: Int) -> Int32 { sqlite3_column_type(handle, Int32(column)) }

    /// A text that is nearly always one of a few `known` values (a phase, a scheduler's name):
    /// that value itself, so reading 100,000 log rows does not make 100,000 strings of it.
    @inlinable public func text(_ column: Int, among known: [String]) -> String {
        if let index = index(column, among: known) { return known[index] }
        return text(column)
    }

    /// Where the column's text is in `known`, compared byte by byte; nil when it is not there.
    @inlinable public func index(_ column: Int, among known: [String]) -> Int? {
        guard let bytes = sqlite3_column_text(handle, Int32(column)) else { return nil }
        let buffer = UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(handle, Int32(column))))
        return known.firstIndex { $0.utf8.count == buffer.count && $0.utf8.elementsEqual(buffer) }
    }
}

extension Statement {
    /// Runs the statement with `arguments` and decodes every row it gives.
    @inlinable public func rows<T>(_ arguments: StatementArguments = [], _ decode: (SQLiteRow) throws -> T) throws -> [T] {
        var result: [T] = []
        try forEachRow(arguments) { result.append(try decode($0)) }
        return result
    }

    /// Runs the statement with `arguments` and hands each row to `body` as it comes.
    @inlinable public func forEachRow(_ arguments: StatementArguments = [], _ body: (SQLiteRow) throws -> Void) throws {
        try setArguments(arguments)
        let handle = sqliteStatement
        defer { sqlite3_reset(handle) }
        while true {
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else {
                throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(sqlite3_db_handle(handle))),
                                    sql: sql)
            }
            try body(SQLiteRow(handle: handle))
        }
    }
}
