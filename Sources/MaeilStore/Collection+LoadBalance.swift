import Foundation
import GRDB
import MaeilCore

extension Collection {
    /// What the load balancer needs for one answer: the review cards of the preset's decks due
    /// on each of the next `days` study days (today first), and the days another card of the
    /// note is due on.
    package func loadBalance(presetID: Int64, noteID: Int64, cardID: Int64, clock: DayClock, today: Int, days: Int,
                            easyDays: [Double]) throws -> LoadBalance {
        let start = clock.start(ofDay: today), end = clock.start(ofDay: today + days)
        return try read { db in
            let due = try Int64.fetchAll(db, sql: """
                SELECT due FROM card WHERE deck_id IN (SELECT id FROM deck WHERE preset_id = ?) AND phase = 'review'
                AND suspended = 0 AND due >= ? AND due < ?
                """, arguments: [presetID, Int64(start.timeIntervalSince1970), Int64(end.timeIntervalSince1970)])
            var counts = [Int](repeating: 0, count: days)
            for seconds in due {
                let day = clock.dayNumber(of: Date(timeIntervalSince1970: Double(seconds))) - today
                if counts.indices.contains(day) { counts[day] += 1 }
            }
            let siblings = try Int64.fetchAll(db, sql: "SELECT due FROM card WHERE note_id = ? AND id != ? AND due IS NOT NULL",
                                              arguments: [noteID, cardID])
            let siblingDays = Set(siblings.map { clock.dayNumber(of: Date(timeIntervalSince1970: Double($0))) - today })
            // Day numbers count from Thursday 1 January 1970.
            return LoadBalance(dueCounts: counts, siblingDays: siblingDays, easyDays: easyDays, tomorrowWeekday: (today + 1 + 3) % 7)
        }
    }
}
