import Foundation
import PropertyBased
import Testing
@testable import MaeilCore

/// One owner of every preset setting's limits: what it accepts, how it words a refusal, and
/// that a value written out reads back the same.
@Suite("Preset settings")
struct PresetKeyTests {
    @Test(arguments: PresetKey.allCases)
    func everyValueReadsBackAsItself(_ key: PresetKey) throws {
        var preset = Preset(name: "p")
        preset.scheduler.learningSteps = [90, 600, 86_400]
        var copy = Preset(name: "p")
        try key.set(.text(key.value(in: preset)), on: &copy)
        #expect(key.value(in: copy) == key.value(in: preset))
    }

    @Test func wholeNumbersAndDecimalsStayInsideTheirLimits() async {
        await propertyCheck(count: 200, input: Gen.int(in: -20_000...120_000)) { number in
            var preset = Preset(name: "p")
            let accepted = (try? PresetKey.newPerDay.set(.text(String(number)), on: &preset)) != nil
            #expect(accepted == (0...9999).contains(number))
            #expect((0...9999).contains(preset.newPerDay))
        }
        await propertyCheck(count: 200, input: Gen.double(in: 0...2)) { retention in
            var preset = Preset(name: "p")
            let accepted = (try? PresetKey.desiredRetention.set(.text("\(retention)"), on: &preset)) != nil
            #expect(accepted == (0.7...0.99).contains(retention))
        }
    }

    @Test func refusalsSayWhatIsAllowed() {
        func problem(_ key: PresetKey, _ input: PresetKey.Input) -> String? {
            var preset = Preset(name: "p")
            do {
                try key.set(input, on: &preset)
                return nil
            } catch {
                return error.description
            }
        }
        #expect(problem(.desiredRetention, .text("2")) == "desired_retention must be a number from 0.7 to 0.99")
        #expect(problem(.newPerDay, .text("ten")) == "new_per_day must be a whole number from 0 to 9999")
        #expect(problem(.scheduler, .text("sm3")) == "scheduler must be sm2, anki-sm2 or fsrs")
        #expect(problem(.burySiblings, .text("maybe")) == "bury_siblings must be true or false")
        #expect(problem(.learningSteps, .text("1x")) == "learning_steps must be steps such as \"1m 10m\" (s, m, h, d) or none")
        #expect(problem(.fsrsParameters, .list(["1", "x"])) == "fsrs_parameters must be a list of numbers")
        #expect(problem(.learningSteps, .list(["1m", "10m"])) == nil)
        #expect(problem(.burySiblings, .text("yes")) == nil)
    }

    /// A deck's own limit stands over its preset's daily limit, today's before the deck's own;
    /// a today-only limit of another day, or any other key, has none.
    @Test func aDecksOwnLimitStandsOverItsPresets() {
        var limits = DeckLimits(reviewsPerDay: 11, newToday: .init(limit: 8, day: 40))
        #expect(DeckLimitKey.standing(over: .reviewsPerDay, in: limits, today: 40) == .deckReviewsPerDay)
        #expect(DeckLimitKey.standing(over: .newPerDay, in: limits, today: 40) == .todayNewPerDay)
        #expect(DeckLimitKey.standing(over: .newPerDay, in: limits, today: 41) == nil)
        limits.reviewsToday = .init(limit: 3, day: 41)
        #expect(DeckLimitKey.standing(over: .reviewsPerDay, in: limits, today: 41) == .todayReviewsPerDay)
        #expect(DeckLimitKey.standing(over: .maximumInterval, in: limits, today: 41) == nil)
    }
}
