import Foundation
import PropertyBased
import Testing
@testable import MaeilCore
import MaeilTestSupport

@Suite("Study days and rollover")
struct DayClockTests {
    @Test func rolloverAtFourInTheMorning() {
        let seoul = DayClock(timeZone: TimeZone(identifier: "Asia/Seoul")!)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = seoul.timeZone
        let evening = calendar.date(from: DateComponents(year: 2026, month: 3, day: 1, hour: 23))!
        let night = calendar.date(from: DateComponents(year: 2026, month: 3, day: 2, hour: 3, minute: 59))!
        let morning = calendar.date(from: DateComponents(year: 2026, month: 3, day: 2, hour: 4))!
        #expect(seoul.dayNumber(of: evening) == seoul.dayNumber(of: night))
        #expect(seoul.dayNumber(of: morning) == seoul.dayNumber(of: night) + 1)
        #expect(seoul.start(ofDay: seoul.dayNumber(of: morning)) == morning)
        #expect(seoul.secondsUntilRollover(from: night) == 60)
    }

    @Test(arguments: ["UTC", "Asia/Seoul", "Asia/Tokyo", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe", "Pacific/Chatham"])
    func startOfDayRoundTrips(zone: String) {
        for rollover in [0, 4, 23] {
            let clock = DayClock(timeZone: TimeZone(identifier: zone)!, rolloverHour: rollover)
            for day in stride(from: 20_000, to: 21_500, by: 7) {
                let start = clock.start(ofDay: day)
                #expect(clock.dayNumber(of: start) == day, "\(zone) day \(day)")
                #expect(clock.dayNumber(of: start.addingTimeInterval(-1)) == day - 1, "\(zone) day \(day)")
            }
        }
    }

    @Test func daylightSavingDaysAreShorterAndLonger() {
        let newYork = DayClock(timeZone: TimeZone(identifier: "America/New_York")!)
        // 2026-03-08 02:00 clocks jump to 03:00: the study day from 04:00 on the 7th has 23 hours.
        let march7 = CivilDate.daysFromCivil(year: 2026, month: 3, day: 7)
        #expect(newYork.start(ofDay: march7 + 1).timeIntervalSince(newYork.start(ofDay: march7)) == 23 * 3600)
        #expect(newYork.start(ofDay: march7 + 2).timeIntervalSince(newYork.start(ofDay: march7 + 1)) == 24 * 3600)
        let october31 = CivilDate.daysFromCivil(year: 2026, month: 10, day: 31)
        #expect(newYork.start(ofDay: october31 + 1).timeIntervalSince(newYork.start(ofDay: october31)) == 25 * 3600)
    }

    /// Anki ends a study day at the rollover hour in the offset in force now: on the night before
    /// New York's clocks go back (2026-11-01 02:00), its day ends at 04:00 EDT, an hour before
    /// the calendar's next day starts at 04:00 EST; from the change on, the two agree. Checked
    /// with Anki 26.9.3's library under libfaketime: at 01:30 EDT its day cutoff is 08:00 UTC,
    /// and a three-hour learning step answered then is due the next day, not three hours later.
    @Test func ankisDayEndsAtTheOffsetInForceNow() throws {
        let newYork = DayClock(timeZone: TimeZone(identifier: "America/New_York")!)
        let before = Date(timeIntervalSince1970: 1_793_511_000)  // 2026-11-01 05:30 UTC, 01:30 EDT
        #expect(newYork.ankiDayEnd(after: before) == Date(timeIntervalSince1970: 1_793_520_000))  // 08:00 UTC
        #expect(newYork.nextRollover(after: before) == Date(timeIntervalSince1970: 1_793_523_600))  // 09:00 UTC
        let after = Date(timeIntervalSince1970: 1_793_518_200)  // 07:30 UTC, 02:30 EST
        #expect(newYork.ankiDayEnd(after: after) == newYork.nextRollover(after: after))
        // The first learning step of three hours, answered at 01:30 EDT, goes to the next day.
        let context = SchedulingContext(now: before, clock: newYork, fuzzFactor: 0)
        var settings = SchedulerSettings(kind: .ankiSM2)
        settings.learningSteps = [60, 10_800]
        let good = settings.makeScheduler().nextStates(for: .new, context: context)[.good].state
        #expect(good.phase == .learning && good.due == newYork.start(ofDay: newYork.dayNumber(of: before) + 1))
        // Elsewhere on the same clock, any day: the two ends are one.
        for hours in stride(from: 0, to: 24 * 400, by: 7) {
            let date = Date(timeIntervalSince1970: 1_767_225_600 + Double(hours) * 3600)  // from 2026-01-01
            let calendarEnd = newYork.nextRollover(after: date), ankiEnd = newYork.ankiDayEnd(after: date)
            let offsetChanges = newYork.timeZone.secondsFromGMT(for: date) != newYork.timeZone.secondsFromGMT(for: calendarEnd)
            #expect(offsetChanges || calendarEnd == ankiEnd, "\(date)")
        }
    }

    @Test func civilDaysRoundTrip() async {
        await propertyCheck(count: 2000, input: Gen.int(in: -1_000_000...1_000_000)) { day in
            let (year, month, dayOfMonth) = CivilDate.civilFromDays(day)
            #expect(CivilDate.daysFromCivil(year: year, month: month, day: dayOfMonth) == day)
        }
        #expect(CivilDate.daysFromCivil(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilDate.daysFromCivil(year: 2026, month: 1, day: 5) == Fixture.day0)
    }

    /// A clock moved back, or a flight to another time zone, must never give a negative
    /// interval or a due time before the answer.
    @Test func clockMovedBackOrZoneChanged() async {
        let zones = ["UTC", "Asia/Seoul", "America/Los_Angeles", "Pacific/Kiritimati", "Pacific/Pago_Pago"].map { TimeZone(identifier: $0)! }
        await propertyCheck(count: 300, input: Gen<SchedulerKind>.case, Gen.int(in: -5 * 86_400...86_400).array(of: 1...20),
                            Gen.int(in: 0...4).array(of: 20), Gen.int(in: 1...4).array(of: 20)) { kind, jumps, zoneIndexes, answers in
            let scheduler = SchedulerSettings(kind: kind).makeScheduler()
            var card = CardState.new
            var now = Fixture.noon
            for (index, jump) in jumps.enumerated() {
                now += TimeInterval(jump)
                let clock = DayClock(timeZone: zones[zoneIndexes[index]])
                let next = scheduler.nextStates(for: card, context: SchedulingContext(now: now, clock: clock, fuzzFactor: 0.5))
                for rating in Rating.allCases {
                    let state = next[rating].state
                    #expect(state.due! >= now)
                    #expect(state.intervalDays >= 0)
                    #expect(state.scheduledSeconds >= 0)
                }
                card = next[Rating(rawValue: answers[index])!].state
            }
        }
    }
}
