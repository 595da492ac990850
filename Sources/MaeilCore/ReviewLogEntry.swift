import Foundation

/// One answer, as the append-only review log keeps it: enough to rebuild the schedule.
public struct ReviewLogEntry: Hashable, Sendable, Codable {
    public var cardID: Int64
    public var time: Date
    public var rating: Rating
    public var before: CardState
    public var after: CardState
    public var durationMilliseconds: Int
    public var scheduler: SchedulerKind

    public init(
        cardID: Int64, time: Date, rating: Rating, before: CardState, after: CardState,
        durationMilliseconds: Int, scheduler: SchedulerKind
    ) {
        self.cardID = cardID
        self.time = time
        self.rating = rating
        self.before = before
        self.after = after
        self.durationMilliseconds = durationMilliseconds
        self.scheduler = scheduler
    }
}
