/// Anki's load balancer (24.11, rslib load_balancer.rs): where fuzz would pick any day of its
/// range at random, pick one with weight (1/cards due)² · (1/interval), less on a day that
/// already holds a sibling, and on easy days as their load allows. The caller gives the counts;
/// the fuzz factor is the random draw, so a schedule still replays exactly.
public struct LoadBalance: Sendable, Hashable {
    /// Beyond this many days the need to balance is small, as in Anki.
    public static let maximumInterval = 90

    /// Cards of the preset due on each day from today (index 0 is today).
    public var dueCounts: [Int]
    /// Days from today on which another card of the same note is due.
    public var siblingDays: Set<Int>
    /// Monday first: 1 normal, 0.5 reduced, 0 off.
    public var easyDays: [Double]
    /// The weekday of tomorrow, 0 for Monday.
    public var tomorrowWeekday: Int

    public init(dueCounts: [Int], siblingDays: Set<Int> = [], easyDays: [Double] = Array(repeating: 1, count: 7), tomorrowWeekday: Int) {
        self.dueCounts = dueCounts
        self.siblingDays = siblingDays
        self.easyDays = easyDays.count == 7 ? easyDays : Array(repeating: 1, count: 7)
        self.tomorrowWeekday = tomorrowWeekday
    }

    /// The balanced interval, or nil where Anki does not balance (long intervals).
    func interval(_ interval: Float, minimum: Int, maximum: Int, draw: Double) -> Int? {
        guard Int(interval) <= Self.maximumInterval, minimum <= Self.maximumInterval else { return nil }
        let (lower, upper) = ReviewFuzz.bounds(interval: interval, minimum: minimum, maximum: maximum)
        let days = Array(lower...upper)
        let counts = days.map { $0 < dueCounts.count ? dueCounts[$0] : 0 }
        let weekdays = days.map { (tomorrowWeekday + $0 - 1 + 7 * 1000) % 7 }
        let easy = Self.easyDayModifiers(easyDays.map(Self.load), weekdays: weekdays, counts: counts)
        let weights: [Float] = days.indices.map { index in
            guard counts[index] > 0 else { return 1 }
            let count = Float(counts[index])
            let sibling: Float = siblingDays.contains(days[index]) ? 0.001 : 1
            return (1 / count) * (1 / count) * (1 / Float(max(days[index], 1))) * sibling * easy[index]
        }
        let total = weights.reduce(0, +)
        guard total > 0 else { return nil }
        var target = Float(draw) * total
        for (index, weight) in weights.enumerated() {
            if target < weight { return days[index] }
            target -= weight
        }
        return days.last
    }

    /// A day's load from its setting: normal 1, reduced 0.5, off 0.0001 (not 0, so that a week
    /// of days off still balances).
    static func load(_ setting: Double) -> Float {
        setting >= 1 ? 1 : (setting <= 0 ? 0.0001 : 0.5)
    }

    /// Anki's calculate_easy_days_modifiers: a reduced day stays open only while its count, as a
    /// share of its load, is not above the other days' average per load.
    static func easyDayModifiers(_ loads: [Float], weekdays: [Int], counts: [Int]) -> [Float] {
        let total = counts.reduce(0, +)
        let totalLoad = weekdays.reduce(Float(0)) { $0 + loads[$1] }
        return zip(weekdays, counts).map { weekday, count in
            guard loads[weekday] == 0.5 else { return loads[weekday] }
            let others = Float(total - count), othersLoad = totalLoad - 0.5
            return Float(count) / 0.5 > others / othersLoad ? 0.0001 : 1
        }
    }
}
