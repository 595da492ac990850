import Testing
@testable import MaeilCore

@Suite("Interval formatting")
struct IntervalFormatTests {
    @Test func roundedForButtonsExactForStepsAndSchedules() {
        #expect([45, 330, 600, 5400, 86_400 * 3].map { IntervalFormat.seconds($0) } == ["45s", "6m", "10m", "2h", "3d"])
        #expect([45, 330, 600, 5400, 86_400 * 3, 18_316].map { IntervalFormat.seconds($0, .exact) }
                == ["45s", "330s", "10m", "90m", "3d", "18316s"])
        #expect([1, 30, 31, 55, 364, 365, 657].map(IntervalFormat.days) == ["1d", "30d", "1mo", "1.8mo", "12mo", "1y", "1.8y"])
        #expect(LearningSteps(seconds: [60, 600, 90]).description == "1m 10m 90s")
        #expect(LearningSteps(parsing: LearningSteps(seconds: [60, 600, 90]).description) == LearningSteps(seconds: [60, 600, 90]))
    }
}
