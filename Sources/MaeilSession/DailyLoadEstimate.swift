import Foundation
import MaeilCore
import MaeilSimulator

/// What a daily load of new cards will cost once it has run a while: the simulator's learner
/// (FSRS-6's default memory, the same answer times as `maeil sim`) studies `cards` new cards at
/// `newPerDay`, with no review limit, and the estimate is the average day of the fourth week —
/// by then the reviews of the first weeks have come back, which is what a beginner underrates.
package struct DailyLoadEstimate: Sendable, Equatable {
    package var reviews: Int
    package var minutes: Int

    package static let week = 22..<29

    package static func estimate(cards: Int, newPerDay: Int, scheduler: SchedulerSettings = SchedulerSettings(kind: .fsrs)) -> DailyLoadEstimate {
        var config = SimulationConfig()
        config.items = max(1, cards)
        config.days = week.upperBound
        config.newPerDay = newPerDay
        config.reviewsPerDay = nil
        config.scheduler = scheduler
        let days = Simulator(config: config).run().days[week]
        // Every card shown that day: new ones and reviews (relearning included), as the prompt counts them.
        let shown = days.reduce(0) { $0 + $1.reviews + $1.new }
        let seconds = days.reduce(0.0) { $0 + $1.seconds }
        return DailyLoadEstimate(reviews: Int((Double(shown) / Double(days.count)).rounded()),
                                 minutes: Int((seconds / 60 / Double(days.count)).rounded()))
    }
}
