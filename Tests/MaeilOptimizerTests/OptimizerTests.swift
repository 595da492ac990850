import Foundation
import MaeilCore
import Testing
@testable import MaeilOptimizer

@Suite("FSRS optimizer")
struct OptimizerTests {
    /// Random card histories: first answers, then reviews days apart, some the same day.
    static func cards(_ count: Int, seed: UInt64, sameDay: Bool = true) -> [Optimizer.CardTargets] {
        var generator = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let length = Int.random(in: 2...12, using: &generator)
            let reviews = (0..<length).map { index in
                FSRSReview(rating: Int.random(in: 1...4, using: &generator),
                           deltaT: index == 0 ? 0 : (sameDay && Bool.random(using: &generator) && index % 3 == 1 ? 0 : Int.random(in: 1...60, using: &generator)))
            }
            let positions = (1..<length).filter { reviews[$0].deltaT > 0 }
            // Slices that start past 0, as the fit's are (parts of arrays all cards share).
            let weights = [9.0] + positions.map { _ in Double.random(in: 0.25...1, using: &generator) }
            return Optimizer.CardTargets(reviews: reviews[...], positions: ([-1, -1] + positions)[2...], weights: weights[1...])
        }.filter { !$0.positions.isEmpty }
    }

    @Test(arguments: [Optimizer.defaultParameters,
                      [1.0, 3.0, 6.0, 20.0, 5.5, 0.6, 2.0, 0.01, 2.1, 0.1, 1.1, 1.2, 0.08, 0.3, 1.2, 0.5, 2.5, 0.4, 0.2, 0.1, 0.25],
                      [0.1, 0.6, 1.2, 4.0, 7.5, 1.0, 3.5, 0.05, 1.4, 0.25, 0.6, 2.0, 0.05, 0.2, 2.0, 0.7, 1.5, 1.9, 1.5, 0.05, 0.6]])
    func handDerivedGradientIsForwardModes(_ parameters: [Double]) {
        let cards = Self.cards(300, seed: 7)
        let reverse = Optimizer.gradient(parameters, cards)
        let forward = Optimizer.dualGradient(parameters, cards)
        for j in 0..<21 {
            #expect(abs(reverse[j] - forward[j]) <= 1e-9 * max(1, abs(forward[j])), "w\(j): \(reverse[j]) vs \(forward[j])")
        }
    }

    @Test func withoutSameDayReviewsTheSameDayTermsGetNoGradient() {
        let cards = Self.cards(300, seed: 8, sameDay: false)
        let gradient = Optimizer.gradient(Optimizer.defaultParameters, cards)
        #expect(gradient[19] == 0)
    }
}

/// Fits on logs a simulated learner makes with known parameters (MaeilCore's FSRS as the
/// learner's memory) recover those parameters' predictions on reviews the fit did not see.
@Suite("FSRS optimizer on simulated learners")
struct OptimizerRecoveryTests {
    static func log(_ parameters: [Double], cards: Int, seed: UInt64) -> [FSRSItem] {
        SyntheticLog.items(parameters: parameters, cards: cards, seed: seed)
    }

    @Test func aFitPredictsAsWellAsTheParametersThatMadeTheLog() throws {
        let truth = [0.4, 1.8, 3.5, 10.0, 6.0, 0.7, 2.5, 0.02, 1.7, 0.15, 0.9, 1.6, 0.07, 0.25, 1.8, 0.55, 2.0, 0.5, 0.15, 0.08, 0.3]
        let items = Self.log(truth, cards: 2500, seed: 11)
        #expect(items.count > 10_000)
        let held = try #require(try Evaluation.heldOut(items, current: truth, optimizer: Optimizer()))
        // "current" is the truth here: the fit must come within 1 % of its log loss.
        #expect(held.fitted.logLoss <= held.current.logLoss * 1.01, "\(held.fitted) vs \(held.current)")
        let defaults = try #require(try Evaluation.heldOut(items, current: Optimizer.defaultParameters, optimizer: Optimizer()))
        #expect(held.fitted.logLoss < defaults.current.logLoss, "the fit beats the defaults")
    }

    @Test func tooFewReviewsGiveTheDefaultsOrThePretrainedStabilities() throws {
        let items = Self.log(Optimizer.defaultParameters, cards: 3, seed: 3)
        #expect(try Optimizer().fit(Array(items.prefix(5))) == Optimizer.defaultParameters)
    }

    @Test func theCSVReaderBuildsItemsAsTheConverterDoes() throws {
        let csv = """
            card_id,review_time,review_rating,review_state,review_duration
            1,1700049600000,3,0,4000
            1,1700050200000,3,1,3000
            1,1700136000000,3,2,3000
            1,1700395200000,1,2,3000
            1,1700395800000,3,3,3000
            1,1700654400000,4,2,3000
            2,1700049600000,1,0,4000
            2,1700222400000,3,2,4000
            """
        let items = try ItemBuilder.items(csv: csv, timeZone: TimeZone(identifier: "UTC")!, rolloverHour: 4)
        #expect(items.map { $0.reviews.map(\.deltaT) } == [[0, 0, 1], [0, 2], [0, 0, 1, 3], [0, 0, 1, 3, 0, 3]])
        #expect(items.map(\.cardID) == [1, 2, 1, 1])
        #expect(throws: ItemBuilder.CSVProblem.self) { try ItemBuilder.items(csv: "card_id,review_time\n1,2", timeZone: .current, rolloverHour: 4) }
    }

    /// The same simulated reviews read from a CSV and from review events give the same items.
    @Test func aCSVGivesTheItemsItsReviewsDo() throws {
        let truth = [0.1, 0.6, 1.2, 4.0, 7.5, 1.0, 3.5, 0.05, 1.4, 0.25, 0.6, 2.0, 0.05, 0.2, 2.0, 0.7, 1.5, 0.7, 0.1, 0.05, 0.4]
        let fromEvents = SyntheticLog.items(parameters: truth, cards: 300, seed: 4)
        let csv = SyntheticLog.csv(parameters: truth, cards: 300, seed: 4)
        #expect(fromEvents.count > 2000)
        #expect(try ItemBuilder.items(csv: csv, timeZone: TimeZone(identifier: "UTC")!, rolloverHour: 4) == fromEvents)
        // Blank lines and CRLF endings are read past; a bad row is named by its line in the file.
        let crlf = csv.replacingOccurrences(of: "\n", with: "\r\n").replacingOccurrences(of: "card_id", with: "\r\ncard_id")
        #expect(try ItemBuilder.items(csv: crlf, timeZone: TimeZone(identifier: "UTC")!, rolloverHour: 4) == fromEvents)
        #expect(throws: ItemBuilder.CSVProblem(line: 4, message: "expected card_id, review_time, review_rating and review_state as numbers")) {
            try ItemBuilder.items(csv: "\ncard_id,review_time,review_rating,review_state\n1,1700049600000,3,0\n1,17x,3,2", timeZone: .current, rolloverHour: 4)
        }
    }

    /// A review's day from the zone's table of offsets is the calendar's, across daylight-saving
    /// changes (half-hour ones too) and in zones without them.
    @Test(arguments: ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu", "UTC", "America/Sao_Paulo"])
    func localDatesAreTheCalendars(_ zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let first: Int64 = 1_000_000_000, last: Int64 = 1_800_000_000
        let dates = LocalDates(timeZone: timeZone, from: first, to: last)
        var generator = SeededGenerator(seed: 9)
        var instants = (0..<20_000).map { _ in Int64.random(in: first...last, using: &generator) }
        // Around every change, a second either side.
        var after = Date(timeIntervalSince1970: TimeInterval(first))
        while let change = timeZone.nextDaylightSavingTimeTransition(after: after), change.timeIntervalSince1970 < TimeInterval(last) {
            let second = Int64(change.timeIntervalSince1970)
            instants += [second - 1, second, second + 1]
            after = change
        }
        for instant in instants {
            let parts = calendar.dateComponents([.year, .month, .day], from: Date(timeIntervalSince1970: TimeInterval(instant)))
            #expect(dates.dayNumber(ofSeconds: instant) == DayClock.dayNumber(year: parts.year!, month: parts.month!, day: parts.day!), "\(zone) \(instant)")
        }
    }
}
