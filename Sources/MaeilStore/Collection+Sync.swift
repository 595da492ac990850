import Foundation
import GRDB

/// Where this collection stands with a sync server: what the server's copy was at the last
/// sync, and whether anything changed here since.
package struct SyncMark: Codable, Sendable, Equatable {
    /// The server the collection last synced with.
    package var endpoint: String
    /// The server's modification time and schema time (milliseconds) and usn after that sync.
    package var serverModified: Int64
    package var schema: Int64
    package var usn: Int

    package init(endpoint: String, serverModified: Int64, schema: Int64, usn: Int) {
        (self.endpoint, self.serverModified, self.schema, self.usn) = (endpoint, serverModified, schema, usn)
    }
}

extension Collection {
    /// The tables a sync carries; a write to any of them is a change the server has not seen.
    static let syncedTables = ["note", "card", "review_log", "deck", "preset", "note_type"]

    /// The last sync's mark, if the collection ever synced.
    package func syncMark() throws -> SyncMark? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync'").flatMap { try? JSONDecoder().decode(SyncMark.self, from: Data($0.utf8)) }
        }
    }

    /// Whether anything a sync carries changed since the last sync (true when it never synced).
    package func changedSinceSync() throws -> Bool {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync'") == nil
                || String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync_dirty'") != "0"
        }
    }

    /// The change flag: '0' nothing new since the last sync, '1' something, 'S' something that a
    /// sync under way is carrying. Triggers set '1' on any write to a synced table, whichever
    /// command or process makes it, so a write during a sync stays a change after it; a sync
    /// killed half-way leaves 'S', still a change for the next one.
    static let flagSQL = "SELECT value FROM meta WHERE key = 'sync_dirty'"

    /// At the start of a sync: whether anything changed since the last one.
    package func takeChangeFlag() throws -> Bool {
        try checkBeforeWriting()
        return try StoreError.during(path) {
            try pool.write { db in
                for table in Self.syncedTables {
                    for event in ["INSERT", "UPDATE", "DELETE"] {
                        // A plain UPDATE: an upsert's own conflict clause would override a REPLACE in here.
                        try db.execute(sql: """
                            CREATE TRIGGER IF NOT EXISTS sync_changed_\(table)_\(event.lowercased()) AFTER \(event) ON \(table)
                            WHEN (\(Self.flagSQL)) IS NOT '1'
                            BEGIN UPDATE meta SET value = '1' WHERE key = 'sync_dirty'; END
                            """)
                    }
                }
                try Self.installSyncTracking(db)
                let changed = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync'") == nil
                    || String.fetchOne(db, sql: Self.flagSQL) != "0"
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('sync_dirty', ?)", arguments: [changed ? "S" : "0"])
                return changed
            }
        }
    }

    /// The sync carried what changed before it started across: clean, unless written to since.
    package func settleChangeFlag() throws {
        try StoreError.during(path) {
            try pool.write { db in try db.execute(sql: "UPDATE meta SET value = '0' WHERE key = 'sync_dirty' AND value = 'S'") }
        }
    }

    /// The sync carried nothing across: what changed is still a change.
    package func restoreChangeFlag() throws {
        try StoreError.during(path) {
            try pool.write { db in try db.execute(sql: "UPDATE meta SET value = '1' WHERE key = 'sync_dirty' AND value = 'S'") }
        }
    }

    /// A change the server has yet to see, made by the sync itself (a deck's counts of the day
    /// that must go up again): the next sync carries it. Only once the sync's own writes are done.
    package func markChangedSinceSync() throws {
        try StoreError.during(path) {
            try pool.write { db in try db.execute(sql: "UPDATE meta SET value = '1' WHERE key = 'sync_dirty'") }
        }
    }

    /// The answers given here in `deck` from `since` that have not gone to the server yet (they
    /// have no Anki id), counted as the queue counts them: a deck's counters taken from the
    /// server do not count them. `excluding`: cards whose answers count in no deck's log (the
    /// other side deleted them: their answers become a gone card's).
    package func unsentAnsweredSince(deck: Int64, since: Date, excluding: Set<Int64> = []) throws -> (new: Int, reviews: Int) {
        try read { db in try Self.unsentAnsweredSince(db, deck: deck, since: since, excluding: excluding) }
    }

    static func unsentAnsweredSince(_ db: Database, deck: Int64, since: Date, excluding: Set<Int64> = []) throws -> (new: Int, reviews: Int) {
        let excluded = String(decoding: try JSONEncoder().encode(excluding.sorted()), as: UTF8.self)
        let row = try Row.fetchOne(db.cachedStatement(sql: """
            SELECT total(b_phase = 'new'), total(b_phase = 'review') FROM review_log
            WHERE deck_id = ? AND time >= ? AND kind = 0 AND anki_id IS NULL AND card_id NOT IN (SELECT value FROM json_each(?))
            """), arguments: [deck, since.unixMilliseconds, excluded])
        return row.map { (Int($0[0] as Double), Int($0[1] as Double)) } ?? (0, 0)
    }

    /// The notes and cards here the other side deleted, by the ids Anki knows them by: Anki's
    /// own, or for a record made here that has none yet, the id exports proposed for it. The
    /// notes, and the cards deleted without their note (Anki's Empty Cards).
    static func ankiRecordsHere(_ db: Database, notes: [Int64], cards: [Int64]) throws -> (notes: [Int64], cardsAlone: [Int64]) {
        // Anki's ids are integers: written into the statements as they are.
        let noteList = notes.map(String.init).joined(separator: ","), cardList = cards.map(String.init).joined(separator: ",")
        let proposedNote = proposedAnkiIDSQL(created: "n.created_at", id: "n.id")
        let proposedCard = proposedAnkiIDSQL(created: "n.created_at", id: "c.id")
        let goneNotes = try Int64.fetchAll(db, sql: """
            SELECT n.id FROM note n WHERE n.anki_id IN (\(noteList)) OR (n.anki_id IS NULL AND \(proposedNote) IN (\(noteList)))
            """)
        let goneCards = try Int64.fetchAll(db, sql: """
            SELECT c.id FROM card c JOIN note n ON n.id = c.note_id
            WHERE (c.anki_id IN (\(cardList)) OR (c.anki_id IS NULL AND \(proposedCard) IN (\(cardList))))
              AND n.id NOT IN (\(goneNotes.map(String.init).joined(separator: ",")))
            """)
        return (goneNotes, goneCards)
    }

    /// Every card here the other side deleted, alone or with its note (`ankiRecordsHere`).
    package func cardsDeletedThere(notes: [Int64], cards: [Int64]) throws -> Set<Int64> {
        guard !notes.isEmpty || !cards.isEmpty else { return [] }
        return try read { db in
            let (goneNotes, alone) = try Self.ankiRecordsHere(db, notes: notes, cards: cards)
            let ofNotes = try Int64.fetchAll(db, sql: "SELECT id FROM card WHERE note_id IN (\(goneNotes.map(String.init).joined(separator: ",")))")
            return Set(alone + ofNotes)
        }
    }

    /// Of these review-log ids, the ones an answer here keeps as Anki's (it came from Anki, or
    /// went up and came back under it). Read where a sync must tell them from answers given
    /// here, which a rare clash alone asks: no index holds Anki's ids, so it reads the log.
    package func answersUnderAnkiIDs(among ids: [Int64]) throws -> Set<Int64> {
        guard !ids.isEmpty else { return [] }
        return try read { db in
            try Set(Int64.fetchAll(db, sql: "SELECT anki_id FROM review_log WHERE anki_id IN (\(ids.map(String.init).joined(separator: ",")))"))
        }
    }

    /// Writes what a sync takes from the server, in one transaction, as the sync's own writes:
    /// the change flag stays as the sync left it, so a change since the sync began is only ever
    /// another writer's. Nil, with nothing written, when another writer changed something since.
    package func writeAsSync<T>(now: Date, _ body: (CollectionWriter) throws -> T) throws -> T? {
        try transaction { db in
            // '0' or 'S' as the sync began; '1' once another writer wrote.
            guard let flag = try String.fetchOne(db, sql: Self.flagSQL), flag != "1" else { return nil }
            let result = try body(CollectionWriter(db: db, now: now))
            try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'sync_dirty'", arguments: [flag])
            return result
        }
    }

    /// Whether something was written since `takeChangeFlag`.
    package func changedDuringSync() throws -> Bool {
        try read { db in try String.fetchOne(db, sql: Self.flagSQL) == "1" }
    }

    /// Records a finished sync's mark (and forgets an upload under way). `base`: the marks the
    /// base this sync leaves holds (read with what it exported), cleared with it; nil when the
    /// sync leaves the base as it was.
    /// `sameBaseAs`: the sync found nothing changed on either side, and the base of the sync that
    /// left that mark stands for this one too; the marks kept since it carry over.
    package func recordSync(_ mark: SyncMark, base: SyncDirty.Through? = nil, leavesBase: Bool = false, sameBaseAs previous: SyncMark? = nil) throws {
        try checkBeforeWriting()
        let json = String(decoding: try JSONEncoder().encode(mark), as: UTF8.self)
        try StoreError.during(path) {
            try pool.write { db in
                try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('sync', ?)", arguments: [json])
                try db.execute(sql: "DELETE FROM meta WHERE key = 'sync_upload'")
                if leavesBase { try Self.settleSyncTracking(db, mark: json, through: base) }
                if let previous, try Self.syncTracking(db) == previous {
                    try db.execute(sql: "UPDATE meta SET value = ? WHERE key = 'sync_tracking'", arguments: [json])
                }
            }
        }
    }

    /// The mark the server's copy will have once an upload lands: kept before it is sent, so a
    /// sync killed after the server took it knows the server's copy for its own.
    package func recordUploadUnderWay(_ mark: SyncMark) throws {
        let json = String(decoding: try JSONEncoder().encode(mark), as: UTF8.self)
        try StoreError.during(path) {
            try pool.write { db in try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('sync_upload', ?)", arguments: [json]) }
        }
    }

    package func uploadUnderWay() throws -> SyncMark? {
        try read { db in
            try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync_upload'").flatMap { try? JSONDecoder().decode(SyncMark.self, from: Data($0.utf8)) }
        }
    }

    /// Puts the contents of the collection at `source` in place of this one's, through this
    /// collection's own connection (another process sees the old contents or the new), keeping
    /// what only this collection has: its reading plans and what was read, and its seed; and
    /// what the media sync knows of the media folder, which stays as it is (a file deleted on
    /// the server must still be deleted here, not sent back as new).
    package func replaceContents(with source: Collection) throws {
        try checkBeforeWriting()
        try StoreError.during(path) {
            let kept = try pool.read { db in
                (plans: try Row.fetchAll(db, sql: "SELECT * FROM reading_plan"), marks: try Row.fetchAll(db, sql: "SELECT * FROM reading_mark"),
                 meta: try Row.fetchAll(db, sql: "SELECT * FROM meta WHERE key IN ('seed', 'created', 'media_usn')"),
                 media: try Row.fetchAll(db, sql: "SELECT * FROM media_file"))
            }
            try source.pool.write { db in
                try db.execute(sql: "DELETE FROM reading_mark; DELETE FROM reading_plan; DELETE FROM media_file")
                for (table, rows) in [("reading_plan", kept.plans), ("reading_mark", kept.marks), ("meta", kept.meta), ("media_file", kept.media)] {
                    for row in rows {
                        let columns = Array(row.columnNames)
                        try db.execute(sql: "INSERT OR REPLACE INTO \(table) (\(columns.joined(separator: ", "))) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))",
                                       arguments: StatementArguments(columns.map { row[$0] as DatabaseValue }))
                    }
                }
            }
            try source.pool.backup(to: pool)
        }
    }
}

extension Collection {
    /// After a collection was rebuilt from an Anki file (a sync that took changes in), the notes
    /// and cards that were in `old` get back the numbers they had there, so `find`'s numbers
    /// stay a learner's handle on them across syncs. Notes are matched by guid, cards by Anki's
    /// id or else by note, template and ordinal; a gone card (its answers kept) by its Anki id,
    /// to the card or gone card that had it; new ones are numbered after the highest. Where a
    /// match is not one to one, that table keeps the numbers the rebuild gave. One transaction.
    package func keepNumbers(of old: Collection) throws {
        let (notes, cards, gone) = try old.read { db in
            (try Row.fetchAll(db, sql: "SELECT guid, id FROM note"),
             try Row.fetchAll(db, sql: "SELECT c.anki_id, n.guid, c.template, c.ordinal, c.id FROM card c JOIN note n ON n.id = c.note_id"),
             try db.makeStatement(sql: "SELECT id, anki_id, note_created FROM gone_card").rows { ($0.int64(0), Self.goneAnkiID($0, id: 0, ankiID: 1, noteCreated: 2)) })
        }
        try checkBeforeWriting()
        try StoreError.during(path) {
            try pool.write { db in
                try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
                try db.execute(sql: """
                    CREATE TEMP TABLE old_note (guid TEXT PRIMARY KEY, id INTEGER NOT NULL);
                    CREATE TEMP TABLE old_card (anki_id INTEGER, guid TEXT, template TEXT NOT NULL, ordinal INTEGER NOT NULL, id INTEGER NOT NULL);
                    """)
                let note = try db.makeStatement(sql: "INSERT OR IGNORE INTO old_note VALUES (?, ?)")
                for row in notes { try note.execute(arguments: [row[0], row[1]]) }
                let card = try db.makeStatement(sql: "INSERT INTO old_card VALUES (?, ?, ?, ?, ?)")
                for row in cards { try card.execute(arguments: [row[0], row[1], row[2], row[3], row[4]]) }
                for (id, ankiID) in gone { try card.execute(arguments: [ankiID, nil, "", -1, id]) }
                // Cards and gone cards share one run of numbers: `gone` says which table a number is in.
                try db.execute(sql: """
                    CREATE INDEX temp.old_card_anki ON old_card(anki_id);
                    CREATE INDEX temp.old_card_place ON old_card(guid, template, ordinal);
                    CREATE TEMP TABLE note_map AS
                      SELECT n.id AS built, (SELECT o.id FROM old_note o WHERE o.guid = n.guid) AS kept FROM note n;
                    CREATE TEMP TABLE card_map AS
                      SELECT c.id AS built, coalesce((SELECT o.id FROM old_card o WHERE o.anki_id = c.anki_id),
                        (SELECT o.id FROM old_card o JOIN note n ON n.guid = o.guid WHERE n.id = c.note_id AND o.template = c.template
                         AND o.ordinal = c.ordinal)) AS kept, 0 AS gone FROM card c
                      UNION ALL SELECT g.id, (SELECT o.id FROM old_card o WHERE o.anki_id = g.anki_id), 1 FROM gone_card g;
                    CREATE UNIQUE INDEX temp.note_map_built ON note_map(built);
                    CREATE UNIQUE INDEX temp.card_map_built ON card_map(built);
                    """)
                for map in ["note_map", "card_map"] {
                    guard try Bool.fetchOne(db, sql: "SELECT count(DISTINCT kept) = count(kept) FROM \(map)") == true else { continue }
                    // New ones after the highest number kept (a whole new collection counts from 1).
                    let highest = try Int64.fetchOne(db, sql: "SELECT max(kept) FROM \(map)") ?? 0
                    try db.execute(sql: """
                        UPDATE \(map) SET kept = ? + fresh.place
                        FROM (SELECT built, row_number() OVER (ORDER BY built) AS place FROM \(map) WHERE kept IS NULL) AS fresh
                        WHERE \(map).built = fresh.built
                        """, arguments: [highest])
                    // Only the rows whose number changes are touched: out of the way first (negative), then in place.
                    try db.execute(sql: "DELETE FROM \(map) WHERE kept = built")
                    if map == "note_map" {
                        try db.execute(sql: """
                            UPDATE note SET id = -id WHERE id IN (SELECT built FROM note_map);
                            UPDATE card SET note_id = -note_id WHERE note_id IN (SELECT built FROM note_map);
                            UPDATE note SET id = (SELECT kept FROM note_map WHERE built = -note.id) WHERE id < 0;
                            UPDATE card SET note_id = (SELECT kept FROM note_map WHERE built = -card.note_id) WHERE note_id < 0;
                            """)
                    } else {
                        try db.execute(sql: """
                            UPDATE card SET id = -id WHERE id IN (SELECT built FROM card_map WHERE gone = 0);
                            UPDATE gone_card SET id = -id WHERE id IN (SELECT built FROM card_map WHERE gone = 1);
                            UPDATE review_log SET card_id = -card_id WHERE card_id IN (SELECT built FROM card_map);
                            UPDATE card SET id = (SELECT kept FROM card_map WHERE built = -card.id) WHERE id < 0;
                            UPDATE gone_card SET id = (SELECT kept FROM card_map WHERE built = -gone_card.id) WHERE id < 0;
                            UPDATE review_log SET card_id = (SELECT kept FROM card_map WHERE built = -review_log.card_id) WHERE card_id < 0;
                            """)
                    }
                }
                try db.execute(sql: "DROP TABLE old_note; DROP TABLE old_card; DROP TABLE note_map; DROP TABLE card_map")
            }
        }
    }
}
