import Foundation
import MaeilCore
import MaeilStore

/// Where the reader stands in one reading plan today: for the greeting, `maeil read` and the
/// focus list's widgets alike.
package struct TodayReading: Sendable, Codable, Equatable {
    package struct Reading: Sendable, Codable, Equatable {
        /// The reading's name in the plan ("family 1").
        package var part: String
        /// The passage ("Genesis 1").
        package var reference: String
        package var read: Bool
    }

    package var plan: String
    /// The plan's stable id, for `maeil read --plan`.
    package var planID: String
    /// The day shown: the one to read now, or the one finished today.
    package var day: Int
    /// Its place on the plan's own calendar ("January 1").
    package var date: String
    package var readings: [Reading]
    /// Every reading of the day was read today: nothing more is due until the next study day.
    package var finishedToday: Bool
    package var daysRead: Int
    package var totalDays: Int

    enum CodingKeys: String, CodingKey {
        case plan, planID = "plan_id", day, date, readings, finishedToday = "finished_today", daysRead = "days_read", totalDays = "total_days"
    }

    /// The passages not yet read, or all of them when none is.
    package var unread: [String] { readings.filter { !$0.read }.map(\.reference) }

    /// A reading plan's study day begins when a deck's does by default (04:00).
    package static func studyDay(now: Date, timeZone: TimeZone) -> Int {
        DayClock(timeZone: timeZone).dayNumber(of: now)
    }

    /// Every plan in the collection, in the order they were added; a plan read to its end is
    /// left out after the day it was finished. `day` shows another day of each plan.
    package static func load(_ collection: Collection, now: Date, timeZone: TimeZone, day: Int? = nil) throws -> [TodayReading] {
        try collection.readingPlans().compactMap { try load($0, from: collection, now: now, timeZone: timeZone, day: day) }
    }

    package static func load(_ stored: StoredReadingPlan, from collection: Collection, now: Date, timeZone: TimeZone,
                            day: Int? = nil) throws -> TodayReading? {
        let progress = ReadingProgress(plan: stored.plan, marks: try collection.readingMarks(planID: stored.id),
                                       today: studyDay(now: now, timeZone: timeZone), showing: day)
        return TodayReading(stored.plan, progress)
    }

    package init?(_ plan: ReadingPlan, _ progress: ReadingProgress) {
        guard let day = progress.day else { return nil }
        self.plan = plan.name
        planID = plan.key
        self.day = day.number
        date = day.label
        readings = day.readings.indices.filter { !day.readings[$0].isEmpty }.map {
            Reading(part: $0 < plan.parts.count ? plan.parts[$0] : "\($0 + 1)", reference: day.readings[$0], read: progress.read[$0])
        }
        finishedToday = progress.finishedToday
        daysRead = progress.daysRead
        totalDays = progress.totalDays
    }
}
