/// A deck's own daily limits, over its preset's: Anki's "This deck" limits, and its "Today
/// only" ones, which hold for the one study day they were set on.
public struct DeckLimits: Hashable, Sendable, Codable {
    public var newPerDay: Int?
    public var reviewsPerDay: Int?
    public var newToday: DayLimit?
    public var reviewsToday: DayLimit?

    /// A limit for one study day (a `DayClock` day number).
    public struct DayLimit: Hashable, Sendable, Codable {
        public var limit: Int
        public var day: Int

        public init(limit: Int, day: Int) { (self.limit, self.day) = (limit, day) }
    }

    public init(newPerDay: Int? = nil, reviewsPerDay: Int? = nil, newToday: DayLimit? = nil, reviewsToday: DayLimit? = nil) {
        (self.newPerDay, self.reviewsPerDay, self.newToday, self.reviewsToday) = (newPerDay, reviewsPerDay, newToday, reviewsToday)
    }

    public var isEmpty: Bool { self == DeckLimits() }

    /// The deck's new-card limit on study day `day`, nil where its preset's holds: a limit for
    /// that day first, as Anki takes it.
    public func new(on day: Int) -> Int? { newToday.flatMap { $0.day == day ? $0.limit : nil } ?? newPerDay }

    public func reviews(on day: Int) -> Int? { reviewsToday.flatMap { $0.day == day ? $0.limit : nil } ?? reviewsPerDay }
}

/// Two of Anki's collection-wide options on how daily limits count.
public struct LimitRules: Sendable, Equatable {
    /// New cards are limited by the new-card limit only: answering one does not use up a
    /// review, and the reviews left do not cap them.
    public var newIgnoresReviewLimit = false
    /// Studying a subdeck, the limits of every deck above it hold too, not only the studied
    /// deck's and those of its own subdecks.
    public var applyAllParentLimits = false

    public init(newIgnoresReviewLimit: Bool = false, applyAllParentLimits: Bool = false) {
        (self.newIgnoresReviewLimit, self.applyAllParentLimits) = (newIgnoresReviewLimit, applyAllParentLimits)
    }
}
