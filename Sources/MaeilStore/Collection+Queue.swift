import Foundation
import GRDB
import MaeilCore

/// A card waiting in today's queue; the session loads the whole card when it shows it.
public struct QueuedCard: Hashable, Sendable {
    public var id: Int64
    public var noteID: Int64
    public var deckID: Int64
    public var phase: CardPhase
    /// Unix seconds; 0 for new cards.
    public var due: Int64

    public init(id: Int64, noteID: Int64, deckID: Int64, phase: CardPhase, due: Int64) {
        self.id = id
        self.noteID = noteID
        self.deckID = deckID
        self.phase = phase
        self.due = due
    }
}

/// Today's work for some decks.
public struct StudyQueue: Sendable {
    /// Learning and relearning cards due before the next rollover, soonest first.
    public var learning: [QueuedCard] = []
    /// Review cards due today, oldest due day first, shuffled within a day.
    public var reviews: [QueuedCard] = []
    /// New cards within today's limit, in curriculum order.
    public var new: [QueuedCard] = []

    public init() {}

    public var isEmpty: Bool { learning.isEmpty && reviews.isEmpty && new.isEmpty }
}

/// How many new cards and reviews a deck has had today, against its limits.
public struct DailyProgress: Hashable, Sendable {
    public var newDone: Int
    public var reviewsDone: Int
    public var newLimit: Int
    public var reviewLimit: Int
}

extension Collection {
    /// Anki's learn-ahead limit: learning cards due within 20 minutes may be shown early
    /// when nothing else is left.
    public static let learnAheadSeconds: Int64 = 1200

    /// Today's queue for the given decks (all decks when nil). Each deck's preset sets its
    /// limits and its rollover hour; answers already given today count against the limits,
    /// so separate sessions on one day share them.
    public func studyQueue(deckIDs: [Int64]? = nil, now: Date, timeZone: TimeZone) throws -> StudyQueue {
        try read { db in
            let decks = try deckIDs ?? Int64.fetchAll(db, sql: "SELECT id FROM deck ORDER BY name")
            var queue = StudyQueue()
            for deckID in decks {
                try Self.appendQueue(db, deckID: deckID, now: now, timeZone: timeZone, seed: seed, to: &queue)
            }
            queue.learning.sort { $0.due < $1.due }
            return queue
        }
    }

    static func clock(for preset: Preset, timeZone: TimeZone) -> DayClock {
        DecodeCache.clock(timeZone: timeZone, rolloverHour: min(max(preset.rolloverHour, 0), 23))
    }

    public func dailyProgress(deckID: Int64, now: Date, timeZone: TimeZone) throws -> DailyProgress {
        try read { db in
            let deck = try Self.deck(db, id: deckID)
            let preset = try Self.preset(db, id: deck.presetID)
            let clock = Self.clock(for: preset, timeZone: timeZone)
            return try Self.progress(db, deckID: deckID, preset: preset, dayStart: clock.start(ofDay: clock.dayNumber(of: now)))
        }
    }

    static func progress(_ db: Database, deckID: Int64, preset: Preset, dayStart: Date) throws -> DailyProgress {
        var progress = DailyProgress(newDone: 0, reviewsDone: 0, newLimit: preset.newPerDay, reviewLimit: preset.reviewsPerDay)
        let rows = try Row.fetchCursor(db.cachedStatement(sql: """
            SELECT b_phase, count(*) FROM review_log WHERE deck_id = ? AND time >= ? AND kind = 0 GROUP BY b_phase
            """), arguments: [deckID, dayStart.unixMilliseconds])
        while let row = try rows.next() {
            switch row[0] as String? {
            case "new": progress.newDone = row[1]
            case "review": progress.reviewsDone = row[1]
            default: break
            }
        }
        return progress
    }

    static func appendQueue(_ db: Database, deckID: Int64, now: Date, timeZone: TimeZone, seed: UInt64, to queue: inout StudyQueue) throws {
        let deck = try deck(db, id: deckID)
        let preset = try preset(db, id: deck.presetID)
        let clock = clock(for: preset, timeZone: timeZone)
        let today = clock.dayNumber(of: now)
        let rollover = clock.start(ofDay: today + 1).unixSeconds
        let nowSeconds = now.unixSeconds
        let progress = try progress(db, deckID: deckID, preset: preset, dayStart: clock.start(ofDay: today))

        func fetch(_ sql: String, _ arguments: StatementArguments, phase: CardPhase?) throws -> [QueuedCard] {
            var cards: [QueuedCard] = []
            let rows = try Row.fetchCursor(db.cachedStatement(sql: sql), arguments: arguments)
            while let row = try rows.next() {
                let phaseValue = phase ?? CardPhase(rawValue: row[3]) ?? .learning
                cards.append(QueuedCard(id: row[0], noteID: row[1], deckID: deckID, phase: phaseValue, due: row[2] ?? 0))
            }
            return cards
        }

        let visible = "suspended = 0 AND (buried_until IS NULL OR buried_until <= ?)"
        queue.learning += try fetch("""
            SELECT id, note_id, due, phase FROM card WHERE deck_id = ? AND phase IN ('learning', 'relearning') AND \(visible) AND due < ?
            """, [deckID, nowSeconds, rollover], phase: nil)

        let reviewRoom = max(0, preset.reviewsPerDay - progress.reviewsDone)
        if reviewRoom > 0 {
            let reviews = try fetch("""
                SELECT id, note_id, due FROM card WHERE deck_id = ? AND phase = 'review' AND \(visible) AND due < ? ORDER BY due LIMIT ?
                """, [deckID, nowSeconds, rollover, reviewRoom], phase: .review)
            queue.reviews += shuffledWithinDays(reviews, clock: clock, seed: seed ^ UInt64(truncatingIfNeeded: today) &* 0x2545_F491_4F6C_DD1D)
        }

        let newRoom = max(0, preset.newPerDay - progress.newDone)
        if newRoom > 0 {
            var sql = "SELECT id, note_id, due FROM card WHERE deck_id = ? AND phase = 'new' AND \(visible)"
            var arguments: StatementArguments = [deckID, nowSeconds]
            if preset.curriculumGating {
                // The open unit is the first one still holding a card that has not left learning.
                let open = try Row.fetchOne(db, sql: """
                    SELECT unit_position FROM card WHERE deck_id = ? AND suspended = 0 AND phase IN ('new', 'learning')
                    ORDER BY new_position LIMIT 1
                    """, arguments: [deckID])
                if let open {
                    if let position = open[0] as Int? {
                        sql += " AND unit_position = ?"
                        _ = arguments.append(contentsOf: [position])
                    } else {
                        sql += " AND unit_position IS NULL"
                    }
                }
            }
            sql += " ORDER BY new_position LIMIT ?"
            // Siblings are buried once one is answered, so take one card per note.
            _ = arguments.append(contentsOf: [preset.burySiblings ? newRoom * 4 + 8 : newRoom])
            var seenNotes = Set(queue.reviews.map(\.noteID))
            var new: [QueuedCard] = []
            for card in try fetch(sql, arguments, phase: .new) where new.count < newRoom {
                if preset.burySiblings, !seenNotes.insert(card.noteID).inserted { continue }
                new.append(card)
            }
            queue.new += new
        }
    }

    /// Oldest due day first; within a day a shuffle seeded by the collection and the day,
    /// so the order is stable through a day's sessions but differs from day to day.
    static func shuffledWithinDays(_ cards: [QueuedCard], clock: DayClock, seed: UInt64) -> [QueuedCard] {
        var generator = SeededGenerator(seed: seed)
        var result: [QueuedCard] = []
        result.reserveCapacity(cards.count)
        var index = 0
        while index < cards.count {
            let day = clock.dayNumber(of: Date(unixSeconds: cards[index].due))
            let dayEnd = clock.start(ofDay: day + 1).unixSeconds
            var end = index
            while end < cards.count && cards[end].due < dayEnd { end += 1 }
            result += cards[index..<end].shuffled(using: &generator)
            index = end
        }
        return result
    }
}
