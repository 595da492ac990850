import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// What `stats` reports.
package struct CollectionStats: Hashable, Sendable, Codable {
    package struct Day: Hashable, Sendable, Codable {
        package var date: String
        package var count: Int
    }

    package struct Retention: Hashable, Sendable, Codable {
        package var days: Int
        package var reviews: Int
        package var passed: Int
        /// Share of review answers that were not "again"; nil with no reviews.
        package var rate: Double?
    }

    package var dueToday: Int
    package var newToday: Int
    package var learningToday: Int
    /// Cards answered today, each counted once however often it was answered.
    package var cardsAnsweredToday: Int
    /// Cards falling due on each of the next 30 days (tomorrow first).
    package var forecast: [Day]
    /// Answers per day over the last 30 days (today last).
    package var reviewsPerDay: [Day]
    package var retention: [Retention]
    /// Days in a row, up to today, with at least one answer (today may still be open).
    package var streak: Int
    package var secondsStudiedToday: Int
    package var secondsStudiedTotal: Int
    package var totalCards: Int
    package var suspended: Int
    package var starred: Int
}

extension Collection {
    /// The soonest due time after `date` among the decks' cards: each deck's and phase's first
    /// in the due index, so a million cards are not read for one date.
    package func nextDue(deckIDs: [Int64]?, after date: Date) throws -> Date? {
        try read { db in
            let statement = try db.cachedStatement(sql: """
                SELECT due FROM card WHERE deck_id = ? AND phase = ? AND due > ? AND suspended = 0 ORDER BY due LIMIT 1
                """)
            var soonest: Int64?
            for deck in try deckIDs ?? Int64.fetchAll(db, sql: "SELECT id FROM deck") {
                for phase in CardPhase.allCases where phase != .new {
                    guard let due = try Int64.fetchOne(statement, arguments: [deck, phase.rawValue, date.unixSeconds]) else { continue }
                    soonest = min(soonest ?? due, due)
                }
            }
            return soonest.map(Date.init(unixSeconds:))
        }
    }

    /// Each deck's study-day clock, from its preset: every "what day is it" in the store asks
    /// the deck's own rollover hour.
    static func dayClocks(_ db: Database, deckIDs: [Int64], timeZone: TimeZone) throws -> [Int64: DayClock] {
        var clocks: [Int64: DayClock] = [:]
        for id in deckIDs {
            let preset = try preset(db, id: try deck(db, id: id).presetID)
            clocks[id] = DecodeCache.clock(timeZone: timeZone, rolloverHour: preset.rolloverHour)
        }
        return clocks
    }

    /// The decks, grouped by the hour their study day starts; most collections have one group.
    static func byClock(_ clocks: [Int64: DayClock]) -> [(clock: DayClock, filter: String)] {
        Dictionary(grouping: clocks.keys.sorted()) { clocks[$0]!.rolloverHour }.sorted { $0.key < $1.key }.map { _, ids in
            (clocks[ids[0]]!, "deck_id IN (\(ids.map(String.init).joined(separator: ",")))")
        }
    }

    package func stats(deckIDs: [Int64]? = nil, now: Date, timeZone: TimeZone) throws -> CollectionStats {
        let queue = try studyQueue(deckIDs: deckIDs, now: now, timeZone: timeZone, countingSiblings: true)
        return try read { db in
            // Always name the decks, so the per-deck answer index serves every query.
            let decks = try deckIDs ?? Int64.fetchAll(db, sql: "SELECT id FROM deck")
            let clocks = try Self.dayClocks(db, deckIDs: decks, timeZone: timeZone)
            let groups = Self.byClock(clocks)
            let deckFilter = "deck_id IN (\(decks.map(String.init).joined(separator: ",")))"
            // Study days are numbered alike in every deck; only the hour a day starts differs.
            let today = (groups.first?.clock ?? DayClock(timeZone: timeZone)).dayNumber(of: now)
            // The next 30 days' due cards in one pass over the due index, counted by day.
            var dueOn = [Int](repeating: 0, count: 31)
            for (clock, filter) in groups {
                let tomorrow = clock.dayNumber(of: now) + 1
                let dues = try Int64.fetchCursor(db, sql: """
                    SELECT due FROM card WHERE \(filter) AND phase IN ('learning', 'review', 'relearning') AND suspended = 0 AND due >= ? AND due < ?
                    """, arguments: [clock.start(ofDay: tomorrow).unixSeconds, clock.start(ofDay: tomorrow + 30).unixSeconds])
                while let due = try dues.next() {
                    let offset = clock.dayNumber(of: Date(unixSeconds: due)) - tomorrow + 1
                    if (1...30).contains(offset) { dueOn[offset] += 1 }
                }
            }
            let forecast = (1...30).map { CollectionStats.Day(date: Self.isoDate(today + $0), count: dueOn[$0]) }
            let answers = try AnswerDays.read(db, clocks: clocks, days: 365, today: today, now: now)
            let (perDay, secondsByDay, answeredToday, streak) = (answers.perDay, answers.secondsByDay, answers.answeredToday, answers.streak)
            let reviewsPerDay = (0..<30).reversed().map { offset in
                CollectionStats.Day(date: Self.isoDate(today - offset), count: perDay[today - offset] ?? 0)
            }
            let retention = try [7, 30, 365].map { days -> CollectionStats.Retention in
                var reviews = 0, passed = 0
                for (clock, filter) in groups {
                    let start = clock.start(ofDay: clock.dayNumber(of: now) - days + 1).unixMilliseconds
                    let row = try Row.fetchOne(db, sql: """
                        SELECT count(*) AS reviews, coalesce(sum(rating > 1), 0) AS passed FROM review_log
                        WHERE \(filter) AND kind IN (0, 2) AND rating > 0 AND b_phase = 'review' AND time >= ?
                        """, arguments: [start])!
                    reviews += row["reviews"] as Int
                    passed += row["passed"] as Int
                }
                return .init(days: days, reviews: reviews, passed: passed, rate: reviews == 0 ? nil : Double(passed) / Double(reviews))
            }
            let total = try Int.fetchOne(db, sql: """
                SELECT coalesce(sum(duration_ms), 0) / 1000 FROM review_log WHERE \(deckFilter) AND kind IN (0, 2) AND rating > 0
                """) ?? 0
            // Each count from an index: summing over the card table read every row.
            let cardCount = { (condition: String) in try Int.fetchOne(db, sql: "SELECT count(*) FROM card WHERE \(deckFilter) AND \(condition)") ?? 0 }
            let (cards, suspended, starred) = (try cardCount("1"), try cardCount("suspended = 1"), try cardCount("starred = 1"))
            return CollectionStats(
                dueToday: queue.reviewCount, newToday: queue.newCount, learningToday: queue.learningCount,
                cardsAnsweredToday: answeredToday.count,
                forecast: forecast, reviewsPerDay: reviewsPerDay, retention: retention, streak: streak,
                secondsStudiedToday: secondsByDay[today] ?? 0, secondsStudiedTotal: total,
                totalCards: cards, suspended: suspended, starred: starred)
        }
    }

    /// What the focus list's header says: today's queue, the cards answered today and the
    /// streak, without the rest of `stats` (its forecast and a year of answers).
    package func todayCounts(deckIDs: [Int64]? = nil, now: Date, timeZone: TimeZone)
        throws -> (due: Int, learning: Int, new: Int, answeredToday: Int, streak: Int) {
        let queue = try studyQueue(deckIDs: deckIDs, now: now, timeZone: timeZone, countingSiblings: true)
        return try read { db in
            let decks = try deckIDs ?? Int64.fetchAll(db, sql: "SELECT id FROM deck")
            let clocks = try Self.dayClocks(db, deckIDs: decks, timeZone: timeZone)
            let today = (Self.byClock(clocks).first?.clock ?? DayClock(timeZone: timeZone)).dayNumber(of: now)
            // A month of answers says most streaks; a longer one is counted over the year.
            var answers = try AnswerDays.read(db, clocks: clocks, days: 31, today: today, now: now)
            if answers.streak >= 30 { answers = try AnswerDays.read(db, clocks: clocks, days: 365, today: today, now: now) }
            return (queue.reviewCount, queue.learningCount, queue.newCount, answers.answeredToday.count, answers.streak)
        }
    }

    /// When today's study day began in each deck (its preset's rollover hour).
    package func dayStarts(deckIDs: [Int64]? = nil, now: Date, timeZone: TimeZone) throws -> [Int64: Date] {
        try read { db in
            let decks = try deckIDs ?? Int64.fetchAll(db, sql: "SELECT id FROM deck")
            return try Self.dayClocks(db, deckIDs: decks, timeZone: timeZone).mapValues { $0.start(ofDay: $0.dayNumber(of: now)) }
        }
    }

    static func isoDate(_ day: Int) -> String {
        let (year, month, dayOfMonth) = DayClock.civil(day)
        return String(format: "%04d-%02d-%02d", year, month, dayOfMonth)
    }

    // MARK: Most missed

    /// The cards a learner keeps getting wrong: most lapses, then most "again" answers in the
    /// last 30 days. Cards never missed are left out.
    package func mostMissed(deckID: Int64?, now: Date, limit: Int = 10) throws -> [MissedCard] {
        let since = now.addingTimeInterval(-30 * 86_400).unixMilliseconds
        return try read { db in
            let deckFilter = deckID.map { "c.deck_id = \($0)" } ?? "1"
            return try Row.fetchAll(db, sql: """
                SELECT c.id, c.lapses, coalesce(a.misses, 0) AS misses
                FROM card c LEFT JOIN (SELECT card_id, count(*) AS misses FROM review_log WHERE kind = 0 AND rating = 1 AND time >= ?
                                       GROUP BY card_id) a ON a.card_id = c.id
                WHERE \(deckFilter) AND (c.lapses > 0 OR coalesce(a.misses, 0) > 0)
                ORDER BY c.lapses + coalesce(a.misses, 0) DESC, c.lapses DESC, c.id LIMIT ?
                """, arguments: [since, limit]).map { MissedCard(cardID: $0["id"], lapses: $0["lapses"], recentAgains: $0["misses"]) }
        }
    }
}

package struct MissedCard: Hashable, Sendable {
    package var cardID: Int64
    package var lapses: Int
    package var recentAgains: Int
}

/// A card the focus list may name, with what deciding needs; its text is read once chosen.
package struct FocusCandidate: Sendable {
    package var cardID: Int64
    package var noteID: Int64
    package var state: CardState
    package var starred: Bool
    package var leech: Bool
    package var missedToday: Bool
    package var deckID: Int64
}

extension Collection {
    /// Unsuspended cards that are starred, leeches, missed today (since `dayStarts`, each deck's
    /// start of the study day) or learned (for predicted recall), handed to `body` one by one in
    /// card order: their states only, read from the card table and the leech index. Their text
    /// is rendered for the few chosen (`focusTexts`): at a million cards, rendering every one
    /// took seconds and gigabytes, and holding every candidate hundreds of megabytes.
    package func forEachFocusCandidate(deckIDs: [Int64]?, dayStarts: [Int64: Date], _ body: (FocusCandidate) throws -> Void) throws {
        try read { db in
            let deckFilter = deckIDs.map { "c.deck_id IN (\($0.map(String.init).joined(separator: ",")))" } ?? "1"
            var missed = Set<Int64>()
            let since = dayStarts.values.min() ?? .distantFuture
            let misses = try Row.fetchCursor(db, sql: """
                SELECT card_id, deck_id, time FROM review_log WHERE kind = 0 AND rating = 1 AND time >= ?
                """, arguments: [since.unixMilliseconds])
            while let row = try misses.next() {
                guard let start = dayStarts[row["deck_id"]], row["time"] as Int64 >= start.unixMilliseconds else { continue }
                missed.insert(row["card_id"])
            }
            // The leeches' notes from their own index: joining every card to its note read the
            // whole note table at a million cards.
            let statement = try db.makeStatement(sql: """
                WITH leeches AS (SELECT id FROM note WHERE tags LIKE '% leech %')
                SELECT c.id, c.note_id, c.deck_id, c.starred, c.note_id IN leeches AS leech, \(selection(CardStateColumns.list(), from: "c", prefix: "s_"))
                FROM card c
                WHERE \(deckFilter) AND c.suspended = 0 AND (c.starred = 1 OR c.phase != 'new' OR c.note_id IN leeches)
                ORDER BY c.id
                """)
            let states = CardStateColumns(ColumnMap(statement), prefix: "s_")
            try statement.forEachRow { row in
                let id = row.int64(0)
                try body(FocusCandidate(cardID: id, noteID: row.int64(1), state: states.decode(row) ?? .new,
                                      starred: row.bool(3), leech: row.bool(4), missedToday: missed.contains(id), deckID: row.int64(2)))
            }
        }
    }

    /// The deck, front and back (plain text) of each of these cards, as the focus list shows them.
    package func focusTexts(cardIDs: [Int64]) throws -> [Int64: (deck: String, front: String, back: String)] {
        guard !cardIDs.isEmpty else { return [:] }
        return try read { db in
            let statement = try db.makeStatement(sql: """
                SELECT \(selection(CardTable.columns, from: "c", prefix: "c_")), d.name AS deck_name, d.templates AS deck_templates,
                       \(selection(NoteTable.columns, from: "n", prefix: "n_"))
                FROM card c JOIN note n ON n.id = c.note_id JOIN deck d ON d.id = c.deck_id
                WHERE c.id IN (\(cardIDs.map(String.init).joined(separator: ",")))
                """)
            let columns = ColumnMap(statement)
            let cards = CardTable.Decoder(columns, prefix: "c_"), notes = NoteTable.Decoder(columns, prefix: "n_")
            let deckName = columns["deck_name"], deckTemplates = columns["deck_templates"]
            var texts: [Int64: (deck: String, front: String, back: String)] = [:]
            for (id, text) in try statement.rows([], { row -> (Int64, (deck: String, front: String, back: String)) in
                let card = cards.decode(row)
                let note = notes.decode(row)
                let templates = try DecodeCache.templates(row.text(deckTemplates))
                let template = templates.first { $0.name == card.template }
                func text(_ name: String) -> String? { note.fields.value(name).map { FieldText.plain($0, html: note.html) } }
                let front = (template?.front ?? []).compactMap(text).filter { !$0.isEmpty }.joined(separator: " ")
                let back = (template?.back ?? []).prefix(2).compactMap(text).filter { !$0.isEmpty }.joined(separator: " · ")
                let blanks = template?.blanks.flatMap(text)
                return (card.id, (row.text(deckName), front.isEmpty ? (blanks ?? note.fields.first?.value ?? "") : front,
                                  back.isEmpty ? (blanks ?? "") : back))
            }) { texts[id] = text }
            return texts
        }
    }
}

/// Answers day by day over the last `days` study days: how many, the seconds they took, the
/// cards answered today, and the streak of days with answers up to today (or yesterday).
struct AnswerDays {
    var perDay: [Int: Int] = [:]
    var secondsByDay: [Int: Int] = [:]
    var answeredToday = Set<Int64>()
    var streak = 0

    static func read(_ db: Database, clocks: [Int64: DayClock], days: Int, today: Int, now: Date) throws -> AnswerDays {
        var result = AnswerDays()
        let decks = clocks.keys.sorted()
        let since = Collection.byClock(clocks).map { $0.clock.start(ofDay: $0.clock.dayNumber(of: now) - days).unixMilliseconds }.min() ?? 0
        // Always naming the decks, so the per-deck answer index serves the query.
        let rows = try Row.fetchCursor(db, sql: """
            SELECT card_id, deck_id, time, duration_ms FROM review_log
            WHERE deck_id IN (\(decks.map(String.init).joined(separator: ","))) AND kind IN (0, 2) AND rating > 0 AND time >= ?
            """, arguments: [since])
        while let row = try rows.next() {
            guard let clock = clocks[row["deck_id"]] else { continue }
            let day = clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(row["time"] as Int64) / 1000))
            result.perDay[day, default: 0] += 1
            if day == today { result.answeredToday.insert(row["card_id"]) }
            result.secondsByDay[day, default: 0] += (row["duration_ms"] as Int) / 1000
        }
        var day = result.perDay[today] != nil ? today : today - 1
        while result.perDay[day] != nil {
            result.streak += 1
            day -= 1
        }
        return result
    }
}
