import Foundation

/// Which backups to keep, as Anki keeps its own: a new one at most every `interval`, and of
/// the older ones the newest of each of the last `daily` days, `weekly` weeks and `monthly`
/// months (Anki's defaults: 12, 10 and 9), besides the newest `recent` of all. Days, weeks
/// and months are the learner's calendar's.
package struct BackupRetention: Sendable, Equatable {
    package var interval: TimeInterval = 30 * 60
    package var recent = 5
    package var daily = 12
    package var weekly = 10
    package var monthly = 9

    package init() {}

    /// Whether a backup is due at `now`, the newest being from `newest` (nil: none yet).
    package func isDue(now: Date, newest: Date?) -> Bool {
        guard let newest else { return true }
        return now.timeIntervalSince(newest) >= interval
    }

    /// The backups (by date) to keep; the others can go.
    package func keep(_ dates: [Date], calendar: Calendar) -> Set<Date> {
        let newestFirst = dates.sorted(by: >)
        var kept = Set(newestFirst.prefix(recent))
        func newestOfEach(_ component: Calendar.Component, limit: Int) {
            var seen: [DateComponents] = []
            for date in newestFirst {
                let period = calendar.dateComponents(component == .day ? [.year, .month, .day]
                                                     : component == .weekOfYear ? [.yearForWeekOfYear, .weekOfYear] : [.year, .month], from: date)
                guard !seen.contains(period) else { continue }
                guard seen.count < limit else { break }
                seen.append(period)
                kept.insert(date)
            }
        }
        newestOfEach(.day, limit: daily)
        newestOfEach(.weekOfYear, limit: weekly)
        newestOfEach(.month, limit: monthly)
        return kept
    }
}
