import Foundation
@testable import MaeilCore
import MaeilTestSupport

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
