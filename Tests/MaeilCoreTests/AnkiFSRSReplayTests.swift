import Foundation
import Testing
@testable import MaeilCore

/// Maeil's FSRS against Anki's own: answer sequences replayed by Anki 26.9's backend with a
/// frozen clock (scripts/fixtures/make-fsrs-sequences.py), then by Maeil at the same moments.
@Suite("FSRS as Anki runs it")
struct AnkiFSRSReplayTests {
    struct Fixture: Decodable {
        struct Sequence: Decodable {
            let config: String
            let ratings: [Int]
            let late: [Int]
            let expected: [Step]
            /// The "decay" sequences' own w20 and desired retention.
            let w20: Double?
            let retention: Double?
        }

        struct Step: Decodable {
            let phase: String
            let seconds: Int?
            let days: Int?
            let s: Double
            let d: Double
        }

        let sequences: [Sequence]
    }

    static let fixture: Fixture = {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/anki-fsrs-sequences.json")
        return try! JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }()

    static func settings(_ sequence: Fixture.Sequence) -> SchedulerSettings {
        SchedulerSettings.fsrs {
            if sequence.config != "steps" {
                $0.learningSteps = []
                $0.relearningSteps = []
            }
            if let w20 = sequence.w20, let retention = sequence.retention {
                var weights = FSRSParameters.fsrs6Default.weights
                weights[20] = w20
                $0.fsrsParameters = try! FSRSParameters(weights: weights)
                $0.desiredRetention = retention
            }
        }
    }

    /// Where Maeil's replay of a sequence first differs from Anki's, or nil.
    static func firstDifference(_ sequence: Fixture.Sequence) -> String? {
        let replay = ScheduleReplay(scheduler: settings(sequence).makeScheduler())
        let steps = replay.run(ratings: sequence.ratings.map { Rating(rawValue: $0)! }, late: sequence.late)
        for (index, (step, expected)) in zip(steps, sequence.expected).enumerated() {
            let state = step.state
            let today = replay.clock.dayNumber(of: step.answeredAt)
            var got = "\(state.phase.rawValue)"
            if state.phase.isInSteps, let due = state.due, replay.clock.dayNumber(of: due) == today {
                got += " \(state.scheduledSeconds)s"
            } else if state.phase == .review {
                got += " \(state.intervalDays)d"
            } else if let due = state.due {
                got += " \(replay.clock.dayNumber(of: due) - today)d"
            }
            let wanted = "\(expected.phase)" + (expected.seconds.map { " \($0)s" } ?? "") + (expected.days.map { " \($0)d" } ?? "")
            let s = state.stability ?? -1, d = state.difficulty ?? -1
            // S and D as Anki stores them (to 4 and 3 decimals), exactly.
            let storedS = (s * 10_000).rounded() / 10_000, storedD = (d * 1000).rounded() / 1000
            if got != wanted || abs(storedS - expected.s) > 1e-9 || abs(storedD - expected.d) > 1e-9 {
                return "\(sequence.config) \(sequence.ratings) late \(sequence.late): answer \(index + 1) gave \(got) S \(s) D \(d), "
                    + "Anki \(wanted) S \(expected.s) D \(expected.d)"
            }
        }
        return nil
    }

    /// "decay": no steps, each sequence with its own decay (w20) and desired retention.
    @Test(arguments: ["steps", "none", "decay"])
    func everySequenceAgreesWithAnki(_ config: String) {
        let sequences = Self.fixture.sequences.filter { $0.config == config }
        #expect(sequences.count == 200)
        let differences = sequences.compactMap(Self.firstDifference)
        #expect(differences.isEmpty, "\(differences.count) of \(sequences.count) differ; first: \(differences.prefix(5).joined(separator: "\n"))")
    }
}
