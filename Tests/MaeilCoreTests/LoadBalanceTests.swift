import Foundation
import Testing
@testable import MaeilCore

@Suite("Load balancing and easy days")
struct LoadBalanceTests {
    @Test func aBalancedIntervalNeverLeavesTheFuzzRange() {
        var generator = SeededGenerator(seed: 5)
        for _ in 0..<5000 {
            let interval = Float(Double.random(in: 1...95, using: &generator))
            let minimum = Int.random(in: 1...5, using: &generator), maximum = Int.random(in: 60...36_500, using: &generator)
            let counts = (0..<99).map { _ in Int.random(in: 0...300, using: &generator) }
            let balance = LoadBalance(dueCounts: counts, siblingDays: [Int.random(in: 0...99, using: &generator)],
                                      easyDays: (0..<7).map { _ in [0, 0.5, 1].randomElement(using: &generator)! },
                                      tomorrowWeekday: Int.random(in: 0...6, using: &generator))
            guard let chosen = balance.interval(interval, minimum: minimum, maximum: maximum, draw: generator.nextUnit()) else {
                #expect(Int(interval) > LoadBalance.maximumInterval)
                continue
            }
            let (lower, upper) = ReviewFuzz.bounds(interval: interval, minimum: minimum, maximum: maximum)
            #expect((lower...upper).contains(chosen), "\(interval) → \(chosen), range \(lower)…\(upper)")
        }
    }

    @Test func aPileUpIsEvenedOut() {
        // Days 9 and 10 hold 50 cards each, 11 none: an interval of 10 goes to day 11 nearly always.
        var counts = [Int](repeating: 20, count: 99)
        counts[9] = 50; counts[10] = 50; counts[11] = 0
        let balance = LoadBalance(dueCounts: counts, tomorrowWeekday: 0)
        let (lower, upper) = ReviewFuzz.bounds(interval: 10, minimum: 1, maximum: 36_500)
        #expect(lower < 11 && upper >= 11)
        let draws = (0..<1000).map { Double($0) / 1000 }
        let chosen = draws.compactMap { balance.interval(10, minimum: 1, maximum: 36_500, draw: $0) }
        #expect(chosen.filter { $0 == 11 }.count > 900)
        // Without load, fuzz's own spread: every day of the range gets some.
        let flat = LoadBalance(dueCounts: [Int](repeating: 20, count: 99), tomorrowWeekday: 0)
        #expect(Set(draws.compactMap { flat.interval(10, minimum: 1, maximum: 36_500, draw: $0) }) == Set(lower...upper))
    }

    @Test func aDayOffTakesAlmostNothing() {
        // Tomorrow is Monday; with Sunday off, an interval around a week avoids day 7 (Sunday).
        let counts = [Int](repeating: 10, count: 99)
        let balance = LoadBalance(dueCounts: counts, easyDays: [1, 1, 1, 1, 1, 1, 0], tomorrowWeekday: 0)
        let chosen = (0..<1000).compactMap { balance.interval(7, minimum: 1, maximum: 36_500, draw: Double($0) / 1000) }
        #expect(chosen.filter { $0 == 7 }.count < 5)
    }

    @Test func theSchedulerBalancesWhenThePresetSaysSo() {
        var settings = SchedulerSettings(kind: .fsrs)
        settings.loadBalancing = true
        let scheduler = settings.makeScheduler()
        var counts = [Int](repeating: 40, count: 99)
        let card = CardState(phase: .review, intervalDays: 8, easePermille: 2500, stability: 9, difficulty: 5,
                             due: Date(timeIntervalSince1970: 1_767_614_400), reps: 4, lapses: 0,
                             lastReview: Date(timeIntervalSince1970: 1_767_614_400 - 8 * 86_400))
        var context = SchedulingContext(now: Date(timeIntervalSince1970: 1_767_614_400), clock: .utc(), fuzzFactor: nil)
        let raw = scheduler.answer(card, .good, context: context).state.intervalDays
        context.fuzzFactor = 0.3
        let unbalanced = scheduler.answer(card, .good, context: context).state.intervalDays
        // The top of the fuzz range is empty, every other day full: the balancer goes there.
        let emptyDay = ReviewFuzz.bounds(interval: Float(raw), minimum: 1, maximum: 36_500).upper
        #expect(emptyDay != unbalanced)
        counts[emptyDay] = 0
        context.loadBalance = LoadBalance(dueCounts: counts, tomorrowWeekday: 0)
        #expect(scheduler.answer(card, .good, context: context).state.intervalDays == emptyDay)
        settings.loadBalancing = false
        #expect(settings.makeScheduler().answer(card, .good, context: context).state.intervalDays == unbalanced)
    }

    /// Anki 25.07's weights: (1/cards due)^2.15 · (1/interval)³, an empty day 1; the draw picks
    /// a day by its share of the total.
    @Test func daysAreWeighedAsAnki25Does() {
        // Interval 3: days 2, 3 and 4, holding 10, 20 and 0 cards.
        let balance = LoadBalance(dueCounts: [0, 0, 10, 20, 0] + [Int](repeating: 0, count: 94), tomorrowWeekday: 0)
        let weights: [Float] = [powf(1 / 10, 2.15) / 8, powf(1 / 20, 2.15) / 27, 1]
        let total = weights.reduce(0, +)
        let draws = 200_000
        var chosen = [2: 0, 3: 0, 4: 0]
        for index in 0..<draws { chosen[balance.interval(3, minimum: 1, maximum: 36_500, draw: (Double(index) + 0.5) / Double(draws))!]! += 1 }
        for (offset, day) in [2, 3, 4].enumerated() {
            #expect(abs(Double(chosen[day]!) / Double(draws) - Double(weights[offset] / total)) < 0.0001, "day \(day): \(chosen)")
        }
    }

    /// A sibling's day takes almost nothing and the days around it 0.2, 0.4, 0.6 and 0.8 of their
    /// weight; two siblings multiply (Anki 26.05).
    @Test func siblingsWeighOnTheDaysAroundThem() {
        let modifiers = LoadBalance.siblingModifiers([2, 8], lower: 0, upper: 10)
        let expected: [Float] = [0.4, 0.2, 0.000001, 0.2, 0.32, 0.36, 0.32, 0.2, 0.000001, 0.2, 0.4]
        #expect(zip(modifiers, expected).allSatisfy { abs($0 - $1) < 1e-6 }, "\(modifiers)")
        // A sibling beyond the range still weighs on the days near it.
        #expect(LoadBalance.siblingModifiers([12], lower: 7, upper: 9) == [1, 0.8, 0.6])
    }
}
