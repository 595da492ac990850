import Foundation
@testable import MaeilCore

/// A fixed place in time for tests: study day `day0` begins at 04:00 UTC.
enum TestTime {
    static let clock = DayClock.utc()
    static let day0 = 20_458  // 2026-01-05
    /// Noon on study day `day`, plus `seconds`.
    static func noon(_ day: Int = day0, plus seconds: Int = 0) -> Date {
        clock.start(ofDay: day).addingTimeInterval(TimeInterval(8 * 3600 + seconds))
    }

    static func context(day: Int = day0, plus seconds: Int = 0, fuzz: Double? = nil) -> SchedulingContext {
        SchedulingContext(now: noon(day, plus: seconds), clock: clock, fuzzFactor: fuzz)
    }

    /// A review card last answered `elapsed` days before `day0`, with interval `interval`.
    static func reviewCard(interval: Int, easePermille: Int = 2500, elapsed: Int? = nil, lapses: Int = 0,
                           memory: MemoryState? = nil) -> CardState {
        let last = noon(day0 - (elapsed ?? interval))
        return CardState(phase: .review, intervalDays: interval, easePermille: easePermille,
                         stability: memory?.stability, difficulty: memory?.difficulty,
                         due: clock.start(ofDay: day0 - (elapsed ?? interval) + interval),
                         reps: 5, lapses: lapses, streak: 3, lastReview: last)
    }
}

extension SchedulerSettings {
    static func anki(_ configure: (inout SchedulerSettings) -> Void = { _ in }) -> SchedulerSettings {
        var settings = SchedulerSettings(kind: .ankiSM2)
        configure(&settings)
        return settings
    }

    static func fsrs(_ configure: (inout SchedulerSettings) -> Void = { _ in }) -> SchedulerSettings {
        var settings = SchedulerSettings(kind: .fsrs)
        configure(&settings)
        return settings
    }
}

extension ScheduleReplay.Step {
    /// "L" while in steps, else the interval in days.
    var shortInterval: String {
        state.phase.isInSteps ? "L\(state.scheduledSeconds)" : "\(state.intervalDays)"
    }
}

func ratings(_ letters: String) -> [Rating] {
    letters.split(separator: " ").map { Rating(parsing: String($0))! }
}
