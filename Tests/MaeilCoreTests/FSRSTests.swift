import Foundation
import Testing
@testable import MaeilCore
import MaeilTestSupport

@Suite("FSRS-6")
struct FSRSTests {
    let fsrs = FSRS()

    func close(_ a: Double?, _ b: Double, _ tolerance: Double = 0.00005) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tolerance
    }

    /// The reference sequence with no learning steps, every answer on its due day: the
    /// formulas give the reference table to f32 precision; the scheduler, which stores S and D
    /// rounded as Anki does and starts each answer from the stored values, gives the same days.
    @Test func referenceSequenceWithoutSteps() {
        let stability = [2.3065, 10.9643, 46.2802, 162.8622, 4.7160, 12.1047, 27.6098, 46.5153, 115.4768, 210.2270]
        let difficulty = [2.1181, 2.1112, 2.1043, 2.0975, 7.3877, 7.3756, 7.3634, 8.2349, 7.6304, 7.6180]
        let intervals = [2, 11, 46, 163, 5, 12, 28, 47, 115, 210]
        var memory: MemoryState?
        for (index, rating) in ratings("g g g g a g g h e g").enumerated() {
            memory = fsrs.nextMemory(memory, elapsedDays: index == 0 ? 0 : intervals[index - 1], rating: rating)
            #expect(close(memory?.stability, stability[index], max(0.00005, stability[index] * 2e-6)), "S at answer \(index + 1)")
            #expect(close(memory?.difficulty, difficulty[index], 1e-4), "D at answer \(index + 1)")
        }
        let scheduler = SchedulerSettings.fsrs { $0.learningSteps = []; $0.relearningSteps = [] }.makeScheduler()
        let steps = ScheduleReplay(scheduler: scheduler).run(ratings: ratings("g g g g a g g h e g"))
        #expect(steps.map(\.state.intervalDays) == intervals)
        #expect(steps.allSatisfy { $0.state.phase == .review })
    }

    @Test func retrievabilityAndIntervals() {
        #expect(close(fsrs.retrievability(elapsedDays: 20, stability: 10), 0.8459))
        #expect(close(fsrs.factor, 0.980346, 0.000001))
        let expected = [(0.80, 33.16), (0.85, 19.06), (0.90, 10.0), (0.95, 4.03), (0.97, 2.23)]
        for (retention, days) in expected {
            #expect(close(fsrs.interval(stability: 10, desiredRetention: retention), days, 0.005))
        }
        #expect(close(fsrs.retrievability(elapsedDays: 10, stability: 10), 0.9, 1e-7))
    }

    @Test func initialDifficulty() {
        let raw = Rating.allCases.map { Double(fsrs.rawInitialDifficulty($0)) }
        for (value, expected) in zip(raw, [6.4133, 5.11217, 2.11810, -4.77163]) {
            #expect(close(value, expected, 0.00001))
        }
        #expect(fsrs.initialMemory(.easy).difficulty == 1)
        #expect(Rating.allCases.map { fsrs.initialMemory($0).stability } == [0.212, 1.2931, 2.3065, 8.2956].map { Double(Float($0)) })
    }

    @Test func nextDifficultyRevertsToTheUnclampedEasyDifficulty() {
        let values = Rating.allCases.map { fsrs.nextDifficulty(5, $0) }
        for (value, expected) in zip(values, [8.34176, 6.66600, 4.99023, 3.31446]) {
            #expect(close(value, expected, 0.00001))
        }
    }

    @Test func stabilityAfterAnswers() {
        let memory = MemoryState(stability: 10, difficulty: 5)
        #expect(close(fsrs.stabilityAfterSuccess(memory, retrievability: 0.9, rating: .hard), 23.2469))
        #expect(close(fsrs.stabilityAfterSuccess(memory, retrievability: 0.9, rating: .good), 32.0267))
        #expect(close(fsrs.stabilityAfterSuccess(memory, retrievability: 0.9, rating: .easy), 51.2539))
        #expect(close(fsrs.stabilityAfterFailure(memory, retrievability: 0.9), 1.39199))
    }

    @Test func sameDayMultipliers() {
        // Raw multipliers at S = 1: again 0.35504, hard 0.61078 (a pass: kept at 1), good 1.05072, easy 1.80756.
        #expect(close(fsrs.stabilityShortTerm(1, rating: .again), 0.35504))
        #expect(fsrs.stabilityShortTerm(1, rating: .hard) == 1)
        #expect(close(fsrs.stabilityShortTerm(1, rating: .good), 1.05072))
        #expect(close(fsrs.stabilityShortTerm(1, rating: .easy), 1.80756))
        // At S = 2.3065 the good multiplier is below 1, so good leaves S unchanged.
        #expect(fsrs.stabilityShortTerm(2.3065, rating: .good) == Double(Float(2.3065)))
    }

    @Test func fsrs5ParametersWiden() throws {
        let five = try FSRSParameters(weights: Array(FSRSParameters.fsrs6Default.weights.prefix(19)))
        #expect(five.weights.count == 21)
        #expect(five.weights[19] == 0)
        #expect(five.weights[20] == 0.5)
        #expect(throws: FSRSParameters.Problem.wrongCount(3)) { try FSRSParameters(weights: [1, 2, 3]) }
        #expect(throws: FSRSParameters.Problem.notFinite(index: 2)) {
            try FSRSParameters(weights: [1, 1, .nan] + Array(repeating: 1, count: 18))
        }
        // Each weight within fsrs-rs's bounds: 1000 for w0 would overflow every later answer.
        #expect(throws: FSRSParameters.Problem.outOfRange(index: 0, value: 1000)) {
            try FSRSParameters(weights: [1000] + Array(FSRSParameters.fsrs6Default.weights.dropFirst()))
        }
        #expect(throws: FSRSParameters.Problem.outOfRange(index: 20, value: 1e308)) {
            try FSRSParameters(weights: Array(FSRSParameters.fsrs6Default.weights.dropLast()) + [1e308])
        }
        #expect(FSRSParameters.Problem.outOfRange(index: 4, value: 0.5).description == "FSRS parameter w4 must be from 1 to 10, not 0.5")
        #expect(FSRSParameters(clamping: [1000] + Array(FSRSParameters.fsrs6Default.weights.dropFirst()))?.weights[0] == 100)
        // FSRS-5: decay 0.5 gives F = 19/81 and still R(S, S) = 0.9.
        let model = FSRS(parameters: five)
        #expect(close(model.factor, 19.0 / 81.0, 1e-7))
        #expect(close(model.retrievability(elapsedDays: 7, stability: 7), 0.9, 1e-7))
    }

    // MARK: Anki's FSRS mode with the default steps (1m 10m, relearning 10m), DR 0.9

    let scheduler = SchedulerSettings.fsrs().makeScheduler()

    func offers(after letters: String) -> [String] {
        let replay = ScheduleReplay(scheduler: scheduler)
        let steps = replay.run(ratings: ratings(letters))
        let last = steps.last!
        let next = scheduler.nextStates(for: last.state, context: SchedulingContext(now: replay.answerTime(for: last.state, after: last.answeredAt),
                                                                                   clock: replay.clock))
        return [next.again, next.hard, next.good, next.easy].map { outcome in
            outcome.state.phase.isInSteps ? "\(outcome.state.scheduledSeconds)s" : "\(outcome.state.intervalDays)d"
        }
    }

    @Test func newCardOffers() {
        let next = scheduler.nextStates(for: .new, context: Fixture.context())
        #expect(next.again.state.scheduledSeconds == 60)
        #expect(next.hard.state.scheduledSeconds == 330)
        #expect(next.good.state.scheduledSeconds == 600)
        #expect(next.easy.state.phase == .review)
        #expect(next.easy.state.intervalDays == 8)
        #expect(next.easy.state.stability == Double(Float(8.2956)))
    }

    @Test func offersAfterOneGood() {
        #expect(offers(after: "g") == ["60s", "600s", "2d", "4d"])
    }

    @Test func offersAfterHardThenGood() {
        #expect(offers(after: "h g").suffix(2) == ["1d", "2d"])
    }

    @Test func offersInRelearning() {
        #expect(offers(after: "g g a").suffix(3) == ["900s", "1d", "2d"])
    }

    @Test func graduationIgnoresTheSM2GraduatingSettings() {
        let scheduler = SchedulerSettings.fsrs { $0.graduatingInterval = 9; $0.easyInterval = 20 }.makeScheduler()
        let next = scheduler.nextStates(for: .new, context: Fixture.context())
        #expect(next.easy.state.intervalDays == 8)
    }

    @Test func reviewMinimumsAndNoModifier() {
        let scheduler = SchedulerSettings.fsrs { $0.intervalModifier = 3 }.makeScheduler()
        let card = Fixture.reviewCard(interval: 1, memory: MemoryState(stability: 0.3, difficulty: 9))
        let next = scheduler.nextStates(for: card, context: Fixture.context())
        let days = [next.hard, next.good, next.easy].map(\.state.intervalDays)
        #expect(days[0] >= 1)
        #expect(days[1] >= days[0] + 1)
        #expect(days[2] >= days[1] + 1)
        let plain = SchedulerSettings.fsrs().makeScheduler().nextStates(for: card, context: Fixture.context())
        #expect(plain.good.state.intervalDays == next.good.state.intervalDays)
    }

    @Test func desiredRetentionShortensIntervals() {
        let card = Fixture.reviewCard(interval: 10, memory: MemoryState(stability: 10, difficulty: 5))
        let at = { (retention: Double) in
            SchedulerSettings.fsrs { $0.desiredRetention = retention }.makeScheduler()
                .answer(card, .good, context: Fixture.context()).state.intervalDays
        }
        #expect(at(0.8) > at(0.9))
        #expect(at(0.9) > at(0.95))
    }

    @Test func sm2CardsGetAMemoryState() {
        let memory = fsrs.memoryFromSM2(ease: 2.5, intervalDays: 10)
        #expect(close(memory.stability, 10, 1e-9))
        #expect(FSRS.difficultyRange.contains(memory.difficulty))
        // Without a memory state a review card is still scheduled.
        let next = scheduler.nextStates(for: Fixture.reviewCard(interval: 10), context: Fixture.context())
        #expect(next.good.state.stability != nil)
        #expect(next.good.state.intervalDays > 10)
    }
}
