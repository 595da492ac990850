import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// Writes many changes in one transaction: an import, a benchmark fixture. Everything done
/// through one writer is committed together or not at all.
package struct CollectionWriter {
    let db: Database
    package let now: Date

    /// A secondary index as the database defines it, to build again after `dropSecondaryIndexes`.
    package struct SecondaryIndex: Sendable {
        let name: String
        let sql: String
    }

    /// Drops the secondary indexes of notes, cards and the review log, for a large import to
    /// build them again at its end with `restore`: one sort per index is much cheaper than
    /// keeping each index ordered row by row. The statements come from the database itself,
    /// so the rebuilt indexes are the ones it had; a transaction that fails brings them back.
    package func dropSecondaryIndexes() throws -> [SecondaryIndex] {
        let indexes = try Row.fetchAll(db, sql: """
            SELECT name, sql FROM sqlite_master
            WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN ('note', 'card', 'review_log')
            """).map { SecondaryIndex(name: $0["name"], sql: $0["sql"]) }
        for index in indexes { try db.execute(sql: "DROP INDEX \(index.name.quotedDatabaseIdentifier)") }
        return indexes
    }

    /// About how many notes the collection holds, at once: the largest note id.
    package func noteCountEstimate() throws -> Int {
        try Int.fetchOne(db, sql: "SELECT max(id) FROM note") ?? 0
    }

    package func restore(_ indexes: [SecondaryIndex]) throws {
        for index in indexes { try db.execute(sql: index.sql) }
    }

    package func deck(named name: String) throws -> Deck? {
        try Collection.deck(db, named: name)
    }

    package func deck(id: Int64) throws -> Deck {
        try Collection.deck(db, id: id)
    }

    package func createDeck(name: String, kind: NoteKind?, description: String = "", templates: [CardTemplate],
                           preset: Preset?, presetID: Int64? = nil, speak: String? = nil, source: String? = nil, ankiID: Int64? = nil,
                           limits: DeckLimits = DeckLimits(), ankiJSON: String? = nil) throws -> Deck {
        try Collection.createDeck(db, name: name, kind: kind, description: description, templates: templates,
                                  preset: preset, presetID: presetID, speak: speak, source: source, ankiID: ankiID, limits: limits,
                                  ankiJSON: ankiJSON, now: now)
    }

    /// The preset made from Anki's deck options with this id, if there is one.
    package func presetID(ankiConfigID: Int64) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM preset WHERE json_valid(anki_config) AND json_extract(anki_config, '$.id') = ? ORDER BY id",
                           arguments: [ankiConfigID])
    }

    /// `name`, or "name 2", "name 3"… when a preset has it already.
    package func freePresetName(_ name: String) throws -> String {
        var candidate = name, number = 1
        while try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM preset WHERE name = ?", arguments: [candidate]) == true {
            number += 1
            candidate = "\(name) \(number)"
        }
        return candidate
    }

    package func update(_ deck: Deck) throws {
        try Collection.update(db, deck)
    }

    package func preset(id: Int64) throws -> Preset {
        try Collection.preset(db, id: id)
    }

    package func presets() throws -> [Preset] {
        try Collection.presets(db)
    }

    package func decks() throws -> [Deck] {
        try Row.fetchAll(db, sql: "SELECT \(DeckTable.columns) FROM deck ORDER BY name").map(DeckTable.decode)
    }

    /// A deck's cards, as read inside this transaction.
    package func cards(deckID: Int64) throws -> [Card] {
        try Collection.fetchCards(db, "SELECT \(CardTable.columns) FROM card WHERE deck_id = ? ORDER BY new_position", [deckID])
    }

    /// A card's log, oldest first, as read inside this transaction; `ownOnly`: only the entries
    /// that have no Anki id yet (given here).
    package func reviewLog(cardID: Int64, ownOnly: Bool = false) throws -> [ReviewLog] {
        let own = ownOnly ? " AND anki_id IS NULL" : ""
        return try Collection.fetchAll(db, "SELECT \(ReviewLogTable.columns) FROM review_log WHERE card_id = ?\(own) ORDER BY id", [cardID], {
            ReviewLogTable.Decoder($0).decode
        })
    }

    @discardableResult
    package func save(_ preset: Preset) throws -> Preset {
        try Collection.save(db, preset)
    }

    package func saveUnit(deckID: Int64, key: String, title: String, position: Int) throws -> Int64 {
        try Collection.upsertUnit(db, deckID: deckID, key: key, title: title, position: position)
    }

    package func note(guid: String) throws -> Note? {
        try Collection.note(db, guid: guid)
    }

    /// Deletes what the other side deleted, by the ids Anki knows it by: Anki's own, or for a
    /// note or card made here that has none yet, the id exports proposed for it (a note added
    /// here, synced, then deleted on a phone was kept here before). The notes go with their
    /// cards, as `Collection.deleteNote` deletes them; a card deleted without its note (Anki's
    /// Empty Cards) goes alone, as `check --repair` deletes one. Their answers stay in the log.
    /// False, with nothing deleted, where a note that stays would be left without a card:
    /// Anki deletes a note with its last card, so that is not what the other side holds.
    package func deleteAnkiRecords(notes: [Int64], cards: [Int64]) throws -> Bool {
        guard !notes.isEmpty || !cards.isEmpty else { return true }
        let (goneNotes, goneCards) = try Collection.ankiRecordsHere(db, notes: notes, cards: cards)
        let goneNoteList = goneNotes.map(String.init).joined(separator: ","), goneCardList = goneCards.map(String.init).joined(separator: ",")
        let emptied = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM card c WHERE c.id IN (\(goneCardList))
                           AND NOT EXISTS (SELECT 1 FROM card o WHERE o.note_id = c.note_id AND o.id NOT IN (\(goneCardList))))
            """) ?? true
        guard !emptied else { return false }
        try db.execute(sql: "DELETE FROM note WHERE id IN (\(goneNoteList))")
        try db.execute(sql: "DELETE FROM card WHERE id IN (\(goneCardList))")
        return true
    }

    /// Deletes a deck that holds no note or card (a sync's take of a deck deleted on a phone):
    /// its units and kept day counts go with it, its answers stay in the log. False, with
    /// nothing deleted, where it still holds one.
    package func deleteEmptyDeck(id: Int64) throws -> Bool {
        let holds = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM note WHERE deck_id = ?1) OR EXISTS (SELECT 1 FROM card WHERE deck_id = ?1)
            """, arguments: [id]) ?? true
        guard !holds else { return false }
        try db.execute(sql: "DELETE FROM deck WHERE id = ?", arguments: [id])
        return true
    }

    /// A deck's notes by guid: the file each came from (`Note.source`).
    package func noteSources(deckID: Int64) throws -> [String: String?] {
        var sources: [String: String?] = [:]
        try db.cachedStatement(sql: "SELECT guid, source FROM note WHERE deck_id = ?").forEachRow([deckID]) { row in
            sources[row.text(0)] = row.optionalText(1)
        }
        return sources
    }

    /// All notes of a deck by guid, for an importer deciding what to add and what to update.
    package func notesByGUID(deckID: Int64) throws -> [String: Note] {
        var notes: [String: Note] = [:]
        for note in try Collection.fetchNotes(db, "SELECT \(NoteTable.columns) FROM note WHERE deck_id = ?", [deckID]) {
            notes[note.guid] = note
        }
        return notes
    }

    /// The Anki note type kept under Anki's id.
    package func ankiNoteType(id: Int64) throws -> AnkiNoteType? { try Collection.ankiNoteType(db, id: id) }

    /// Keeps Anki note types whole, by Anki's id: a newer definition of one replaces it.
    package func save(_ noteTypes: [AnkiNoteType]) throws {
        for type in noteTypes {
            try db.execute(sql: """
                INSERT INTO note_type (anki_id, name, definition, modified_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(anki_id) DO UPDATE SET name = excluded.name, definition = excluded.definition, modified_at = excluded.modified_at
                WHERE excluded.modified_at >= note_type.modified_at
                """, arguments: [type.id, type.name, try StableJSON.string(type), type.modified])
        }
    }

    /// Keeps newer definitions of Anki note types whose notes and cards export as before (the
    /// caller's rule: the same fields, card names and sort field; a style, the HTML around the
    /// fields), marking none of their notes for a sync's export as `save` does (the trigger
    /// marks a type's every note): the next sync's part would export them all again, unchanged.
    /// A note marked before stays marked, and every note is where a kept export base needs the marks.
    package func saveRestyled(_ noteTypes: [AnkiNoteType]) throws {
        let tracked = try Collection.unmarksForSyncAlone(db)
        for type in noteTypes {
            guard tracked else {
                try save([type])
                continue
            }
            let marked = try Int64.fetchAll(db, sql: """
                SELECT mark.note_id FROM sync_dirty_note mark JOIN note ON note.id = mark.note_id WHERE note.anki_note_type = ?
                """, arguments: [type.id])
            let last = try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM sync_dirty_note") ?? 0
            try save([type])
            try db.execute(sql: "DELETE FROM sync_dirty_note WHERE rowid > ? AND note_id NOT IN (SELECT value FROM json_each(?))",
                           arguments: [last, "[" + marked.map(String.init).joined(separator: ",") + "]"])
        }
    }

    /// Whether Anki's note type `ankiID` is kept here.
    package func hasNoteType(ankiID: Int64) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM note_type WHERE anki_id = ?)", arguments: [ankiID]) ?? false
    }

    /// Records a card's modification time in Anki (a schedule taken from a package).
    package func setAnkiModified(cardID: Int64, _ seconds: Int64?) throws {
        try db.cachedStatement(sql: "UPDATE card SET anki_mod = ? WHERE id = ?").execute(arguments: [seconds, cardID])
    }

    /// Notes whose field text contains `text`, in the given decks.
    package func notes(containing text: String, deckIDs: [Int64]) throws -> [Note] {
        guard !deckIDs.isEmpty else { return [] }
        return try Collection.fetchNotes(db, """
            SELECT \(NoteTable.columns) FROM note WHERE deck_id IN (\(deckIDs.map(String.init).joined(separator: ",")))
            AND field_values LIKE ? ESCAPE '\\'
            """, ["%" + Collection.likeEscaped(text) + "%"])
    }

    package func nextNotePosition(deckID: Int64) throws -> Int {
        try Collection.nextPosition(db, deckID: deckID)
    }

    @discardableResult
    package func addNote(_ draft: NoteDraft, deck: Deck) throws -> Note {
        try Collection.addNoteWithCards(db, draft, deck: deck, now: now).note
    }

    /// Adds a note and returns the cards made for it.
    package func addNoteWithCards(_ draft: NoteDraft, deck: Deck) throws -> (note: Note, cards: [NewCard]) {
        try Collection.addNoteWithCards(db, draft, deck: deck, now: now)
    }

    /// The card that has Anki's id `ankiID`, if any.
    package func card(ankiID: Int64) throws -> Card? {
        try Collection.fetchCards(db, "SELECT \(CardTable.columns) FROM card WHERE anki_id = ?", [ankiID]).first
    }

    /// The cards with these Anki ids, by Anki's id, in one pass (Anki's ids have no index).
    package func cards(ankiIDs: [Int64]) throws -> [Int64: Card] {
        // No index holds Anki's card ids: asking for none read every card (5 ms at 20,000), once in every sync that takes anything.
        guard !ankiIDs.isEmpty else { return [:] }
        let list = String(decoding: try JSONSerialization.data(withJSONObject: ankiIDs), as: UTF8.self)
        let cards = try Collection.fetchCards(db, "SELECT \(CardTable.columns) FROM card WHERE anki_id IN (SELECT value FROM json_each(?))", [list])
        return Dictionary(cards.compactMap { card in card.ankiID.map { ($0, card) } }) { first, _ in first }
    }

    package func cards(noteID: Int64) throws -> [Card] {
        try Collection.cards(db, noteID: noteID)
    }

    /// Sets a card's scheduling state, logging the change.
    package func setState(cardID: Int64, _ state: CardState, kind: ReviewLogEntry.Kind = .imported) throws {
        var binder = Binder()
        _ = try Collection.setState(db, card: try Collection.card(db, id: cardID), state, at: now, kind: kind, &binder)
    }

    /// A card takes Anki's row: its state where one is given (logged as an import's, as
    /// `setState` logs one) and the rest of the row, in one statement, so the card's triggers
    /// (its modification time, a sync's marks) run once and not once a column.
    package func takeAnkiRow(cardID: Int64, _ row: AnkiCardRow, state: CardState?) throws {
        let rest = """
            anki_mod = ?, suspended = ?, buried_until = ?, buried_by_user = ?, flags = ?,
            anki_custom_data = ?, anki_original_position = ?, anki_position = ?, anki_retention = ?,
            deck_id = coalesce(?, (SELECT deck_id FROM note WHERE note.id = card.note_id))
            """
        func bindRest(_ binder: inout Binder) {
            binder.int(row.modified); binder.bool(row.suspended); binder.date(row.buriedUntil)
            binder.bool(row.buriedUntil != nil && row.buriedByUser); binder.int(row.flags)
            binder.text(row.data.customData); binder.int(row.data.originalPosition); binder.int(row.data.position)
            binder.double(row.data.retention); binder.int(row.deckID); binder.int(cardID)
        }
        var binder = Binder()
        guard let state = state?.storedForm else {
            binder.begin(try db.cachedStatement(sql: "UPDATE card SET \(rest) WHERE id = ?"))
            bindRest(&binder)
            return try binder.step(db)
        }
        guard state.isValid else { throw StoreError.invalidState(cardID: cardID) }
        let card = try Collection.card(db, id: cardID)
        binder.begin(try db.cachedStatement(sql: "UPDATE card SET \(CardStateColumns.assignments), \(rest) WHERE id = ?"))
        CardStateColumns.bind(state, &binder)
        bindRest(&binder)
        try binder.step(db)
        let entry = ReviewLogEntry(time: now, kind: .imported, rating: nil, scheduler: "manual", before: card.state, after: state)
        _ = try ReviewLogTable.append(entry, cardID: card.id, deckID: card.deckID, db, &binder)
    }

    package func setFlags(cardID: Int64, suspended: Bool? = nil, starred: Bool? = nil, buriedUntil: Date? = nil) throws {
        if let suspended { try db.cachedStatement(sql: "UPDATE card SET suspended = ? WHERE id = ?").execute(arguments: [suspended, cardID]) }
        if let starred { try db.cachedStatement(sql: "UPDATE card SET starred = ? WHERE id = ?").execute(arguments: [starred, cardID]) }
        if let buriedUntil {
            try db.cachedStatement(sql: "UPDATE card SET buried_until = ? WHERE id = ?").execute(arguments: [buriedUntil.unixSeconds, cardID])
        }
    }

    /// When the card's burial ends; nil lifts it.
    package func setBuriedUntil(cardID: Int64, _ until: Date?) throws {
        try db.cachedStatement(sql: "UPDATE card SET buried_until = ?, buried_by_user = buried_by_user AND ? WHERE id = ?")
            .execute(arguments: [until?.unixSeconds, until != nil, cardID])
    }

    /// Moves a note and the given cards to another deck, each card under the name its template
    /// has there (a deck names the templates of each note type its own way). `apart`: cards that
    /// stay in a deck of their own (Anki's Change Deck on some of a note's cards), by card id.
    package func move(noteID: Int64, toDeck deckID: Int64, position: Int, cards: [(cardID: Int64, template: String)],
                      apart: [Int64: Int64] = [:]) throws {
        try Collection.move(db, noteID: noteID, toDeck: deckID, position: position, cards: cards, apart: apart)
    }

    /// Stars or unstars every card of a note.
    package func setStarred(noteID: Int64, _ starred: Bool) throws {
        try db.cachedStatement(sql: "UPDATE card SET starred = ? WHERE note_id = ?").execute(arguments: [starred, noteID])
    }

    /// Gives a note and a card Anki's ids where they have none yet (a note first met in a
    /// text file, then in a package).
    package func adoptAnkiIDs(noteID: Int64, _ note: Int64?, cardID: Int64, _ card: Int64?) throws {
        if let note { try db.cachedStatement(sql: "UPDATE note SET anki_id = ? WHERE id = ? AND anki_id IS NULL").execute(arguments: [note, noteID]) }
        if let card { try db.cachedStatement(sql: "UPDATE card SET anki_id = ? WHERE id = ? AND anki_id IS NULL").execute(arguments: [card, cardID]) }
    }

    /// When a card last changed here (seconds): its newest log entry, or, when later, the
    /// modification time Anki gave it when it came.
    package func lastChange(cardID: Int64) throws -> Int64 {
        try Int64.fetchOne(db, sql: """
            SELECT max(coalesce((SELECT max(time) FROM review_log WHERE card_id = ?1) / 1000, 0), coalesce(anki_mod, 0))
            FROM card WHERE id = ?1
            """, arguments: [cardID]) ?? 0
    }

    /// What the collection holds of Anki's cards and notes, as an import compares them.
    package func storedAnkiRecords() throws -> StoredAnkiRecords {
        var records = StoredAnkiRecords()
        try db.makeStatement(sql: "SELECT anki_id, note_id, anki_mod FROM card WHERE anki_id IS NOT NULL AND anki_mod IS NOT NULL").forEachRow { row in
            records.cards[row.int64(0)] = .init(note: row.int64(1), modified: row.int64(2))
        }
        // A note type's names and languages are the same for each of its notes: split once.
        struct Columns: Hashable { let names, languages: String }
        var fieldsOf: [Columns: (names: [String], languages: [String?])] = [:]
        try db.makeStatement(sql: """
            SELECT guid, field_values, tags, field_names, field_languages, kind, note_type, anki_note_type, html, unit_id IS NOT NULL, id
            FROM note WHERE anki_id IS NOT NULL
            """).forEachRow { row in
            let key = Columns(names: row.text(3), languages: row.text(4))
            let fields = fieldsOf[key] ?? {
                let names = NoteTable.split(key.names)
                let fields = (names, NoteTable.languages(key.languages, fields: names.count))
                fieldsOf[key] = fields
                return fields
            }()
            records.notes[row.text(0)] = StoredAnkiRecords.Note(
                id: row.int64(10), values: row.text(1), tags: row.text(2), fieldNames: fields.names, languages: fields.languages,
                kind: NoteKind(rawValue: row.text(5)) ?? .basic, noteType: row.optionalText(6), ankiNoteType: row.optionalInt64(7),
                html: row.bool(8), inUnit: row.bool(9))
        }
        return records
    }

    /// Answers of cards deleted in Anki, which Anki keeps. Each card's join the card here with
    /// its Anki id, alive or gone (a card made here and gone by the id exports gave it, as a
    /// phone that answered it, then deleted it, knows it); else a gone card of their own,
    /// numbered past every card, in no deck (0). An answer the log holds already (by Anki's id)
    /// is not added twice. Answers how many were added.
    @discardableResult
    package func keepGoneCards(_ gone: [GoneCardDraft]) throws -> Int {
        guard !gone.isEmpty else { return 0 }
        let list = String(decoding: try JSONSerialization.data(withJSONObject: gone.map(\.ankiID)), as: UTF8.self)
        var here: [Int64: (id: Int64, deck: Int64)] = [:]
        let ankiID = Collection.goneAnkiIDSQL()
        try db.cachedStatement(sql: "SELECT \(ankiID), id, 0 FROM gone_card WHERE \(ankiID) IN (SELECT value FROM json_each(?))")
            .forEachRow([list]) { here[$0.int64(0)] = ($0.int64(1), $0.int64(2)) }
        for (ankiID, card) in try cards(ankiIDs: gone.map(\.ankiID)) { here[ankiID] = (card.id, card.deckID) }
        var added = 0
        for card in gone {
            let target: (id: Int64, deck: Int64)
            if let known = here[card.ankiID] {
                target = known
            } else {
                let id = (try Int64.fetchOne(db, sql: "SELECT max(coalesce((SELECT max(id) FROM card), 0), coalesce((SELECT max(id) FROM gone_card), 0))") ?? 0) + 1
                try db.execute(sql: "INSERT INTO gone_card (id, anki_id) VALUES (?, ?)", arguments: [id, card.ankiID])
                target = (id, 0)
                here[card.ankiID] = target
            }
            let known = try ankiLogIDs(cardID: target.id)
            for entry in card.history where !(entry.ankiID.map(known.contains) ?? false) {
                try appendLog(entry, cardID: target.id, deckID: target.deck)
                added += 1
            }
        }
        return added
    }

    /// The Anki review-log ids a card's log already holds.
    package func ankiLogIDs(cardID: Int64) throws -> Set<Int64> {
        // Cached: a sync's take asks it once for each of a thousand cards, and preparing it was most of the asking.
        var ids = Set<Int64>()
        try db.cachedStatement(sql: "SELECT anki_id FROM review_log WHERE card_id = ? AND anki_id IS NOT NULL").forEachRow([cardID]) { ids.insert($0.int64(0)) }
        return ids
    }

    /// Cards, and cards that are gone, with rows given here that an export writes for Anki (an
    /// answer, a reset, a due date set) and that keep no Anki id yet, each with the id the
    /// export gives the card in Anki's file (its own, or the one exports propose). `notes`:
    /// only the cards of these notes, and gone cards; nil, every card.
    package func cardsWithAnswersWithoutAnkiIDs(notes: [Int64]?) throws -> [(cardID: Int64, ankiCardID: Int64)] {
        let noteFilter = notes == nil ? "1" : "c.note_id IN (SELECT value FROM json_each(?))"
        let arguments: StatementArguments = try notes.map { [String(decoding: try JSONEncoder().encode($0), as: UTF8.self)] } ?? []
        return try Row.fetchAll(db, sql: """
            SELECT r.card_id, CASE WHEN c.id IS NOT NULL THEN coalesce(c.anki_id, \(Collection.proposedAnkiIDSQL(created: "n.created_at", id: "c.id")))
                                   ELSE \(Collection.goneAnkiIDSQL("g")) END AS anki
            FROM (SELECT DISTINCT card_id FROM review_log WHERE anki_id IS NULL AND (kind = 1 OR rating > 0)) AS r
              LEFT JOIN card c ON c.id = r.card_id LEFT JOIN note n ON n.id = c.note_id LEFT JOIN gone_card g ON g.id = r.card_id
            WHERE (c.id IS NULL AND g.id IS NOT NULL) OR (c.id IS NOT NULL AND \(noteFilter))
            """, arguments: arguments).compactMap { row -> (cardID: Int64, ankiCardID: Int64)? in
                guard let ankiCardID = row[1] as Int64? else { return nil }
                return (row[0], ankiCardID)
            }
    }

    /// Of these cards (and cards that are gone): the rows given here that an export writes for
    /// Anki and that have no Anki id, in order of card and row, and the Anki ids each card's log
    /// holds from the earliest of those rows' times on (an id such a row can take is at or after
    /// its time: `DeckImport.isRow`). Two queries for all of them: a sync that sent a thousand
    /// cards' answers asked three for each card (0.3 s); and read by the indexes, not every row
    /// of those cards (each sync that takes a card adds a row without an id that none is for).
    package func answersWithoutAnkiIDs(cardIDs: [Int64]) throws -> (own: [ReviewLog], held: [Int64: Set<Int64>]) {
        let list = String(decoding: try JSONEncoder().encode(cardIDs), as: UTF8.self)
        let own = try Collection.fetchAll(db, """
            SELECT \(ReviewLogTable.columns) FROM review_log
            WHERE card_id IN (SELECT value FROM json_each(?)) AND anki_id IS NULL AND (kind = 1 OR rating > 0) ORDER BY card_id, id
            """, [list], { ReviewLogTable.Decoder($0).decode })
        var held: [Int64: Set<Int64>] = [:]
        guard let earliest = own.map(\.entry.time.unixMilliseconds).min() else { return (own, held) }
        try db.makeStatement(sql: "SELECT card_id, anki_id FROM review_log WHERE card_id IN (SELECT value FROM json_each(?)) AND anki_id >= ?")
            .forEachRow([list, earliest]) { held[$0.int64(0), default: []].insert($0.int64(1)) }
        return (own, held)
    }

    /// An answer given here, come back from Anki: it keeps Anki's id from now on.
    package func adoptLogID(_ rowID: Int64, ankiID: Int64) throws {
        try db.cachedStatement(sql: "UPDATE review_log SET anki_id = ? WHERE id = ? AND anki_id IS NULL").execute(arguments: [ankiID, rowID])
    }

    /// Adds one entry of a card's history (from another program's review log).
    package func appendLog(_ entry: ReviewLogEntry, cardID: Int64, deckID: Int64) throws {
        var binder = Binder()
        try ReviewLogTable.append(entry, cardID: cardID, deckID: deckID, db, &binder)
    }
}

extension Collection {
    /// Runs `body` with a writer in one transaction.
    ///
    /// `bulk` is for an importer: SQLite's foreign-key checks are off for that transaction.
    /// An importer's rows point at rows it has just written or read in the same transaction,
    /// so checking each of them again cost a tenth of a large import and found nothing;
    /// `maeil check` still checks the whole file.
    package func batch<T>(now: Date, bulk: Bool = false, _ body: (CollectionWriter) throws -> T) throws -> T {
        guard bulk else { return try transaction { db in try body(CollectionWriter(db: db, now: now)) } }
        try checkBeforeWriting()
        return try StoreError.during(path) { try pool.writeWithoutTransaction { db in
            // The pragma is ignored inside a transaction, so it is set around one.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            defer { try? db.execute(sql: "PRAGMA foreign_keys = ON") }
            var result: T?
            try db.inTransaction(.immediate) {
                result = try body(CollectionWriter(db: db, now: now))
                return .commit
            }
            return result!
        } }
    }
}

extension CollectionWriter {
    /// Replaces a note's content, keeping every card's schedule.
    package func updateNote(_ note: Note) throws {
        var inserter = try NoteInserter(db: db, deck: try deck(id: note.deckID), now: now)
        try inserter.update(note)
    }
}
