import Foundation

/// What a sweep recommends: the value that memorizes the most by the horizon within the
/// learner's daily budget, what each step along the range costs, and whether the best value
/// sits at an edge of the range (so a wider range may hold a better one). Knowledge per minute is
/// not the measure: it always favours studying less.
package struct SweepAdvice: Equatable, Sendable {
    package struct Point: Equatable, Sendable {
        package var value: Double
        /// Items memorized at the horizon.
        package var memorized: Double
        /// Mean minutes of study a day over the horizon.
        package var minutesPerDay: Double

        package init(value: Double, memorized: Double, minutesPerDay: Double) {
            self.value = value
            self.memorized = memorized
            self.minutesPerDay = minutesPerDay
        }
    }

    package enum Edge: Equatable, Sendable {
        case none
        /// The best value is the range's first; a range below it may do better.
        case low
        /// The best value is the range's last; a range above it may do better.
        case high
    }

    package var points: [Point]
    /// Index of the recommended value; nil without a budget, or when no value fits in it.
    package var best: Int?
    package var edge: Edge
    /// Index of the lightest value, when none fits in the budget.
    package var lightestOverBudget: Int?

    package init(points: [Point], budgetMinutesPerDay budget: Double?) {
        self.points = points
        edge = .none
        guard let budget, !points.isEmpty else { return }
        let within = points.indices.filter { points[$0].minutesPerDay <= budget }
        guard let chosen = within.max(by: { points[$0].memorized < points[$1].memorized }) else {
            lightestOverBudget = points.indices.min { points[$0].minutesPerDay < points[$1].minutesPerDay }
            return
        }
        best = chosen
        // At an edge only if the neighbour beyond it could still fit: the last value when there is
        // budget to spare, the first when lowering would memorize more (a rare shape, said anyway).
        if points.count > 1 {
            if chosen == points.count - 1, points[chosen].minutesPerDay < budget { edge = .high }
            if chosen == 0, points[0].memorized > points[1].memorized { edge = .low }
        }
    }

    /// The cost of each step to the next value: extra minutes a day and extra items memorized.
    package var steps: [(from: Double, to: Double, minutes: Double, items: Double)] {
        zip(points, points.dropFirst()).map { ($0.value, $1.value, $1.minutesPerDay - $0.minutesPerDay, $1.memorized - $0.memorized) }
    }
}
