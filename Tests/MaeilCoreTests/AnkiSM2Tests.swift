import Foundation
import Testing
@testable import MaeilCore
import MaeilTestSupport

@Suite("Anki's SM-2 variant (scheduling.md §2)")
struct AnkiSM2Tests {
    let scheduler = SchedulerSettings.anki().makeScheduler()

    func replay(_ letters: String, late: [Int] = []) -> [ScheduleReplay.Step] {
        ScheduleReplay(scheduler: scheduler).run(ratings: ratings(letters), late: late)
    }

    // MARK: What real Anki gives, fuzz off, every answer on its due day

    @Test func goodsThenALapse() {
        let steps = replay("g g g g g g a g g h e")
        #expect(steps.map(\.shortInterval) == ["L600", "1", "3", "8", "20", "50", "L600", "1", "3", "4", "11"])
        #expect(steps[6].state.phase == .relearning)
        #expect(steps.last!.state.easePermille == 2300)
    }

    @Test func easyFirst() {
        let steps = replay("e g g g")
        #expect(steps.map(\.state.intervalDays) == [4, 10, 25, 63])
        #expect(steps.last!.state.easePermille == 2500)
    }

    @Test func hardAgainThenGoods() {
        let steps = replay("h a g g g")
        #expect(steps.map(\.shortInterval) == ["L330", "L60", "L600", "1", "3"])
        #expect(steps.last!.state.easePermille == 2500)
    }

    @Test func lateAnswers() {
        let steps = replay("g g g g g e", late: [0, 0, 2, 0, 5, 5])
        #expect(steps.map(\.shortInterval) == ["L600", "1", "5", "13", "39", "143"])
        #expect(steps.last!.state.easePermille == 2650)
    }

    @Test func reviewOffers() {
        let card = Fixture.reviewCard(interval: 8)
        let next = scheduler.nextStates(for: card, context: Fixture.context())
        #expect(next.hard.state.intervalDays == 10)
        #expect(next.good.state.intervalDays == 20)
        #expect(next.easy.state.intervalDays == 26)
        #expect(next.again.state.phase == .relearning)
        #expect(next.again.state.scheduledSeconds == 600)
        #expect(next.again.state.intervalDays == 1)
        #expect(next.again.state.easePermille == 2300)
        #expect(next.hard.state.easePermille == 2350)
        #expect(next.easy.state.easePermille == 2650)
    }

    // MARK: 32-bit arithmetic: doubles give different days in these real cases

    @Test(arguments: [
        (608, 2500, 2, Rating.easy, 1982),
        (5, 1700, 20, Rating.good, 26),
        (40, 2350, 20, Rating.good, 117),
    ])
    func float32Arithmetic(interval: Int, ease: Int, late: Int, rating: Rating, expected: Int) {
        let card = Fixture.reviewCard(interval: interval, easePermille: ease, elapsed: interval + late)
        #expect(scheduler.answer(card, rating, context: Fixture.context()).state.intervalDays == expected)
    }

    // MARK: Learning steps

    @Test func stepDelays() {
        let one: LearningSteps = [600]
        #expect(one.againDelay == 600)
        #expect(one.hardDelay(atStep: 0) == 900)
        #expect(one.goodDelay(atStep: 0) == nil)
        let threeDays: LearningSteps = [3 * 86_400]
        #expect(threeDays.hardDelay(atStep: 0) == 4 * 86_400)
        let two: LearningSteps = [60, 600]
        #expect(two.hardDelay(atStep: 0) == 330)
        #expect(two.hardDelay(atStep: 1) == 600)
        #expect(two.goodDelay(atStep: 0) == 600)
        #expect(two.goodDelay(atStep: 1) == nil)
        let three: LearningSteps = [60, 600, 6000]
        #expect(three.hardDelay(atStep: 1) == 600)
        #expect(three.goodDelay(atStep: 1) == 6000)
        #expect(three.hardDelay(atStep: 2) == 6000)
        #expect(LearningSteps.roundedToDaysIfOverADay(86_399) == 86_399)
        #expect(LearningSteps.roundedToDaysIfOverADay(129_600) == 172_800)
    }

    @Test func noStepsGraduateAgainAndHardLikeGood() {
        let scheduler = SchedulerSettings.anki { $0.learningSteps = [] }.makeScheduler()
        let next = scheduler.nextStates(for: .new, context: Fixture.context())
        #expect(next.again.state.phase == .review)
        #expect(next.again.state.intervalDays == 1)
        #expect(next.hard.state.intervalDays == 1)
        #expect(next.good.state.intervalDays == 1)
        #expect(next.easy.state.intervalDays == 4)
    }

    @Test func aStepPastTheRolloverBecomesWholeDays() {
        // 23:00 UTC is 5 hours before the 04:00 rollover: a 1-day step becomes
        // (86400 − 18000) / 86400 + 1 = 1 day, due at the next study day's start.
        let scheduler = SchedulerSettings.anki { $0.learningSteps = [86_400, 3 * 86_400] }.makeScheduler()
        let now = Fixture.clock.start(ofDay: Fixture.day0).addingTimeInterval(19 * 3600)
        let context = SchedulingContext(now: now, clock: Fixture.clock)
        let again = scheduler.answer(.new, .again, context: context).state
        #expect(again.phase == .learning)
        #expect(again.due == Fixture.clock.start(ofDay: Fixture.day0 + 1))
        let good = scheduler.answer(.new, .good, context: context).state
        // (259200 − 18000) / 86400 + 1 = 3 days.
        #expect(good.due == Fixture.clock.start(ofDay: Fixture.day0 + 3))
    }

    @Test func learningFuzzAddsUpToAQuarterOrFiveMinutes() {
        let scheduler = SchedulerSettings.anki().makeScheduler()
        let context = Fixture.context(fuzz: 0.999)
        let again = scheduler.answer(.new, .again, context: context).state
        // 60 s + floor(0.999 × 15) = 74 s.
        #expect(again.due == context.now.addingTimeInterval(74))
        #expect(again.scheduledSeconds == 60)
        let good = scheduler.answer(.new, .good, context: context).state
        #expect(good.due == context.now.addingTimeInterval(600 + 149))
        #expect(Transition.learningFuzz(3600, 0.999) == 3600 + 299)
        #expect(Transition.learningFuzz(3600, nil) == 3600)
    }

    // MARK: Review rules

    @Test func modifierMultipliesBeforeRoundingButNotTheMinimums() {
        let scheduler = SchedulerSettings.anki { $0.intervalModifier = 0.5 }.makeScheduler()
        let next = scheduler.nextStates(for: Fixture.reviewCard(interval: 8), context: Fixture.context())
        // hard = round(8 × 1.2 × 0.5) = 5 < minimum 9 → 9; good = round(20 × 0.5) = 10;
        // easy = round(26 × 0.5) = 13.
        #expect(next.hard.state.intervalDays == 9)
        #expect(next.good.state.intervalDays == 10)
        #expect(next.easy.state.intervalDays == 13)
    }

    @Test func maximumIntervalWinsOverEveryMinimum() {
        let scheduler = SchedulerSettings.anki { $0.maximumInterval = 5 }.makeScheduler()
        let next = scheduler.nextStates(for: Fixture.reviewCard(interval: 5), context: Fixture.context(fuzz: 0.99))
        #expect([next.hard, next.good, next.easy].map(\.state.intervalDays) == [5, 5, 5])
    }

    @Test func hardMultiplierAtMostOneRemovesHardsMinimum() {
        let scheduler = SchedulerSettings.anki { $0.hardInterval = 0.1 }.makeScheduler()
        let next = scheduler.nextStates(for: Fixture.reviewCard(interval: 2, easePermille: 1300), context: Fixture.context(fuzz: 0))
        #expect([next.hard, next.good, next.easy].map(\.state.intervalDays) == [1, 3, 4])
    }

    @Test func lowEaseWithFuzz() {
        let card = Fixture.reviewCard(interval: 1, easePermille: 1300)
        let zero = scheduler.nextStates(for: card, context: Fixture.context(fuzz: 0))
        #expect([zero.hard, zero.good, zero.easy].map(\.state.intervalDays) == [2, 3, 4])
        let tenth = SchedulerSettings.anki { $0.intervalModifier = 0.1 }.makeScheduler()
        let high = tenth.nextStates(for: card, context: Fixture.context(fuzz: 0.99))
        #expect([high.hard, high.good, high.easy].map(\.state.intervalDays) == [2, 4, 6])
    }

    @Test func lapseIntervalUsesTheNewIntervalMultiplier() {
        let scheduler = SchedulerSettings.anki { $0.lapseNewInterval = 0.5; $0.minimumLapseInterval = 2 }.makeScheduler()
        // round(50 × 0.5) = 25 and the interval modifier is not applied.
        #expect(scheduler.answer(Fixture.reviewCard(interval: 50), .again, context: Fixture.context()).state.intervalDays == 25)
        // At least the minimum lapse interval.
        #expect(scheduler.answer(Fixture.reviewCard(interval: 3), .again, context: Fixture.context()).state.intervalDays == 2)
    }

    @Test func relearningReturnsWithTheLapseIntervalOrOneMore() {
        let lapsed = scheduler.answer(Fixture.reviewCard(interval: 50), .again, context: Fixture.context()).state
        let next = scheduler.nextStates(for: lapsed, context: Fixture.context(plus: 600))
        #expect(next.good.state.phase == .review)
        #expect(next.good.state.intervalDays == 1)
        #expect(next.easy.state.intervalDays == 2)
        #expect(next.hard.state.phase == .relearning)
        #expect(next.hard.state.scheduledSeconds == 900)
        #expect(next.again.state.lapses == lapsed.lapses)
        #expect(next.again.state.easePermille == lapsed.easePermille)
    }

    @Test func noRelearningStepsKeepsALapseInReview() {
        let scheduler = SchedulerSettings.anki { $0.relearningSteps = [] }.makeScheduler()
        let again = scheduler.answer(Fixture.reviewCard(interval: 20), .again, context: Fixture.context()).state
        #expect(again.phase == .review)
        #expect(again.intervalDays == 1)
        #expect(again.lapses == 1)
    }

    @Test func earlyReviewFormulas() {
        // Interval 10, answered 4 days after the last review: elapsed 4, ease 2.5.
        let card = Fixture.reviewCard(interval: 10, elapsed: 4)
        let next = scheduler.nextStates(for: card, context: Fixture.context(fuzz: 0.99))
        // hard = max(4 × 1.2, 10 × 0.6) = 6; good = max(4 × 2.5, 10) = 10;
        // easy = 10 × (1.3 − 0.15) = 11.5 → 12. Early answers are never fuzzed.
        #expect([next.hard, next.good, next.easy].map(\.state.intervalDays) == [6, 10, 12])
    }

    // MARK: Leeches

    @Test func leechThresholds() {
        let hits = (0...20).filter { Leech.thresholdMet(lapses: $0, threshold: 8) }
        #expect(hits == [8, 12, 16, 20])
        #expect((0...8).filter { Leech.thresholdMet(lapses: $0, threshold: 3) } == [3, 5, 7])
        #expect(!Leech.thresholdMet(lapses: 0, threshold: 0))
        #expect((0...3).filter { Leech.thresholdMet(lapses: $0, threshold: 1) } == [1, 2, 3])
    }

    @Test func aLeechIsAnEventOfOneAnswer() {
        let steps = replay(Array(repeating: "g g a g", count: 10).joined(separator: " "))
        let leeches = steps.filter(\.outcome.leech).map(\.state.lapses)
        #expect(leeches == [8])
    }

    // MARK: Fuzz

    @Test(arguments: [
        (Float(2.5), 1, 2, 3, 4), (7, 1, 5, 7, 9), (17, 1, 14, 17, 20), (37, 1, 33, 37, 41),
        (20, 3, 17, 20, 23), (100, 101, 101, 105, 108),
    ])
    func fuzzTable(interval: Float, minimum: Int, low: Int, middle: Int, high: Int) {
        let fuzz = { (f: Double) in ReviewFuzz.apply(factor: f, interval: interval, minimum: minimum, maximum: 1000) }
        let fuzzed: [Int] = [fuzz(0), fuzz(0.5), fuzz(0.99)]
        #expect(fuzzed == [low, middle, high])
    }

    @Test func fuzzEdgeCases() {
        func fuzz(_ interval: Float, _ minimum: Int, _ maximum: Int, _ f: Double?) -> Int {
            ReviewFuzz.apply(factor: f, interval: interval, minimum: minimum, maximum: maximum)
        }
        #expect(fuzz(1.5, 1, 100, nil) == 2)
        #expect(fuzz(0.1, 1, 100, nil) == 1)
        #expect(fuzz(101, 1, 100, nil) == 100)
        #expect([0, 0.5, 0.99].map { fuzz(2.49, 1, 1000, $0) } == [2, 2, 2])
        #expect([0, 0.5, 0.99].map { fuzz(2.0, 3, 1000, $0) } == [3, 4, 4])
        #expect([0, 0.5, 0.99].map { fuzz(2.0, 3, 3, $0) } == [3, 3, 3])
        #expect([0, 0.5, 0.99].map { fuzz(100, 1, 99, $0) } == [92, 96, 99])
        #expect([0, 0.5, 0.99].map { fuzz(100, 97, 103, $0) } == [97, 100, 103])
        #expect([0, 0.5, 0.99].map { fuzz(19.9, 3, 1000, $0) } == [17, 20, 23])
        // Found by a property test: 32-bit rounding must not carry past the maximum.
        #expect(fuzz(40_000, 36_497, 36_500, 0.9995116889476776) == 36_500)
    }

    @Test func oneFuzzFactorServesHardGoodAndEasy() {
        let card = Fixture.reviewCard(interval: 40)
        let low = scheduler.nextStates(for: card, context: Fixture.context(fuzz: 0))
        let high = scheduler.nextStates(for: card, context: Fixture.context(fuzz: 0.99))
        #expect(low.good.state.intervalDays < 100)
        #expect(high.good.state.intervalDays > low.good.state.intervalDays)
        #expect(high.easy.state.intervalDays > low.easy.state.intervalDays)
    }
}
