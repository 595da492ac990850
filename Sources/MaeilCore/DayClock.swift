import Foundation

/// Turns instants into study days. A study day starts at the rollover hour (04:00 by default)
/// in the caller's time zone, so a review at 01:00 still counts for the evening before.
///
/// The core never reads the system clock or time zone: callers pass a `DayClock`, which makes
/// every result reproducible and lets tests move through time zones and DST changes.
public struct DayClock: Sendable, Hashable {
    public var timeZone: TimeZone { zone.timeZone }
    public let rolloverHour: Int
    private var calendar: Calendar { zone.calendar }
    /// The time zone and its calendar behind one reference: every answer's context copies the
    /// clock, and one retain is cheaper than one per Foundation value.
    private let zone: Zone
    /// Seconds east of UTC for zones whose offset has not changed since 2000; lets the hot
    /// paths (queue building, simulation) skip Calendar arithmetic.
    private let fixedOffset: Int?

    private static let fixedOffsetEpoch = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01

    /// An hour outside 0–23 can only come from a damaged file; it is clamped here, once, so
    /// every place that asks "what day is it" gets the same answer.
    public init(timeZone: TimeZone, rolloverHour: Int = 4) {
        self.rolloverHour = min(max(rolloverHour, 0), 23)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        zone = Zone(timeZone: timeZone, calendar: calendar)
        if timeZone.nextDaylightSavingTimeTransition(after: Self.fixedOffsetEpoch) == nil {
            fixedOffset = timeZone.secondsFromGMT(for: Self.fixedOffsetEpoch)
        } else {
            fixedOffset = nil
        }
    }

    public static func utc(rolloverHour: Int = 4) -> DayClock {
        DayClock(timeZone: TimeZone(identifier: "UTC")!, rolloverHour: rolloverHour)
    }

    /// Days since 1970-01-01, counting study days in local time.
    public func dayNumber(of date: Date) -> Int {
        if let offset = fixedOffset, date >= Self.fixedOffsetEpoch {
            let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset - rolloverHour * 3600
            return local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        }
        let parts = calendar.dateComponents([.year, .month, .day, .hour], from: date)
        let civil = CivilDate.daysFromCivil(year: parts.year!, month: parts.month!, day: parts.day!)
        return parts.hour! < rolloverHour ? civil - 1 : civil
    }

    /// The instant study day `day` begins.
    public func start(ofDay day: Int) -> Date {
        if let offset = fixedOffset {
            let seconds = day * 86_400 + rolloverHour * 3600 - offset
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            if date >= Self.fixedOffsetEpoch { return date }
        }
        let (year, month, dayOfMonth) = CivilDate.civilFromDays(day)
        let parts = DateComponents(year: year, month: month, day: dayOfMonth, hour: rolloverHour)
        // A DST gap at the rollover hour moves the start forward; Calendar handles that.
        return calendar.date(from: parts)!
    }

    public func nextRollover(after date: Date) -> Date {
        start(ofDay: dayNumber(of: date) + 1)
    }

    /// The end of the study day holding `date` as Anki reckons it (rslib's scheduling timing,
    /// its `next_day_at`): the rollover hour at the UTC offset in force at `date`, that day's
    /// while it is ahead, else a day of 86,400 seconds later. It is `nextRollover(after:)` but
    /// on the night before a change of offset, until the change: before the clocks go back,
    /// Anki's day ends an hour before the next one starts by the calendar, and an hour after it
    /// before they go forward. Anki's learning steps and its `rated:` and `added:` searches count
    /// from this end; its day numbers, and what is buried until the next day, follow the calendar.
    public func ankiDayEnd(after date: Date) -> Date {
        let offset = fixedOffset.flatMap { date >= Self.fixedOffsetEpoch ? $0 : nil } ?? timeZone.secondsFromGMT(for: date)
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + offset
        var end = (local >= 0 ? local / 86_400 : (local - 86_399) / 86_400) * 86_400 + rolloverHour * 3600
        if end <= local { end += 86_400 }
        return Date(timeIntervalSince1970: TimeInterval(end - offset))
    }

    /// Whole seconds left in the study day that contains `date`.
    public func secondsUntilRollover(from date: Date) -> Int {
        max(0, Int(nextRollover(after: date).timeIntervalSince(date).rounded(.down)))
    }

    /// The calendar date a day number stands for.
    public static func civil(_ day: Int) -> (year: Int, month: Int, day: Int) {
        CivilDate.civilFromDays(day)
    }

    /// The day number of a calendar date.
    public static func dayNumber(year: Int, month: Int, day: Int) -> Int {
        CivilDate.daysFromCivil(year: year, month: month, day: day)
    }

    /// Whole study days from `earlier` to `later`; never negative, even when the clock went back.
    public func elapsedDays(from earlier: Date, to later: Date) -> Int {
        max(0, dayNumber(of: later) - dayNumber(of: earlier))
    }
}

/// Proleptic Gregorian day counting (Howard Hinnant's algorithms), exact for any year.
enum CivilDate {
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthIndex = month > 2 ? month - 3 : month + 9
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

extension DayClock {
    final class Zone: Sendable, Hashable {
        let timeZone: TimeZone
        let calendar: Calendar

        init(timeZone: TimeZone, calendar: Calendar) {
            self.timeZone = timeZone
            self.calendar = calendar
        }

        static func == (lhs: Zone, rhs: Zone) -> Bool { lhs.timeZone == rhs.timeZone }
        func hash(into hasher: inout Hasher) { hasher.combine(timeZone) }
    }
}
