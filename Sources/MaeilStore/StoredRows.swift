import Foundation
import GRDB

/// Whole rows of the note and card tables, every column as SQLite holds it: what an undo
/// record keeps, compares and writes back.
struct StoredRows: Codable, Equatable {
    struct StoredRow: Codable, Equatable {
        var table: String
        var id: Int64
        var columns: [String]
        var values: [StoredValue]
    }

    enum StoredValue: Codable, Equatable {
        case null, integer(Int64), real(Double), text(String), blob(Data)

        init(_ value: DatabaseValue) {
            switch value.storage {
            case .null: self = .null
            case .int64(let int): self = .integer(int)
            case .double(let double): self = .real(double)
            case .string(let string): self = .text(string)
            case .blob(let data): self = .blob(data)
            }
        }

        var databaseValue: DatabaseValue {
            switch self {
            case .null: .null
            case .integer(let int): int.databaseValue
            case .real(let double): double.databaseValue
            case .text(let string): string.databaseValue
            case .blob(let data): data.databaseValue
            }
        }
    }

    var rows: [StoredRow]

    /// The rows of these notes and cards that exist, notes first, each table by id.
    static func read(_ db: Database, notes: [Int64], cards: [Int64]) throws -> StoredRows {
        var rows: [StoredRow] = []
        for (table, ids) in [("note", Set(notes)), ("card", Set(cards))] where !ids.isEmpty {
            let list = ids.sorted().map(String.init).joined(separator: ",")
            for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table) WHERE id IN (\(list)) ORDER BY id") {
                rows.append(StoredRow(table: table, id: row["id"], columns: Array(row.columnNames), values: row.databaseValues.map(StoredValue.init)))
            }
        }
        return StoredRows(rows: rows)
    }

    init(rows: [StoredRow]) { self.rows = rows }

    init(json: String) throws { self = try JSONDecoder().decode(StoredRows.self, from: Data(json.utf8)) }

    func json() throws -> String { try StableJSON.string(self) }

    func ids(_ table: String) -> [Int64] { rows.filter { $0.table == table }.map(\.id) }

    /// Writes these rows back in place of `current`: rows kept are updated, rows gone are
    /// inserted again (notes before their cards), rows that were not there are deleted.
    func restore(_ db: Database, replacing current: StoredRows) throws {
        let kept = Set(rows.map { "\($0.table)/\($0.id)" })
        for row in current.rows.reversed() where !kept.contains("\(row.table)/\(row.id)") {
            try db.execute(sql: "DELETE FROM \(row.table) WHERE id = ?", arguments: [row.id])
        }
        let present = Set(current.rows.map { "\($0.table)/\($0.id)" })
        for row in rows {
            let arguments = StatementArguments(row.values.map(\.databaseValue))
            if present.contains("\(row.table)/\(row.id)") {
                let assignments = row.columns.map { "\($0) = ?" }.joined(separator: ", ")
                try db.execute(sql: "UPDATE \(row.table) SET \(assignments) WHERE id = \(row.id)", arguments: arguments)
                // The update marked the card changed now (a trigger); put back when it last changed.
                if row.table == "card", let index = row.columns.firstIndex(of: "modified_at") {
                    try db.execute(sql: "UPDATE card SET modified_at = ? WHERE id = ?", arguments: [row.values[index].databaseValue, row.id])
                }
            } else {
                let marks = row.columns.map { _ in "?" }.joined(separator: ", ")
                try db.execute(sql: "INSERT INTO \(row.table) (\(row.columns.joined(separator: ", "))) VALUES (\(marks))", arguments: arguments)
            }
        }
    }
}
