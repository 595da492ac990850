import Testing
@testable import MaeilCore

@Suite("Reading plan progress")
struct ReadingProgressTests {
    let plan = ReadingPlan(key: "p", name: "Plan", parts: ["a", "b"], days: [
        ReadingDay(number: 1, label: "January 1", readings: ["Genesis 1", "Matthew 1"]),
        ReadingDay(number: 2, label: "January 2", readings: ["Genesis 2", ""]),
        ReadingDay(number: 3, label: "January 3", readings: ["Genesis 3", "Matthew 3"]),
    ])
    let today = 20_000

    func marks(_ list: [(Int, Int, Int)]) -> [ReadingMark] {
        list.map { ReadingMark(day: $0.0, part: $0.1, studyDay: $0.2) }
    }

    @Test func aNewReaderStartsAtDayOne() {
        let progress = ReadingProgress(plan: plan, marks: [], today: today)
        #expect(progress.day?.number == 1)
        #expect(progress.read == [false, false])
        #expect(!progress.finishedToday)
        #expect(progress.daysRead == 0 && progress.totalDays == 3)
    }

    @Test func aDayHalfReadStaysTheDayToRead() {
        let progress = ReadingProgress(plan: plan, marks: marks([(1, 1, today)]), today: today)
        #expect(progress.day?.number == 1)
        #expect(progress.read == [false, true])
        #expect(!progress.finishedToday)
    }

    @Test func aDayFinishedTodayIsShownDoneUntilTheNextStudyDay() {
        let done = marks([(1, 0, today), (1, 1, today)])
        let now = ReadingProgress(plan: plan, marks: done, today: today)
        #expect(now.day?.number == 1 && now.finishedToday && now.read == [true, true])
        #expect(now.next?.number == 2)
        let tomorrow = ReadingProgress(plan: plan, marks: done, today: today + 1)
        #expect(tomorrow.day?.number == 2 && !tomorrow.finishedToday)
        // A day finished over two study days counts as finished on the later one.
        let spread = ReadingProgress(plan: plan, marks: marks([(1, 0, today - 1), (1, 1, today)]), today: today)
        #expect(spread.finishedToday)
    }

    @Test func readingTheNextDayAheadMovesOn() {
        // Day 1 done today, then a reading of day 2 started: day 2 is the one shown.
        let progress = ReadingProgress(plan: plan, marks: marks([(1, 0, today), (1, 1, today), (2, 0, today)]), today: today)
        // Day 2's only reading is read (its second part is empty): it is finished too.
        #expect(progress.day?.number == 2 && progress.finishedToday && progress.next?.number == 3)
        #expect(progress.daysRead == 2)
    }

    @Test func theReaderGoesAtTheirOwnPaceNotTheCalendars() {
        // Weeks later, the day to read is still the first one not read.
        let progress = ReadingProgress(plan: plan, marks: marks([(1, 0, today), (1, 1, today)]), today: today + 30)
        #expect(progress.day?.number == 2)
        // Days read out of order count, and the first gap is the day to read.
        let gap = ReadingProgress(plan: plan, marks: marks([(3, 0, today - 5), (3, 1, today - 5)]), today: today)
        #expect(gap.day?.number == 1 && gap.daysRead == 1)
    }

    @Test func anotherDayCanBeShown() {
        let progress = ReadingProgress(plan: plan, marks: marks([(3, 1, today)]), today: today, showing: 3)
        #expect(progress.day?.number == 3 && progress.read == [false, true])
        #expect(ReadingProgress(plan: plan, marks: [], today: today, showing: 9).day == nil)
    }

    @Test func aPlanReadToItsEnd() {
        let all = marks([(1, 0, 1), (1, 1, 1), (2, 0, 2), (3, 0, 3), (3, 1, 3)])
        let lastDay = ReadingProgress(plan: plan, marks: all, today: 3)
        #expect(lastDay.day?.number == 3 && lastDay.finishedToday && lastDay.isComplete && lastDay.next == nil)
        let after = ReadingProgress(plan: plan, marks: all, today: 4)
        #expect(after.day == nil && after.isComplete)
    }
}
