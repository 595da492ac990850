import Foundation

/// A card's answers as FSRS reads them, built from its review log the way Anki builds them
/// when FSRS is switched on: from the start of the latest run of learning answers (after the
/// latest reset), each answer with the whole days since the one before, counted back from the
/// next day's rollover. Same-day answers stay, with 0 days.
public struct FSRSHistory: Hashable, Sendable {
    public struct Review: Hashable, Sendable {
        public var rating: Rating
        public var elapsedDays: Int

        public init(rating: Rating, elapsedDays: Int) {
            self.rating = rating
            self.elapsedDays = elapsedDays
        }
    }

    public var reviews: [Review]
    /// Where the history begins when the log lost the card's first learning answers (a card
    /// reviewed elsewhere before its history was kept): the memory its first kept answer left,
    /// from that answer's interval and ease. Nil when the history starts with learning.
    public var startingState: MemoryState?

    /// A row of the log as Anki's review log holds it (`AnkiRevlogColumns(_:clock:scheduler:)`),
    /// with its time in whole seconds: Anki counts a row's day from its id in seconds, so an
    /// answer in the first millisecond of a day belongs to the day before.
    struct Row {
        var time: Date
        var columns: AnkiRevlogColumns

        var isGraded: Bool { (1...4).contains(columns.ease) }
        /// A filtered deck's answer that did not reschedule: Anki's reading skips it altogether.
        var isCram: Bool { columns.type == 3 && columns.factor == 0 }
        var isReset: Bool { columns.isReset }
        var isInterday: Bool { columns.interval >= 1 || columns.interval <= -86_400 }
        /// Manual (a reset, a due date set) and rescheduled rows make no review.
        var isAnswer: Bool { isGraded && !isCram && columns.type != 4 && columns.type != 5 }

        init?(_ entry: ReviewLogEntry, clock: DayClock?) {
            guard let columns = AnkiRevlogColumns(entry, clock: clock, scheduler: nil) else { return nil }
            (time, self.columns) = (Date(timeIntervalSince1970: entry.time.timeIntervalSince1970.rounded(.down)), columns)
        }
    }

    /// The history of one card's log (oldest first), or nil when it has no answer FSRS can
    /// start from. `nextDayStart` is when the study day after today begins; `clock`, the study
    /// day's clock the answers were given by (a learning step past the day's end reads as days,
    /// as Anki logs it; without it, steps stay in seconds).
    ///
    /// As Anki reads its review log (rslib's `reviews_for_fsrs`), newest first: the latest run
    /// of learning answers starts the history; a reset drops what came before it, and with no
    /// answer since, everything. Without learning answers, the history starts at the first
    /// answer that left the card a day or more away: the memory that answer implies, from its
    /// interval and factor, is the starting state, and the answers after it follow. Filtered
    /// decks' answers that did not reschedule are skipped, and only answers make reviews.
    public init?(log: [ReviewLogEntry], nextDayStart: Date, clock: DayClock? = nil, fsrs: FSRS, historicalRetention: Double = 0.9) {
        let rows = log.compactMap { Row($0, clock: clock) }
        var firstLearning: Int?
        var firstInterday: Int?
        var complete = false
        scan: for index in rows.indices.reversed() {
            let row = rows[index]
            if row.isCram { continue }
            if row.isGraded, row.isInterday { firstInterday = index }
            if row.isGraded, row.columns.type == 0 {
                firstLearning = index
                complete = true
            } else if firstLearning != nil {
                break scan
            } else if row.isReset {
                // Answers before a reset do not count; with no answer since, nothing does.
                guard firstInterday != nil else { return nil }
                break scan
            }
        }
        guard let start = firstLearning ?? firstInterday else { return nil }
        let kept = rows[start...].filter(\.isAnswer)
        guard let first = kept.first else { return nil }
        func day(_ row: Row) -> Int {
            max(0, Int((nextDayStart.timeIntervalSince(row.time) / 86_400).rounded(.down)))
        }
        var reviews: [Review] = []
        var previousDay: Int?
        for row in kept {
            let today = day(row)
            reviews.append(Review(rating: Rating(rawValue: Int(row.columns.ease))!, elapsedDays: previousDay.map { max(0, $0 - today) } ?? 0))
            previousDay = today
        }
        if !complete {
            startingState = Self.startingState(of: first, fsrs: fsrs, historicalRetention: historicalRetention)
            reviews.removeFirst()
        }
        self.reviews = reviews
    }

    /// The memory the first answer of a history cut short implies: SM-2's, from its interval and
    /// ease (none logged reads as 2.5); a factor of 100–1100 is a difficulty FSRS logged
    /// (0.1–1.1 for 1–10), which Anki takes as it is, capped at 10 but not raised to 1.
    static func startingState(of row: Row, fsrs: FSRS, historicalRetention: Double) -> MemoryState {
        let factor = row.columns.factor
        let ease = factor == 0 ? 2.5 : Double(factor) / 1000
        var memory = fsrs.memoryFromSM2(ease: ease, intervalDays: Double(max(row.columns.interval, 1)), retention: historicalRetention)
        if (1...1100).contains(factor) {
            memory.difficulty = Double(min((Float(factor) / 1000 - 0.1) * 9 + 1, 10))
        }
        return memory
    }

    public init(reviews: [Review], startingState: MemoryState? = nil) {
        self.reviews = reviews
        self.startingState = startingState
    }

    /// The memory the answers leave, step by step from the starting state (or from the first
    /// answer's initial memory).
    public func memory(_ fsrs: FSRS) -> MemoryState? {
        var memory = startingState
        for review in reviews {
            memory = fsrs.nextMemory(memory, elapsedDays: review.elapsedDays, rating: review.rating)
        }
        return memory
    }
}
