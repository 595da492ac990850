import Foundation
import GRDB
import GRDBSQLite
import MaeilCore
import MaeilSQLite

/// Writes notes and their cards into one deck, as fast as SQLite takes them: an import of
/// 20,000 notes spends most of its time here. Every note and card the store creates or
/// rewrites goes through it, so the note and card columns have this one encoder.
///
/// Its statements are prepared once per connection (GRDB's cache: an edit makes an inserter per
/// note, and preparing them, with the triggers they fire, took a millisecond each time) and bound
/// through SQLite's C API, and what notes of a deck share (the field names and languages) is
/// joined once.
package struct NoteInserter {
    private let db: Database
    private let deck: Deck
    private let nowSeconds: Int64
    /// The deck's curriculum units by key: (id, position).
    private let units: [String: (id: Int64, position: Int)]
    private let insertNote: Statement
    private let insertCard: Statement
    private let appendLog: Statement
    private var lastNames: [String] = []
    private var lastLanguages: [String?] = []
    private var namesColumn = ""
    private var languagesColumn = ""
    /// Reused for every note: the values and tags columns as UTF-8.
    private var values: [UInt8] = []
    private var tags: [UInt8] = []
    private var bind = Binder()
    /// New cards waiting to be written `batchSize` to a statement: one statement per card
    /// cost more in SQLite's per-statement work than in writing the rows.
    private var pending: [(noteID: Int64, template: String, ordinal: Int, unitPosition: Int?, newPosition: Int64, ankiPosition: Int64?,
                           noteTie: NoteTie?)] = []
    /// A card's copy of its note's `Schema.noteTieValues`, where the inserter knows them (a note
    /// it just wrote); nil leaves them to the trigger that takes them from the note.
    private typealias NoteTie = (created: Int64, changed: Int64)
    /// The place in Anki's new queue the next note made here takes (read when first needed).
    private var nextAnkiPosition: Int64?
    private var insertCards: Statement?
    /// The highest number a gone card holds (`gone_card`), while it is at or past every card's:
    /// SQLite would give the next card that number (the highest plus one), and with it the gone
    /// card's answers. Nil once a card is numbered past it.
    private var goneFloor: Int64?
    private let insertCardNumbered: Statement
    static let batchSize = 32
    /// The decks here of the Anki decks an import's cards come in, by Anki's id: a card Anki
    /// keeps in another deck than its note's (`CardDraft.ankiDeckID`) is written into it.
    package var cardDecks: [Int64: Int64] = [:]

    static let cardColumns = "note_id, deck_id, template, ordinal, unit_position, new_position, suspended, buried_until, anki_mod, anki_id, flags, "
        + "anki_custom_data, anki_original_position, anki_position, anki_retention, "
        + "buried_by_user, note_created, note_changed, "
        + CardStateColumns.list()
    static let cardRow = "(" + Array(repeating: "?", count: 18 + CardStateColumns.names.count).joined(separator: ", ") + ")"

    init(db: Database, deck: Deck, now: Date) throws {
        self.db = db
        self.deck = deck
        nowSeconds = now.unixSeconds
        var units: [String: (id: Int64, position: Int)] = [:]
        for unit in try Collection.units(db, deckID: deck.id) { units[unit.key] = (unit.id, unit.position) }
        self.units = units
        insertNote = try db.cachedStatement(sql: """
            INSERT INTO note (kind, note_type, field_names, field_values, field_languages, tags, unit_id, position, source, modified_at,
                              html, anki_note_type, anki_mod, guid, deck_id, created_at, anki_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(guid) DO NOTHING
            """)
        insertCard = try db.cachedStatement(sql: "INSERT INTO card (\(Self.cardColumns)) VALUES \(Self.cardRow)")
        insertCardNumbered = try db.cachedStatement(sql: "INSERT INTO card (\(Self.cardColumns), id) VALUES \(Self.cardRow.dropLast()), ?)")
        goneFloor = try Int64.fetchOne(db, sql: "SELECT max(id) FROM gone_card WHERE id >= (SELECT coalesce(max(id), 0) FROM card)")
        appendLog = try db.cachedStatement(sql: ReviewLogTable.insertSQL)
    }

    /// The id of the deck's unit with this key.
    package func unitID(_ key: String?) -> Int64? { key.flatMap { units[$0]?.id } }

    /// Adds a note and the cards its deck's templates give it. A card with a draft in
    /// `draft.cards` takes that schedule, flags and history; the others are new. `scheduled`
    /// counts the cards that took a schedule. Returns nil, writing nothing, when a note with the
    /// draft's guid is already in the collection (guids are unique across decks).
    ///
    /// `listingCards: false` is for an importer: `cards` comes back empty, and new cards
    /// without a draft wait to be written several to a statement, so the caller must `flush`
    /// before it reads cards and when it is done.
    @discardableResult
    package mutating func add(_ draft: NoteDraft, listingCards: Bool = true) throws -> (noteID: Int64, cards: [NewCard], scheduled: Int)? {
        let unit = draft.unit.flatMap { units[$0] }
        try Self.checkSizes(draft.fields)
        bind.begin(insertNote)
        bindContent(kind: draft.kind, noteType: draft.noteType, fields: draft.fields, tags: draft.tags, unitID: unit?.id,
                    position: draft.position, source: draft.origin)
        bind.bool(draft.html); bind.int(draft.ankiNoteTypeID); bind.int(draft.ankiModified)
        bind.text(draft.guid); bind.int(deck.id); bind.int(nowSeconds); bind.int(draft.ankiID)
        try bind.step(db)
        guard sqlite3_changes(db.sqliteConnection) > 0 else { return nil }
        let noteID = sqlite3_last_insert_rowid(db.sqliteConnection)
        // As the note was just written: made now, and changed now unless it is Anki's.
        let tie = (created: nowSeconds, changed: Collection.noteChanged(ankiMod: draft.ankiModified, modified: nowSeconds))
        let (cards, scheduled) = try addCards(noteID: noteID, fields: draft.fields, tags: draft.tags, noteType: draft.noteType, position: draft.position,
                                              unitPosition: unit?.position, existing: [], drafts: draft.cards, listingCards: listingCards,
                                              noteTie: tie)
        return (noteID, cards, scheduled)
    }

    /// Rewrites a note's content, keeping every card's schedule: a template the fields satisfy
    /// for the first time gets a new card, and the new-card order follows the note's place.
    package mutating func update(_ note: Note) throws {
        try Self.checkSizes(note.fields)
        try flush()
        bind.begin(try db.cachedStatement(sql: """
            UPDATE note SET kind = ?, note_type = ?, field_names = ?, field_values = ?, field_languages = ?, tags = ?, unit_id = ?,
            position = ?, source = ?, modified_at = ?, html = ?, anki_note_type = ?, anki_mod = ? WHERE id = ?
            """))
        bindContent(kind: note.kind, noteType: note.noteType, fields: note.fields, tags: note.tags, unitID: note.unitID,
                    position: note.position, source: note.source)
        bind.bool(note.html); bind.int(note.ankiNoteTypeID); bind.int(note.ankiModified)
        bind.int(note.id)
        try bind.step(db)
        let unitPosition = units.values.first { $0.id == note.unitID }?.position
        let existing = try Collection.cards(db, noteID: note.id).map { "\($0.template)#\($0.ordinal)" }
        _ = try addCards(noteID: note.id, fields: note.fields, tags: note.tags, noteType: note.noteType, position: note.position,
                         unitPosition: unitPosition, existing: Set(existing))
        for (index, template) in deck.templates.enumerated() {
            try db.cachedStatement(sql: "UPDATE card SET unit_position = ?, new_position = (? | ordinal) WHERE note_id = ? AND template = ?")
                .execute(arguments: [unitPosition, Collection.newPosition(unit: unitPosition, note: note.position, template: index, ordinal: 0),
                                     note.id, template.name])
        }
    }

    /// Anki's cards of a note here that the note lacks (an import before Maeil kept a card its
    /// fields no longer give dropped it, with its answers), made with their schedules and
    /// answers as a new note's are. Answers how many took a schedule.
    package mutating func addAnkiCards(_ drafts: [CardDraft], to note: Note) throws -> Int {
        let existing = Set(try Collection.cards(db, noteID: note.id).map { "\($0.template)#\($0.ordinal)" })
        let missing = drafts.filter { $0.ankiID != nil && !existing.contains("\($0.template)#\($0.ordinal)") }
        guard !missing.isEmpty else { return 0 }
        try flush()
        let unitPosition = units.values.first { $0.id == note.unitID }?.position
        return try addCards(noteID: note.id, fields: note.fields, tags: note.tags, noteType: note.noteType, position: note.position,
                            unitPosition: unitPosition, existing: existing, drafts: missing).scheduled
    }

    /// Every write of a note passes here: a field over `NoteField.maximumBytes` is refused.
    static func checkSizes(_ fields: [NoteField]) throws {
        if let field = fields.first(where: { $0.value.utf8.count > NoteField.maximumBytes }) {
            throw StoreError.fieldTooLarge(name: field.name, bytes: field.value.utf8.count)
        }
    }

    /// The note columns an insert and an update share, in that order.
    private mutating func bindContent(kind: NoteKind, noteType: String?, fields: [NoteField], tags noteTags: [String], unitID: Int64?,
                                      position: Int, source: String?) {
        if !fields.elementsEqual(lastNames, by: { $0.name == $1 }) || !fields.elementsEqual(lastLanguages, by: { $0.language == $1 }) {
            lastNames = fields.map(\.name)
            lastLanguages = fields.map(\.language)
            namesColumn = NoteTable.namesColumn(fields)
            languagesColumn = NoteTable.languagesColumn(fields)
        }
        values.removeAll(keepingCapacity: true)
        NoteTable.appendValues(fields, to: &values)
        tags.removeAll(keepingCapacity: true)
        Tags.appendColumn(noteTags, to: &tags)
        bind.text(kind.rawValue); bind.text(noteType); bind.text(namesColumn); bind.utf8(values); bind.text(languagesColumn)
        bind.utf8(tags); bind.int(unitID); bind.int(position); bind.text(source); bind.int(nowSeconds)
    }

    /// Creates the cards a note should have and does not (`existing` holds "template#ordinal" keys).
    /// A card of Anki's (a draft with Anki's id) is made too where the note's fields no longer
    /// give it: Anki keeps such a card (a cloze number taken out, an optional field emptied),
    /// with its schedule and answers, until its Empty Cards deletes it, and so does Maeil. For
    /// the same reason a cloze note from Anki without a deletion gets no first card beside
    /// Anki's own.
    private mutating func addCards(noteID: Int64, fields: [NoteField], tags: [String], noteType: String?, position: Int, unitPosition: Int?,
                                   existing: Set<String>, drafts: [CardDraft] = [], listingCards: Bool = true, noteTie: NoteTie? = nil) throws
        -> (cards: [NewCard], scheduled: Int) {
        var cards: [NewCard] = []
        var scheduled = 0
        // New cards made here share their note's place in Anki's new queue, as Anki gives one per note.
        var notePosition: Int64?
        let ankiCards = drafts.filter { $0.ankiID != nil }
        var madeCount = 0
        func makeCard(template index: Int, ordinal: Int, draft: CardDraft?) throws {
            madeCount += 1
            let name = deck.templates[index].name
            let deckID = draft?.ankiDeckID.flatMap { cardDecks[$0] } ?? deck.id
            let newPosition = Collection.newPosition(unit: unitPosition, note: position, template: index, ordinal: ordinal)
            var ankiPosition = draft?.ankiPosition
            if draft == nil {
                if notePosition == nil { notePosition = try takeAnkiPosition() }
                ankiPosition = notePosition
            }
            if draft == nil, !listingCards {
                pending.append((noteID, name, ordinal, unitPosition, newPosition, ankiPosition, noteTie))
                if pending.count == Self.batchSize { try flush() }
                return
            }
            let cardID = try insertOneCard(noteID: noteID, deckID: deckID, template: name, ordinal: ordinal, unitPosition: unitPosition,
                                           newPosition: newPosition, ankiPosition: ankiPosition, draft: draft, noteTie: noteTie)
            // A card reset to new keeps its history too.
            for entry in draft?.history ?? [] { try ReviewLogTable.append(entry, cardID: cardID, deckID: deckID, with: appendLog, db, &bind) }
            if let draft, draft.state != .new {
                scheduled += 1
                // A card's state is the one its newest log entry ends with: `maeil check` relies on it.
                // Never older than the history it follows, even when the other program's clock ran ahead.
                let newest = draft.history.lazy.map(\.time).max().map { $0.addingTimeInterval(0.001) } ?? .distantPast
                let arrival = ReviewLogEntry(time: max(Date(unixSeconds: nowSeconds), newest), kind: .imported, rating: nil, scheduler: "manual",
                                             before: .new, after: draft.state.storedForm)
                try ReviewLogTable.append(arrival, cardID: cardID, deckID: deckID, with: appendLog, db, &bind)
            }
            if listingCards { cards.append(NewCard(id: cardID, template: name, ordinal: ordinal)) }
        }
        guard ankiCards.isEmpty else {
            // A note from Anki has the cards Anki gave it, no more: Anki's importer makes none.
            for draft in ankiCards {
                guard !existing.contains("\(draft.template)#\(draft.ordinal)"),
                      let index = deck.templates.firstIndex(where: { $0.name == draft.template && ($0.noteType == nil || $0.noteType == noteType) })
                else { continue }
                try makeCard(template: index, ordinal: draft.ordinal, draft: draft)
            }
            return (cards, scheduled)
        }
        for index in deck.templates.indices {
            let name = deck.templates[index].name
            try deck.templates[index].forEachOrdinal(for: fields, noteType: noteType, hasCards: !existing.isEmpty, hasTags: !tags.isEmpty) { ordinal in
                guard !existing.contains("\(name)#\(ordinal)") else { return }
                try makeCard(template: index, ordinal: ordinal, draft: drafts.first { $0.template == name && $0.ordinal == ordinal })
            }
        }
        // A new note of an Anki note type that no template makes a card for gets its first
        // template's card, as Anki gives it one.
        if madeCount == 0, existing.isEmpty, let first = deck.templates.firstIndex(where: { $0.noteType == noteType && $0.ankiQuestionTags != nil && $0.blanks == nil }) {
            try makeCard(template: first, ordinal: 0, draft: nil)
        }
        return (cards, scheduled)
    }

    /// Writes the new cards still waiting. An importer calls it before it reads or changes
    /// cards some other way, and when it is done with the deck.
    package mutating func flush() throws {
        guard !pending.isEmpty else { return }
        if pending.count == Self.batchSize, try !numbersPastGone() {
            let statement = try insertCards ?? db.makeStatement(
                sql: "INSERT INTO card (\(Self.cardColumns)) VALUES " + Array(repeating: Self.cardRow, count: Self.batchSize).joined(separator: ", "))
            insertCards = statement
            bind.begin(statement)
            for card in pending { bindCard(noteID: card.noteID, deckID: deck.id, template: card.template, ordinal: card.ordinal, unitPosition: card.unitPosition,
                                           newPosition: card.newPosition, ankiPosition: card.ankiPosition, draft: nil, noteTie: card.noteTie) }
            try bind.step(db)
        } else {
            for card in pending {
                try insertOneCard(noteID: card.noteID, deckID: deck.id, template: card.template, ordinal: card.ordinal, unitPosition: card.unitPosition,
                                  newPosition: card.newPosition, ankiPosition: card.ankiPosition, draft: nil, noteTie: card.noteTie)
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes one card, new or with a draft's state and flags; returns its id.
    @discardableResult
    private mutating func insertOneCard(noteID: Int64, deckID: Int64, template: String, ordinal: Int, unitPosition: Int?, newPosition: Int64,
                                        ankiPosition: Int64?, draft: CardDraft?, noteTie: NoteTie?) throws -> Int64 {
        let numbered = try numbersPastGone()
        bind.begin(numbered ? insertCardNumbered : insertCard)
        bindCard(noteID: noteID, deckID: deckID, template: template, ordinal: ordinal, unitPosition: unitPosition, newPosition: newPosition,
                 ankiPosition: ankiPosition, draft: draft, noteTie: noteTie)
        if numbered, let floor = goneFloor { bind.int(floor + 1) }
        try bind.step(db)
        return sqlite3_last_insert_rowid(db.sqliteConnection)
    }

    /// Whether the next card must be numbered past the gone cards by hand: only until one is
    /// (another inserter in the same transaction may have numbered one already).
    private mutating func numbersPastGone() throws -> Bool {
        guard let floor = goneFloor else { return false }
        if try Int64.fetchOne(db, sql: "SELECT max(id) FROM card") ?? 0 > floor {
            goneFloor = nil
            return false
        }
        return true
    }

    /// One card's values, in `cardColumns` order.
    private mutating func bindCard(noteID: Int64, deckID: Int64, template: String, ordinal: Int, unitPosition: Int?, newPosition: Int64,
                                   ankiPosition: Int64?, draft: CardDraft?, noteTie: NoteTie?) {
        bind.int(noteID); bind.int(deckID); bind.text(template); bind.int(ordinal); bind.int(unitPosition); bind.int(newPosition)
        bind.bool(draft?.suspended ?? false); bind.date(draft?.buriedUntil); bind.int(draft?.ankiModified)
        bind.int(draft?.ankiID); bind.int(draft?.flags ?? 0)
        bind.text(draft?.ankiCustomData); bind.int(draft?.ankiOriginalPosition); bind.int(ankiPosition); bind.double(draft?.ankiRetention)
        bind.bool(draft?.buriedByUser ?? false); bind.int(noteTie?.created); bind.int(noteTie?.changed)
        CardStateColumns.bind(draft?.state.storedForm ?? .new, &bind)
    }

    /// The next place in Anki's new queue: Anki's own next position where the collection came
    /// from Anki, and past every place a card holds, as Anki's `nextPos` counts. Kept in `meta`
    /// once worked out: the scan of every card it starts from, made for each note added one at a
    /// time, made adding 100,000 notes quadratic.
    private mutating func takeAnkiPosition() throws -> Int64 {
        if nextAnkiPosition == nil {
            let kept = try Int64.fetchOne(db, sql: """
                SELECT json_extract(value, '$.nextPos') FROM meta WHERE key = 'anki_config' AND json_valid(value)
                """) ?? 0
            if let counted = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'anki_next_position'").flatMap(Int64.init) {
                nextAnkiPosition = max(counted, kept)
            } else {
                let held = try Int64.fetchOne(db, sql: """
                    SELECT max(coalesce(max(anki_position), 0), coalesce(max(anki_original_position), 0)) FROM card
                    """) ?? 0
                nextAnkiPosition = max(held + 1, kept)
            }
        }
        let position = nextAnkiPosition!
        nextAnkiPosition = position + 1
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('anki_next_position', ?)", arguments: [String(position + 1)])
        return position
    }
}

extension CollectionWriter {
    /// A fast way to add many new notes to one deck within this writer's transaction.
    package func noteInserter(deck: Deck) throws -> NoteInserter {
        try NoteInserter(db: db, deck: deck, now: now)
    }
}
