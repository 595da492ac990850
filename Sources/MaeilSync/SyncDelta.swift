import Foundation
import GRDB
import MaeilDecks

/// A whole export made from a part: the notes a sync must look at again (exported alone, as
/// Anki's file) laid over a copy of the base the last sync left, which holds every other note
/// as the exporter wrote it then. The result is what exporting the whole collection would give,
/// and SyncMerge finds what changed in it by the same comparison with the base.
///
/// Ids: a note keeps the id the base gives its guid, a card the id the base gives its note and
/// ordinal (a partial export cannot know every id a whole one would have skipped), an answer
/// the base's id for the same answer, a new answer the next millisecond free. New cards go after the base's last new position. Review
/// due days count from the base's creation day. Where an id would stand for two records, the
/// part cannot be laid over the base: `lay` says so and the caller exports everything.
package enum SyncDelta {
    /// Lays `delta` (a partial export) over `merged` (a copy of the base), with the notes of
    /// `deletedGuids` gone. False, with `merged` as it was, when the ids do not fit.
    /// `keepingDayCounts`: each deck keeps the day's counts `merged` holds (a merge, as the
    /// server has them, for the next base: a deck taken there whose counts fall short of this
    /// side's then differs, and its counts go up). `partsObjects`: the part's decks and deck
    /// options are all the collection has (a whole export's), and its note types those the notes
    /// not in it keep: the result is the whole collection, as a `.colpkg` holds it, with no deck,
    /// options or note type the collection no longer has.
    package static func lay(_ delta: URL, deletedGuids: [String], over merged: URL, keepingDayCounts: Bool = false,
                            partsObjects: Bool = false) throws -> Bool {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // A working copy: nothing to make durable, but a part that does not fit is rolled back.
            try db.execute(sql: "PRAGMA journal_mode = MEMORY; PRAGMA synchronous = OFF")
            AnkiPackage.addAnkiCollations(db)
        }
        let queue = try DatabaseQueue(path: merged.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.writeWithoutTransaction { db in
            try db.execute(sql: "ATTACH DATABASE ? AS delta", arguments: [delta.path])
            defer { try? db.execute(sql: "DETACH DATABASE delta") }
            var laid = false
            try db.inTransaction {
                laid = try lay(db, deletedGuids: deletedGuids, keepingDayCounts: keepingDayCounts, partsObjects: partsObjects)
                return laid ? .commit : .rollback
            }
            return laid
        }
    }

    /// The part laid over the base, inside the caller's transaction; false where it does not fit.
    static func lay(_ db: Database, deletedGuids: [String], keepingDayCounts: Bool = false, partsObjects: Bool = false) throws -> Bool {
        let dayShift = try moveDueDays(db)
        try mapRecords(db, deletedGuids: deletedGuids)
        defer { try? db.execute(sql: "DROP TABLE temp.note_map; DROP TABLE temp.card_map") }
        guard try recordsFit(db) else { return false }
        try layNotesAndCards(db, placesAsThePartHasThem: partsObjects)
        guard try layAnswers(db), try layGoneCardsAnswers(db) else { return false }
        try takeObjects(db, dayShift: dayShift, keepingDayCounts: keepingDayCounts, partsObjects: partsObjects)
        return true
    }

    /// The base's notes of `deletedGuids` gone; each of the part's notes and cards mapped to
    /// the id the base gives it (temp.note_map, temp.card_map: old, new).
    static func mapRecords(_ db: Database, deletedGuids: [String]) throws {
        // Anki's notes have no index by guid: each delete reads every note (8 ms for both at 20,000), so not for none.
        if !deletedGuids.isEmpty {
            let guids = "(SELECT value FROM json_each(?))"
            let deleted: StatementArguments = [String(decoding: try JSONSerialization.data(withJSONObject: deletedGuids), as: UTF8.self)]
            try db.execute(sql: "DELETE FROM main.cards WHERE nid IN (SELECT id FROM main.notes WHERE guid IN \(guids))", arguments: deleted)
            try db.execute(sql: "DELETE FROM main.notes WHERE guid IN \(guids)", arguments: deleted)
        }
        try db.execute(sql: """
            CREATE TEMP TABLE note_map AS
              SELECT d.id AS old, coalesce((SELECT m.id FROM main.notes m WHERE m.id = d.id AND m.guid = d.guid),
                (SELECT m.id FROM main.notes m WHERE m.guid = d.guid), d.id) AS new, d.guid AS guid FROM delta.notes d;
            CREATE TEMP TABLE card_map AS
              SELECT d.id AS old, coalesce((SELECT m.id FROM main.cards m WHERE m.nid = n.new AND m.ord = d.ord), d.id) AS new, n.new AS nid
              FROM delta.cards d JOIN note_map n ON n.old = d.nid;
            CREATE UNIQUE INDEX temp.note_map_old ON note_map(old);
            CREATE UNIQUE INDEX temp.card_map_old ON card_map(old);
            """)
    }

    /// Whether the part's notes and cards fit the base: no id the base gives a record the part
    /// leaves alone is taken, nor is one id given two records.
    static func recordsFit(_ db: Database) throws -> Bool {
        let clash = try Bool.fetchOne(db, sql: """
            SELECT (SELECT count(DISTINCT new) != count(*) FROM note_map) OR (SELECT count(DISTINCT new) != count(*) FROM card_map)
              OR EXISTS (SELECT 1 FROM note_map n JOIN main.notes m ON m.id = n.new WHERE m.guid != n.guid)
              OR EXISTS (SELECT 1 FROM card_map c JOIN main.cards m ON m.id = c.new WHERE m.nid NOT IN (SELECT new FROM note_map))
            """) ?? true
        return !clash
    }

    /// The part's notes and cards in place of the base's, under the base's ids.
    /// `placesAsThePartHasThem`: every new card of the part holds its own place in Anki's new
    /// queue (a `.colpkg`'s part, made only where every new card keeps Anki's), not a rank
    /// among the part's cards alone.
    static func layNotesAndCards(_ db: Database, placesAsThePartHasThem: Bool = false) throws {
        // New cards keep the base's place, or come after its last.
        if !placesAsThePartHasThem {
            let lastNew = try Int64.fetchOne(db, sql: "SELECT coalesce(max(due), 0) FROM main.cards WHERE type = 0") ?? 0
            try db.execute(sql: """
                UPDATE delta.cards SET due = coalesce(
                  (SELECT m.due FROM main.cards m JOIN card_map c ON c.new = m.id WHERE c.old = delta.cards.id AND m.type = 0), ? + due)
                WHERE type = 0
                """, arguments: [lastNew])
        }
        try db.execute(sql: """
            DELETE FROM main.cards WHERE nid IN (SELECT new FROM note_map);
            DELETE FROM main.notes WHERE id IN (SELECT new FROM note_map);
            INSERT INTO main.notes SELECT n.new, d.guid, d.mid, d.mod, d.usn, d.tags, d.flds, d.sfld, d.csum, d.flags, d.data
              FROM delta.notes d JOIN note_map n ON n.old = d.id;
            INSERT INTO main.cards SELECT c.new, c.nid, d.did, d.ord, d.mod, d.usn, d.type, d.queue, d.due, d.ivl, d.factor, d.reps, d.lapses,
              d.left, d.odue, d.odid, d.flags, d.data FROM delta.cards d JOIN card_map c ON c.old = d.id;
            """)
    }

    /// The part's cards' answers in place of the base's; false where their ids do not fit.
    static func layAnswers(_ db: Database) throws -> Bool {
        // An answer keeps the id the base gives it: answers in one millisecond take their ids in
        // turn, so a part numbers them apart from the rest. Matched by card and content, the
        // k-th such answer of the part to the k-th of the base. But for its last interval: an
        // answer given here in steps logs its step's delay from the preset's steps as they are
        // now, so changed steps rewrite it (the part's row then replaces the base's).
        // Most cards' answers are the base's, id for id, with what was answered since after
        // them (Anki's ids, or the times they were given): for such a card the matching would
        // keep each of the base's answers as it is and give each later one its own id, so it is
        // not run (it took 40 ms for 1,000 cards), and only rows that change are written (a
        // sync of 1,000 cards with 15 answers each rewrote all 15,000: 230 ms, now 75 ms).
        try db.execute(sql: """
            CREATE TEMP TABLE same_answers AS
              SELECT c.old, c.new, c.last FROM (SELECT old, new, (SELECT max(m.id) FROM main.revlog m WHERE m.cid = card_map.new) AS last
                                                FROM card_map) c
              WHERE (SELECT count(*) FROM delta.revlog r WHERE r.cid = c.old AND r.id <= c.last) = (SELECT count(*) FROM main.revlog m WHERE m.cid = c.new)
                AND NOT EXISTS (SELECT 1 FROM delta.revlog r WHERE r.cid = c.old AND r.id <= c.last AND NOT EXISTS (
                  SELECT 1 FROM main.revlog m WHERE m.id = r.id AND m.cid = c.new AND m.ease = r.ease AND m.ivl = r.ivl
                    AND m.factor = r.factor AND m.time = r.time AND m.type = r.type));
            CREATE UNIQUE INDEX temp.same_answers_old ON same_answers(old);
            CREATE TEMP TABLE answers AS
            WITH d AS (SELECT r.*, c.new AS card, row_number() OVER (PARTITION BY c.new, r.ease, r.ivl, r.factor, r.time, r.type
                                                                     ORDER BY r.id) AS place
                       FROM card_map c CROSS JOIN delta.revlog r ON r.cid = c.old WHERE c.old NOT IN (SELECT old FROM same_answers)),
                 b AS (SELECT m.*, row_number() OVER (PARTITION BY m.cid, m.ease, m.ivl, m.factor, m.time, m.type ORDER BY m.id) AS place
                       FROM main.revlog m WHERE m.cid IN (SELECT new FROM card_map WHERE old NOT IN (SELECT old FROM same_answers)))
            SELECT r.id, s.new AS cid, r.usn, r.ease, r.ivl, r.lastIvl, r.factor, r.time, r.type, coalesce(r.id > s.last, 1) AS fresh
            FROM delta.revlog r JOIN same_answers s ON s.old = r.cid
            WHERE coalesce(r.id > s.last, 1) OR r.lastIvl IS NOT (SELECT m.lastIvl FROM main.revlog m WHERE m.id = r.id)
            UNION ALL
            SELECT coalesce(b.id, d.id) AS id, d.card AS cid, d.usn, d.ease, d.ivl, d.lastIvl, d.factor, d.time, d.type, b.id IS NULL AS fresh
            FROM d LEFT JOIN b ON b.cid = d.card AND b.ease = d.ease AND b.ivl = d.ivl AND b.factor = d.factor
              AND b.time = d.time AND b.type = d.type AND b.place = d.place;
            DROP TABLE temp.same_answers;
            """)
        defer { try? db.execute(sql: "DROP TABLE temp.answers") }
        // Looked up by id for every new answer below: without it, each looks at every other (42 ms at 2,000).
        try db.execute(sql: "CREATE INDEX temp.answers_id ON answers(id)")
        // A new answer whose millisecond another answer has takes the next free one, as in a whole export.
        let taken = try Row.fetchAll(db, sql: """
            SELECT rowid, id FROM temp.answers a WHERE fresh AND (EXISTS (SELECT 1 FROM main.revlog m WHERE m.id = a.id AND m.cid != a.cid)
              OR (SELECT count(*) FROM temp.answers o WHERE o.id = a.id) > 1) ORDER BY id, rowid
            """)
        try giveNextFreeIDs(db, taken)
        let answerClash = try Bool.fetchOne(db, sql: """
            SELECT (SELECT count(DISTINCT id) != count(*) FROM temp.answers)
              OR EXISTS (SELECT 1 FROM temp.answers a JOIN main.revlog m ON m.id = a.id WHERE m.cid != a.cid)
            """) ?? true
        guard !answerClash else { return false }
        // In place where the base has the row: a replace deletes it and inserts it again.
        try db.execute(sql: """
            INSERT INTO main.revlog SELECT id, cid, usn, ease, ivl, lastIvl, factor, time, type FROM temp.answers WHERE true
              ON CONFLICT (id) DO UPDATE SET cid = excluded.cid, usn = excluded.usn, ease = excluded.ease, ivl = excluded.ivl,
                lastIvl = excluded.lastIvl, factor = excluded.factor, time = excluded.time, type = excluded.type
            """)
        return true
    }

    /// Each answer of `taken` (rowid and id, in order of id) takes the next free id from its own
    /// on. Free means no row of the base's log nor of the answers has it (the answer itself
    /// still at its own id counts). Ids from the first one taken on are read once: looked up a
    /// query at a time, answers given together by the hundred (a bulk change) took seconds.
    static func giveNextFreeIDs(_ db: Database, _ taken: [Row]) throws {
        guard let lowest = taken.first.map({ $0[1] as Int64 }) else { return }
        let inLog = Set(try Int64.fetchAll(db, sql: "SELECT id FROM main.revlog WHERE id >= ?", arguments: [lowest]))
        var inAnswers: [Int64: Int] = [:]
        for id in try Int64.fetchAll(db, sql: "SELECT id FROM temp.answers WHERE id >= ?", arguments: [lowest]) { inAnswers[id, default: 0] += 1 }
        let update = try db.makeStatement(sql: "UPDATE temp.answers SET id = ? WHERE rowid = ?")
        var lastGiven: Int64?
        for row in taken {
            let own: Int64 = row[1]
            // Every id from the one before's own up to the one it was given was taken then, and still is.
            var id = lastGiven.map { max(own, $0 + 1) } ?? own
            while inLog.contains(id) || inAnswers[id, default: 0] > 0 { id += 1 }
            inAnswers[own, default: 0] -= 1
            inAnswers[id, default: 0] += 1
            lastGiven = id
            try update.execute(arguments: [id, row[0] as Int64])
        }
    }

    /// The answers the part carries of cards that are gone; false where one does not fit.
    static func layGoneCardsAnswers(_ db: Database) throws -> Bool {
        // The part carries every gone card's answers (a card answered, then deleted, since the
        // base): the base's row of one it has takes the part's last interval (changed steps
        // rewrite it, as above); one it has under another card or as another answer would not
        // be the whole export's, and a card here again owns its answers.
        let gone = "FROM delta.revlog d WHERE d.cid NOT IN (SELECT id FROM delta.cards) AND d.cid NOT IN (SELECT id FROM main.cards)"
        let goneClash = try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 \(gone) AND EXISTS (SELECT 1 FROM main.revlog m WHERE m.id = d.id AND (m.cid, m.ease, m.ivl,
              m.factor, m.time, m.type) IS NOT (d.cid, d.ease, d.ivl, d.factor, d.time, d.type)))
            """) ?? true
        guard !goneClash else { return false }
        try db.execute(sql: """
            INSERT INTO main.revlog SELECT d.id, d.cid, d.usn, d.ease, d.ivl, d.lastIvl, d.factor, d.time, d.type \(gone)
              ON CONFLICT (id) DO UPDATE SET lastIvl = excluded.lastIvl
            """)
        return true
    }

    /// The part's review due days counted from the base's creation day instead of its own.
    /// Answers how many days on the same day is in the base's count.
    static func moveDueDays(_ db: Database) throws -> Int64 {
        let own = SyncMerge.createdDay(try Int64.fetchOne(db, sql: "SELECT crt FROM delta.col") ?? 0, try SyncMerge.config(db, schema: "delta"))
        let base = SyncMerge.createdDay(try Int64.fetchOne(db, sql: "SELECT crt FROM main.col") ?? 0, try SyncMerge.config(db, schema: "main"))
        if own != base { try db.execute(sql: "UPDATE delta.cards SET due = due + ? WHERE type != 0 AND due < 1000000000", arguments: [own - base]) }
        return own - base
    }

    /// Configuration and tags as the part wrote them; note types, decks (their day limits moved
    /// to the base's days) and options the base's with the part's laid over. The part writes
    /// only its notes' note types, and every deck and preset Maeil holds, but the base also holds
    /// what the server has and Maeil keeps no record of (a phone's filtered deck): dropped here,
    /// the next sync would count one deck fewer than the server and fail its check. Maeil
    /// deletes no deck or preset, so none the base has is gone. The creation day's offset stays
    /// the base's: the due days count from it.
    static func takeObjects(_ db: Database, dayShift: Int64, keepingDayCounts: Bool = false, partsObjects: Bool = false) throws {
        func laid(_ column: String, _ part: [String: Any]) throws -> [String: Any] {
            if partsObjects && column != "models" { return part }
            return try SyncMerge.objects(db, column).merging(part) { _, fromPart in fromPart }
        }
        var config = try SyncMerge.config(db, schema: "delta")
        config["creationOffset"] = try SyncMerge.config(db, schema: "main")["creationOffset"]
        // The day burials were last lifted counts from the creation day as due days do: left as the
        // part counted it, it named another day under the base's (eight days back in one sync).
        if dayShift != 0, let day = SyncMerge.int(config["lastUnburied"]) { config["lastUnburied"] = day + dayShift }
        if partsObjects {
            // Past every new card's place, as a whole export counts it: the part knows its own cards'.
            let lastNew = try Int64.fetchOne(db, sql: "SELECT coalesce(max(due), 0) FROM main.cards WHERE type = 0") ?? 0
            config["nextPos"] = max((config["nextPos"] as? NSNumber)?.int64Value ?? 0, lastNew + 1)
        }
        try db.execute(sql: "UPDATE main.col SET tags = (SELECT tags FROM delta.col)")
        // The part's own, as it has them, where nothing of them moves: read and written again
        // they cost 4 ms of JSON for no change.
        if partsObjects && dayShift == 0 && !keepingDayCounts {
            try db.execute(sql: "UPDATE main.col SET decks = (SELECT decks FROM delta.col), dconf = (SELECT dconf FROM delta.col)")
        } else {
            // A deck's limit for one day and its counts of a day's answers count their day from the part's
            // creation day: moved as the due days are.
            var decks = try laid("decks", SyncMerge.movingDays(try SyncMerge.objects(db, "decks", schema: "delta"), by: dayShift))
            if keepingDayCounts {
                let kept = try SyncMerge.objects(db, "decks")
                SyncMerge.takeDayCounts(of: kept.keys, from: kept, into: &decks)
            }
            try SyncMerge.save(db, "decks", decks)
            try SyncMerge.save(db, "dconf", try laid("dconf", try SyncMerge.objects(db, "dconf", schema: "delta")))
        }
        var models = try laid("models", try SyncMerge.objects(db, "models", schema: "delta"))
        if partsObjects {
            // A whole export writes the note types of its notes alone. Each looked for until its
            // first note: Anki's notes have no index by type, and reading them all took 8 ms at 20,000.
            let used = try db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM main.notes WHERE mid = ?)")
            models = try models.filter { try Bool.fetchOne(used, arguments: [$0.key]) ?? false }
        }
        try SyncMerge.save(db, "models", models)
        try SyncMerge.save(db, "conf", config)
    }
}
