import Foundation

/// Replays one new card through a list of answers, each given when the card falls due, or a
/// number of days late for answers given in the review state. This is what `maeil schedule`
/// prints and what the reference sequences in the tests are checked against.
///
/// A card due within the day is answered at its due second; a card due on a day (a review, or
/// a learning step that ran past the rollover) at noon within that study day (the next
/// calendar day's noon when the day starts after noon), as a learner would, not at the
/// rollover instant itself.
public struct ScheduleReplay: Sendable {
    public struct Step: Sendable, Hashable {
        public var rating: Rating
        public var answeredAt: Date
        public var outcome: Outcome
        public var state: CardState { outcome.state }
    }

    public var scheduler: any Scheduler
    public var clock: DayClock
    public var start: Date
    /// Fuzz seed; nil turns fuzz off.
    public var fuzzSeed: UInt64?

    /// Starts at noon within the study day of 2026-01-05 in `clock`'s time zone, far from the
    /// rollover, so the default steps never cross into the next study day.
    public init(scheduler: any Scheduler, clock: DayClock = .utc(), start: Date? = nil, fuzzSeed: UInt64? = nil) {
        self.scheduler = scheduler
        self.clock = clock
        self.start = start ?? Self.noon(ofDay: CivilDate.daysFromCivil(year: 2026, month: 1, day: 5), clock)
        self.fuzzSeed = fuzzSeed
    }

    /// Noon within study day `day`: the hours from the rollover to the next noon.
    static func noon(ofDay day: Int, _ clock: DayClock) -> Date {
        clock.start(ofDay: day).addingTimeInterval(TimeInterval((12 - clock.rolloverHour + 24) % 24 * 3600))
    }

    /// `late[i]` days are added to answer i when the card is in review at that point.
    public func run(ratings: [Rating], late: [Int] = []) -> [Step] {
        var card = CardState.new
        var now = start
        var steps: [Step] = []
        for (index, rating) in ratings.enumerated() {
            now = answerTime(for: card, after: now, daysLate: card.phase == .review && index < late.count ? late[index] : 0)
            let factor = fuzzSeed.map { FuzzFactor.forAnswer(cardID: 1, reps: card.reps, seed: $0) }
            let context = SchedulingContext(now: now, clock: clock, fuzzFactor: factor)
            let outcome = scheduler.answer(card, rating, context: context)
            steps.append(Step(rating: rating, answeredAt: now, outcome: outcome))
            card = outcome.state
        }
        return steps
    }

    /// When a card is answered once it falls due, `daysLate` days after that.
    public func answerTime(for card: CardState, after now: Date, daysLate: Int = 0) -> Date {
        guard let due = card.due else { return now }
        let day = clock.dayNumber(of: due)
        let dueOnADay = card.phase == .review || (clock.start(ofDay: day) == due && day > clock.dayNumber(of: now))
        let answered = dueOnADay ? Self.noon(ofDay: day, clock) : due
        return max(now, answered).addingTimeInterval(TimeInterval(daysLate * 86_400))
    }
}

extension ScheduleReplay {
    /// A list a person wrote that the replay cannot take, in words they can act on.
    public struct ListProblem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// "again,good,easy" (or a, h, g, e, or 1–4); a word that is no answer is named with the ones that are.
    public static func ratings(parsing text: String) throws(ListProblem) -> [Rating] {
        let words = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !words.isEmpty else { throw ListProblem(description: "give at least one answer: again, hard, good or easy") }
        return try words.map { word throws(ListProblem) in
            guard let rating = Rating(parsing: word) else {
                throw ListProblem(description: "'\(word)' is not an answer; the answers are again, hard, good, easy (or a, h, g, e, or 1–4)")
            }
            return rating
        }
    }

    /// "0,0,2": days late for each answer given in review.
    public static func lateDays(parsing text: String) throws(ListProblem) -> [Int] {
        try text.split(separator: ",").map { word throws(ListProblem) in
            guard let days = Int(word.trimmingCharacters(in: .whitespaces)), days >= 0 else {
                throw ListProblem(description: "'\(word)' is not a number of days (0 or more)")
            }
            return days
        }
    }
}
