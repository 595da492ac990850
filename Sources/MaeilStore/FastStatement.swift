import Foundation
import GRDB
import GRDBSQLite
import MaeilCore

/// Runs a GRDB-prepared statement with values bound straight through SQLite's C API.
///
/// GRDB's `StatementArguments` box every value as a `DatabaseValue`; on the paths that write
/// tens of thousands of rows (an import) or must stay under a tenth of a millisecond (an
/// answer), that boxing was the largest single cost. Only the hot inserts and updates use this.
struct FastStatement {
    enum Value {
        case int(Int64)
        case double(Double)
        case text(String)
        case null
    }

    let statement: Statement
    let db: Database

    init(_ db: Database, sql: String) throws {
        self.db = db
        statement = try db.cachedStatement(sql: sql)
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    func run(_ values: [Value]) throws {
        let handle = statement.sqliteStatement
        sqlite3_reset(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .int(let number): sqlite3_bind_int64(handle, index, number)
            case .double(let number): sqlite3_bind_double(handle, index, number)
            case .null: sqlite3_bind_null(handle, index)
            case .text(let text):
                var text = text
                text.withUTF8 { buffer in
                    _ = sqlite3_bind_text(handle, index, UnsafeRawPointer(buffer.baseAddress!).assumingMemoryBound(to: CChar.self),
                                          Int32(buffer.count), Self.transient)
                }
            }
        }
        let code = sqlite3_step(handle)
        sqlite3_reset(handle)
        guard code == SQLITE_DONE || code == SQLITE_ROW else {
            throw DatabaseError(resultCode: ResultCode(rawValue: code), message: String(cString: sqlite3_errmsg(db.sqliteConnection)),
                                sql: statement.sql)
        }
    }
}

extension FastStatement.Value {
    static func int(_ value: Int) -> Self { .int(Int64(value)) }
    static func text(_ value: String?) -> Self { value.map { .text($0) } ?? .null }
    static func int(_ value: Int64?) -> Self { value.map { .int($0) } ?? .null }
    static func int(_ value: Int?) -> Self { value.map { .int(Int64($0)) } ?? .null }
    static func double(_ value: Double?) -> Self { value.map { .double($0) } ?? .null }
    static func bool(_ value: Bool) -> Self { .int(value ? 1 : 0) }
}

extension CardState {
    /// The 12 state columns as fast values, in `Columns.state` order.
    var fastValues: [FastStatement.Value] {
        [.text(phase.rawValue), .int(step), .int(scheduledSeconds), .int(intervalDays), .int(easePermille), .double(stability),
         .double(difficulty), .int(due?.unixSeconds), .int(reps), .int(lapses), .int(streak), .int(lastReview?.unixSeconds)]
    }
}
