import Foundation
import GRDB
import MaeilCore

/// What `stats` reports.
public struct CollectionStats: Hashable, Sendable, Codable {
    public struct Day: Hashable, Sendable, Codable {
        public var date: String
        public var count: Int
    }

    public struct Retention: Hashable, Sendable, Codable {
        public var days: Int
        public var reviews: Int
        public var passed: Int
        /// Share of review answers that were not "again"; nil with no reviews.
        public var rate: Double?
    }

    public var dueToday: Int
    public var newToday: Int
    public var learningToday: Int
    /// Cards falling due on each of the next 30 days (tomorrow first).
    public var forecast: [Day]
    /// Answers per day over the last 30 days (today last).
    public var reviewsPerDay: [Day]
    public var retention: [Retention]
    /// Days in a row, up to today, with at least one answer (today may still be open).
    public var streak: Int
    public var secondsStudiedToday: Int
    public var secondsStudiedTotal: Int
    public var totalCards: Int
    public var suspended: Int
    public var starred: Int
}

extension Collection {
    /// The soonest due time after `date` among the decks' cards.
    public func nextDue(deckIDs: [Int64]?, after date: Date) throws -> Date? {
        try read { db in
            var sql = "SELECT min(due) FROM card WHERE phase != 'new' AND suspended = 0 AND due > ?"
            var arguments: StatementArguments = [date.unixSeconds]
            if let deckIDs {
                sql += " AND deck_id IN (\(deckIDs.map { _ in "?" }.joined(separator: ",")))"
                _ = arguments.append(contentsOf: StatementArguments(deckIDs))
            }
            return try Int64.fetchOne(db, sql: sql, arguments: arguments).map(Date.init(unixSeconds:))
        }
    }

    public func stats(deckIDs: [Int64]? = nil, now: Date, timeZone: TimeZone, rolloverHour: Int = 4) throws -> CollectionStats {
        let clock = DayClock(timeZone: timeZone, rolloverHour: rolloverHour)
        let today = clock.dayNumber(of: now)
        let queue = try studyQueue(deckIDs: deckIDs, now: now, timeZone: timeZone)
        return try read { db in
            // Always name the decks, so the per-deck answer index serves every query.
            let decks = try deckIDs ?? Int64.fetchAll(db, sql: "SELECT id FROM deck")
            let deckFilter = "deck_id IN (\(decks.map(String.init).joined(separator: ",")))"
            var forecast: [CollectionStats.Day] = []
            for offset in 1...30 {
                let start = clock.start(ofDay: today + offset).unixSeconds, end = clock.start(ofDay: today + offset + 1).unixSeconds
                let count = try Int.fetchOne(db, sql: """
                    SELECT count(*) FROM card WHERE \(deckFilter) AND phase != 'new' AND suspended = 0 AND due >= ? AND due < ?
                    """, arguments: [start, end]) ?? 0
                forecast.append(.init(date: Self.isoDate(today + offset), count: count))
            }
            var perDay: [Int: Int] = [:]
            var secondsByDay: [Int: Int] = [:]
            let since = clock.start(ofDay: today - 365).unixMilliseconds
            let rows = try Row.fetchCursor(db, sql: "SELECT time, duration_ms FROM review_log WHERE \(deckFilter) AND kind IN (0, 2) AND rating > 0 AND time >= ?",
                                           arguments: [since])
            while let row = try rows.next() {
                let day = clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(row[0] as Int64) / 1000))
                perDay[day, default: 0] += 1
                secondsByDay[day, default: 0] += (row[1] as Int) / 1000
            }
            let reviewsPerDay = (0..<30).reversed().map { offset in
                CollectionStats.Day(date: Self.isoDate(today - offset), count: perDay[today - offset] ?? 0)
            }
            var streak = 0
            var day = perDay[today] != nil ? today : today - 1
            while perDay[day] != nil {
                streak += 1
                day -= 1
            }
            let retention = try [7, 30, 365].map { days -> CollectionStats.Retention in
                let start = clock.start(ofDay: today - days + 1).unixMilliseconds
                let row = try Row.fetchOne(db, sql: """
                    SELECT count(*), coalesce(sum(rating > 1), 0) FROM review_log
                    WHERE \(deckFilter) AND kind IN (0, 2) AND rating > 0 AND b_phase = 'review' AND time >= ?
                    """, arguments: [start])!
                let reviews: Int = row[0], passed: Int = row[1]
                return .init(days: days, reviews: reviews, passed: passed, rate: reviews == 0 ? nil : Double(passed) / Double(reviews))
            }
            let total = try Int.fetchOne(db, sql: "SELECT coalesce(sum(duration_ms), 0) / 1000 FROM review_log WHERE \(deckFilter) AND kind IN (0, 2) AND rating > 0") ?? 0
            let counts = try Row.fetchOne(db, sql: "SELECT count(*), coalesce(sum(suspended), 0), coalesce(sum(starred), 0) FROM card WHERE \(deckFilter)")!
            return CollectionStats(
                dueToday: queue.reviews.count, newToday: queue.new.count, learningToday: queue.learning.count,
                forecast: forecast, reviewsPerDay: reviewsPerDay, retention: retention, streak: streak,
                secondsStudiedToday: secondsByDay[today] ?? 0, secondsStudiedTotal: total,
                totalCards: counts[0], suspended: counts[1], starred: counts[2])
        }
    }

    static func isoDate(_ day: Int) -> String {
        let (year, month, dayOfMonth) = DayClock.civil(day)
        return String(format: "%04d-%02d-%02d", year, month, dayOfMonth)
    }

    // MARK: Most missed

    /// The cards a learner keeps getting wrong: most lapses, then most "again" answers in the
    /// last 30 days. Cards never missed are left out.
    public func mostMissed(deckID: Int64?, now: Date, limit: Int = 10) throws -> [MissedCard] {
        let since = now.addingTimeInterval(-30 * 86_400).unixMilliseconds
        return try read { db in
            let deckFilter = deckID.map { "c.deck_id = \($0)" } ?? "1"
            return try Row.fetchAll(db, sql: """
                SELECT c.id, c.lapses, coalesce(a.misses, 0) AS misses
                FROM card c LEFT JOIN (SELECT card_id, count(*) AS misses FROM review_log WHERE kind = 0 AND rating = 1 AND time >= ?
                                       GROUP BY card_id) a ON a.card_id = c.id
                WHERE \(deckFilter) AND (c.lapses > 0 OR coalesce(a.misses, 0) > 0)
                ORDER BY c.lapses + coalesce(a.misses, 0) DESC, c.lapses DESC, c.id LIMIT ?
                """, arguments: [since, limit]).map { MissedCard(cardID: $0[0], lapses: $0[1], recentAgains: $0[2]) }
        }
    }
}

public struct MissedCard: Hashable, Sendable {
    public var cardID: Int64
    public var lapses: Int
    public var recentAgains: Int
}

/// A card the focus list may name, with what it needs to decide and to show it.
public struct FocusCandidate: Sendable {
    public var cardID: Int64
    public var noteID: Int64
    public var deck: String
    public var front: String
    public var back: String
    public var state: CardState
    public var starred: Bool
    public var leech: Bool
    public var missedToday: Bool
}

extension Collection {
    /// Unsuspended cards that are starred, leeches, missed since `since`, or learned (for
    /// predicted recall), with their fronts and backs rendered as plain text.
    public func focusCandidates(deckIDs: [Int64]?, since: Date) throws -> [FocusCandidate] {
        try read { db in
            let deckFilter = deckIDs.map { "c.deck_id IN (\($0.map(String.init).joined(separator: ",")))" } ?? "1"
            let missed = Set(try Int64.fetchAll(db, sql: "SELECT DISTINCT card_id FROM review_log WHERE kind = 0 AND rating = 1 AND time >= ?",
                                                arguments: [since.unixMilliseconds]))
            let rows = try Row.fetchAll(db, sql: """
                SELECT \(Columns.card.split(separator: ",").map { "c." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")),
                       d.name, d.templates, \(Columns.note.split(separator: ",").map { "n." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                FROM card c JOIN note n ON n.id = c.note_id JOIN deck d ON d.id = c.deck_id
                WHERE \(deckFilter) AND c.suspended = 0 AND (c.starred = 1 OR n.tags LIKE '% leech %' OR c.phase != 'new')
                ORDER BY c.id
                """)
            return try rows.compactMap { row in
                let card = Card(row: row)
                let templates = try DecodeCache.templates(row[21])
                let note = Note(row: row, from: 22)
                let template = templates.first { $0.name == card.template }
                let front = (template?.front ?? []).compactMap { note.fields.value($0) }.filter { !$0.isEmpty }.joined(separator: " ")
                let back = (template?.back ?? []).prefix(2).compactMap { note.fields.value($0) }.filter { !$0.isEmpty }.joined(separator: " · ")
                let blanks = template?.blanks.flatMap { note.fields.value($0) }
                return FocusCandidate(
                    cardID: card.id, noteID: card.noteID, deck: row[20], front: front.isEmpty ? (blanks ?? note.fields.first?.value ?? "") : front,
                    back: back.isEmpty ? (blanks ?? "") : back, state: card.state, starred: card.starred,
                    leech: note.tags.contains { $0.lowercased() == "leech" }, missedToday: missed.contains(card.id))
            }
        }
    }
}
