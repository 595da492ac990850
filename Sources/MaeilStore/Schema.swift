import GRDB
import MaeilCore

/// The collection's schema, created and upgraded by one migrator. Add migrations; never edit
/// a released one.
enum Schema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            try db.execute(sql: """
                CREATE TABLE meta (
                    key TEXT PRIMARY KEY NOT NULL,
                    value TEXT NOT NULL
                );
                CREATE TABLE preset (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    scheduler TEXT NOT NULL,             -- SchedulerSettings as JSON
                    new_per_day INTEGER NOT NULL,
                    reviews_per_day INTEGER NOT NULL,
                    rollover_hour INTEGER NOT NULL,
                    bury_siblings INTEGER NOT NULL,
                    curriculum_gating INTEGER NOT NULL
                );
                CREATE TABLE deck (
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE COLLATE NOCASE,
                    kind TEXT,
                    description TEXT NOT NULL DEFAULT '',
                    preset_id INTEGER NOT NULL REFERENCES preset(id),
                    templates TEXT NOT NULL,             -- [CardTemplate] as JSON
                    speak TEXT,                          -- field spoken on the front, if any
                    source TEXT,
                    created_at INTEGER NOT NULL
                );
                CREATE TABLE unit (
                    id INTEGER PRIMARY KEY,
                    deck_id INTEGER NOT NULL REFERENCES deck(id) ON DELETE CASCADE,
                    key TEXT NOT NULL,
                    title TEXT NOT NULL,
                    position INTEGER NOT NULL,
                    UNIQUE (deck_id, key)
                );
                CREATE TABLE note (
                    id INTEGER PRIMARY KEY,
                    guid TEXT NOT NULL UNIQUE,
                    deck_id INTEGER NOT NULL REFERENCES deck(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    note_type TEXT,                      -- the Anki note type it came from, if any
                    field_names TEXT NOT NULL,           -- joined by U+001F, like Anki's fields
                    field_values TEXT NOT NULL,
                    field_languages TEXT NOT NULL,
                    tags TEXT NOT NULL DEFAULT ' ',      -- ' tag1 tag2 ', so LIKE '% tag %' finds one
                    unit_id INTEGER REFERENCES unit(id) ON DELETE SET NULL,
                    position INTEGER NOT NULL DEFAULT 0,
                    source TEXT,
                    created_at INTEGER NOT NULL,
                    modified_at INTEGER NOT NULL
                );
                CREATE INDEX note_deck ON note(deck_id);
                CREATE TABLE card (
                    id INTEGER PRIMARY KEY,
                    note_id INTEGER NOT NULL REFERENCES note(id) ON DELETE CASCADE,
                    deck_id INTEGER NOT NULL REFERENCES deck(id) ON DELETE CASCADE,
                    template TEXT NOT NULL,
                    ordinal INTEGER NOT NULL,
                    unit_position INTEGER,               -- curriculum unit, copied for the queue
                    new_position INTEGER NOT NULL,       -- order among new cards
                    phase TEXT NOT NULL,
                    step INTEGER NOT NULL,
                    scheduled_seconds INTEGER NOT NULL,
                    interval_days INTEGER NOT NULL,
                    ease INTEGER NOT NULL,
                    stability REAL,
                    difficulty REAL,
                    due INTEGER,                         -- unix seconds; NULL while new
                    reps INTEGER NOT NULL,
                    lapses INTEGER NOT NULL,
                    streak INTEGER NOT NULL,
                    last_review INTEGER,
                    starred INTEGER NOT NULL DEFAULT 0,
                    suspended INTEGER NOT NULL DEFAULT 0,
                    buried_until INTEGER,
                    UNIQUE (note_id, template, ordinal)
                );
                -- Covers the queue's queries, so building it never touches the card rows.
                CREATE INDEX card_deck_due ON card(deck_id, phase, due, note_id, suspended, buried_until);
                CREATE INDEX card_deck_new ON card(deck_id, new_position) WHERE phase = 'new';
                CREATE INDEX card_starred ON card(starred) WHERE starred = 1;
                -- Append only: rows are removed only by undo. No foreign key, so the history
                -- outlives a deleted note.
                CREATE TABLE review_log (
                    id INTEGER PRIMARY KEY,
                    card_id INTEGER NOT NULL,
                    deck_id INTEGER NOT NULL,
                    time INTEGER NOT NULL,               -- unix milliseconds
                    kind INTEGER NOT NULL,               -- 0 answer, 1 manual change, 2 imported
                    rating INTEGER NOT NULL,             -- 1–4; 0 for manual changes
                    duration_ms INTEGER NOT NULL,
                    scheduler TEXT NOT NULL,
                    leech_action TEXT,                   -- what this answer did to a leech
                    buried_siblings TEXT,                -- 'card:previous buried_until' pairs
                    b_phase TEXT, b_step INTEGER, b_scheduled_seconds INTEGER, b_interval_days INTEGER,
                    b_ease INTEGER, b_stability REAL, b_difficulty REAL, b_due INTEGER, b_reps INTEGER,
                    b_lapses INTEGER, b_streak INTEGER, b_last_review INTEGER,
                    a_phase TEXT, a_step INTEGER, a_scheduled_seconds INTEGER, a_interval_days INTEGER,
                    a_ease INTEGER, a_stability REAL, a_difficulty REAL, a_due INTEGER, a_reps INTEGER,
                    a_lapses INTEGER, a_streak INTEGER, a_last_review INTEGER
                );
                CREATE INDEX review_log_card ON review_log(card_id, time);
                -- Today's answers per deck (the daily limits) without wading through imported history.
                CREATE INDEX review_log_answers ON review_log(deck_id, time) WHERE kind = 0;
                """)
        }
        // Anki in both directions: a note's Anki note type (kept whole), whether its fields are
        // HTML, and the ids and modification times Anki matches by when a package goes back.
        migrator.registerMigration("v2") { db in
            try db.execute(sql: """
                CREATE TABLE note_type (
                    anki_id INTEGER PRIMARY KEY,         -- Anki's note type id
                    name TEXT NOT NULL,
                    definition TEXT NOT NULL,            -- AnkiNoteType as JSON, with Anki's own legacy JSON inside
                    modified_at INTEGER NOT NULL
                );
                ALTER TABLE note ADD COLUMN html INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE note ADD COLUMN anki_note_type INTEGER;   -- note_type.anki_id
                ALTER TABLE note ADD COLUMN anki_mod INTEGER;         -- seconds, Anki's mod when it came
                ALTER TABLE card ADD COLUMN anki_mod INTEGER;
                ALTER TABLE review_log ADD COLUMN anki_id INTEGER;    -- Anki's revlog id
                ALTER TABLE preset ADD COLUMN anki_config TEXT;       -- Anki's deck options, legacy JSON
                """)
        }
        // Reading plans (M'Cheyne's calendar): days to read, and which readings were read when.
        migrator.registerMigration("v3") { db in
            try db.execute(sql: """
                CREATE TABLE reading_plan (
                    id INTEGER PRIMARY KEY,
                    key TEXT NOT NULL UNIQUE,            -- the plan file's id; a second import updates
                    name TEXT NOT NULL,
                    description TEXT NOT NULL,
                    parts TEXT NOT NULL,                 -- the readings' names, JSON array
                    days TEXT NOT NULL,                  -- [ReadingDay] as JSON
                    added_at INTEGER NOT NULL
                );
                CREATE TABLE reading_mark (
                    plan_id INTEGER NOT NULL REFERENCES reading_plan(id) ON DELETE CASCADE,
                    day INTEGER NOT NULL,                -- 1-based
                    part INTEGER NOT NULL,               -- 0-based
                    study_day INTEGER NOT NULL,          -- the study day it was read on
                    marked_at INTEGER NOT NULL,          -- seconds
                    PRIMARY KEY (plan_id, day, part)
                );
                """)
        }
        // Anki's review-log rows kept column by column, so every kind goes back as it came.
        migrator.registerMigration("v4") { db in
            try db.execute(sql: """
                ALTER TABLE review_log ADD COLUMN anki_ease INTEGER;
                ALTER TABLE review_log ADD COLUMN anki_ivl INTEGER;
                ALTER TABLE review_log ADD COLUMN anki_last_ivl INTEGER;
                ALTER TABLE review_log ADD COLUMN anki_factor INTEGER;
                ALTER TABLE review_log ADD COLUMN anki_type INTEGER;
                """)
        }
        // Anki's ids for notes and cards, kept so a package or a collection goes back to Anki
        // as the same records, and Anki's flags (1–7, a colour each).
        migrator.registerMigration("v5") { db in
            try db.execute(sql: """
                ALTER TABLE note ADD COLUMN anki_id INTEGER;
                ALTER TABLE card ADD COLUMN anki_id INTEGER;
                ALTER TABLE card ADD COLUMN flags INTEGER NOT NULL DEFAULT 0;
                """)
        }
        // Who buried a card: the learner (Anki's queue -3) or an answer to a sibling (-2).
        migrator.registerMigration("v6") { db in
            try db.execute(sql: "ALTER TABLE card ADD COLUMN buried_by_user INTEGER NOT NULL DEFAULT 0")
        }
        // Changes made by hand, each with the rows it touched as they were and as it left them,
        // so `undo` puts back exactly what one change altered, and only while nothing else has.
        migrator.registerMigration("v7") { db in
            try db.execute(sql: """
                CREATE TABLE undo_step (
                    id INTEGER PRIMARY KEY,
                    label TEXT NOT NULL,                 -- what was done, as `undo` says it
                    log_mark INTEGER NOT NULL,           -- the newest review_log id before it
                    log_rows TEXT NOT NULL,              -- review_log ids it added, JSON array
                    before TEXT NOT NULL,                -- StoredRows as JSON
                    after TEXT NOT NULL
                );
                """)
        }
        // Deck names kept before they had one form (DeckName.canonical): decomposed from a Mac,
        // with invisible characters or line breaks. Such a deck printed like another and was
        // never found by its name. Compared byte by byte: Swift's strings call é and e + accent equal.
        migrator.registerMigration("v8") { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, name FROM deck ORDER BY id") {
                let id: Int64 = row["id"], name: String = row["name"]
                let canonical = DeckName.canonical(name)
                guard Array(canonical.utf8) != Array(name.utf8) else { continue }
                var candidate = canonical.isEmpty ? "Deck \(id)" : canonical, number = 1
                while try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM deck WHERE name = ? AND id != ?)", arguments: [candidate, id]) == true {
                    number += 1
                    candidate = "\(canonical.isEmpty ? "Deck \(id)" : canonical) (\(number))"
                }
                try db.execute(sql: "UPDATE deck SET name = ? WHERE id = ?", arguments: [candidate, id])
            }
        }
        // Today's answers brought from Anki count toward the daily limits: found without reading
        // the whole imported history.
        migrator.registerMigration("v9") { db in
            try db.execute(sql: "CREATE INDEX review_log_imported ON review_log(deck_id, time) WHERE kind = 2")
        }
        // The media folder as the last media sync left it, file by file, so the next one knows
        // what was added, changed or deleted here since (Anki's media database).
        migrator.registerMigration("v10") { db in
            try db.execute(sql: """
                CREATE TABLE media_file (
                    name TEXT PRIMARY KEY NOT NULL,
                    sha1 TEXT NOT NULL,                  -- '' for a file deleted here, not yet synced
                    mtime INTEGER NOT NULL,              -- seconds, as last seen
                    size INTEGER NOT NULL,
                    pending INTEGER NOT NULL             -- changed here since the last media sync
                );
                """)
        }
        // Anki's custom data on a card (what its custom scheduling code keeps, "cd" in the card's
        // data): Maeil does not read it, and keeps it so it goes back to Anki as it came.
        migrator.registerMigration("v11") { db in
            try db.execute(sql: "ALTER TABLE card ADD COLUMN anki_custom_data TEXT")
        }
        // Anki's id for a deck that came from Anki: it goes back under it, so the deck Anki has
        // selected, and the decks its filtered decks send cards home to, are the same decks.
        migrator.registerMigration("v12") { db in
            try db.execute(sql: "ALTER TABLE deck ADD COLUMN anki_id INTEGER")
        }
        // Anki's original position of a card that has left the new queue ("pos" in its data):
        // where Anki's Forget puts it back when asked to restore its position.
        migrator.registerMigration("v13") { db in
            try db.execute(sql: "ALTER TABLE card ADD COLUMN anki_original_position INTEGER")
        }
        // Found through an index at a million cards, not by reading every row: today's answers
        // brought from Anki (not the rows that record a card's arrival, which can be a whole
        // collection's on the day it came), the answers stats and the focus list count by day
        // (the index holds what they read of each), and the notes tagged leech.
        migrator.registerMigration("v14") { db in
            try db.execute(sql: """
                DROP INDEX review_log_imported;
                CREATE INDEX review_log_anki_answers ON review_log(deck_id, time) WHERE kind = 2 AND anki_type IS NOT NULL;
                CREATE INDEX review_log_answered ON review_log(deck_id, time, duration_ms, card_id, rating, b_phase) WHERE kind IN (0, 2) AND rating > 0;
                CREATE INDEX note_leech ON note(id) WHERE tags LIKE '% leech %';
                """)
        }
        // A card's modification time, as Anki keeps one: a sync lets the newer of two changes to
        // one card win, and a flag, a burial or a move is as much a change as an answer. A trigger
        // marks it, so no write path can forget to; the time is the clock's when the row changes.
        // Only a value that changed counts: a row written back as it was is no change.
        migrator.registerMigration("v15") { db in
            try db.execute(sql: "ALTER TABLE card ADD COLUMN modified_at INTEGER")
            try db.execute(sql: cardModifiedTrigger(columns: ["deck_id", "phase", "step", "scheduled_seconds", "interval_days", "ease", "stability",
                                                              "difficulty", "due", "reps", "lapses", "starred", "suspended", "buried_until", "flags",
                                                              "buried_by_user", "new_position"]))
        }
        // Anki's display order (new/review mix, review order, new-card gather and sort), as
        // JSON; NULL is Anki's defaults.
        migrator.registerMigration("v16") { db in
            try db.execute(sql: "ALTER TABLE preset ADD COLUMN study_order TEXT")
        }
        // Anki's three burying switches, where one stood for new and review siblings (learning
        // siblings were never buried): bury_siblings stays, the three as one, for an older Maeil.
        migrator.registerMigration("v17") { db in
            try db.execute(sql: """
                ALTER TABLE preset ADD COLUMN bury_new INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE preset ADD COLUMN bury_reviews INTEGER NOT NULL DEFAULT 0;
                ALTER TABLE preset ADD COLUMN bury_interday_learning INTEGER NOT NULL DEFAULT 0;
                UPDATE preset SET bury_new = bury_siblings, bury_reviews = bury_siblings;
                """)
        }
        // A deck's own daily limits over its preset's (Anki's "This deck" and "Today only"), as
        // JSON; NULL when it has none. Anki's collection-wide limit rules live in meta.
        migrator.registerMigration("v18") { db in
            try db.execute(sql: "ALTER TABLE deck ADD COLUMN limits TEXT")
        }
        // The rest of Anki's deck, kept whole (Deck.ankiJSON).
        migrator.registerMigration("v19") { db in
            try db.execute(sql: "ALTER TABLE deck ADD COLUMN anki_json TEXT")
        }
        // A card's place in Anki's new queue (Anki's due for a new card, given per note as a note
        // is added), and the desired retention Anki keeps on a card it last scheduled with FSRS.
        migrator.registerMigration("v20") { db in
            try db.execute(sql: """
                ALTER TABLE card ADD COLUMN anki_position INTEGER;
                ALTER TABLE card ADD COLUMN anki_retention REAL;
                """)
        }
        // New cards from Anki in the order of their own positions in Anki's new queue: the queue
        // orders a deck's new cards by this expression, and reads them from this index. It takes
        // the place of card_deck_new, which only the queue's new cards read.
        migrator.registerMigration("v21") { db in
            try db.execute(sql: "DROP INDEX card_deck_new")
            try db.execute(sql: "CREATE INDEX card_deck_new_place ON card(deck_id, \(QueueRows.newCardPlace)) WHERE phase = 'new'")
        }
        // Cards that are gone (deleted here, or deleted in Anki before their answers came): their
        // answers stay in the log under the card's number, so the number is never given to
        // another card, and they go back to Anki under the card's Anki id, as Anki keeps them.
        // Triggers keep it on every write path: a deleted note records its cards before they go
        // (with its creation time, which gives a card made here the id an export proposed for
        // it); a card deleted alone records itself; a card put back (undo) is no longer gone.
        // Answers already left by deleted cards make their cards gone, with no Anki id.
        migrator.registerMigration("v22") { db in
            try db.execute(sql: """
                CREATE TABLE gone_card (
                    id INTEGER PRIMARY KEY,              -- the card's number, never given again
                    anki_id INTEGER,                     -- Anki's id for it, where it had one
                    note_created INTEGER                 -- its note's created_at, for a card made here
                );
                INSERT INTO gone_card (id) SELECT DISTINCT card_id FROM review_log WHERE card_id NOT IN (SELECT id FROM card);
                CREATE TRIGGER gone_card_of_note BEFORE DELETE ON note BEGIN
                    INSERT OR REPLACE INTO gone_card (id, anki_id, note_created) SELECT id, anki_id, OLD.created_at FROM card WHERE note_id = OLD.id;
                END;
                CREATE TRIGGER gone_card_alone AFTER DELETE ON card BEGIN
                    INSERT OR IGNORE INTO gone_card (id, anki_id, note_created)
                    VALUES (OLD.id, OLD.anki_id, (SELECT created_at FROM note WHERE id = OLD.note_id));
                END;
                CREATE TRIGGER gone_card_back AFTER INSERT ON card WHEN NEW.id <= (SELECT max(id) FROM gone_card) BEGIN
                    DELETE FROM gone_card WHERE id = NEW.id;
                END;
                """)
        }
        // An answer given in steps keeps its step's delay as the preset's steps were then, which
        // Anki logs as its last interval: changing the steps later no longer changes the row
        // the answer exports as (older answers have none, and take the steps as they are).
        migrator.registerMigration("v23") { db in
            try db.execute(sql: "ALTER TABLE review_log ADD COLUMN step_secs INTEGER")
        }
        // A star is Anki's `marked` tag, on the note: starring leaves the card's row in Anki's
        // file as it was, and so its modification time, by which Anki orders tied reviews
        // (`AnkiTieBreak`). Starred on import, a card from Anki took the import's time.
        migrator.registerMigration("v24") { db in
            try db.execute(sql: "DROP TRIGGER card_modified")
            try db.execute(sql: cardModifiedTrigger(columns: ["deck_id", "phase", "step", "scheduled_seconds", "interval_days", "ease", "stability",
                                                              "difficulty", "due", "reps", "lapses", "suspended", "buried_until", "flags",
                                                              "buried_by_user", "new_position"]))
        }
        // The queue reads what Anki orders tied reviews by (`AnkiTieBreak`: the card's id in Anki
        // and its modification time there) with each due review: from the index it reads the
        // reviews by, not from each card's row (3,000 due reviews: 3-5 ms from the rows, about
        // 2 ms from the index; 0.9 ms before the rank was read at all).
        migrator.registerMigration("v25") { db in
            try db.execute(sql: """
                DROP INDEX card_deck_due;
                CREATE INDEX card_deck_due ON card(deck_id, phase, due, note_id, suspended, buried_until, anki_id, anki_mod, modified_at);
                """)
        }
        // The answers given here that have no Anki id yet, found after each sync to take the id
        // the server holds them by (`FullSync.keepSentAnswerIDs`): from an index of only those,
        // not by reading the whole log (60 ms at 130,000 rows).
        migrator.registerMigration("v26") { db in
            try db.execute(sql: "CREATE INDEX review_log_without_anki_id ON review_log(card_id) WHERE anki_id IS NULL")
        }
        // Of those, only the ones that go to Anki (answers, and changes made here): the rows an
        // import or a sync writes to explain a state Anki set without an answer never get an
        // id, and read through the index one by one every sync (12,000 after a day of a phone's
        // bulk changes: 15 ms, more with every sync).
        migrator.registerMigration("v27") { db in
            try db.execute(sql: """
                DROP INDEX review_log_without_anki_id;
                CREATE INDEX review_log_without_anki_id ON review_log(card_id) WHERE anki_id IS NULL AND (kind = 1 OR rating > 0);
                """)
        }
        // Anki limits a day by each deck's counters, which hold answers the log cannot place in a
        // deck (a card deleted since keeps no deck; a card moved since was answered in another).
        // Kept per deck as what Anki counted beyond the log when its collection came, on the day
        // it counted them (`AnkiAnsweredToday`): the log and this together count as Anki counts.
        migrator.registerMigration("v28") { db in
            try db.execute(sql: """
                CREATE TABLE anki_day_count (
                    deck_id INTEGER PRIMARY KEY REFERENCES deck(id) ON DELETE CASCADE,
                    day_start INTEGER NOT NULL,          -- unix ms: the day these count in
                    new INTEGER NOT NULL,
                    reviews INTEGER NOT NULL,
                    milliseconds INTEGER NOT NULL
                )
                """)
        }
        // What Anki orders a day's tied reviews by takes two of the note's values (its making, for
        // the id an export proposes; its change here, for a note Anki never had): kept on each
        // card, and in the index the queue reads due reviews from, so the queue reads no note
        // (3,000 due reviews: 1.56 ms with the join to each note, 0.7 ms without). The inserter
        // writes them with a new note's cards; a trigger writes them where the note changes,
        // and another for a card written without them.
        migrator.registerMigration("v29") { db in
            try db.execute(sql: """
                ALTER TABLE card ADD COLUMN note_created INTEGER;
                ALTER TABLE card ADD COLUMN note_changed INTEGER;
                DROP INDEX card_deck_due;
                CREATE INDEX card_deck_due ON card(deck_id, phase, due, note_id, suspended, buried_until, anki_id, anki_mod, modified_at,
                                                   note_changed, note_created);
                """)
            try db.execute(sql: noteTieTriggers)
            // Filling them changes nothing a sync carries: the triggers that mark a sync's changes
            // are set aside for it and made again as they were.
            let marking = try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'card' AND name LIKE 'sync%'")
            for row in marking { try db.execute(sql: "DROP TRIGGER \(row[0] as String)") }
            try db.execute(sql: "UPDATE card SET (note_created, note_changed) = (SELECT \(noteTieValues) FROM note WHERE note.id = card.note_id)")
            for row in marking { try db.execute(sql: row[1] as String) }
        }
        // The triggers that mark what a sync carries, made again without a conflict clause
        // (`Collection.marking`) where a collection that synced keeps them: the ones it was given
        // failed a note type saved again while a note of it was marked (an import after an
        // answer) until the next sync made them again.
        migrator.registerMigration("v30") { db in
            if try db.tableExists("sync_dirty_note") { try Collection.installSyncTracking(db) }
        }
        // A card Anki keeps in another deck than its note's other cards: that deck's Anki id,
        // written back (`CardDraft.ankiDeckID`). Before, such a card went back in its note's deck.
        migrator.registerMigration("v31") { db in
            try db.execute(sql: "ALTER TABLE card ADD COLUMN anki_deck INTEGER")
        }
        // Such a card is studied in that deck, as in Anki: its `deck_id` says so, and an export
        // writes it there. The cards v31 kept go to their decks; nothing an export writes
        // changes, so the triggers that date a card's change and mark a sync's are set aside.
        migrator.registerMigration("v32") { db in
            let triggers = try Row.fetchAll(db, sql: """
                SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'card' AND (name LIKE 'sync%' OR name = 'card_modified')
                """)
            for row in triggers { try db.execute(sql: "DROP TRIGGER \(row[0] as String)") }
            try db.execute(sql: """
                UPDATE card SET deck_id = (SELECT id FROM deck WHERE deck.anki_id = card.anki_deck)
                WHERE anki_deck IS NOT NULL AND EXISTS (SELECT 1 FROM deck WHERE deck.anki_id = card.anki_deck);
                ALTER TABLE card DROP COLUMN anki_deck;
                """)
            for row in triggers { try db.execute(sql: row[1] as String) }
            // A deck's and a preset's changes mark the notes with a card in its decks.
            if try db.tableExists("sync_dirty_note") { try Collection.installSyncTracking(db) }
        }
        // Which cards a note of an Anki note type has follows Anki's rule over its question
        // (`AnkiQuestionRule`): each deck's templates of Anki's types get their question's tags
        // from the type kept. A template whose type is gone keeps the rule it had.
        migrator.registerMigration("v33") { db in
            try Self.updateAnkiTemplates(db) { template, kept in
                guard template.ankiQuestionTags == nil else { return false }
                template.ankiQuestionTags = kept.ankiQuestionTags
                return true
            }
        }
        // A field an Anki question names only by a section (`{{#Add Reverse}}…`, Anki's "Basic
        // (optional reversed card)") was shown on the card: each deck's templates of Anki's
        // standard types take the fields their type's templates show now.
        migrator.registerMigration("v34") { db in
            try Self.updateAnkiTemplates(db) { template, kept in
                guard (kept.front, kept.back) != (template.front, template.back) else { return false }
                (template.front, template.back) = (kept.front, kept.back)
                return true
            }
        }
        // A note's answer shows what its template's sections let through for it, as its question
        // does: each deck's templates of Anki's standard types take their answer's tags.
        // No export reads an answer's tags: the trigger that marks a changed deck's notes for the
        // next sync is set aside (it marked every note of each deck, and the next sync exported
        // them all to find nothing changed).
        migrator.registerMigration("v35") { db in
            let marking = try Row.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'sync_mark_deck_update'")
            try db.execute(sql: "DROP TRIGGER IF EXISTS sync_mark_deck_update")
            try Self.updateAnkiTemplates(db) { template, kept in
                guard template.ankiAnswerTags == nil else { return false }
                template.ankiAnswerTags = kept.ankiAnswerTags
                return true
            }
            for row in marking { try db.execute(sql: row[0] as String) }
        }
        // A cloze type's other fields follow its sections as a standard type's do: its template
        // in each deck takes the question's and answer's tags and leaves out a field named only
        // by a section. The fields shown may change what an own deck's export writes (its notes
        // are marked for the next sync, as any deck's change marks them).
        migrator.registerMigration("v36") { db in
            try Self.updateAnkiTemplates(db, clozes: true) { template, kept in
                let now = (template.front, template.back, template.ankiQuestionTags, template.ankiAnswerTags)
                guard now != (kept.front, kept.back, kept.ankiQuestionTags, kept.ankiAnswerTags) else { return false }
                (template.front, template.back, template.ankiQuestionTags, template.ankiAnswerTags) =
                    (kept.front, kept.back, kept.ankiQuestionTags, kept.ankiAnswerTags)
                return true
            }
        }
        // A forgotten card keeps the retention Forget kept, as its FSRS data (until a move finds
        // it no memory): one forgotten before keeps what an export wrote for it, the options'.
        migrator.registerMigration("v37") { db in
            try db.execute(sql: """
                UPDATE card SET anki_retention = (SELECT json_extract(preset.scheduler, '$.desiredRetention') FROM deck
                                                    JOIN preset ON preset.id = deck.preset_id WHERE deck.id = card.deck_id)
                WHERE phase = 'new' AND reps > 0 AND anki_retention IS NULL
                  AND (SELECT json_extract(preset.scheduler, '$.kind') FROM deck JOIN preset ON preset.id = deck.preset_id
                       WHERE deck.id = card.deck_id) = 'fsrs'
                """)
        }
        return migrator
    }

    /// Each deck template of an Anki standard note type kept here, changed by `change` with
    /// what its type's templates make now (`AnkiNoteType.maeilTemplates`, found by name, or by
    /// the name a deck of several types gives it); a template whose type is gone stays as it is.
    /// `clozes`: a cloze type's template instead.
    static func updateAnkiTemplates(_ db: Database, clozes: Bool = false, _ change: (inout CardTemplate, CardTemplate) -> Bool) throws {
        let types = try Collection.ankiNoteTypes(db).values
        for row in try Row.fetchAll(db, sql: "SELECT id, templates FROM deck") {
            var templates = try DecodeCache.templates(row["templates"])
            var changed = false
            for index in templates.indices where (templates[index].blanks != nil) == clozes {
                guard let typeName = templates[index].noteType,
                      let type = types.first(where: { $0.name == typeName && $0.isCloze == clozes }) else { continue }
                let name = templates[index].name
                guard let kept = type.maeilTemplates.first(where: { $0.name == name || "\($0.name) (\(typeName))" == name }) else { continue }
                changed = change(&templates[index], kept) || changed
            }
            guard changed else { continue }
            try db.execute(sql: "UPDATE deck SET templates = ? WHERE id = ?", arguments: [try DeckTable.templatesColumn(templates), row["id"] as Int64])
        }
    }

    /// A card's copy of its note's values for `AnkiTieBreak`, selected from `note`: when it was
    /// made (for the id an export proposes) and its part of the card's modification time.
    static let noteTieValues = "created_at, \(Collection.noteChangedSQL)"

    /// The triggers that keep each card's copy of `noteTieValues` (v29): a note's change rewrites
    /// its cards' copies, and a card written without them (`NoteInserter` writes them only for a
    /// new note's cards) takes them from its note.
    static let noteTieTriggers = """
        CREATE TRIGGER card_note_tie_follows AFTER UPDATE OF created_at, modified_at, anki_mod ON note
        WHEN OLD.created_at IS NOT NEW.created_at OR OLD.modified_at IS NOT NEW.modified_at OR OLD.anki_mod IS NOT NEW.anki_mod
        BEGIN UPDATE card SET (note_created, note_changed) = (SELECT \(noteTieValues) FROM note WHERE note.id = NEW.id) WHERE note_id = NEW.id; END;
        CREATE TRIGGER card_note_tie_taken AFTER INSERT ON card WHEN NEW.note_created IS NULL OR NEW.note_changed IS NULL
        BEGIN UPDATE card SET (note_created, note_changed) = (SELECT \(noteTieValues) FROM note WHERE note.id = NEW.note_id) WHERE id = NEW.id; END;
        """

    /// The trigger that keeps a card's modification time: the clock's when one of `columns`
    /// changes value (a row written back as it was is no change).
    private static func cardModifiedTrigger(columns: [String]) -> String {
        """
        CREATE TRIGGER card_modified AFTER UPDATE OF \(columns.joined(separator: ", ")) ON card
        WHEN \(columns.map { "OLD.\($0) IS NOT NEW.\($0)" }.joined(separator: " OR "))
        BEGIN UPDATE card SET modified_at = CAST(strftime('%s', 'now') AS INTEGER) WHERE id = NEW.id; END
        """
    }
}
