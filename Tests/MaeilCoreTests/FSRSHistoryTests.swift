import Foundation
import Testing
@testable import MaeilCore

/// A card's memory from its history: the same stepping fsrs-rs does, and the history read out
/// of a review log the way Anki reads its revlog.
@Suite("FSRS memory from a history")
struct FSRSHistoryTests {
    struct Fixture: Decodable {
        struct History: Decodable {
            struct Start: Decodable {
                let ease: Double
                let interval: Double
                let s: Double
                let d: Double
            }
            let reviews: [[Int]]
            let start: Start?
            let s: Double
            let d: Double
        }
        let histories: [History]
    }

    /// 300 random histories, a third from a starting state, that fsrs-rs 0.9 computed
    /// (scripts/fixtures/make-fsrs-memory.py): stability within a millionth, difficulty too.
    @Test func agreesWithFsrsRs() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fsrs-rs-memory-states.json")
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
        let fsrs = FSRS()
        #expect(fixture.histories.count == 300)
        for (index, history) in fixture.histories.enumerated() {
            var start: MemoryState?
            if let given = history.start {
                start = fsrs.memoryFromSM2(ease: given.ease, intervalDays: given.interval)
                #expect(abs(start!.stability - given.s) <= 1e-6 * given.s, "\(index): starting S")
                #expect(abs(start!.difficulty - given.d) <= 1e-5, "\(index): starting D")
            }
            let reviews = history.reviews.map { FSRSHistory.Review(rating: Rating(rawValue: $0[0])!, elapsedDays: $0[1]) }
            let memory = try #require(FSRSHistory(reviews: reviews, startingState: start).memory(fsrs))
            #expect(abs(memory.stability - history.s) <= 1e-6 * history.s, "\(index): S \(memory.stability) against \(history.s)")
            #expect(abs(memory.difficulty - history.d) <= 1e-5, "\(index): D \(memory.difficulty) against \(history.d)")
        }
    }

    struct DecayFixture: Decodable {
        struct History: Decodable {
            let w20: Double
            let reviews: [[Int]]
            let s: Float
            let d: Float
        }
        let histories: [History]
    }

    /// 400 histories under decays across fsrs-rs's range, whose memory Anki 26.9.3 computed
    /// from its review log (scripts/fixtures/make-anki-decay.py): stability and difficulty
    /// exactly as Anki's scheduler holds them, bit for bit.
    @Test func agreesWithAnkiAtEveryDecay() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/anki-fsrs-decay.json")
        let fixture = try JSONDecoder().decode(DecayFixture.self, from: Data(contentsOf: url))
        #expect(fixture.histories.count == 400)
        var differing: [String] = []
        for (index, history) in fixture.histories.enumerated() {
            var weights = FSRSParameters.fsrs6Default.weights
            weights[20] = history.w20
            let fsrs = FSRS(parameters: try FSRSParameters(weights: weights))
            let reviews = history.reviews.map { FSRSHistory.Review(rating: Rating(rawValue: $0[0])!, elapsedDays: $0[1]) }
            let memory = try #require(FSRSHistory(reviews: reviews, startingState: nil).memory(fsrs))
            if Float(memory.stability) != history.s || Float(memory.difficulty) != history.d {
                differing.append("\(index) w20 \(history.w20): S \(Float(memory.stability)) vs \(history.s), D \(Float(memory.difficulty)) vs \(history.d)")
            }
        }
        #expect(differing.isEmpty, "\(differing.count) of 400 differ:\n\(differing.prefix(10).joined(separator: "\n"))")
    }

    static let nextDay = Date(timeIntervalSince1970: 1_000 * 86_400)

    static func entry(_ phase: CardPhase, _ rating: Rating?, daysAgo: Double, after: CardState? = nil, kind: ReviewLogEntry.Kind = .answer) -> ReviewLogEntry {
        ReviewLogEntry(time: nextDay.addingTimeInterval(-daysAgo * 86_400), kind: kind, rating: rating, scheduler: "anki-sm2",
                       before: CardState(phase: phase), after: after ?? CardState(phase: .review, intervalDays: 3, easePermille: 2500))
    }

    /// Anki's rules: the newest run of learning answers starts the history; a reset drops what
    /// came before; without learning answers, the first answer that left the card a day or more
    /// away is the starting state.
    @Test func readsALogAsAnkiReadsItsRevlog() throws {
        let fsrs = FSRS()
        let complete = try #require(FSRSHistory(log: [
            Self.entry(.new, .good, daysAgo: 10.5), Self.entry(.learning, .good, daysAgo: 10.4), Self.entry(.review, .good, daysAgo: 7.5),
            Self.entry(.review, .again, daysAgo: 2.5),
        ], nextDayStart: Self.nextDay, fsrs: fsrs))
        #expect(complete.startingState == nil)
        #expect(complete.reviews.map(\.elapsedDays) == [0, 0, 3, 5])
        let reset = try #require(FSRSHistory(log: [
            Self.entry(.new, .good, daysAgo: 20.5), Self.entry(.review, .good, daysAgo: 15.5),
            Self.entry(.review, nil, daysAgo: 12, after: .new, kind: .manual),
            Self.entry(.new, .hard, daysAgo: 4.5), Self.entry(.review, .easy, daysAgo: 0.5),
        ], nextDayStart: Self.nextDay, fsrs: fsrs))
        #expect(reset.reviews == [.init(rating: .hard, elapsedDays: 0), .init(rating: .easy, elapsedDays: 4)])
        #expect(FSRSHistory(log: [Self.entry(.new, .good, daysAgo: 3), Self.entry(.review, nil, daysAgo: 1, after: .new, kind: .manual)],
                            nextDayStart: Self.nextDay, fsrs: fsrs) == nil)
        // Cut short: a lapse and its relearning steps say nothing of the memory; the answer
        // that graduated (a day away) starts it.
        let relearning = CardState(phase: .relearning, scheduledSeconds: 600, intervalDays: 1, easePermille: 2300)
        let cut = try #require(FSRSHistory(log: [
            Self.entry(.review, .again, daysAgo: 9.5, after: relearning),
            Self.entry(.relearning, .good, daysAgo: 9.4, after: CardState(phase: .review, intervalDays: 1, easePermille: 2300)),
            Self.entry(.review, .good, daysAgo: 7.5),
        ], nextDayStart: Self.nextDay, fsrs: fsrs))
        #expect(cut.startingState == fsrs.memoryFromSM2(ease: 2.3, intervalDays: 1))
        #expect(cut.reviews == [.init(rating: .good, elapsedDays: 2)])
    }
}
