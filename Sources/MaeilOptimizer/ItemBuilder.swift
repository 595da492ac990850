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
        var timed: [(time: Double, cardID: Int64, item: FSRSItem)] = []
        for (cardID, unsorted) in cards {
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
            guard let start else { continue }
            let kept = events[start...].filter { $0.rating > 0 && $0.kind != .manual && $0.kind != .reset }
            var reviews: [FSRSReview] = []
            var previousDay: Int?
            for event in kept {
                let day = max(0, Int(((nextDayStart - event.time) / 86_400).rounded(.down)))
                let delta = previousDay.map { $0 - day } ?? 0
                previousDay = day
                reviews.append(FSRSReview(rating: event.rating, deltaT: max(delta, 0)))
                if reviews.count > 1, delta > 0 {
                    timed.append((event.time, cardID, FSRSItem(reviews: reviews, cardID: cardID)))
                }
            }
        }
        timed.sort { ($0.time, $0.cardID) < ($1.time, $1.cardID) }
        return timed.map(\.item)
    }

    /// The review log CSV the FSRS optimizer and fsrs-cli read: card_id, review_time (ms),
    /// review_rating (1–4), review_state (0 new, 1 learning, 2 review, 3 relearning, 4 filtered,
    /// 5 manual), review_duration. Days are local dates in `timeZone` after moving
    /// `rolloverHour` back, as its converter counts them.
    package static func items(csv text: String, timeZone: TimeZone, rolloverHour: Int) throws -> [FSRSItem] {
        var lines = text.split(whereSeparator: \.isNewline).map(String.init)
        guard let header = lines.first?.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) else { return [] }
        let names = ["card_id", "review_time", "review_rating", "review_state"]
        let columns = try names.map { name -> Int in
            guard let index = header.firstIndex(of: name) else { throw CSVProblem(line: 1, message: "the header has no \(name) column") }
            return index
        }
        lines.removeFirst()
        var byCard: [Int64: [(time: Int64, rating: Int, state: Int)]] = [:]
        for (offset, line) in lines.enumerated() {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard fields.count > columns.max()!, let card = Int64(fields[columns[0]]), let time = Int64(fields[columns[1]]),
                  let rating = Int(fields[columns[2]]), let state = Int(fields[columns[3]]) else {
                throw CSVProblem(line: offset + 2, message: "expected card_id, review_time, review_rating and review_state as numbers")
            }
            guard (0...4).contains(rating) else { throw CSVProblem(line: offset + 2, message: "review_rating must be from 1 to 4, not \(rating)") }
            byCard[card, default: []].append((time, rating, state))
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        var timed: [(time: Int64, cardID: Int64, item: FSRSItem)] = []
        for (card, unsorted) in byCard {
            let rows = unsorted.sorted { $0.time < $1.time }.filter { $0.rating > 0 && $0.state != 5 }
            // From the last block of new/learning rows on.
            guard let lastLearning = rows.lastIndex(where: { $0.state <= 1 }) else { continue }
            var start = lastLearning
            while start > 0, rows[start - 1].state <= 1, rows[start].state != 0 { start -= 1 }
            var reviews: [FSRSReview] = []
            var previous: Int?
            for row in rows[start...] {
                let shifted = Date(timeIntervalSince1970: Double(row.time) / 1000 - Double(rolloverHour) * 3600)
                let parts = calendar.dateComponents([.year, .month, .day], from: shifted)
                let day = DayClock.dayNumber(year: parts.year!, month: parts.month!, day: parts.day!)
                let delta = previous.map { day - $0 } ?? 0
                previous = day
                reviews.append(FSRSReview(rating: row.rating, deltaT: max(delta, 0)))
                if reviews.count > 1, delta > 0 { timed.append((row.time, card, FSRSItem(reviews: reviews, cardID: card))) }
            }
        }
        timed.sort { ($0.time, $0.cardID) < ($1.time, $1.cardID) }
        return timed.map(\.item)
    }

    package struct CSVProblem: Error, CustomStringConvertible {
        package var line: Int
        package var message: String
        package var description: String { "line \(line): \(message)" }
    }
}
