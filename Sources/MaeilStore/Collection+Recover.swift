import Foundation
import GRDB

/// What `maeil check --repair` got back out of a damaged file.
package struct RecoveryReport: Sendable, Codable, Hashable {
    package struct Table: Sendable, Codable, Hashable {
        package var name: String
        package var rows: Int
        /// Rows that could not be read (their pages are damaged), as far as can be told.
        package var lost: Bool
    }

    package var path: String
    package var tables: [Table]
}

extension Collection {
    /// The tables in the order their rows point at each other.
    static let tablesInOrder = ["meta", "preset", "deck", "unit", "note_type", "note", "card", "gone_card", "review_log", "reading_plan", "reading_mark"]

    /// Copies every row SQLite can still read from the damaged file at `path` into a new
    /// collection at `newPath`, leaving the damaged file as it is. Rows are read in runs by
    /// row id; where a run cannot be read, the copy skips ahead until it can. Rows left
    /// pointing at rows that were lost are removed, so the new file passes `check`.
    package static func recover(from path: String, into newPath: String, now: Date) throws -> RecoveryReport {
        try ForeignFile.refuse(path)
        guard !FileManager.default.fileExists(atPath: newPath) else {
            throw StoreError.cannotOpen(path: newPath, reason: "a file is already there; nothing was recovered")
        }
        let target = try Collection(path: newPath)
        var configuration = Configuration()
        configuration.readonly = true
        let source = try StoreError.opening(path) { try DatabaseQueue(path: path, configuration: configuration) }
        var tables: [RecoveryReport.Table] = []
        try target.pool.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            try db.inTransaction(.immediate) {
                for table in tablesInOrder {
                    tables.append(try copy(table, from: source, into: db))
                }
                // Rows whose parents were lost go: a card without its note, a note without its deck.
                // Answers stay, whatever became of their card: a card not found is a gone card.
                try db.execute(sql: "DELETE FROM card WHERE note_id NOT IN (SELECT id FROM note) OR deck_id NOT IN (SELECT id FROM deck)")
                try db.execute(sql: "DELETE FROM note WHERE deck_id NOT IN (SELECT id FROM deck)")
                try db.execute(sql: """
                    INSERT OR IGNORE INTO gone_card (id) SELECT DISTINCT card_id FROM review_log WHERE card_id NOT IN (SELECT id FROM card)
                    """)
                try db.execute(sql: "UPDATE note SET unit_id = NULL WHERE unit_id IS NOT NULL AND unit_id NOT IN (SELECT id FROM unit)")
                try db.execute(sql: "DELETE FROM reading_mark WHERE plan_id NOT IN (SELECT id FROM reading_plan)")
                return .commit
            }
        }
        _ = try target.check(repair: true, now: now)
        return RecoveryReport(path: newPath, tables: tables)
    }

    private static func copy(_ table: String, from source: DatabaseQueue, into db: Database) throws -> RecoveryReport.Table {
        let targetColumns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
        guard let sourceColumns = try? source.read({ try String.fetchAll($0, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table]) }),
              !sourceColumns.isEmpty else {
            return RecoveryReport.Table(name: table, rows: 0, lost: true)
        }
        let columns = targetColumns.filter(sourceColumns.contains)
        let list = columns.map { "\"\($0)\"" }.joined(separator: ", ")
        let insert = try db.makeStatement(sql: "INSERT OR REPLACE INTO \(table) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
        var lost = false
        let highest: Int64?
        do {
            highest = try source.read { try Int64.fetchOne($0, sql: "SELECT max(rowid) FROM \(table)") }
        } catch {
            highest = nil
            lost = true
        }
        var last: Int64 = .min
        var skip: Int64 = 1
        var copied = 0
        while true {
            let rows: [Row]
            do {
                rows = try source.read {
                    try Row.fetchAll($0, sql: "SELECT rowid AS recovered_rowid, \(list) FROM \(table) WHERE rowid > ? ORDER BY rowid LIMIT 256",
                                     arguments: [last])
                }
            } catch {
                // A damaged run: step over it, further each time, until past the last row.
                lost = true
                guard let highest, last < highest else { break }
                last = last == .min ? 0 : last + skip
                skip = min(skip * 2, 1 << 20)
                continue
            }
            guard let final = rows.last, let finalID = final["recovered_rowid"] as Int64? else { break }
            for row in rows {
                try insert.execute(arguments: StatementArguments(columns.map { row[$0] as DatabaseValue }))
            }
            copied += rows.count
            last = finalID
            skip = 1
        }
        return RecoveryReport.Table(name: table, rows: copied, lost: lost)
    }
}
