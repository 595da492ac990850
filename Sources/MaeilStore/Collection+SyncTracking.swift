import Foundation
import GRDB

/// The notes whose rows in Anki's file may differ from the base the last sync left (or the file
/// the last `.colpkg` was made of, `ExportBaseMark`): a normal sync exports only these and lays
/// them over a copy of the base, instead of exporting the whole collection (SyncDelta). A superset is harmless (a note written back unchanged compares equal
/// to the base); a note missing from it would be a change never sent, so every write that can
/// change what the exporter writes for a note marks it, in a trigger, whoever makes the write.
package struct SyncDirty: Sendable {
    /// Notes written since the marks were last cleared (some may since have been deleted).
    package var notes: [Int64]
    /// Guids of notes deleted since: their rows leave the base.
    package var deletedGuids: [String]
    /// How far the marks go, to clear exactly these once a base holds them.
    package var through: Through

    package struct Through: Codable, Sendable, Equatable {
        var notes: Int64
        var guids: Int64
    }
}

extension Collection {
    /// The marks and the triggers that set them, made where the change flag's are (a collection
    /// that never synced keeps none). Each mark takes a new rowid, so a note written again after
    /// a sync read the marks is still marked once that sync clears the ones it read.
    static func installSyncTracking(_ db: Database) throws {
        let triggers: [(String, String, String)] = [
            ("note_insert", "AFTER INSERT ON note", marking(note: "NEW.id")),
            ("note_update", "AFTER UPDATE ON note", marking(note: "OLD.id") + marking(note: "NEW.id", unlessItIs: "OLD.id")),
            ("note_delete", "AFTER DELETE ON note",
             "DELETE FROM sync_dirty_guid WHERE guid = OLD.guid; INSERT INTO sync_dirty_guid (guid) VALUES (OLD.guid);"),
            ("card_insert", "AFTER INSERT ON card", marking(note: "NEW.note_id")),
            ("card_update", "AFTER UPDATE ON card", marking(note: "OLD.note_id") + marking(note: "NEW.note_id", unlessItIs: "OLD.note_id")),
            ("card_delete", "AFTER DELETE ON card", marking(note: "OLD.note_id")),
            ("log_insert", "AFTER INSERT ON review_log", marking(note: "(SELECT note_id FROM card WHERE id = NEW.card_id)")),
            ("log_update", "AFTER UPDATE ON review_log", marking(note: "(SELECT note_id FROM card WHERE id = OLD.card_id)")
                + marking(note: "(SELECT note_id FROM card WHERE id = NEW.card_id)", unlessItIs: "(SELECT note_id FROM card WHERE id = OLD.card_id)")),
            ("log_delete", "AFTER DELETE ON review_log", marking(note: "(SELECT note_id FROM card WHERE id = OLD.card_id)")),
            // A deck's kind and templates give its own notes their note type, its preset its
            // cards' desired retention and steps, its id in Anki its cards' deck (a card may be in
            // another deck than its note's); an import that writes the deck as it was marks nothing.
            ("deck_update", """
             AFTER UPDATE ON deck WHEN OLD.kind IS NOT NEW.kind OR OLD.preset_id IS NOT NEW.preset_id
               OR OLD.templates IS NOT NEW.templates OR OLD.anki_id IS NOT NEW.anki_id OR (OLD.name IS NOT NEW.name AND NEW.anki_id IS NULL)
             """, marking("SELECT id FROM note WHERE deck_id IN (OLD.id, NEW.id) UNION SELECT note_id FROM card WHERE deck_id IN (OLD.id, NEW.id)")),
            // Its name gives the notes of Maeil's own note types theirs; a note of an Anki note type
            // exports the same under any name of a deck Anki knows by its id (a phone's rename
            // marked all 20,000 notes of a deck, and the sync that took it exported them all).
            ("deck_rename", "AFTER UPDATE ON deck WHEN OLD.name IS NOT NEW.name AND NEW.anki_id IS NOT NULL",
             marking("SELECT id FROM note WHERE deck_id = NEW.id AND anki_note_type IS NULL")),
            ("note_type_update", "AFTER UPDATE ON note_type",
             marking("SELECT id FROM note WHERE anki_note_type IN (OLD.anki_id, NEW.anki_id)")),
        ]
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS sync_dirty_note (note_id INTEGER NOT NULL UNIQUE);
            CREATE TABLE IF NOT EXISTS sync_dirty_guid (guid TEXT NOT NULL UNIQUE);
            """)
        // Made again each time: a collection that synced before would keep the ones it was given
        // (one marked every note of a deck at a rename; others failed a note type saved again).
        for (name, event, body) in triggers {
            try db.execute(sql: "DROP TRIGGER IF EXISTS sync_mark_\(name)")
            try db.execute(sql: "CREATE TRIGGER sync_mark_\(name) \(event) BEGIN \(body) END")
        }
        // A preset's options (its name, limits, burying, order, gating) are Anki's deck options,
        // which a part writes whole: they mark no note; nor do Anki's options it only keeps
        // (anki_config, refreshed by a sync's take). Its scheduler gives the rows a note exports
        // their steps (a card in steps; an answer given here in steps before answers kept their
        // step's delay, which then logs the step's delay as it is now), desired retention and
        // decay (a card with a memory, or studied under FSRS): those notes are marked. Every
        // other column (the day's start, which dates every studied card; one a later migration
        // adds) marks every note of its decks. A card is its deck's, which need not be its
        // note's. Made again each time from the table as it is.
        let optionsOnly: Set<String> = ["name", "new_per_day", "reviews_per_day", "bury_siblings", "bury_new", "bury_reviews",
                                        "bury_interday_learning", "study_order", "curriculum_gating"]
        let others = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('preset') WHERE name NOT IN ('id', 'anki_config', 'scheduler')")
            .filter { !optionsOnly.contains($0) }
        let ofItsDecks = "FROM card c JOIN deck d ON d.id = c.deck_id WHERE d.preset_id = NEW.id"
        try db.execute(sql: "DROP TRIGGER IF EXISTS sync_mark_preset_update; DROP TRIGGER IF EXISTS sync_mark_preset_scheduler")
        if !others.isEmpty {
            try db.execute(sql: """
                CREATE TRIGGER sync_mark_preset_update AFTER UPDATE ON preset
                WHEN \(others.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
                BEGIN \(marking("SELECT c.note_id \(ofItsDecks)")) END
                """)
        }
        try db.execute(sql: """
            CREATE TRIGGER sync_mark_preset_scheduler AFTER UPDATE ON preset WHEN OLD.scheduler IS NOT NEW.scheduler
            BEGIN \(marking("""
              SELECT c.note_id \(ofItsDecks) AND (c.stability IS NOT NULL OR c.phase IN ('learning', 'relearning')
                OR (c.phase = 'new' AND c.reps > 0)
                OR EXISTS (SELECT 1 FROM review_log r WHERE r.card_id = c.id AND r.anki_ease IS NULL AND r.step_secs IS NULL AND r.b_phase IN ('learning', 'relearning')))
              """)) END
            """)
    }

    /// A trigger's body that marks the notes `query` selects (one column of note ids), each with
    /// a new rowid. Without a conflict clause: the statement that fires a trigger overrides one in
    /// it with its own, and a note type saved again (an upsert) failed on a note marked already.
    static func marking(_ query: String) -> String {
        "DELETE FROM sync_dirty_note WHERE note_id IN (\(query)); INSERT INTO sync_dirty_note (note_id) SELECT DISTINCT * FROM (\(query));"
    }

    /// The same for one note, `id` (an expression: NEW.note_id), where it is one and not
    /// `unlessItIs` (marked just before): by equality, which an answer's triggers run at no
    /// more cost than the conflict clause did.
    static func marking(note id: String, unlessItIs other: String? = nil) -> String {
        let unless = other.map { " AND \(id) IS NOT \($0)" } ?? ""
        return "DELETE FROM sync_dirty_note WHERE note_id = \(id)\(unless); INSERT INTO sync_dirty_note (note_id) SELECT \(id) WHERE \(id) IS NOT NULL\(unless);"
    }

    /// The marks as a read transaction sees them; nil where the collection keeps none.
    package static func syncDirty(_ db: Database) throws -> SyncDirty? {
        guard try db.tableExists("sync_dirty_note"), try db.tableExists("sync_dirty_guid") else { return nil }
        let through = SyncDirty.Through(notes: try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM sync_dirty_note") ?? 0,
                                        guids: try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM sync_dirty_guid") ?? 0)
        // A card buried until a time shows as buried in Anki's file only until then: its note
        // is looked at again, though nothing was written.
        let notes = try Int64.fetchAll(db, sql: """
            SELECT note_id FROM sync_dirty_note UNION SELECT DISTINCT note_id FROM card WHERE buried_until IS NOT NULL
            """)
        return SyncDirty(notes: notes, deletedGuids: try String.fetchAll(db, sql: "SELECT guid FROM sync_dirty_guid"), through: through)
    }

    /// The mark of the sync whose base holds every change up to the marks still kept: only
    /// then can a sync lay the marked notes over that base.
    package func syncTracking() throws -> SyncMark? {
        try read { db in try Self.syncTracking(db) }
    }

    static func syncTracking(_ db: Database) throws -> SyncMark? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync_tracking'").flatMap { try? JSONDecoder().decode(SyncMark.self, from: Data($0.utf8)) }
    }

    /// In the transaction that records `mark`: the marks its base holds are cleared, and the
    /// base counts as holding everything else (nil: the base was not made from this collection
    /// as marked; the next sync exports the whole collection).
    static func settleSyncTracking(_ db: Database, mark: String, through: SyncDirty.Through?) throws {
        guard let through, try db.tableExists("sync_dirty_note") else {
            try db.execute(sql: "DELETE FROM meta WHERE key IN ('sync_tracking', 'sync_marks_through')")
            return
        }
        // A kept export base that holds fewer marks needs some this clears: it is given up, and
        // the next .colpkg writes every note again.
        if let export = try exportBase(db), export.notes < through.notes || export.guids < through.guids {
            try db.execute(sql: "DELETE FROM meta WHERE key = 'export_base'")
        }
        try db.execute(sql: "DELETE FROM sync_dirty_note WHERE rowid <= ?", arguments: [through.notes])
        try db.execute(sql: "DELETE FROM sync_dirty_guid WHERE rowid <= ?", arguments: [through.guids])
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('sync_tracking', ?)", arguments: [mark])
        // So an export clears no mark this base has not taken in (`recordExportBase`).
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('sync_marks_through', ?)",
                       arguments: [String(decoding: try JSONEncoder().encode(through), as: UTF8.self)])
    }

    /// Whether a write may take back the marks it set (`unmarkingForSync`): only where the
    /// marks serve the sync's base alone. A kept export base does not hold what the write did.
    static func unmarksForSyncAlone(_ db: Database) throws -> Bool {
        try db.tableExists("sync_dirty_note") && exportBase(db) == nil
    }
}

extension CollectionWriter {
    /// Runs `body`, then takes back the marks it set on notes that were not marked before: for
    /// a write after which those notes export as the base already holds them (an answer given
    /// the id the base has it under). A note marked before keeps its mark, and every note does
    /// where a kept export base needs the marks too.
    package func unmarkingForSync<T>(_ body: () throws -> T) throws -> T {
        guard try Collection.unmarksForSyncAlone(db) else { return try body() }
        let before = try Int64.fetchOne(db, sql: "SELECT coalesce(max(rowid), 0) FROM sync_dirty_note") ?? 0
        let marked = String(decoding: try JSONEncoder().encode(try Int64.fetchAll(db, sql: "SELECT note_id FROM sync_dirty_note")), as: UTF8.self)
        let result = try body()
        try db.execute(sql: "DELETE FROM sync_dirty_note WHERE rowid > ? AND note_id NOT IN (SELECT value FROM json_each(?))",
                       arguments: [before, marked])
        return result
    }
}
