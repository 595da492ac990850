import Foundation
import GRDB
import GRDBSQLite
import MaeilCore

/// Binds one row's values to a prepared statement and runs it, straight through SQLite's C API:
/// the one way the store writes on the paths that must be fast (an answer, an import).
///
/// GRDB's `StatementArguments` box every value as a `DatabaseValue`; on those paths that boxing
/// was the largest single cost. Texts are gathered in one buffer the binder keeps and reuses,
/// and handed to SQLite without a copy (SQLITE_STATIC) for the one step that reads them: a copy
/// per text, with its malloc and free, was a sixth of writing a note.
struct Binder {
    private var handle: SQLiteStatement?
    private var index: Int32 = 1
    private var arena: [UInt8] = []
    private var texts: [(index: Int32, start: Int, count: Int)] = []

    /// Starts a row for `statement`.
    mutating func begin(_ statement: Statement) {
        handle = statement.sqliteStatement
        index = 1
        arena.removeAll(keepingCapacity: true)
        texts.removeAll(keepingCapacity: true)
    }

    mutating func int(_ value: Int64?) {
        if let value { sqlite3_bind_int64(handle, index, value) } else { sqlite3_bind_null(handle, index) }
        index += 1
    }

    mutating func int(_ value: Int?) { int(value.map(Int64.init)) }

    mutating func bool(_ value: Bool) { int(Int64(value ? 1 : 0)) }

    mutating func double(_ value: Double?) {
        if let value { sqlite3_bind_double(handle, index, value) } else { sqlite3_bind_null(handle, index) }
        index += 1
    }

    mutating func text(_ value: String?) {
        if let value {
            texts.append((index, arena.count, value.utf8.count))
            arena.append(contentsOf: value.utf8)
        } else {
            sqlite3_bind_null(handle, index)
        }
        index += 1
    }

    mutating func utf8(_ bytes: [UInt8]) {
        texts.append((index, arena.count, bytes.count))
        arena.append(contentsOf: bytes)
        index += 1
    }

    mutating func date(_ value: Date?) { int(value?.unixSeconds) }

    /// Binds the texts and runs the statement once; the texts are unbound before the buffer
    /// can change.
    func step(_ db: Database) throws {
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

/// The twelve columns a card's scheduling state takes: in the card table, and twice in the
/// review log (b_ before the answer, a_ after it). Their names are written here only; the
/// state is encoded by `bind` and decoded by `decode`, nowhere else.
struct CardStateColumns {
    static let names = ["phase", "step", "scheduled_seconds", "interval_days", "ease", "stability", "difficulty", "due", "reps",
                        "lapses", "streak", "last_review"]

    /// "phase, step, …", with a prefix on every name.
    static func list(prefix: String = "") -> String { names.map { prefix + $0 }.joined(separator: ", ") }

    /// "phase = ?, step = ?, …", for an UPDATE.
    static let assignments = names.map { "\($0) = ?" }.joined(separator: ", ")

    /// Binds a state, or twelve NULLs for none, in `names` order.
    static func bind(_ state: CardState?, _ binder: inout Binder) {
        guard let state else {
            for _ in names { binder.int(nil as Int64?) }
            return
        }
        binder.text(state.phase.rawValue); binder.int(state.step); binder.int(state.scheduledSeconds); binder.int(state.intervalDays)
        binder.int(state.easePermille); binder.double(state.stability); binder.double(state.difficulty); binder.date(state.due)
        binder.int(state.reps); binder.int(state.lapses); binder.int(state.streak); binder.date(state.lastReview)
    }

    private let positions: [Int]

    /// Finds the columns, with `prefix`, among a result's columns.
    init(_ columns: ColumnMap, prefix: String = "") {
        positions = Self.names.map { columns[prefix + $0] }
    }

    /// The state in `row`; nil when its phase is NULL (a log entry that recorded none).
    func decode(_ row: SQLiteRow) -> CardState? {
        guard !row.isNull(positions[0]), let phase = CardPhase(rawValue: row.text(positions[0])) else { return nil }
        return CardState(
            phase: phase, step: row.int(positions[1]), scheduledSeconds: row.int(positions[2]), intervalDays: row.int(positions[3]),
            easePermille: row.int(positions[4]), stability: row.optionalDouble(positions[5]), difficulty: row.optionalDouble(positions[6]),
            due: row.optionalInt64(positions[7]).map(Date.init(unixSeconds:)), reps: row.int(positions[8]), lapses: row.int(positions[9]),
            streak: row.int(positions[10]), lastReview: row.optionalInt64(positions[11]).map(Date.init(unixSeconds:)))
    }
}

/// A result's column positions by name, found once for all its rows: rows are read by name,
/// without a lookup per value.
struct ColumnMap {
    private let positions: [String: Int]

    init(_ row: Row) {
        positions = Dictionary(row.columnNames.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    init(_ statement: Statement) {
        self.init(names: statement.columnNames)
    }

    /// The columns of a select list such as `CardTable.columns`: for a query that selects it as
    /// it is, the positions are known once for the whole program.
    init(list: String) {
        self.init(names: list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    private init(names: [String]) {
        positions = Dictionary(names.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    subscript(_ name: String) -> Int {
        guard let position = positions[name] else { preconditionFailure("no column \(name) in this query") }
        return position
    }
}
