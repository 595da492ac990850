import Foundation
import GRDB
import MaeilCore

/// A card just created for a note: new, with no history.
public struct NewCard: Hashable, Sendable {
    public var id: Int64
    public var template: String
    public var ordinal: Int
}

/// A note to add or update, before it has an id.
public struct NoteDraft: Hashable, Sendable {
    public var guid: String
    public var kind: NoteKind
    public var fields: [NoteField]
    public var tags: [String]
    public var unitID: Int64?
    public var position: Int
    public var source: String?
    public var noteType: String?

    public init(guid: String, kind: NoteKind, fields: [NoteField], tags: [String] = [], unitID: Int64? = nil,
                position: Int = 0, source: String? = nil, noteType: String? = nil) {
        self.noteType = noteType
        self.guid = guid
        self.kind = kind
        self.fields = fields
        self.tags = tags
        self.unitID = unitID
        self.position = position
        self.source = source
    }
}

extension CardTemplate {
    /// Which cards of this template a note has: none when a front field is empty (or the
    /// template is for another note type); one per cloze number when the blanks field holds
    /// {{c1::…}} deletions; otherwise one (ordinal 0).
    public func ordinals(for fields: [NoteField], noteType: String? = nil) -> [Int] {
        var ordinals: [Int] = []
        forEachOrdinal(for: fields, noteType: noteType) { ordinals.append($0) }
        return ordinals
    }

    /// `ordinals(for:noteType:)` without the array, which was an allocation for every note of
    /// a large import.
    func forEachOrdinal(for fields: [NoteField], noteType: String?, _ body: (Int) throws -> Void) rethrows {
        if let required = self.noteType, required != noteType { return }
        for name in front where !(fields.value(name)?.hasVisibleText ?? false) { return }
        if let blanks {
            guard let text = fields.value(blanks), text.hasVisibleText else { return }
            let numbers = Cloze.numbers(in: text)
            if !numbers.isEmpty {
                for number in numbers { try body(number) }
                return
            }
        }
        try body(0)
    }
}

extension Collection {
    public func note(id: Int64) throws -> Note {
        try read { db in try Self.note(db, id: id) }
    }

    static func note(_ db: Database, id: Int64) throws -> Note {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Columns.note) FROM note WHERE id = ?"), arguments: [id]) else {
            throw StoreError.noSuchNote(id)
        }
        return Note(row: row)
    }

    static func note(_ db: Database, guid: String) throws -> Note? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Columns.note) FROM note WHERE guid = ?"), arguments: [guid]).map({ Note(row: $0) })
    }

    public func note(guid: String) throws -> Note? {
        try read { db in try Self.note(db, guid: guid) }
    }

    public func notes(deckID: Int64) throws -> [Note] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Columns.note) FROM note WHERE deck_id = ? ORDER BY position, id", arguments: [deckID])
                .map({ Note(row: $0) })
        }
    }

    /// Adds a note and the cards its deck's templates give it, all new.
    @discardableResult
    public func addNote(_ draft: NoteDraft, deckID: Int64, now: Date = Date()) throws -> Note {
        try transaction { db in
            let deck = try Self.deck(db, id: deckID)
            return try Self.addNote(db, draft, deck: deck, unitPosition: Self.unitPosition(db, draft.unitID), now: now)
        }
    }

    static func unitPosition(_ db: Database, _ unitID: Int64?) throws -> Int? {
        guard let unitID else { return nil }
        return try Int.fetchOne(db.cachedStatement(sql: "SELECT position FROM unit WHERE id = ?"), arguments: [unitID])
    }

    /// The next free note position in a deck, for notes added outside a curriculum.
    static func nextPosition(_ db: Database, deckID: Int64) throws -> Int {
        (try Int.fetchOne(db, sql: "SELECT max(position) FROM note WHERE deck_id = ?", arguments: [deckID]) ?? 0) + 1
    }

    @discardableResult
    static func addNote(_ db: Database, _ draft: NoteDraft, deck: Deck, unitPosition: Int?, now: Date) throws -> Note {
        try addNoteWithCards(db, draft, deck: deck, unitPosition: unitPosition, now: now).note
    }

    /// Adds a note; returns it with the cards made for it (all new).
    static func addNoteWithCards(_ db: Database, _ draft: NoteDraft, deck: Deck, unitPosition: Int?, now: Date)
        throws -> (note: Note, cards: [NewCard]) {
        var inserter = try NoteInserter(db: db, deck: deck, now: now)
        guard let added = try inserter.add(draft, unitPosition: unitPosition) else { throw StoreError.guidTaken(draft.guid) }
        let note = Note(id: added.noteID, guid: draft.guid, deckID: deck.id, kind: draft.kind, fields: draft.fields, tags: draft.tags,
                        unitID: draft.unitID, position: draft.position, source: draft.source, noteType: draft.noteType)
        return (note, added.cards)
    }

    /// New cards come unit by unit, then note by note, then template by template.
    static func newPosition(unit: Int?, note: Int, template: Int, ordinal: Int) -> Int64 {
        Int64(unit ?? 0) << 40 | Int64(max(0, min(note, 1 << 30))) << 10 | Int64(min(template, 31)) << 5 | Int64(min(ordinal, 31))
    }

    /// Replaces a note's fields and tags. The schedule of every card is kept; a template the
    /// new fields satisfy for the first time gets a new card.
    public func updateNote(id: Int64, fields: [NoteField], tags: [String]? = nil, now: Date = Date()) throws {
        try transaction { db in
            var note = try Self.note(db, id: id)
            note.fields = fields
            if let tags { note.tags = tags }
            try Self.updateNote(db, note, now: now)
        }
    }

    static func updateNote(_ db: Database, _ note: Note, now: Date) throws {
        let (names, values, languages) = Note.fieldColumns(note.fields)
        try db.cachedStatement(sql: """
            UPDATE note SET kind = ?, note_type = ?, field_names = ?, field_values = ?, field_languages = ?, tags = ?, unit_id = ?,
            position = ?, source = ?, modified_at = ? WHERE id = ?
            """).execute(arguments: [note.kind.rawValue, note.noteType, names, values, languages, Tags.column(note.tags), note.unitID,
                                     note.position, note.source, now.unixSeconds, note.id])
        let deck = try deck(db, id: note.deckID)
        let unitPosition = try unitPosition(db, note.unitID)
        let existing = try Row.fetchAll(db, sql: "SELECT template, ordinal FROM card WHERE note_id = ?", arguments: [note.id])
            .map { "\($0[0] as String)#\($0[1] as Int)" }
        var inserter = try NoteInserter(db: db, deck: deck, now: now)
        _ = try inserter.addCards(noteID: note.id, fields: note.fields, noteType: note.noteType, position: note.position,
                                  unitPosition: unitPosition, existing: Set(existing))
        // Keep the new-card order in step with the note's place in the curriculum.
        for (index, template) in deck.templates.enumerated() {
            try db.cachedStatement(sql: """
                UPDATE card SET unit_position = ?, new_position = (? | ordinal) WHERE note_id = ? AND template = ?
                """).execute(arguments: [unitPosition, newPosition(unit: unitPosition, note: note.position, template: index, ordinal: 0),
                                         note.id, template.name])
        }
    }

    public func setTags(noteID: Int64, add: [String] = [], remove: [String] = []) throws {
        try transaction { db in try Self.setTags(db, noteID: noteID, add: add, remove: remove) }
    }

    static func setTags(_ db: Database, noteID: Int64, add: [String], remove: [String]) throws {
        let current = Tags.parse(try String.fetchOne(db, sql: "SELECT tags FROM note WHERE id = ?", arguments: [noteID]) ?? "")
        let removing = Set(remove.map { $0.lowercased() })
        let tags = current.filter { !removing.contains($0.lowercased()) } + add
        try db.execute(sql: "UPDATE note SET tags = ? WHERE id = ?", arguments: [Tags.column(tags), noteID])
    }

    /// Every tag in use, for completion.
    public func allTags() throws -> [String] {
        let columns = try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT tags FROM note WHERE tags != ' '") }
        return Array(Set(columns.flatMap(Tags.parse))).sorted()
    }

    /// Deletes a note and its cards. Their review history stays in the log.
    public func deleteNote(id: Int64) throws {
        try transaction { db in
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { throw StoreError.noSuchNote(id) }
        }
    }

    // MARK: Cards

    public func card(id: Int64) throws -> Card {
        try read { db in try Self.card(db, id: id) }
    }

    static func card(_ db: Database, id: Int64) throws -> Card {
        guard let row = try Row.fetchOne(db.cachedStatement(sql: "SELECT \(Columns.card) FROM card WHERE id = ?"), arguments: [id]) else {
            throw StoreError.noSuchCard(id)
        }
        return Card(row: row)
    }

    public func cards(noteID: Int64) throws -> [Card] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Columns.card) FROM card WHERE note_id = ? ORDER BY new_position", arguments: [noteID])
                .map(Card.init(row:))
        }
    }

    public func cards(deckID: Int64) throws -> [Card] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT \(Columns.card) FROM card WHERE deck_id = ? ORDER BY new_position", arguments: [deckID])
                .map(Card.init(row:))
        }
    }

    /// Finds notes whose fields or tags contain `text` (case-insensitive for Latin letters),
    /// optionally within one deck. `tag:NAME` searches tags only.
    public func findNotes(_ query: String, deckID: Int64? = nil, limit: Int = 100) throws -> [Note] {
        let trimmed = query.trimmingCharacters(in: .whitespaces)
        var sql = "SELECT \(Columns.note) FROM note WHERE "
        var arguments: [any DatabaseValueConvertible & Sendable] = []
        if trimmed.lowercased().hasPrefix("tag:") {
            sql += "tags LIKE ? ESCAPE '\\'"
            arguments.append("% " + Self.likeEscaped(String(trimmed.dropFirst(4))) + " %")
        } else {
            sql += "(field_values LIKE ? ESCAPE '\\' OR tags LIKE ? ESCAPE '\\')"
            let pattern = "%" + Self.likeEscaped(trimmed) + "%"
            arguments += [pattern, pattern]
        }
        if let deckID {
            sql += " AND deck_id = ?"
            arguments.append(deckID)
        }
        sql += " ORDER BY deck_id, position, id LIMIT ?"
        arguments.append(limit)
        return try read { db in try Row.fetchAll(db, sql: sql, arguments: StatementArguments(arguments)).map({ Note(row: $0) }) }
    }

    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }
}
