import Foundation
import GRDB
import MaeilCore

/// A reading plan as the collection holds it, with its row id.
package struct StoredReadingPlan: Sendable, Hashable {
    package var id: Int64
    package var plan: ReadingPlan
}

extension CollectionWriter {
    /// Adds a plan, or updates the one with its key; what was read stays marked. Returns
    /// whether the plan is new.
    @discardableResult
    package func save(_ plan: ReadingPlan) throws -> Bool {
        let existed = try Int64.fetchOne(db, sql: "SELECT id FROM reading_plan WHERE key = ?", arguments: [plan.key]) != nil
        try db.execute(sql: """
            INSERT INTO reading_plan (key, name, description, parts, days, added_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(key) DO UPDATE SET name = excluded.name, description = excluded.description,
                parts = excluded.parts, days = excluded.days
            """, arguments: [plan.key, plan.name, plan.description, try StableJSON.string(plan.parts),
                             try StableJSON.string(plan.days), Int64(now.timeIntervalSince1970)])
        return !existed
    }
}

extension Collection {
    package func readingPlans() throws -> [StoredReadingPlan] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, key, name, description, parts, days FROM reading_plan ORDER BY id").map { row in
                let decoder = JSONDecoder()
                let parts = try decoder.decode([String].self, from: Data((row["parts"] as String).utf8))
                let days = try decoder.decode([ReadingDay].self, from: Data((row["days"] as String).utf8))
                return StoredReadingPlan(id: row["id"], plan: ReadingPlan(key: row["key"], name: row["name"], description: row["description"],
                                                                           parts: parts, days: days))
            }
        }
    }

    package func readingMarks(planID: Int64) throws -> [ReadingMark] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT day, part, study_day FROM reading_mark WHERE plan_id = ?", arguments: [planID]).map {
                ReadingMark(day: $0["day"], part: $0["part"], studyDay: $0["study_day"])
            }
        }
    }

    /// Marks readings as read on `studyDay`, in one transaction; a reading already marked keeps
    /// the day it was first read. Returns how many were newly marked.
    @discardableResult
    package func markRead(planID: Int64, day: Int, parts: [Int], studyDay: Int, at now: Date) throws -> Int {
        try transaction { db in
            var marked = 0
            for part in parts {
                try db.execute(sql: """
                    INSERT INTO reading_mark (plan_id, day, part, study_day, marked_at) VALUES (?, ?, ?, ?, ?)
                    ON CONFLICT DO NOTHING
                    """, arguments: [planID, day, part, studyDay, Int64(now.timeIntervalSince1970)])
                marked += db.changesCount
            }
            return marked
        }
    }

    /// Takes marks back (a reading marked by mistake). Returns how many were removed.
    @discardableResult
    package func unmarkRead(planID: Int64, day: Int, parts: [Int]) throws -> Int {
        try transaction { db in
            var removed = 0
            for part in parts {
                try db.execute(sql: "DELETE FROM reading_mark WHERE plan_id = ? AND day = ? AND part = ?", arguments: [planID, day, part])
                removed += db.changesCount
            }
            return removed
        }
    }
}
