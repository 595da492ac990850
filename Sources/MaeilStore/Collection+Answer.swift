import Foundation
import GRDB
import MaeilCore

/// What a committed answer did, enough to undo it exactly.
public struct AnswerReceipt: Hashable, Sendable {
    public var logID: Int64
    public var card: Card
    public var leech: Bool
    /// True when this answer suspended the card because it became a leech.
    public var suspendedAsLeech: Bool
}

extension Collection {
    /// Commits one answer in one transaction: the card's new state, its log entry, the leech
    /// tag (and suspension, if the preset says so) and the burying of its siblings. When this
    /// returns, the answer is in the database file and survives the process being killed.
    ///
    /// `before` is the state the answer was computed from; if the card changed since (another
    /// process answered it), nothing is written and `StoreError.cardChanged` is thrown.
    public func commitAnswer(
        cardID: Int64, before: CardState, outcome: Outcome, rating: Rating, at now: Date, durationMilliseconds: Int,
        scheduler: SchedulerKind, leechAction: LeechAction, burySiblingsUntil: Date?
    ) throws -> AnswerReceipt {
        try transaction { db in
            let card = try Self.card(db, id: cardID)
            guard card.state == before.storedForm else { throw StoreError.cardChanged(cardID) }
            let after = outcome.state.storedForm
            try Self.writeState(db, cardID: cardID, after)
            var actions: [String] = []
            var suspended = false
            if outcome.leech {
                let tags = try String.fetchOne(db, sql: "SELECT tags FROM note WHERE id = ?", arguments: [card.noteID]) ?? ""
                if !tags.lowercased().contains(" leech ") {
                    try Self.setTags(db, noteID: card.noteID, add: ["leech"], remove: [])
                    actions.append("tagged")
                }
                if leechAction == .suspend, !card.suspended {
                    try db.execute(sql: "UPDATE card SET suspended = 1 WHERE id = ?", arguments: [cardID])
                    actions.append("suspended")
                    suspended = true
                }
            }
            var buried: [String] = []
            if let until = burySiblingsUntil {
                let siblings = try Row.fetchAll(db.cachedStatement(sql: """
                    SELECT id, buried_until FROM card WHERE note_id = ? AND id != ? AND suspended = 0
                    AND phase IN ('new', 'review') AND (buried_until IS NULL OR buried_until < ?)
                    """), arguments: [card.noteID, cardID, until.unixSeconds])
                for sibling in siblings {
                    let previous: Int64? = sibling[1]
                    buried.append("\(sibling[0] as Int64):\(previous.map(String.init) ?? "")")
                    try db.execute(sql: "UPDATE card SET buried_until = ? WHERE id = ?", arguments: [until.unixSeconds, sibling[0] as Int64])
                }
            }
            let logID = try Self.appendLog(
                db, cardID: cardID, deckID: card.deckID, time: now, kind: .answer, rating: rating.rawValue,
                durationMilliseconds: durationMilliseconds, scheduler: scheduler.rawValue,
                leechAction: actions.isEmpty ? nil : actions.joined(separator: ","),
                buriedSiblings: buried.isEmpty ? nil : buried.joined(separator: ","), before: card.state, after: after)
            var updated = card
            updated.state = after
            updated.suspended = card.suspended || suspended
            return AnswerReceipt(logID: logID, card: updated, leech: outcome.leech, suspendedAsLeech: suspended)
        }
    }

    static func writeState(_ db: Database, cardID: Int64, _ state: CardState) throws {
        try FastStatement(db, sql: """
            UPDATE card SET phase = ?, step = ?, scheduled_seconds = ?, interval_days = ?, ease = ?, stability = ?, difficulty = ?,
            due = ?, reps = ?, lapses = ?, streak = ?, last_review = ? WHERE id = ?
            """).run(state.fastValues + [.int(cardID)])
    }

    @discardableResult
    static func appendLog(
        _ db: Database, cardID: Int64, deckID: Int64, time: Date, kind: ReviewLog.Kind, rating: Int, durationMilliseconds: Int,
        scheduler: String, leechAction: String?, buriedSiblings: String?, before: CardState?, after: CardState?
    ) throws -> Int64 {
        let nulls = [FastStatement.Value](repeating: .null, count: 12)
        let values: [FastStatement.Value] =
            [.int(cardID), .int(deckID), .int(time.unixMilliseconds), .int(kind.rawValue), .int(rating), .int(durationMilliseconds),
             .text(scheduler), .text(leechAction), .text(buriedSiblings)]
            + (before?.fastValues ?? nulls) + (after?.fastValues ?? nulls)
        try FastStatement(db, sql: appendLogSQL).run(values)
        return db.lastInsertedRowID
    }

    static let appendLogSQL = """
        INSERT INTO review_log (card_id, deck_id, time, kind, rating, duration_ms, scheduler, leech_action, buried_siblings,
        b_phase, b_step, b_scheduled_seconds, b_interval_days, b_ease, b_stability, b_difficulty, b_due, b_reps, b_lapses, b_streak, b_last_review,
        a_phase, a_step, a_scheduled_seconds, a_interval_days, a_ease, a_stability, a_difficulty, a_due, a_reps, a_lapses, a_streak, a_last_review)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Undoes one logged change: the card gets back its exact previous state, a leech tag or
    /// suspension this answer added is removed, buried siblings get their old burial back,
    /// and the log entry is deleted. Only a card's newest entry can be undone.
    @discardableResult
    public func undo(logID: Int64) throws -> Card {
        try transaction { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT card_id, leech_action, buried_siblings, time,
                b_phase, b_step, b_scheduled_seconds, b_interval_days, b_ease, b_stability, b_difficulty, b_due, b_reps, b_lapses, b_streak, b_last_review
                FROM review_log WHERE id = ?
                """, arguments: [logID]) else { throw StoreError.nothingToUndo }
            let cardID: Int64 = row[0]
            let newer = try Int.fetchOne(db, sql: "SELECT count(*) FROM review_log WHERE card_id = ? AND id > ?", arguments: [cardID, logID]) ?? 0
            guard newer == 0 else { throw StoreError.invalid("card \(cardID) was answered again since; undo that first") }
            guard let before = CardState(row: row, from: 4) else { throw StoreError.invalid("log entry \(logID) has no earlier state to restore") }
            var card = try Self.card(db, id: cardID)
            try Self.writeState(db, cardID: cardID, before)
            let actions = Set(((row[1] as String?) ?? "").split(separator: ",").map(String.init))
            if actions.contains("tagged") { try Self.setTags(db, noteID: card.noteID, add: [], remove: ["leech"]) }
            if actions.contains("suspended") {
                try db.execute(sql: "UPDATE card SET suspended = 0 WHERE id = ?", arguments: [cardID])
                card.suspended = false
            }
            for pair in ((row[2] as String?) ?? "").split(separator: ",") {
                let parts = pair.split(separator: ":", omittingEmptySubsequences: false)
                guard let sibling = Int64(parts[0]) else { continue }
                try db.execute(sql: "UPDATE card SET buried_until = ? WHERE id = ?", arguments: [parts.count > 1 ? Int64(parts[1]) : nil, sibling])
            }
            try db.execute(sql: "DELETE FROM review_log WHERE id = ?", arguments: [logID])
            card.state = before
            return card
        }
    }

    // MARK: Manual changes

    public func setStarred(cardID: Int64, _ starred: Bool) throws {
        try updateFlag("starred", cardID: cardID, starred)
    }

    public func setSuspended(cardID: Int64, _ suspended: Bool) throws {
        try updateFlag("suspended", cardID: cardID, suspended)
    }

    private func updateFlag(_ column: String, cardID: Int64, _ value: Bool) throws {
        try transaction { db in
            try db.execute(sql: "UPDATE card SET \(column) = ? WHERE id = ?", arguments: [value, cardID])
            guard db.changesCount > 0 else { throw StoreError.noSuchCard(cardID) }
        }
    }

    /// Hides a card until `until` (normally the next study day); nil unburies it.
    public func bury(cardID: Int64, until: Date?) throws {
        try transaction { db in
            try db.execute(sql: "UPDATE card SET buried_until = ? WHERE id = ?", arguments: [until?.unixSeconds, cardID])
            guard db.changesCount > 0 else { throw StoreError.noSuchCard(cardID) }
        }
    }

    /// Sends a card back to new, keeping its place in the new-card order. The change is
    /// logged (as a manual entry), so the log still explains the card's state and it can be undone.
    @discardableResult
    public func forget(cardID: Int64, at now: Date) throws -> Int64 {
        try transaction { db in
            let card = try Self.card(db, id: cardID)
            try Self.writeState(db, cardID: cardID, .new)
            return try Self.appendLog(db, cardID: cardID, deckID: card.deckID, time: now, kind: .manual, rating: 0,
                                      durationMilliseconds: 0, scheduler: "manual", leechAction: nil, buriedSiblings: nil,
                                      before: card.state, after: .new)
        }
    }

    /// Sets a card's state directly (an import or a reschedule), logged as a manual change.
    @discardableResult
    public func setState(cardID: Int64, _ state: CardState, at now: Date, kind: ReviewLog.Kind = .manual) throws -> Int64 {
        try transaction { db in try Self.setState(db, cardID: cardID, state, at: now, kind: kind) }
    }

    static func setState(_ db: Database, cardID: Int64, _ state: CardState, at now: Date, kind: ReviewLog.Kind) throws -> Int64 {
        let card = try card(db, id: cardID)
        let stored = state.storedForm
        try writeState(db, cardID: cardID, stored)
        return try appendLog(db, cardID: cardID, deckID: card.deckID, time: now, kind: kind, rating: 0, durationMilliseconds: 0,
                             scheduler: "manual", leechAction: nil, buriedSiblings: nil, before: card.state, after: stored)
    }

    // MARK: The log

    /// The newest answer in the log, for `undo` at the prompt.
    public func lastAnswerLogID() throws -> Int64? {
        try read { db in try Int64.fetchOne(db, sql: "SELECT max(id) FROM review_log WHERE kind = 0") }
    }

    public func reviewLog(cardID: Int64) throws -> [ReviewLog] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Self.logColumns) FROM review_log WHERE card_id = ? ORDER BY id", arguments: [cardID])
                .map(Self.reviewLog(row:))
        }
    }

    static let logColumns = """
        id, card_id, deck_id, time, kind, rating, duration_ms, scheduler,
        b_phase, b_step, b_scheduled_seconds, b_interval_days, b_ease, b_stability, b_difficulty, b_due, b_reps, b_lapses, b_streak, b_last_review,
        a_phase, a_step, a_scheduled_seconds, a_interval_days, a_ease, a_stability, a_difficulty, a_due, a_reps, a_lapses, a_streak, a_last_review
        """

    static func reviewLog(row: Row) -> ReviewLog {
        ReviewLog(
            id: row[0], cardID: row[1], deckID: row[2], time: Date(timeIntervalSince1970: TimeInterval(row[3] as Int64) / 1000),
            kind: ReviewLog.Kind(rawValue: row[4]) ?? .manual, rating: Rating(rawValue: row[5]), durationMilliseconds: row[6],
            scheduler: row[7], before: CardState(row: row, from: 8), after: CardState(row: row, from: 20))
    }
}
