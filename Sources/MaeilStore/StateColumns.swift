import Foundation
import GRDB
import GRDBSQLite
import MaeilCore
import MaeilSQLite

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
    static let phases = CardPhase.allCases.map(\.rawValue)

    /// Finds the columns, with `prefix`, among a result's columns.
    init(_ columns: ColumnMap, prefix: String = "") {
        positions = Self.names.map { columns[prefix + $0] }
    }

    /// The state in `row`; nil when its phase is NULL (a log entry that recorded none).
    func decode(_ row: SQLiteRow) -> CardState? {
        guard let phase = row.index(positions[0], among: Self.phases).map({ CardPhase.allCases[$0] }) else { return nil }
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
