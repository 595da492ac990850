import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// A change a person makes by hand, decided as a value. `Collection.apply` makes it in one
/// transaction and keeps the rows it touched as they were, so `undo` can put them back
/// exactly, as Anki's undo does for every operation.
package struct ManualChange: Sendable {
    package enum Action: Sendable {
        case star(Bool)
        case suspend(Bool)
        /// Until the given time (the next study day); nil unburies.
        case bury(until: Date?)
        case flag(Int)
        case tags(add: [String], remove: [String])
        case edit(fields: [NoteField], now: Date)
        case delete
        /// Set Due Date: a new state for each card from its current one and its deck's preset,
        /// logged as a manual change, each card in the review queue again (not suspended or
        /// buried), as Anki's Set Due Date leaves it.
        case reschedule(now: Date, next: @Sendable (Card, Preset) -> CardState)
        /// Back to new (a `reschedule` to `next`'s state), each card back in the place it left
        /// in Anki's new queue and in that queue again (not suspended or buried), as Anki's
        /// Forget leaves it.
        case forget(now: Date, next: @Sendable (Card, Preset) -> CardState)
        /// To another deck, as Anki's Change Deck: the cards alone, or a note with every card
        /// of it, each card under the name `names` gives its template in that deck (from the
        /// deck, the note, its cards and its Anki note type), the deck taking the templates it
        /// returns; nil where the deck cannot show them. `memory`: each card that changed deck
        /// given the state it has there (from the card, the deck's preset and its log; nil keeps
        /// it), as Anki works an FSRS card's memory out again by the new deck's preset.
        case move(toDeck: Int64, memory: MoveMemory? = nil, names: @Sendable (Deck, Note, [Card], AnkiNoteType?) -> TemplateNames?)
    }

    /// A moved card's state in its new deck (`state`, from the card, that deck's preset and the
    /// card's log), logged at `now` as a manual change.
    package struct MoveMemory: Sendable {
        package let now: Date
        package let state: @Sendable (Card, Preset, [ReviewLogEntry]) -> CardState?

        package init(now: Date, state: @escaping @Sendable (Card, Preset, [ReviewLogEntry]) -> CardState?) {
            (self.now, self.state) = (now, state)
        }
    }

    /// A deck's templates with a note's, and the name each of its cards' templates has there.
    package struct TemplateNames: Sendable {
        package var deck: [CardTemplate]
        package var cards: [Int64: String]

        package init(deck: [CardTemplate], cards: [Int64: String]) { (self.deck, self.cards) = (deck, cards) }
    }

    package let action: Action
    /// The cards it changes; for note actions, the note's.
    package let cardIDs: [Int64]
    package let noteID: Int64?
    /// What `undo` says it undoes: "tag note 5".
    package let label: String

    package static func cards(_ ids: [Int64], _ action: Action, label: String) -> ManualChange {
        ManualChange(action: action, cardIDs: ids, noteID: nil, label: label)
    }

    package static func note(_ id: Int64, _ action: Action, label: String) -> ManualChange {
        ManualChange(action: action, cardIDs: [], noteID: id, label: label)
    }
}

/// What `undo` took back.
package enum UndoneChange: Equatable, Sendable {
    case answer(Card)
    case change(label: String, cardIDs: [Int64])
}

extension Collection {
    /// Makes `change` in one transaction and records it for `undo`; returns the record's id.
    @discardableResult
    package func apply(_ change: ManualChange) throws -> Int64 {
        try transaction { db in
            var cardIDs = change.cardIDs
            if let noteID = change.noteID {
                _ = try Self.note(db, id: noteID)
                cardIDs = try Int64.fetchAll(db, sql: "SELECT id FROM card WHERE note_id = ? ORDER BY id", arguments: [noteID])
            }
            for id in cardIDs { _ = try Self.card(db, id: id) }
            let noteIDs = change.noteID.map { [$0] } ?? []
            let mark = try Int64.fetchOne(db, sql: "SELECT max(id) FROM review_log") ?? 0
            let before = try StoredRows.read(db, notes: noteIDs, cards: cardIDs)
            try Self.make(change.action, db, noteID: change.noteID, cardIDs: cardIDs)
            let after = try StoredRows.read(db, notes: noteIDs, cards: cardIDs)
            let logRows = try Int64.fetchAll(db, sql: "SELECT id FROM review_log WHERE id > ? ORDER BY id", arguments: [mark])
            try db.execute(sql: "INSERT INTO undo_step (label, log_mark, log_rows, before, after) VALUES (?, ?, ?, ?, ?)",
                           arguments: [change.label, mark, try StableJSON.string(logRows), try before.json(), try after.json()])
            let id = db.lastInsertedRowID
            // Anki keeps a few dozen steps; so does Maeil.
            try db.execute(sql: "DELETE FROM undo_step WHERE id <= ?", arguments: [id - 50])
            return id
        }
    }

    private static func make(_ action: ManualChange.Action, _ db: Database, noteID: Int64?, cardIDs: [Int64]) throws {
        let list = cardIDs.map(String.init).joined(separator: ",")
        switch action {
        case .star(let on): try db.execute(sql: "UPDATE card SET starred = ? WHERE id IN (\(list))", arguments: [on])
        case .suspend(let on): try db.execute(sql: "UPDATE card SET suspended = ? WHERE id IN (\(list))", arguments: [on])
        case .bury(let until):
            try db.execute(sql: "UPDATE card SET buried_until = ?, buried_by_user = ? WHERE id IN (\(list))", arguments: [until?.unixSeconds, until != nil])
        case .flag(let flag): try db.execute(sql: "UPDATE card SET flags = ? WHERE id IN (\(list))", arguments: [flag])
        case .tags(let add, let remove):
            if let noteID { try setTags(db, noteID: noteID, add: add, remove: remove) }
        case .edit(let fields, let now):
            guard let noteID else { return }
            var note = try Self.note(db, id: noteID)
            note.fields = fields
            var inserter = try NoteInserter(db: db, deck: try deck(db, id: note.deckID), now: now)
            try inserter.update(note)
        case .delete:
            if let noteID { try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [noteID]) }
        case .move(let deckID, let memory, let names):
            var target = try deck(db, id: deckID)
            let moved = try Int64.fetchAll(db, sql: "SELECT id FROM card WHERE id IN (\(list)) AND deck_id != ? ORDER BY id", arguments: [deckID])
            if let noteID {
                let note = try Self.note(db, id: noteID)
                let cards = try Self.cards(db, noteID: noteID)
                guard let named = names(target, note, cards, try note.ankiNoteTypeID.flatMap { try ankiNoteType(db, id: $0) }) else {
                    throw StoreError.templatesMissing(noteID: noteID, deck: target.name)
                }
                if named.deck != target.templates {
                    target.templates = named.deck
                    try update(db, target)
                }
                // A note already in the deck keeps its place there; its cards come back to it.
                try move(db, noteID: noteID, toDeck: deckID, position: note.deckID == deckID ? note.position : try nextPosition(db, deckID: deckID),
                         cards: cards.map { (cardID: $0.id, template: named.cards[$0.id] ?? $0.template) })
            } else {
                try db.execute(sql: "UPDATE card SET deck_id = ? WHERE id IN (\(list))", arguments: [deckID])
            }
            if let memory {
                let preset = try Self.preset(db, id: target.presetID)
                var binder = Binder()
                for id in moved {
                    let card = try Self.card(db, id: id)
                    let log = try reviewLog(db, cardID: id).map(\.entry)
                    guard let state = memory.state(card, preset, log) else {
                        // One it gives none (a new card, one forgotten too) keeps no retention or decay either.
                        if preset.scheduler.kind == .fsrs { try db.execute(sql: "UPDATE card SET anki_retention = NULL WHERE id = ?", arguments: [id]) }
                        continue
                    }
                    // Anki stamps the options' desired retention on each card it gave a memory.
                    try db.execute(sql: "UPDATE card SET anki_retention = ? WHERE id = ?", arguments: [preset.scheduler.desiredRetention, id])
                    guard state != card.state else { continue }
                    _ = try setState(db, card: card, state, at: Date(timeIntervalSince1970: memory.now.timeIntervalSince1970.rounded(.down)),
                                     kind: .manual, &binder)
                }
            }
        case .reschedule(let now, let next), .forget(let now, let next):
            // In whole seconds, as answers are logged: a change and an answer in one second keep their order.
            let now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
            var binder = Binder()
            let scheduler = if case .forget = action { ReviewLogEntry.forget } else { ReviewLogEntry.setDueDate }
            for id in cardIDs {
                let card = try Self.card(db, id: id)
                let preset = try Self.preset(db, id: try deck(db, id: card.deckID).presetID)
                if case .forget = action, card.state.memory != nil {
                    // Anki's Forget clears the memory and keeps the retention it was scheduled with.
                    let kept = AnkiCardData(retention: try Double.fetchOne(db, sql: "SELECT anki_retention FROM card WHERE id = ?", arguments: [id]))
                    let retention = kept.retention(after: try reviewLog(db, cardID: id).map(\.entry), options: preset.scheduler.desiredRetention)
                    try db.execute(sql: "UPDATE card SET anki_retention = ? WHERE id = ?", arguments: [retention, id])
                }
                _ = try setState(db, card: card, next(card, preset), at: now, kind: .manual, scheduler: scheduler, &binder)
            }
            // Both leave each card in a queue again, as Anki does: no longer suspended or buried.
            try db.execute(sql: "UPDATE card SET suspended = 0, buried_until = NULL, buried_by_user = 0 WHERE id IN (\(list))")
            if case .forget = action {
                try db.execute(sql: """
                    UPDATE card SET anki_position = coalesce(anki_original_position, anki_position), anki_original_position = NULL
                    WHERE id IN (\(list))
                    """)
            }
        }
    }

    /// Moves a note to a deck at `position`, and the given cards with it, each card under the
    /// name its template has there (a deck names the templates of each note type its own way);
    /// `apart`: cards that stay in a deck of their own (Anki's Change Deck on some of a note's
    /// cards), by card id.
    static func move(_ db: Database, noteID: Int64, toDeck deckID: Int64, position: Int, cards: [(cardID: Int64, template: String)],
                     apart: [Int64: Int64] = [:]) throws {
        try db.cachedStatement(sql: "UPDATE note SET deck_id = ?, position = ? WHERE id = ?").execute(arguments: [deckID, position, noteID])
        for card in cards {
            try db.cachedStatement(sql: "UPDATE card SET deck_id = ?, template = ? WHERE id = ?")
                .execute(arguments: [apart[card.cardID] ?? deckID, card.template, card.cardID])
        }
    }

    /// Takes back the newest answer or change, whichever came last: an answer as `undo(logID:)`
    /// does, a change by putting back the rows it touched, once nothing has altered them since.
    package func undoLast() throws -> UndoneChange {
        try transaction { db in
            let answer = try Int64.fetchOne(db, sql: "SELECT max(id) FROM review_log WHERE kind = 0")
            let step = try Row.fetchOne(db, sql: "SELECT id, log_mark FROM undo_step ORDER BY id DESC LIMIT 1")
            if let answer, answer > (step?[1] as Int64? ?? 0) { return .answer(try Self.undoAnswer(db, logID: answer)) }
            guard let step else { throw StoreError.nothingToUndo }
            return try Self.undoStep(db, id: step[0])
        }
    }

    /// Takes back one recorded change (a review session undoing its own star, bury or edit).
    @discardableResult
    package func undoChange(_ id: Int64) throws -> UndoneChange {
        try transaction { db in try Self.undoStep(db, id: id) }
    }

    static func undoStep(_ db: Database, id: Int64) throws -> UndoneChange {
        guard let row = try Row.fetchOne(db, sql: "SELECT label, log_rows, before, after FROM undo_step WHERE id = ?", arguments: [id]) else {
            throw StoreError.nothingToUndo
        }
        let label: String = row[0]
        let logRows = try JSONDecoder().decode([Int64].self, from: Data((row[1] as String).utf8))
        let before = try StoredRows(json: row[2]), after = try StoredRows(json: row[3])
        // Only what this change left is put back: a note edited, answered or deleted since keeps that.
        guard try StoredRows.read(db, notes: after.ids("note") + before.ids("note"), cards: after.ids("card") + before.ids("card")) == after else {
            throw StoreError.changedSince(label)
        }
        if let newest = logRows.last, let card = try Int64.fetchOne(db, sql: "SELECT card_id FROM review_log WHERE id = ?", arguments: [newest]),
           try Int64.fetchOne(db, sql: "SELECT max(id) FROM review_log WHERE card_id = ?", arguments: [card]) != newest {
            throw StoreError.changedSince(label)
        }
        try before.restore(db, replacing: after)
        if !logRows.isEmpty { try db.execute(sql: "DELETE FROM review_log WHERE id IN (\(logRows.map(String.init).joined(separator: ",")))") }
        try db.execute(sql: "DELETE FROM undo_step WHERE id = ?", arguments: [id])
        return .change(label: label, cardIDs: before.ids("card"))
    }
}
