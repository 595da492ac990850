import Foundation
import Testing
@testable import MaeilCore
import MaeilTestSupport

/// The examples of Anki's FSRS mode, each as Anki 26.9 schedules it (fuzz off, DR 0.9, default
/// FSRS-6 parameters).
@Suite("FSRS examples from Anki")
struct AnkiFSRSExamplesTests {
    static let noSteps = SchedulerSettings.fsrs { $0.learningSteps = []; $0.relearningSteps = [] }
    static let defaultSteps = SchedulerSettings.fsrs()

    func replay(_ letters: String, _ settings: SchedulerSettings = noSteps) -> [ScheduleReplay.Step] {
        ScheduleReplay(scheduler: settings.makeScheduler()).run(ratings: ratings(letters))
    }

    /// Stability rounded to the four decimals Anki stores.
    func s(_ step: ScheduleReplay.Step) -> Double { ((step.state.stability ?? 0) * 10_000).rounded() / 10_000 }

    @Test func aShortIntervalStaysInLearningWithoutSteps() {
        let again = replay("a")[0]
        #expect(again.state.phase == .learning && again.state.scheduledSeconds == 18_316 && s(again) == 0.212)
        let lapse = replay("h a")
        #expect(lapse[0].state.phase == .review && lapse[0].state.intervalDays == 1)
        #expect(lapse[1].state.phase == .relearning && lapse[1].state.scheduledSeconds == 32_434 && s(lapse[1]) == 0.3754)
        let sameDay = replay("a a g g")
        #expect(sameDay.map(\.state.scheduledSeconds) == [18_316, 7_202, 8_915, 10_878])
        #expect(sameDay.allSatisfy { $0.state.phase == .learning })
        let clock = ScheduleReplay(scheduler: Self.noSteps.makeScheduler()).clock
        #expect(Set(sameDay.map { clock.dayNumber(of: $0.answeredAt) }).count == 1)  // all on day 0
        // Easy always goes to review.
        #expect(replay("a e").last!.state.phase == .review)
    }

    @Test func withStepsTheRuleWaitsForTheSetting() {
        // With steps, graduating from the last step goes to review even under half a day…
        #expect(replay("a a g g", Self.defaultSteps).last!.state.phase == .review)
        // …unless "short-term with steps" is on.
        var withSteps = Self.defaultSteps
        withSteps.shortTermWithSteps = true
        let kept = replay("a a g g", withSteps).last!
        #expect(kept.state.phase == .learning && kept.state.scheduledSeconds == 10_878)
        // Custom parameters allow it only when w17 and w18 are both positive.
        var weights = FSRSParameters.fsrs6Default.weights
        weights[18] = 0
        var custom = Self.noSteps
        custom.fsrsParameters = try! FSRSParameters(weights: weights)
        #expect(replay("a", custom)[0].state.phase == .review)
    }

    @Test func storedValuesAreRoundedAsAnkiStoresThem() {
        let easy = replay("e e h e")
        #expect(easy.last!.state.intervalDays == 686)
        #expect(s(easy.last!) == 686.4826 && easy.last!.state.difficulty == Double(Float(1.995)))
        let good = replay("g g h g g", Self.defaultSteps)
        #expect(good.last!.state.intervalDays == 78 && s(good.last!) == 77.5002)
        // What is kept is what the next answer starts from: four and three decimals.
        let state = easy.last!.state
        #expect(state.stability == Double(Float((Float(state.stability!) * 10_000).rounded() / 10_000)))
    }

    @Test func fuzzNeverTakesAPassBackBelowThePreviousInterval() {
        // An interval that grew: at least a day more than before.
        #expect(ReviewFuzz.floor(interval: 4.591988, previous: 4, maximum: 36_500) == 5)
        // One that did not grow: the previous interval, when the fuzz range reaches it…
        #expect(ReviewFuzz.floor(interval: 2.7269483, previous: 4, maximum: 36_500) == 4)
        // …and nothing when it truly shrank (a lower desired retention, say).
        #expect(ReviewFuzz.floor(interval: 2.7269483, previous: 5, maximum: 36_500) == 0)
    }

    @Test func fsrsCountsElapsedDaysAsAnkiDoes() {
        let clock = Fixture.clock
        let start = clock.start(ofDay: Fixture.day0)
        func elapsed(_ from: Date, _ to: Date) -> Int {
            AnkiScheduler.fsrsElapsedDays(since: from, SchedulingContext(now: to, clock: clock))
        }
        #expect(elapsed(start.addingTimeInterval(8 * 3600), start.addingTimeInterval(86_400 + 3600)) == 1)
        #expect(elapsed(start.addingTimeInterval(20 * 3600), start.addingTimeInterval(23 * 3600)) == 0)
        // An answer at the very start of a study day counts from the day before.
        #expect(elapsed(start, start.addingTimeInterval(86_400)) == 2)
    }
}
