import Foundation

/// Anki's load balancer (rslib `load_balancer.rs`): where fuzz would pick any day of its range
/// at random, pick one by weight, as Anki 25.07 and later weigh a day — (1/cards due)^2.15 ·
/// (1/interval)³, and 1 for an empty day — less around the days another card of the note is
/// due (Anki 26.05: ×0.2, 0.4, 0.6, 0.8 one to four days from it, almost nothing on it), and on
/// easy days as their load allows. The caller gives the counts and the siblings' days (none
/// when the preset does not bury siblings, as in Anki); the fuzz factor is the random draw, so
/// a schedule still replays exactly. Arithmetic in 32 bits, in Anki's order.
public struct LoadBalance: Sendable, Hashable {
    /// Beyond this many days the need to balance is small, as in Anki.
    public static let maximumInterval = 90
    /// The days the balancer looks at from today: 10 % past the longest interval it balances.
    public static let horizon = maximumInterval * 11 / 10

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
        let siblings = Self.siblingModifiers(siblingDays, lower: lower, upper: upper)
        let weights: [Float] = days.indices.map { index in
            guard counts[index] > 0 else { return 1 }
            let countWeight = powf(1 / Float(counts[index]), 2.15)
            let inverse = 1 / Float(max(days[index], 1))
            return countWeight * (inverse * inverse * inverse) * siblings[index] * easy[index]
        }
        return Self.weightedIndex(weights, draw: Float(draw)).map { days[$0] }
    }

    /// rand's `WeightedIndex` as Anki samples it, for the draw `f` in [0, 1): running totals
    /// in 32 bits, f times the total (`UniformFloat` over [0, total)), the first total past it.
    /// Nil where no weight is positive (Anki then fuzzes without balancing).
    static func weightedIndex(_ weights: [Float], draw f: Float) -> Int? {
        guard var total = weights.first else { return nil }
        var running: [Float] = []
        running.reserveCapacity(weights.count)
        for weight in weights.dropFirst() {
            running.append(total)
            total += weight
        }
        guard total > 0, total.isFinite else { return nil }
        // `UniformFloat::new(0, total)`: a scale whose largest draw stays below the total.
        var scale = total
        while scale * (1 - 0x1p-23) >= total { scale = scale.nextDown }
        let chosen = f * scale
        return running.firstIndex { $0 > chosen } ?? running.count
    }

    /// What a sibling due on a day does to the days around it, from five before to five after.
    static let siblingFalloff: [Float] = [1, 0.8, 0.6, 0.4, 0.2, 0.000001, 0.2, 0.4, 0.6, 0.8, 1]

    /// Each day's factor from every sibling near it (several multiply), for days lower…upper.
    static func siblingModifiers(_ siblingDays: Set<Int>, lower: Int, upper: Int) -> [Float] {
        var modifiers = [Float](repeating: 1, count: upper - lower + 1)
        for day in siblingDays.sorted() {
            for (step, factor) in zip(-5...5, siblingFalloff) {
                let index = day + step - lower
                if modifiers.indices.contains(index) { modifiers[index] *= factor }
            }
        }
        return modifiers
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
