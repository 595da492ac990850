import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// What a committed answer did, enough to undo it exactly.
package struct AnswerReceipt: Hashable, Sendable {
    package var logID: Int64
    /// The card as it now is.
    package var card: Card
    package var leech: Bool
    /// True when this answer suspended the card because it became a leech.
    package var suspendedAsLeech: Bool
}

extension Collection {
    /// Applies a planned answer in one transaction: the card's new state, its log entry, the
    /// leech tag and suspension and the siblings' burial, as the plan says. When this returns,
    /// the answer is in the database file and survives the process being killed.
    ///
    /// If the card's deck has other options than the plan was made under, nothing is written
    /// and `StoreError.presetChanged` is thrown; if the card is no longer in the state the plan
    /// was computed from (another session answered it), `StoreError.cardChanged`.
    package func apply(_ plan: AnswerPlan) throws -> AnswerReceipt {
        try transaction { db in
            var card = try Self.card(db, id: plan.cardID)
            // A preset never stored (a test's, a benchmark's) has nothing to compare with.
            if let planned = plan.preset, planned.id != nil, try Self.preset(db, deckID: card.deckID) != planned {
                throw StoreError.presetChanged(cardID: plan.cardID)
            }
            guard card.state == plan.before.storedForm else { throw StoreError.cardChanged(plan.cardID) }
            var binder = Binder()
            var entry = plan.entry
            entry.before = card.state
            entry.after = plan.after.storedForm
            try Self.writeState(db, cardID: card.id, entry.after!, &binder)
            if entry.leech.contains(.tagged) { try Self.setTags(db, noteID: card.noteID, add: ["leech"], remove: []) }
            if entry.leech.contains(.suspended) {
                try db.cachedStatement(sql: "UPDATE card SET suspended = 1 WHERE id = ?").execute(arguments: [card.id])
                card.suspended = true
            }
            if let until = plan.buryUntil {
                let bury = try db.cachedStatement(sql: "UPDATE card SET buried_until = ?, buried_by_user = 0 WHERE id = ?")
                for sibling in entry.buried { try bury.execute(arguments: [until.unixSeconds, sibling.cardID]) }
            }
            let logID = try ReviewLogTable.append(entry, cardID: card.id, deckID: card.deckID, db, &binder)
            card.state = entry.after!
            return AnswerReceipt(logID: logID, card: card, leech: plan.leech, suspendedAsLeech: entry.leech.contains(.suspended))
        }
    }

    static let writeStateSQL = "UPDATE card SET \(CardStateColumns.assignments) WHERE id = ?"

    static func writeState(_ db: Database, cardID: Int64, _ state: CardState, _ binder: inout Binder) throws {
        guard state.isValid else { throw StoreError.invalidState(cardID: cardID) }
        binder.begin(try db.cachedStatement(sql: writeStateSQL))
        CardStateColumns.bind(state, &binder)
        binder.int(cardID)
        try binder.step(db)
    }

    /// Undoes one logged change: the card gets back its exact previous state, a leech tag or
    /// suspension the answer added is removed, buried siblings get their old burial back, and
    /// the log entry is deleted. Only a card's newest entry can be undone.
    @discardableResult
    package func undo(logID: Int64) throws -> Card {
        try transaction { db in try Self.undoAnswer(db, logID: logID) }
    }

    static func undoAnswer(_ db: Database, logID: Int64) throws -> Card {
            guard let logged = try Self.fetchAll(db, "SELECT \(ReviewLogTable.columns) FROM review_log WHERE id = ?", [logID], {
                ReviewLogTable.Decoder($0).decode
            }).first else { throw StoreError.nothingToUndo }
            let newer = try Int.fetchOne(db, sql: "SELECT count(*) FROM review_log WHERE card_id = ? AND id > ?",
                                         arguments: [logged.cardID, logID]) ?? 0
            guard newer == 0 else { throw StoreError.answeredSince(cardID: logged.cardID) }
            guard let before = logged.before else { throw StoreError.nothingToRestore(logID: logID) }
            var card = try Self.card(db, id: logged.cardID)
            var binder = Binder()
            try Self.writeState(db, cardID: card.id, before, &binder)
            if logged.leech.contains(.tagged) { try Self.setTags(db, noteID: card.noteID, add: [], remove: ["leech"]) }
            if logged.leech.contains(.suspended) {
                try db.execute(sql: "UPDATE card SET suspended = 0 WHERE id = ?", arguments: [card.id])
                card.suspended = false
            }
            for sibling in logged.buried {
                try db.execute(sql: "UPDATE card SET buried_until = ? WHERE id = ?", arguments: [sibling.previous?.unixSeconds, sibling.cardID])
            }
            try db.execute(sql: "DELETE FROM review_log WHERE id = ?", arguments: [logID])
            card.state = before
            return card
    }

    // MARK: Manual changes

    @discardableResult
    package func setStarred(cardID: Int64, _ starred: Bool) throws -> Int64 {
        try apply(.cards([cardID], .star(starred), label: "\(starred ? "star" : "unstar") card \(cardID)"))
    }

    @discardableResult
    package func setSuspended(cardID: Int64, _ suspended: Bool) throws -> Int64 {
        try apply(.cards([cardID], .suspend(suspended), label: "\(suspended ? "suspend" : "unsuspend") card \(cardID)"))
    }

    /// Hides a card until `until` (normally the next study day); nil unburies it.
    @discardableResult
    package func bury(cardID: Int64, until: Date?) throws -> Int64 {
        try apply(.cards([cardID], .bury(until: until), label: "\(until == nil ? "unbury" : "bury") card \(cardID)"))
    }

    /// Sends a card back to new, keeping its place in the new-card order and its counts of
    /// reviews and lapses, as Anki's Forget does unless told otherwise. The change is logged
    /// (as a manual entry), so the log still explains the card's state and it can be undone.
    @discardableResult
    package func forget(cardID: Int64, at now: Date) throws -> Int64 {
        try apply(.cards([cardID], .forget(now: now) { card, _ in
            var state = CardState.new
            (state.reps, state.lapses) = (card.state.reps, card.state.lapses)
            return state
        }, label: "forget card \(cardID)"))
    }

    /// Sets a card's state directly (an import or a reschedule), logged as a manual change.
    @discardableResult
    package func setState(cardID: Int64, _ state: CardState, at now: Date, kind: ReviewLogEntry.Kind = .manual) throws -> Int64 {
        try transaction { db in
            var binder = Binder()
            return try Self.setState(db, card: try Self.card(db, id: cardID), state, at: now, kind: kind, &binder)
        }
    }

    /// Writes `state` to a card whose current state is known, and logs the change.
    static func setState(_ db: Database, card: Card, _ state: CardState, at now: Date, kind: ReviewLogEntry.Kind,
                         scheduler: String = "manual", _ binder: inout Binder) throws -> Int64 {
        let stored = state.storedForm
        try writeState(db, cardID: card.id, stored, &binder)
        let entry = ReviewLogEntry(time: now, kind: kind, rating: nil, scheduler: scheduler, before: card.state, after: stored)
        return try ReviewLogTable.append(entry, cardID: card.id, deckID: card.deckID, db, &binder)
    }

    // MARK: The log

    /// The cards of a deck's notes in the deck's order (notes by position, each note's cards
    /// in theirs), handed to `body` one by one.
    package func forEachCardInDeckOrder(deckID: Int64, _ body: (Card) throws -> Void) throws {
        try read { db in
            let statement = try db.cachedStatement(sql: """
                SELECT \(selection(CardTable.columns, from: "c", prefix: "")) FROM card c JOIN note n ON n.id = c.note_id
                WHERE n.deck_id = ? ORDER BY n.position, n.id, c.new_position
                """)
            let decoder = CardTable.Decoder(ColumnMap(statement))
            try statement.forEachRow([deckID]) { try body(decoder.decode($0)) }
        }
    }

    /// Each card's log in a deck (the cards its notes have now), oldest entry first, handed to
    /// `body` card by card in card order: a deck's whole history is never held at once.
    package func forEachCardLog(deckID: Int64, _ body: (Int64, [ReviewLogEntry]) throws -> Void) throws {
        try read { db in try Self.forEachCardLog(db, deckID: deckID, body) }
    }

    /// The same, each entry only in outline (what fitting FSRS reads).
    package func forEachCardLogOutline(deckID: Int64, _ body: (Int64, [ReviewLogOutline]) throws -> Void) throws {
        let columns = "card_id, time, rating, b_phase, a_phase, anki_ease, anki_type, anki_factor"
        try read { db in try Self.forEachCardRows(db, deckID: deckID, columns: columns, Self.outlineDecoder, body) }
    }

    static func outlineDecoder(_ map: ColumnMap) -> (SQLiteRow) -> ReviewLogOutline {
        let (time, rating, before, after) = (map["time"], map["rating"], map["b_phase"], map["a_phase"])
        let (ease, type, factor) = (map["anki_ease"], map["anki_type"], map["anki_factor"])
        let names = CardStateColumns.phases, phases = CardPhase.allCases
        func phase(_ row: SQLiteRow, _ column: Int) -> CardPhase? { row.index(column, among: names).map { phases[$0] } }
        return { row in
            // Anki's columns are all there or none (`ReviewLogTable.append`).
            let isAnki = !row.isNull(ease)
            return ReviewLogOutline(
                time: Date(timeIntervalSince1970: TimeInterval(row.int64(time)) / 1000), rating: Rating(rawValue: row.int(rating)),
                beforePhase: phase(row, before), afterPhase: phase(row, after), isAnki: isAnki,
                isAnkiReset: isAnki && AnkiRevlogColumns.isReset(type: row.int64(type), factor: row.int64(factor)))
        }
    }

    static func forEachCardLog(_ db: Database, deckID: Int64, _ body: (Int64, [ReviewLogEntry]) throws -> Void) throws {
        try forEachCardRows(db, deckID: deckID, columns: ReviewLogTable.columns, { ReviewLogTable.Decoder($0).entry }, body)
    }

    /// The log rows of a deck's cards (the cards its notes have now), `columns` of each decoded
    /// by what `decoder` makes of their positions, handed on card by card. In the order of the
    /// index on (card_id, time): no sort; each card's rows are gathered as they come.
    static func forEachCardRows<Entry>(_ db: Database, deckID: Int64, columns: String, _ decoder: (ColumnMap) -> (SQLiteRow) -> Entry,
                                       _ body: (Int64, [Entry]) throws -> Void) throws {
        let deckCards = try db.cachedStatement(sql: "SELECT c.id FROM card c JOIN note n ON n.id = c.note_id WHERE n.deck_id = ?")
        let allCards = try Int.fetchOne(db, sql: "SELECT count(*) FROM card") ?? 0
        // A deck with most of the collection's cards reads the whole log in card order and
        // skips the other cards' rows: a seek into the log for each of its cards took twice as
        // long (at a million cards, 2.4 s against 1.1 s).
        var ids = Set<Int64>()
        try deckCards.forEachRow([deckID]) { ids.insert($0.int64(0)) }
        let members = ids.count * 2 >= allCards ? ids : nil
        ids = []
        let statement = try db.cachedStatement(sql: members != nil ? "SELECT \(columns) FROM review_log ORDER BY card_id, time, id" : """
            SELECT \(columns) FROM review_log
            WHERE card_id IN (SELECT id FROM card WHERE note_id IN (SELECT id FROM note WHERE deck_id = ?)) ORDER BY card_id, time, id
            """)
        let map = ColumnMap(statement)
        let cardColumn = map["card_id"], decode = decoder(map)
        var card: Int64?
        var entries: [Entry] = []
        try statement.forEachRow(members != nil ? [] : [deckID]) { row in
            let id = row.int64(cardColumn)
            if let members, !members.contains(id) { return }
            if id != card {
                if let card { try body(card, entries) }
                card = id
                entries = []
                entries.reserveCapacity(16)
            }
            entries.append(decode(row))
        }
        if let card { try body(card, entries) }
    }

    package func reviewLog(cardID: Int64) throws -> [ReviewLog] {
        try read { db in try Self.reviewLog(db, cardID: cardID) }
    }

    static func reviewLog(_ db: Database, cardID: Int64) throws -> [ReviewLog] {
        try fetchAll(db, "SELECT \(ReviewLogTable.columns) FROM review_log WHERE card_id = ? ORDER BY id", [cardID], {
            ReviewLogTable.Decoder($0).decode
        })
    }
}
