import Foundation
import MaeilCore

/// A card's review log in the terms fsrs-rs's data rules need.
package struct ReviewEvent: Hashable, Sendable {
    package enum Kind: Sendable {
        /// A rated answer to a new or learning card.
        case learning
        case review
        case relearning
        /// A due date set or changed by hand: left out.
        case manual
        /// The card forgotten (made new again): history before it does not count.
        case reset
    }

    /// Unix seconds.
    package var time: Double
    /// 1–4; 0 for manual changes.
    package var rating: Int
    package var kind: Kind

    package init(time: Double, rating: Int, kind: Kind) {
        self.time = time
        self.rating = rating
        self.kind = kind
    }
}

/// Training items from review logs by Anki's rules (rslib's fsrs_items_for_training).
package enum ItemBuilder {
    /// `nextDayStart` is the next study day's start (unix seconds): days are counted back from
    /// it in whole days of 86,400 s, as Anki counts them. Items come out in review-time order.
    package static func items(_ cards: [(cardID: Int64, events: [ReviewEvent])], nextDayStart: Double) -> [FSRSItem] {
        var collector = Collector(nextDayStart: nextDayStart)
        for (cardID, events) in cards { collector.add(cardID: cardID, events: events) }
        return collector.items()
    }

    /// The same, card by card as a log is read: only the items are kept, never every card's
    /// events at once.
    package struct Collector {
        let nextDayStart: Double
        private var timed: [(time: Double, cardID: Int64, item: FSRSItem)] = []

        package init(nextDayStart: Double) {
            self.nextDayStart = nextDayStart
        }

        package mutating func add(cardID: Int64, events unsorted: [ReviewEvent]) {
            let events = unsorted.sorted { $0.time < $1.time }
            // The start: the oldest of the most recent unbroken run of rated learning answers
            // after the latest reset. A card without one is not used.
            var start: Int?
            for index in events.indices.reversed() {
                let event = events[index]
                if event.kind == .reset { break }
                if event.kind == .learning, event.rating > 0 {
                    start = index
                } else if start != nil {
                    break
                }
            }
            guard let start else { return }
            let kept = events[start...].filter { $0.rating > 0 && $0.kind != .manual && $0.kind != .reset }
            var reviews: [FSRSReview] = []
            var targets: [(time: Double, count: Int)] = []
            var previousDay: Int?
            for event in kept {
                let day = max(0, Int(((nextDayStart - event.time) / 86_400).rounded(.down)))
                let delta = previousDay.map { $0 - day } ?? 0
                previousDay = day
                reviews.append(FSRSReview(rating: event.rating, deltaT: max(delta, 0)))
                if reviews.count > 1, delta > 0 { targets.append((event.time, reviews.count)) }
            }
            // Each item a prefix of the card's history, sharing its storage.
            for target in targets { timed.append((target.time, cardID, FSRSItem(history: reviews, count: target.count, cardID: cardID))) }
        }

        package func items() -> [FSRSItem] { inReviewOrder(timed) }
    }

    /// The review log CSV the FSRS optimizer and fsrs-cli read: card_id, review_time (ms),
    /// review_rating (1–4), review_state (0 new, 1 learning, 2 review, 3 relearning, 4 filtered,
    /// 5 manual), review_duration. Days are local dates in `timeZone` after moving
    /// `rolloverHour` back, as its converter counts them.
    package static func items(csv text: String, timeZone: TimeZone, rolloverHour: Int) throws(CSVProblem) -> [FSRSItem] {
        // Each card's rows together, in time order (file order among equal times); a log written
        // card by card is already.
        var rows = try ReviewLogCSV.rows(text)
        if zip(rows, rows.dropFirst()).contains(where: { ($0.card, $0.time) > ($1.card, $1.time) }) {
            rows = rows.enumerated().sorted {
                ($0.element.card, $0.element.time, $0.offset) < ($1.element.card, $1.element.time, $1.offset)
            }.map { $0.element }
        }
        // A row's day: the local date of its time moved back by the rollover hour.
        func shifted(_ row: ReviewLogCSV.Row) -> Int64 { Self.floorDivide(row.time, 1000) - Int64(rolloverHour) * 3600 }
        let times = rows.lazy.map(shifted)
        let dates = LocalDates(timeZone: timeZone, from: times.min() ?? 0, to: times.max() ?? 0)
        // Milliseconds as Double: exact below 2^53, some 285,000 years.
        var timed: [(time: Double, cardID: Int64, item: FSRSItem)] = []
        timed.reserveCapacity(rows.count)
        // Reused from card to card: most cards have a handful of rows.
        var kept: [ReviewLogCSV.Row] = [], targets: [(time: Int64, count: Int)] = []
        var first = 0
        while first < rows.count {
            var end = first
            while end < rows.count, rows[end].card == rows[first].card { end += 1 }
            let card = rows[first].card
            kept.removeAll(keepingCapacity: true)
            for row in rows[first..<end] where row.rating > 0 && row.state != 5 { kept.append(row) }
            first = end
            // From the last block of new/learning rows on.
            guard let lastLearning = kept.lastIndex(where: { $0.state <= 1 }) else { continue }
            var start = lastLearning
            while start > kept.startIndex, kept[start - 1].state <= 1, kept[start].state != 0 { start -= 1 }
            var reviews: [FSRSReview] = []
            reviews.reserveCapacity(kept.count - start)
            targets.removeAll(keepingCapacity: true)
            var previous: Int?
            for row in kept[start...] {
                let day = dates.dayNumber(ofSeconds: shifted(row))
                let delta = previous.map { day - $0 } ?? 0
                previous = day
                reviews.append(FSRSReview(rating: row.rating, deltaT: max(delta, 0)))
                if reviews.count > 1, delta > 0 { targets.append((row.time, reviews.count)) }
            }
            for target in targets { timed.append((Double(target.time), card, FSRSItem(history: reviews, count: target.count, cardID: card))) }
        }
        return inReviewOrder(timed)
    }

    /// Items by the time of the review they predict (a card's id between equal times): the
    /// order fsrs-rs takes them in. The keys are sorted, not the items, which would be copied
    /// (and their histories retained) at every comparison.
    static func inReviewOrder(_ timed: [(time: Double, cardID: Int64, item: FSRSItem)]) -> [FSRSItem] {
        let keys = timed.indices.map { (time: timed[$0].time, cardID: timed[$0].cardID, index: $0) }
        return keys.sorted { ($0.time, $0.cardID) < ($1.time, $1.cardID) }.map { timed[$0.index].item }
    }

    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        value >= 0 ? value / divisor : (value - divisor + 1) / divisor
    }

    package struct CSVProblem: Error, Equatable, CustomStringConvertible {
        package var line: Int
        package var message: String
        package var description: String { "line \(line): \(message)" }
    }
}
