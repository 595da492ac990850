import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// One note on its way out of the collection: its cards in their order, each card's log
/// (oldest first), and what Anki keeps in a card's data that Maeil does not use.
package struct ExportNoteRows {
    package var note: Note
    package var cards: [Card]
    /// By card; empty when the logs were not asked for.
    package var logs: [Int64: [ReviewLogEntry]]
    /// By card, for the cards that have any.
    package var ankiData: [Int64: AnkiCardData]
    /// When each card last changed here (seconds), for the cards that did since they were made.
    package var modified: [Int64: Int64] = [:]
}

/// Decks read for an export inside one read transaction, so the export is one state of the
/// collection even while a session answers, and note by note, so no deck is ever held whole.
package struct ExportReading {
    let db: Database

    /// The note types that came from Anki, by Anki's id.
    package func ankiNoteTypes() throws -> [Int64: AnkiNoteType] { try Collection.ankiNoteTypes(db) }

    /// Anki's collection-wide rules for daily limits, as the collection keeps them.
    package func limitRules() throws -> LimitRules { try Collection.limitRules(db) }

    /// Anki's collection config as a whole collection's file brought it (JSON), if one did.
    package func ankiConfig() throws -> String? { try Collection.ankiConfig(db) }

    /// A deck's answers since `since`, as a day's queue counts them.
    package func answeredSince(deck: Int64, since: Date) throws -> AnsweredToday {
        try QueueRows(db: db).answeredSince(deck: deck, since: since)
    }

    /// Whether a note of the deck is of none of `types`: one added in Maeil, or from a text file.
    /// Only among `only` where it is given: looked up by id, not read through the deck (8 ms at
    /// 20,000 notes of one type).
    package func hasNote(deckID: Int64, outside types: some Sequence<Int64>, among only: [Int64]? = nil) throws -> Bool {
        let list = types.map(String.init).joined(separator: ", ")
        let outside = "(anki_note_type IS NULL OR anki_note_type NOT IN (\(list)))"
        if let only {
            return try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM note WHERE id IN (SELECT value FROM json_each(?)) AND +deck_id = ? AND \(outside))
                """, arguments: [NoteBatchReading.list(only), deckID]) ?? false
        }
        return try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM note WHERE deck_id = ? AND \(outside))", arguments: [deckID]) ?? false
    }

    /// Whether one of these notes, or one of their cards, keeps no Anki id: an export of them
    /// alone makes ids, which must stay clear of every id kept (`ankiIDs`).
    package func makesAnkiIDs(notes: [Int64]) throws -> Bool {
        let list = String(decoding: try JSONSerialization.data(withJSONObject: notes), as: UTF8.self)
        return try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM note WHERE id IN (SELECT value FROM json_each(?1)) AND anki_id IS NULL)
              OR EXISTS (SELECT 1 FROM card WHERE note_id IN (SELECT value FROM json_each(?1)) AND anki_id IS NULL)
            """, arguments: [list]) ?? true
    }

    /// The Anki ids the notes and cards of these decks keep: ids made for the others stay clear of them.
    package func ankiIDs(ofDecks deckIDs: [Int64]) throws -> (notes: Set<Int64>, cards: Set<Int64>) {
        var notes = Set<Int64>(), cards = Set<Int64>()
        let noteIDs = try db.cachedStatement(sql: "SELECT anki_id FROM note WHERE deck_id = ? AND anki_id IS NOT NULL")
        let cardIDs = try db.cachedStatement(sql: """
            SELECT c.anki_id FROM card c JOIN note n ON n.id = c.note_id WHERE n.deck_id = ? AND c.anki_id IS NOT NULL
            """)
        for deck in deckIDs {
            try noteIDs.forEachRow([deck]) { notes.insert($0.int64(0)) }
            try cardIDs.forEachRow([deck]) { cards.insert($0.int64(0)) }
        }
        return (notes, cards)
    }

    /// The earliest due date or last answer of a card of these decks that is not new.
    package func earliestDate(ofDecks deckIDs: [Int64]) throws -> Date? {
        let earliest = "min(min(coalesce(c.due, c.last_review), coalesce(c.last_review, c.due)))"
        // Every deck (a whole collection, a sync): every card, read straight through; looking
        // each card up by its note's deck took 12 ms at 20,000 notes.
        let list = String(decoding: try JSONSerialization.data(withJSONObject: deckIDs), as: UTF8.self)
        if try Bool.fetchOne(db, sql: "SELECT NOT EXISTS (SELECT 1 FROM deck WHERE id NOT IN (SELECT value FROM json_each(?)))", arguments: [list]) == true {
            return try Int64.fetchOne(db, sql: "SELECT \(earliest) FROM card c WHERE c.phase != 'new'").map(Date.init(unixSeconds:))
        }
        let statement = try db.cachedStatement(sql: """
            SELECT \(earliest) FROM card c JOIN note n ON n.id = c.note_id WHERE n.deck_id = ? AND c.phase != 'new'
            """)
        var found: Int64?
        for deck in deckIDs {
            try statement.forEachRow([deck]) { row in
                if let seconds = row.optionalInt64(0) { found = min(found ?? seconds, seconds) }
            }
        }
        return found.map(Date.init(unixSeconds:))
    }

    /// Each deck's notes, by deck, as a whole export counts what it writes; with `studied`, how
    /// many of their cards are not new too (each card looked up by its note: 6 ms at 20,000).
    package func noteCounts(studied: Bool) throws -> [Int64: (notes: Int, studied: Int)] {
        var counts: [Int64: (notes: Int, studied: Int)] = [:]
        try db.cachedStatement(sql: "SELECT deck_id, count(*) FROM note GROUP BY deck_id").forEachRow([]) { row in
            counts[row.int64(0), default: (0, 0)].notes = Int(row.int64(1))
        }
        guard studied else { return counts }
        try db.cachedStatement(sql: """
            SELECT n.deck_id, count(*) FROM card c JOIN note n ON n.id = c.note_id WHERE c.phase != 'new' GROUP BY n.deck_id
            """).forEachRow([]) { row in
            counts[row.int64(0), default: (0, 0)].studied = Int(row.int64(1))
        }
        return counts
    }

    /// Whether a new card keeps no place in Anki's new queue: an export places it by its rank
    /// among every card written, which a card added or deleted before it moves.
    package func hasNewCardWithoutAnkiPlace() throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM card WHERE phase = 'new' AND anki_position IS NULL)") ?? true
    }

    /// The notes a sync must look at again since its base (nil: the collection keeps no marks).
    package func syncDirty() throws -> SyncDirty? { try Collection.syncDirty(db) }

    /// A deck's notes in its order, each with its cards (and their logs when `logs` is set);
    /// only those among `only` when it is given.
    package func forEachNote(deckID: Int64, logs: Bool, only: [Int64]? = nil, _ body: (ExportNoteRows) throws -> Void) throws {
        let notes = try db.cachedStatement(sql: only == nil ? "SELECT \(NoteTable.columns) FROM note WHERE deck_id = ? ORDER BY position, id"
            : "SELECT \(NoteTable.columns) FROM note WHERE deck_id = ? AND id IN (SELECT value FROM json_each(?)) ORDER BY position, id")
        let batch = try NoteBatchReading(db: db, logs: logs)
        let arguments: StatementArguments = only.map { [deckID, NoteBatchReading.list($0)] } ?? [deckID]
        // Notes go out in batches: a statement for each note's cards and each card's log was
        // 40,000 statements at 20,000 notes.
        var pending: [ExportNoteRows] = []
        pending.reserveCapacity(NoteBatchReading.size)
        try notes.forEachRow(arguments) { row in
            pending.append(ExportNoteRows(note: NoteTable.decoder.decode(row), cards: [], logs: [:], ankiData: [:]))
            guard pending.count == NoteBatchReading.size else { return }
            try batch.fill(&pending)
            for rows in pending { try body(rows) }
            pending.removeAll(keepingCapacity: true)
        }
        try batch.fill(&pending)
        for rows in pending { try body(rows) }
    }
}

/// The cards of a batch of notes, and their logs, each read by one statement.
private struct NoteBatchReading {
    static let size = 128
    let cards: Statement, log: Statement?
    let cardDecoder: CardTable.Decoder, logDecoder: ReviewLogTable.Decoder?
    let noteID, customData, originalPosition, modified, position, retention: Int

    init(db: Database, logs: Bool) throws {
        // Each note's cards in the order one note's own query gave them: by place, then as the
        // (note, template, ordinal) index holds them.
        cards = try db.cachedStatement(sql: """
            SELECT \(CardTable.columns), anki_custom_data, anki_original_position, anki_position, anki_retention, modified_at
            FROM card WHERE note_id IN (SELECT value FROM json_each(?)) ORDER BY note_id, new_position, template, ordinal
            """)
        let cardMap = ColumnMap(cards)
        cardDecoder = CardTable.Decoder(cardMap)
        (noteID, customData, originalPosition, modified) = (cardMap["note_id"], cardMap["anki_custom_data"], cardMap["anki_original_position"], cardMap["modified_at"])
        (position, retention) = (cardMap["anki_position"], cardMap["anki_retention"])
        log = logs ? try db.cachedStatement(sql: """
            SELECT \(ReviewLogTable.columns) FROM review_log WHERE card_id IN (SELECT value FROM json_each(?)) ORDER BY card_id, time, id
            """) : nil
        logDecoder = log.map { ReviewLogTable.Decoder(ColumnMap($0)) }
    }

    /// Gives each note of `batch` its cards, and their logs when asked for.
    func fill(_ batch: inout [ExportNoteRows]) throws {
        guard !batch.isEmpty else { return }
        var place: [Int64: Int] = [:]
        for (index, rows) in batch.enumerated() { place[rows.note.id] = index }
        try cards.forEachRow([Self.list(batch.map(\.note.id))]) { row in
            guard let index = place[row.int64(noteID)] else { return }
            let card = cardDecoder.decode(row)
            batch[index].cards.append(card)
            let data = AnkiCardData(customData: row.optionalText(customData), originalPosition: row.optionalInt64(originalPosition),
                                    position: row.optionalInt64(position), retention: row.optionalDouble(retention))
            if !data.isEmpty { batch[index].ankiData[card.id] = data }
            if let time = row.optionalInt64(modified) { batch[index].modified[card.id] = time }
        }
        guard let log, let logDecoder else { return }
        var noteOfCard: [Int64: Int] = [:]
        for (index, rows) in batch.enumerated() { for card in rows.cards { noteOfCard[card.id] = index } }
        guard !noteOfCard.isEmpty else { return }
        try log.forEachRow([Self.list(Array(noteOfCard.keys))]) { row in
            let card = logDecoder.cardID(row)
            guard let index = noteOfCard[card] else { return }
            batch[index].logs[card, default: []].append(logDecoder.entry(row))
        }
    }

    /// Ids as the JSON array `json_each` reads.
    static func list(_ ids: [Int64]) -> String { "[" + ids.map(String.init).joined(separator: ",") + "]" }
}

/// A card that is gone (`gone_card`) and its answers, oldest first, on their way to Anki: Anki
/// keeps a deleted card's answers in its log under the card's id.
package struct GoneCardLog {
    package var cardID: Int64
    /// Its id in Anki (`Collection.goneAnkiID`), where it has one.
    package var ankiID: Int64?
    /// The deck its last answer was given in.
    package var deckID: Int64
    package var history: [ReviewLogEntry]
}

extension Collection {
    /// The id an export proposes to Anki for a note or card made here: the millisecond of the
    /// second its note was made that its own number gives, so records made in one second get
    /// ids of their own. Nil where the note's making is not known.
    package static func proposedAnkiID(created: Int64, id: Int64) -> Int64? {
        created > 0 ? created * 1000 + id % 1000 : nil
    }

    /// The same rule in SQL, over the columns named: NULL where the note's making is not known.
    static func proposedAnkiIDSQL(created: String, id: String) -> String {
        "(CASE WHEN \(created) > 0 THEN \(created) * 1000 + \(id) % 1000 END)"
    }

    /// A card's modification time in Anki's file (unix seconds): Anki's own where nothing here
    /// changed it since, else when Maeil last changed it or, for a note made here, its note (an
    /// export takes the later of this and the card's last answer here). Anki orders tied
    /// reviews by it (`AnkiTieBreak`), so the queue reads it too.
    package static func ankiCardModified(cardAnkiMod: Int64?, cardChanged: Int64?, noteAnkiMod: Int64?, noteModified: Int64) -> Int64 {
        ankiCardModified(cardAnkiMod: cardAnkiMod, cardChanged: cardChanged, noteChanged: noteChanged(ankiMod: noteAnkiMod, modified: noteModified))
    }

    /// The same, with the note's part given (`noteChanged`, or `noteChangedSQL` in SQL).
    static func ankiCardModified(cardAnkiMod: Int64?, cardChanged: Int64?, noteChanged: Int64) -> Int64 {
        max(cardAnkiMod ?? 0, cardChanged ?? 0, noteChanged)
    }

    /// A note's part of its cards' modification time: its change here where Anki never had it, else none.
    static func noteChanged(ankiMod: Int64?, modified: Int64) -> Int64 {
        ankiMod == nil ? modified : 0
    }

    /// `noteChanged` in SQL, over `note`.
    static let noteChangedSQL = "CASE WHEN anki_mod IS NULL THEN modified_at ELSE 0 END"

    /// A gone card's id in Anki: its own, else the one exports proposed for it while it was here.
    static func goneAnkiID(_ row: SQLiteRow, id: Int, ankiID: Int, noteCreated: Int) -> Int64? {
        row.optionalInt64(ankiID) ?? row.optionalInt64(noteCreated).flatMap { proposedAnkiID(created: $0, id: row.int64(id)) }
    }

    /// The same in SQL, over a `gone_card` row (`table`: its name or alias in the query).
    static func goneAnkiIDSQL(_ table: String = "gone_card") -> String {
        "coalesce(\(table).anki_id, \(proposedAnkiIDSQL(created: "\(table).note_created", id: "\(table).id")))"
    }
}

extension ExportReading {
    /// Every gone card's id in Anki, where it has one.
    package func goneAnkiIDs() throws -> [Int64] {
        try db.cachedStatement(sql: "SELECT id, anki_id, note_created FROM gone_card").rows {
            Collection.goneAnkiID($0, id: 0, ankiID: 1, noteCreated: 2)
        }.compactMap { $0 }
    }

    /// Each gone card that left answers, in order of its number.
    package func forEachGoneCard(_ body: (GoneCardLog) throws -> Void) throws {
        let statement = try db.cachedStatement(sql: """
            SELECT g.id AS gone_id, g.anki_id AS gone_anki_id, g.note_created, r.* FROM gone_card g JOIN review_log r ON r.card_id = g.id
            ORDER BY g.id, r.time, r.id
            """)
        let map = ColumnMap(statement), decoder = ReviewLogTable.Decoder(map)
        let (id, ankiID, created, deck) = (map["gone_id"], map["gone_anki_id"], map["note_created"], map["deck_id"])
        var gone: GoneCardLog?
        try statement.forEachRow { row in
            if gone?.cardID != row.int64(id) {
                if let finished = gone { try body(finished) }
                gone = GoneCardLog(cardID: row.int64(id), ankiID: Collection.goneAnkiID(row, id: id, ankiID: ankiID, noteCreated: created),
                                   deckID: row.int64(deck), history: [])
            }
            gone?.deckID = row.int64(deck)
            gone?.history.append(decoder.entry(row))
        }
        if let finished = gone { try body(finished) }
    }
}

extension Collection {
    /// Runs `body` with the collection as one read transaction sees it.
    package func readingExport<T>(_ body: (ExportReading) throws -> T) throws -> T {
        try read { try body(ExportReading(db: $0)) }
    }
}
