import Foundation
import GRDB
import MaeilCore

extension Collection {
    /// What the load balancer needs for one answer: the review cards of the preset's decks due
    /// on each of the next `days` study days (today first), and with `siblings`, the days among
    /// them another card of the note is due on.
    package func loadBalance(presetID: Int64, noteID: Int64, cardID: Int64, siblings: Bool, clock: DayClock, today: Int, days: Int,
                            easyDays: [Double]) throws -> LoadBalance {
        let start = clock.start(ofDay: today), end = clock.start(ofDay: today + days)
        let range: [DatabaseValueConvertible] = [presetID, Int64(start.timeIntervalSince1970), Int64(end.timeIntervalSince1970)]
        let due = "deck_id IN (SELECT id FROM deck WHERE preset_id = ?) AND phase = 'review' AND suspended = 0 AND due >= ? AND due < ?"
        return try read { db in
            /// The day `seconds` falls on, counted from today, if within the horizon.
            func offset(_ seconds: Int64) -> Int? {
                let day = clock.dayNumber(of: Date(timeIntervalSince1970: Double(seconds))) - today
                return (0..<days).contains(day) ? day : nil
            }
            // Counted by due time in SQLite: a review is due at the start of its day, so about one
            // row comes for each day. A row for each card took most of an answer's time.
            var counts = [Int](repeating: 0, count: days)
            let perDue = try Row.fetchAll(db.cachedStatement(sql: "SELECT due, count(*) FROM card WHERE \(due) GROUP BY due"),
                                          arguments: StatementArguments(range))
            for row in perDue {
                if let day = offset(row[0]) { counts[day] += row[1] as Int }
            }
            let siblingDays = siblings
                ? Set(try Int64.fetchAll(db, sql: "SELECT due FROM card WHERE note_id = ? AND id != ? AND \(due)",
                                         arguments: StatementArguments([noteID, cardID] + range)).compactMap(offset))
                : []
            // Day numbers count from Thursday 1 January 1970.
            return LoadBalance(dueCounts: counts, siblingDays: siblingDays, easyDays: easyDays, tomorrowWeekday: (today + 1 + 3) % 7)
        }
    }
}
