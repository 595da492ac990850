import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// A card just created for a note: new, with no history.
package struct NewCard: Hashable, Sendable {
    package var id: Int64
    package var template: String
    package var ordinal: Int
}

extension Collection {
    package func note(id: Int64) throws -> Note { try read { db in try Self.note(db, id: id) } }

    static func note(_ db: Database, id: Int64) throws -> Note {
        try fetchNotes(db, NoteTable.byID, [id]).first ?? { throw StoreError.noSuchNote(id) }()
    }

    static func note(_ db: Database, guid: String) throws -> Note? {
        try fetchNotes(db, "SELECT \(NoteTable.columns) FROM note WHERE guid = ?", [guid]).first
    }

    package func note(guid: String) throws -> Note? {
        try read { db in try Self.note(db, guid: guid) }
    }

    package func notes(deckID: Int64) throws -> [Note] {
        try read { db in try Self.fetchNotes(db, "SELECT \(NoteTable.columns) FROM note WHERE deck_id = ? ORDER BY position, id", [deckID]) }
    }

    /// Notes a query selecting `NoteTable.columns` finds.
    static func fetchNotes(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [Note] {
        try db.cachedStatement(sql: sql).rows(arguments, NoteTable.decoder.decode)
    }

    /// Adds a note and the cards its deck's templates give it, all new.
    @discardableResult
    package func addNote(_ draft: NoteDraft, deckID: Int64, now: Date) throws -> Note {
        try transaction { db in
            let deck = try Self.deckHoldingTemplates(db, of: draft, deckID: deckID)
            let note = try Self.addNoteWithCards(db, draft, deck: deck, now: now).note
            if let type = draft.ankiNoteTypeID, let deckID = deck.ankiID { try Self.rememberAnkiAdd(db, noteType: type, deck: deckID) }
            return note
        }
    }

    /// The deck, given the templates of the draft's Anki note type when it has none of them yet
    /// (a parent deck whose notes all sit in its subdecks): as in Anki, where a note type, not
    /// a deck, holds the templates, a note of any type can go into any deck and gets its cards.
    static func deckHoldingTemplates(_ db: Database, of draft: NoteDraft, deckID: Int64) throws -> Deck {
        var deck = try Self.deck(db, id: deckID)
        guard let typeID = draft.ankiNoteTypeID, let noteType = draft.noteType,
              !deck.templates.contains(where: { $0.noteType == noteType }),
              let type = try ankiNoteType(db, id: typeID) else { return deck }
        deck.templates = CardTemplate.adding(type.maeilTemplates, ofType: type.name, to: deck.templates).deck
        try db.execute(sql: "UPDATE deck SET templates = ? WHERE id = ?", arguments: [try DeckTable.templatesColumn(deck.templates), deckID])
        return deck
    }

    /// The note type Anki's Add screen offers for a deck: the type last added to it, else the
    /// one last added anywhere (`curModel`). A package's notes come without Anki's config: then
    /// the type most notes of the deck's subdecks have, else most notes anywhere. Image
    /// occlusion is passed over (its notes are drawn, not typed). Nil when no Anki note type is
    /// kept.
    package func ankiNoteTypeForAdding(to deck: Deck) throws -> AnkiNoteType? {
        try read { db in
            func usable(_ id: Int64?) throws -> AnkiNoteType? {
                guard let id, let type = try Self.ankiNoteType(db, id: id), !type.isImageOcclusion else { return nil }
                return type
            }
            let config = try Self.ankiConfig(db).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } ?? [:]
            for key in [deck.ankiID.map { "_deck_\($0)_lastNotetype" }, "curModel"].compactMap({ $0 }) {
                if let type = try usable((config[key] as? NSNumber)?.int64Value) { return type }
            }
            // Names under "Korean::" sort between it and "Korean:;" (';' follows ':').
            let mostNotes = "SELECT anki_note_type FROM note JOIN deck ON deck.id = note.deck_id WHERE anki_note_type IS NOT NULL"
            let ranked = " GROUP BY anki_note_type ORDER BY count(*) DESC, anki_note_type LIMIT 1"
            if let type = try usable(Int64.fetchOne(db, sql: mostNotes + " AND deck.name > ? AND deck.name < ?" + ranked,
                                                    arguments: [deck.name + "::", deck.name + ":;"])) { return type }
            return try usable(Int64.fetchOne(db, sql: mostNotes + ranked))
        }
    }

    static func ankiNoteType(_ db: Database, id: Int64) throws -> AnkiNoteType? {
        try String.fetchOne(db, sql: "SELECT definition FROM note_type WHERE anki_id = ?", arguments: [id])
            .flatMap { try? JSONDecoder().decode(AnkiNoteType.self, from: Data($0.utf8)) }
    }

    /// What Anki's config records of a note added (its Add screen starts from it next time):
    /// the note type last used, and each of the deck and the note type last used with the other.
    static func rememberAnkiAdd(_ db: Database, noteType: Int64, deck: Int64) throws {
        try db.execute(sql: """
            UPDATE meta SET value = json_set(value, '$.curModel', ?, '$._nt_' || ? || '_lastDeck', ?, '$._deck_' || ? || '_lastNotetype', ?)
            WHERE key = 'anki_config' AND json_valid(value)
            """, arguments: [noteType, noteType, deck, deck, noteType])
    }

    /// The next free note position in a deck, for notes added outside a curriculum.
    static func nextPosition(_ db: Database, deckID: Int64) throws -> Int {
        (try Int.fetchOne(db, sql: "SELECT max(position) FROM note WHERE deck_id = ?", arguments: [deckID]) ?? 0) + 1
    }

    package func nextNotePosition(deckID: Int64) throws -> Int {
        try read { db in try Self.nextPosition(db, deckID: deckID) }
    }

    /// Adds a note; returns it with the cards made for it (all new).
    static func addNoteWithCards(_ db: Database, _ draft: NoteDraft, deck: Deck, now: Date) throws -> (note: Note, cards: [NewCard]) {
        var inserter = try NoteInserter(db: db, deck: deck, now: now)
        guard let added = try inserter.add(draft) else { throw StoreError.guidTaken(draft.guid) }
        let note = Note(id: added.noteID, guid: draft.guid, deckID: deck.id, kind: draft.kind, fields: draft.fields, tags: draft.tags,
                        unitID: inserter.unitID(draft.unit), position: draft.position, source: draft.origin, noteType: draft.noteType)
        return (note, added.cards)
    }

    /// New cards come unit by unit, then note by note, then template by template.
    static func newPosition(unit: Int?, note: Int, template: Int, ordinal: Int) -> Int64 {
        Int64(unit ?? 0) << 40 | Int64(max(0, min(note, 1 << 30))) << 10 | Int64(min(template, 31)) << 5 | Int64(min(ordinal, 31))
    }

    /// Replaces a note's fields and tags. The schedule of every card is kept; a template the
    /// new fields satisfy for the first time gets a new card.
    @discardableResult
    package func updateNote(id: Int64, fields: [NoteField], now: Date) throws -> Int64 {
        try apply(.note(id, .edit(fields: fields, now: now), label: "edit note \(id)"))
    }

    @discardableResult
    package func setTags(noteID: Int64, add: [String] = [], remove: [String] = []) throws -> Int64 {
        try apply(.note(noteID, .tags(add: add, remove: remove), label: "tag note \(noteID)"))
    }

    static func setTags(_ db: Database, noteID: Int64, add: [String], remove: [String]) throws {
        let current = Tags.parse(try String.fetchOne(db, sql: "SELECT tags FROM note WHERE id = ?", arguments: [noteID]) ?? "")
        let removing = Set(remove.map { $0.lowercased() })
        // Tags compare without case, as in Anki: adding one the note has changes nothing.
        var tags = current.filter { !removing.contains($0.lowercased()) }
        for tag in add where !tags.contains(where: { $0.lowercased() == tag.lowercased() }) { tags.append(tag) }
        try db.execute(sql: "UPDATE note SET tags = ? WHERE id = ?", arguments: [Tags.column(tags), noteID])
    }

    /// Every tag in use, for completion.
    package func allTags() throws -> [String] {
        let columns = try read { db in try String.fetchAll(db, sql: "SELECT DISTINCT tags FROM note WHERE tags != ' '") }
        return Array(Set(columns.flatMap(Tags.parse))).sorted()
    }

    /// Deletes a note and its cards. Their review history stays in the log.
    @discardableResult
    package func deleteNote(id: Int64) throws -> Int64 {
        try apply(.note(id, .delete, label: "delete note \(id)"))
    }

    // MARK: Cards

    package func card(id: Int64) throws -> Card { try read { db in try Self.card(db, id: id) } }

    static func card(_ db: Database, id: Int64) throws -> Card {
        try fetchCards(db, CardTable.byID, [id]).first ?? { throw StoreError.noSuchCard(id) }()
    }

    package func cards(noteID: Int64) throws -> [Card] {
        try read { db in try Self.cards(db, noteID: noteID) }
    }

    /// A card with its note and the note's other cards, read at one moment: what a session
    /// needs to show a card and to plan its answer.
    package func cardWithNote(id: Int64) throws -> (card: Card, note: Note, siblings: [Card]) {
        try read { db in
            let cards = try Self.fetchCards(db, CardTable.withSiblings, [id])
            guard let card = cards.first(where: { $0.id == id }) else { throw StoreError.noSuchCard(id) }
            return (card, try Self.note(db, id: card.noteID), cards.filter { $0.id != id })
        }
    }

    static func cards(_ db: Database, noteID: Int64) throws -> [Card] {
        try fetchCards(db, CardTable.byNote, [noteID])
    }

    package func cards(deckID: Int64) throws -> [Card] {
        try read { db in try Self.fetchCards(db, "SELECT \(CardTable.columns) FROM card WHERE deck_id = ? ORDER BY new_position", [deckID]) }
    }

    /// How many cards a deck holds, counted in its index.
    package func cardCount(deckID: Int64) throws -> Int {
        try read { db in try Int.fetchOne(db.cachedStatement(sql: "SELECT count(*) FROM card WHERE deck_id = ?"), arguments: [deckID]) ?? 0 }
    }

    /// Cards a query selecting `CardTable.columns` finds.
    static func fetchCards(_ db: Database, _ sql: String, _ arguments: StatementArguments) throws -> [Card] {
        try db.cachedStatement(sql: sql).rows(arguments, CardTable.decoder.decode)
    }

    static func likeEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%").replacingOccurrences(of: "_", with: "\\_")
    }

    /// The Anki note types kept from imports, by Anki's id.
    package func ankiNoteTypes() throws -> [Int64: AnkiNoteType] {
        try read(Self.ankiNoteTypes)
    }

    static func ankiNoteTypes(_ db: Database) throws -> [Int64: AnkiNoteType] {
        let decoder = JSONDecoder()
        var types: [Int64: AnkiNoteType] = [:]
        for text in try String.fetchAll(db, sql: "SELECT definition FROM note_type") {
            if let type = try? decoder.decode(AnkiNoteType.self, from: Data(text.utf8)) { types[type.id] = type }
        }
        return types
    }
}
