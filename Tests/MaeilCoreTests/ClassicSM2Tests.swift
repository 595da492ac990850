import Foundation
import Testing
@testable import MaeilCore
import MaeilTestSupport

@Suite("SuperMemo SM-2 (scheduling.md §1)")
struct ClassicSM2Tests {
    let scheduler = ClassicSM2Scheduler()

    func intervals(quality: Int, count: Int) -> [Int] {
        var card = CardState.new
        var day = Fixture.day0
        var result: [Int] = []
        for _ in 0..<count {
            card = scheduler.answer(card, quality: Quality(rawValue: quality)!, context: Fixture.context(day: day)).state
            result.append(card.intervalDays)
            day += card.intervalDays
        }
        return result
    }

    @Test func allThrees() {
        #expect(intervals(quality: 3, count: 6) == [1, 6, 13, 26, 47, 79])
    }

    @Test func allFours() {
        #expect(intervals(quality: 4, count: 6) == [1, 6, 15, 38, 95, 238])
    }

    @Test(arguments: [(5, 100), (4, 0), (3, -140), (2, -320), (1, -540), (0, -800)])
    func easeChangeByQuality(quality: Int, change: Int) {
        #expect(ClassicSM2Scheduler.easeChange(Quality(rawValue: quality)!) == change)
    }

    @Test func buttonsMapToQualities() {
        #expect(Rating.allCases.map { Quality($0).rawValue } == [1, 3, 4, 5])
    }

    @Test func easeNeverBelowOnePointThree() {
        var card = CardState.new
        for _ in 0..<10 {
            card = scheduler.answer(card, quality: Quality(rawValue: 0)!, context: Fixture.context()).state
        }
        #expect(card.easePermille == 1300)
    }

    @Test func failureRestartsRepetitionsAndCountsALapse() {
        let replay = ScheduleReplay(scheduler: scheduler)
        let steps = replay.run(ratings: ratings("g g g a g g g"))
        // After the failure the repetitions restart at I(1) = 1, I(2) = 6, and I(3) uses the
        // ease lowered by 0.54: ceil(6 × 1.96) = 12.
        #expect(steps.map(\.state.intervalDays) == [1, 6, 15, 1, 1, 6, 12])
        #expect(steps[3].state.lapses == 1)
        #expect(steps[3].state.easePermille == 1960)
    }
}
