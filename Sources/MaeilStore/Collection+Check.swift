import Foundation
import GRDB
import MaeilCore

/// What `maeil check` found and did.
public struct CheckReport: Hashable, Sendable, Codable {
    public var integrity: String
    public var cardsChecked: Int
    public var problems: [String]
    public var repaired: Int

    public var isHealthy: Bool { integrity == "ok" && problems.isEmpty }
}

extension Collection {
    /// Verifies the file (SQLite's integrity check, foreign keys) and that every card's state
    /// is the one its review log ends with. With `repair`, a card that disagrees with its log
    /// gets the log's state back (the log is the history), a card with a state but no log entry
    /// gets an entry recording it, and orphans are removed. All repairs are one transaction.
    public func check(repair: Bool, now: Date = Date()) throws -> CheckReport {
        let integrity = try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
        return try transaction { db in
            var problems: [String] = []
            var repaired = 0
            let foreign = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            if !foreign.isEmpty {
                problems.append("\(foreign.count) rows point at missing rows")
                if repair {
                    try db.execute(sql: "DELETE FROM card WHERE note_id NOT IN (SELECT id FROM note) OR deck_id NOT IN (SELECT id FROM deck)")
                    try db.execute(sql: "DELETE FROM note WHERE deck_id NOT IN (SELECT id FROM deck)")
                    try db.execute(sql: "UPDATE note SET unit_id = NULL WHERE unit_id IS NOT NULL AND unit_id NOT IN (SELECT id FROM unit)")
                    repaired += foreign.count
                }
            }
            // Each card against the newest log entry that recorded a state.
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Columns.card.split(separator: ",").map { "c." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                       l.a_phase, l.a_step, l.a_scheduled_seconds, l.a_interval_days, l.a_ease, l.a_stability, l.a_difficulty,
                       l.a_due, l.a_reps, l.a_lapses, l.a_streak, l.a_last_review
                FROM card c LEFT JOIN review_log l ON l.id = (
                    SELECT max(id) FROM review_log WHERE card_id = c.id AND a_phase IS NOT NULL)
                """)
            for row in rows {
                let card = Card(row: row)
                if let logged = CardState(row: row, from: 20) {
                    guard logged != card.state else { continue }
                    problems.append("card \(card.id): state differs from its review log (\(card.state.phase.rawValue) vs \(logged.phase.rawValue))")
                    if repair {
                        try Self.writeState(db, cardID: card.id, logged)
                        repaired += 1
                    }
                } else if card.state != .new {
                    problems.append("card \(card.id): scheduled (\(card.state.phase.rawValue)) but has no review log")
                    if repair {
                        try Self.appendLog(db, cardID: card.id, deckID: card.deckID, time: now, kind: .manual, rating: 0,
                                           durationMilliseconds: 0, scheduler: "check", leechAction: nil, buriedSiblings: nil,
                                           before: nil, after: card.state)
                        repaired += 1
                    }
                }
            }
            return CheckReport(integrity: integrity, cardsChecked: rows.count, problems: problems, repaired: repaired)
        }
    }
}
