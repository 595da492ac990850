/// A plan of daily readings, such as M'Cheyne's calendar: passages to read, not cards to
/// recall. The reader goes through it at their own pace, a day at a time, so the day to read
/// is the first one not yet read, not the date on the calendar.
package struct ReadingPlan: Sendable, Codable, Hashable {
    /// Stable across imports: a second import of the same plan updates it and keeps progress.
    package var key: String
    package var name: String
    package var description: String
    /// What each of a day's readings is called, in order ("family 1", "secret 2"…).
    package var parts: [String]
    package var days: [ReadingDay]

    package init(key: String, name: String, description: String = "", parts: [String], days: [ReadingDay]) {
        self.key = key
        self.name = name
        self.description = description
        self.parts = parts
        self.days = days
    }
}

package struct ReadingDay: Sendable, Codable, Hashable {
    /// 1-based, in the plan's order.
    package var number: Int
    /// The day's place on the plan's own calendar ("January 1"); may be empty.
    package var label: String
    /// One passage per part ("Genesis 1"); an empty one is a part with nothing that day.
    package var readings: [String]

    package init(number: Int, label: String, readings: [String]) {
        self.number = number
        self.label = label
        self.readings = readings
    }
}

/// One reading marked as read: which day and part (0-based), and on which study day.
package struct ReadingMark: Sendable, Hashable {
    package var day: Int
    package var part: Int
    package var studyDay: Int

    package init(day: Int, part: Int, studyDay: Int) {
        self.day = day
        self.part = part
        self.studyDay = studyDay
    }
}

/// Where a reader stands in a plan on a given study day.
package struct ReadingProgress: Sendable, Equatable {
    /// The day to show: the one to read now, or the one finished today.
    package var day: ReadingDay?
    /// Which of that day's readings are read.
    package var read: [Bool]
    /// The day shown was finished today: nothing more is due until the next study day.
    package var finishedToday: Bool
    /// The day after the one shown, when it is finished.
    package var next: ReadingDay?
    /// Days whose every reading is read.
    package var daysRead: Int
    package var totalDays: Int

    /// A day counts as read when each of its readings is; the day to read is the first that
    /// is not. When the day before it was finished today, that one is shown as today's, so a
    /// reader who has done the day's reading sees it done rather than being handed tomorrow's.
    /// `showing` picks another day to show (reading ahead, or catching up).
    package init(plan: ReadingPlan, marks: [ReadingMark], today: Int, showing chosen: Int? = nil) {
        var partsRead: [Int: [Int: Int]] = [:]
        for mark in marks { partsRead[mark.day, default: [:]][mark.part] = mark.studyDay }
        func readFlags(_ day: ReadingDay) -> [Bool] {
            day.readings.indices.map { day.readings[$0].isEmpty || partsRead[day.number]?[$0] != nil }
        }
        func isRead(_ day: ReadingDay) -> Bool { readFlags(day).allSatisfy { $0 } }
        func finished(_ day: ReadingDay, on studyDay: Int) -> Bool {
            isRead(day) && partsRead[day.number]?.values.max() == studyDay
        }
        totalDays = plan.days.count
        daysRead = plan.days.filter(isRead).count
        let current = plan.days.firstIndex { !isRead($0) }
        var shown = current
        if let chosen {
            shown = plan.days.firstIndex { $0.number == chosen }
        } else {
            let previous = (current ?? plan.days.count) - 1
            let currentStarted = current.map { partsRead[plan.days[$0].number] != nil } ?? false
            if previous >= 0, !currentStarted, finished(plan.days[previous], on: today) { shown = previous }
        }
        day = shown.map { plan.days[$0] }
        read = day.map(readFlags) ?? []
        finishedToday = day.map { finished($0, on: today) } ?? false
        next = finishedToday ? current.map { plan.days[$0] } : nil
    }

    /// Every day is read.
    package var isComplete: Bool { daysRead == totalDays }
}
