import Foundation
import PropertyBased
import Testing
@testable import MaeilCore
import MaeilTestSupport

/// Invariants every scheduler keeps, whatever the answers, lateness and fuzz.
@Suite("Scheduler properties")
struct SchedulerPropertyTests {
    static let answers = Gen.int(in: 1...4).array(of: 1...40)
    static let lateness = Gen.int(in: 0...60).array(of: 40)
    static let fuzz = Gen.double(in: 0..<1).array(of: 40)
    static let kinds = Gen<SchedulerKind>.case

    /// Walks one card through the answers and checks each offer of four next states.
    static func walk(_ kind: SchedulerKind, _ answers: [Int], _ late: [Int], _ fuzz: [Double],
                     check: (CardState, SchedulingContext, NextStates) -> Void) {
        let settings = SchedulerSettings(kind: kind)
        let scheduler = settings.makeScheduler()
        var card = CardState.new
        var now = Fixture.noon
        for (index, answer) in answers.enumerated() {
            if let due = card.due {
                now = max(now, due)
                if card.phase == .review { now += TimeInterval(late[index] * 86_400) }
            }
            let context = SchedulingContext(now: now, clock: Fixture.clock, fuzzFactor: index % 3 == 0 ? nil : fuzz[index])
            let next = scheduler.nextStates(for: card, context: context)
            check(card, context, next)
            card = next[Rating(rawValue: answer)!].state
        }
    }

    /// Any FSRS weights inside their bounds, at either end of each range, give finite states:
    /// a card is never scheduled to "nan" or crashes the next review (a weight of 1000 did).
    @Test func fsrsWithinItsBoundsStaysFinite() async {
        let corners = Gen.int(in: 0...2).array(of: 21)
        await propertyCheck(count: 300, input: corners, Self.answers, Self.lateness) { corner, answers, late in
            let weights = FSRSParameters.bounds.enumerated().map { index, range in
                [range.lowerBound, range.upperBound, (range.lowerBound + range.upperBound) / 2][corner[index]]
            }
            var settings = SchedulerSettings(kind: .fsrs)
            settings.fsrsParameters = try! FSRSParameters(weights: weights)
            let scheduler = settings.makeScheduler()
            var card = CardState.new
            var now = Fixture.noon
            for (index, answer) in answers.enumerated() {
                if let due = card.due { now = max(now, due) + TimeInterval(late[index] * 3600) }
                let next = scheduler.nextStates(for: card, context: SchedulingContext(now: now, clock: Fixture.clock, fuzzFactor: 0.5))
                for rating in Rating.allCases {
                    let state = next[rating].state
                    #expect(state.stability.map(\.isFinite) ?? false, "\(weights): S \(String(describing: state.stability))")
                    #expect(state.difficulty.map { $0.isFinite && (1...10).contains($0) } ?? false)
                    #expect(state.intervalDays >= 0 && state.intervalDays <= 36_500)
                }
                card = next[Rating(rawValue: answer)!].state
            }
        }
    }

    @Test func passingAnswersAreOrderedHardGoodEasy() async {
        await propertyCheck(count: 300, input: Self.kinds, Self.answers, Self.lateness, Self.fuzz) { kind, answers, late, fuzz in
            Self.walk(kind, answers, late, fuzz) { card, _, next in
                let hard = next.hard.state.due!, good = next.good.state.due!, easy = next.easy.state.due!
                #expect(hard <= good, "\(kind) \(card.phase): hard \(hard) after good \(good)")
                #expect(good <= easy, "\(kind) \(card.phase): good \(good) after easy \(easy)")
                // In review each button gives at least a day more than the one before, until the
                // maximum interval caps them all.
                if card.phase == .review, kind != .sm2 {
                    let days = [next.hard, next.good, next.easy].map(\.state.intervalDays)
                    #expect(days[0] < days[1] || days[1] == 36500)
                    #expect(days[1] < days[2] || days[2] == 36500)
                }
            }
        }
    }

    @Test func dueIsNeverBeforeTheAnswerAndIntervalsArePositive() async {
        await propertyCheck(count: 300, input: Self.kinds, Self.answers, Self.lateness, Self.fuzz) { kind, answers, late, fuzz in
            Self.walk(kind, answers, late, fuzz) { _, context, next in
                for rating in Rating.allCases {
                    let state = next[rating].state
                    #expect(state.due! >= context.now)
                    #expect(state.lastReview == context.now)
                    if state.phase == .review { #expect(state.intervalDays >= 1) }
                    if state.phase.isInSteps { #expect(state.scheduledSeconds > 0) }
                }
            }
        }
    }

    @Test func easeNeverFallsBelowOnePointThree() async {
        await propertyCheck(count: 300, input: Self.kinds, Self.answers, Self.lateness, Self.fuzz) { kind, answers, late, fuzz in
            Self.walk(kind, answers, late, fuzz) { _, _, next in
                for rating in Rating.allCases {
                    #expect(next[rating].state.easePermille >= 1300)
                }
            }
        }
    }

    @Test func fsrsMemoryStaysInsideItsClamps() async {
        await propertyCheck(count: 300, input: Self.answers, Self.lateness, Self.fuzz) { answers, late, fuzz in
            Self.walk(.fsrs, answers, late, fuzz) { _, _, next in
                for rating in Rating.allCases {
                    let state = next[rating].state
                    #expect(FSRS.stabilityRange.contains(state.stability!))
                    #expect(FSRS.difficultyRange.contains(state.difficulty!))
                }
            }
        }
    }

    @Test func retrievabilityIsAProbability() async {
        let fsrs = FSRS()
        await propertyCheck(count: 1000, input: Gen.double(in: 0...100_000), Gen.double(in: FSRS.stabilityRange)) { elapsed, stability in
            let r = fsrs.retrievability(elapsedDays: elapsed, stability: stability)
            #expect(r > 0 && r <= 1, "R(\(elapsed), \(stability)) = \(r)")
        }
    }

    @Test func sameInputsGiveSameOutputs() async {
        await propertyCheck(count: 100, input: Self.kinds, Self.answers, Self.lateness, Self.fuzz) { kind, answers, late, fuzz in
            var first: [NextStates] = []
            var second: [NextStates] = []
            Self.walk(kind, answers, late, fuzz) { _, _, next in first.append(next) }
            Self.walk(kind, answers, late, fuzz) { _, _, next in second.append(next) }
            #expect(first == second)
        }
    }

    /// The simulator answers one rating at a time; that must be exactly the prompt's offer.
    @Test func answeringAloneGivesTheOfferedOutcome() async {
        await propertyCheck(count: 300, input: Self.kinds, Self.answers, Self.lateness, Self.fuzz) { kind, answers, late, fuzz in
            let scheduler = SchedulerSettings(kind: kind).makeScheduler()
            Self.walk(kind, answers, late, fuzz) { card, context, next in
                for rating in Rating.allCases {
                    #expect(scheduler.answer(card, rating, context: context) == next[rating], "\(kind) \(card.phase) \(rating)")
                }
            }
        }
    }

    @Test func fuzzStaysInsideItsBounds() async {
        await propertyCheck(count: 1000, input: Gen.float(in: 0...40_000), Gen.int(in: 1...500), Gen.double(in: 0..<1)) { interval, minimum, factor in
            let (lower, upper) = ReviewFuzz.bounds(interval: interval, minimum: minimum, maximum: 36500)
            let fuzzed = ReviewFuzz.apply(factor: factor, interval: interval, minimum: minimum, maximum: 36500)
            #expect(lower <= fuzzed && fuzzed <= upper)
            #expect(fuzzed >= minimum && fuzzed <= 36500)
        }
    }
}
