import Foundation
import GRDB
import MaeilCore
import MaeilDecks

/// A normal sync's working copy: this collection written as an Anki collection file (schema 11),
/// merged with the server's changes the way Anki's own client merges them into its database.
///
/// What changed here since the last sync is found by comparing the copy with the base: the
/// same export, made when the last sync ended. A row that differs (or is new) is pending (usn
/// −1, as Anki marks it); a card or note in the base and not in the copy was deleted here.
/// Both files come from one exporter, so a row Maeil did not touch compares equal.
package final class SyncMerge {
    let queue: DatabaseQueue
    /// Whether a base is attached, and whether what differs from it is pending (this side
    /// changed since the last sync).
    let hasBase: Bool
    let changedHere: Bool
    /// Where the base goes before anything in it is written (its due days moved), beside the
    /// copy: it is read where it lies until then, and stays as the last sync left it.
    let baseCopy: URL
    private var baseCopied = false
    /// Cards changed on both sides since the last sync, by id: whichever row won, each side's
    /// answers are in the log.
    package private(set) var changedOnBothSides: Set<Int64> = []
    /// Cards the server sent a row or an answer of, by Anki's id; and of those it sent a row
    /// of, the ones whose row the merge took (this side's was not the newer).
    package private(set) var receivedCards: Set<Int64> = []
    package private(set) var takenCards: Set<Int64> = []
    /// Notes whose row from the server the merge took (this side's was not the newer), by Anki's id.
    package private(set) var takenNotes: Set<Int64> = []
    /// Whether a note type the server sent differs from this side's in what Maeil makes of it
    /// (`AnkiNoteType.makesTheSameHere`), or a deck turned filtered or back.
    package private(set) var serverChangedObjects = false
    /// Anki's ids of the note types the server has that this side had not at the last sync
    /// (made there since), and of those it changed only in what Maeil keeps for Anki (a style,
    /// the HTML around the fields).
    package private(set) var serverNewNoteTypes: Set<Int64> = []
    package private(set) var serverRestyledNoteTypes: Set<Int64> = []
    /// Anki's ids of the decks (not filtered) and the options the server has that this side had
    /// not at the last sync: made there since.
    package private(set) var serverNewDecks: Set<Int64> = []
    package private(set) var serverNewOptions: Set<Int64> = []
    /// Anki's ids of the decks this side has whose name, description, options or own limits the
    /// server changed (a deck's counts of the day and modification time change by themselves).
    package private(set) var serverChangedDecks: Set<Int64> = []
    /// Whether the server's collection settings differ from this side's in the limits' rules
    /// (new cards ignore the review limit, every parent's limits apply), as `adopt` found.
    package private(set) var serverChangedLimitRules = false
    /// Anki's ids of the decks (not filtered) whose row from the server the merge took, for
    /// whatever changed there: a day's counts too.
    package private(set) var serverTakenDecks: Set<Int64> = []
    /// How many decks went up for their counts of the day alone (`localObjects`).
    package private(set) var sentDayCounts = 0
    /// Anki's ids of the options (presets) this side has that the server changed in what Maeil uses.
    package private(set) var serverChangedOptions: Set<Int64> = []
    /// The decks the server deleted since the last sync (their ids as the file's keys): the base
    /// still holds them, and must not put them back.
    private var decksDeletedThere: Set<String> = []
    /// Whether one of them is a deck this side holds (not a filtered deck: Maeil keeps none).
    package private(set) var serverDeletedHeldDecks = false

    /// Opens `merged` (a copy of the export, changed in place) with `base` beside it, read
    /// where it lies, copied beside `merged` if its due days must move. `changedHere` false:
    /// nothing here is pending, and the base (when there is one) only gives back the answers
    /// the export cannot hold. Rows with usn −1 are the ones that may have changed: every row
    /// of a whole export, the laid-over ones of a copy of the base (`fromBase`, which holds the
    /// base's answers already).
    package init(merged: URL, base: URL?, changedHere: Bool, fromBase: Bool = false) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
            AnkiPackage.addAnkiCollations(db)
        }
        queue = try DatabaseQueue(path: merged.path, configuration: configuration)
        hasBase = base != nil
        self.changedHere = changedHere && base != nil
        baseCopy = merged.deletingLastPathComponent().appendingPathComponent("base.anki2")
        try queue.writeWithoutTransaction { db in
            if !self.changedHere {
                for table in ["cards", "notes", "revlog"] { try db.execute(sql: "UPDATE \(table) SET usn = 0 WHERE usn = -1") }
            }
            try db.execute(sql: "DELETE FROM graves")
            guard let base else { return }
            try db.execute(sql: "ATTACH DATABASE ? AS base", arguments: [base.path])
            guard !fromBase else { return }
            // Answers to cards deleted since stay in Anki's log (and the server's) for good;
            // Maeil keeps no card to hang them on, so the base carries them.
            try db.execute(sql: "INSERT OR IGNORE INTO main.revlog SELECT id, cid, 0, ease, ivl, lastIvl, factor, time, type FROM base.revlog")
        }
    }

    package func close() throws { try queue.close() }

    /// The base, about to be written, goes to its copy first.
    private func copyBase() throws {
        guard !baseCopied else { return }
        try queue.writeWithoutTransaction { db in
            let path = try String.fetchOne(db, sql: "SELECT file FROM pragma_database_list WHERE name = 'base'") ?? ""
            try db.execute(sql: "DETACH DATABASE base")
            try FileManager.default.copyItem(at: URL(fileURLWithPath: path), to: baseCopy)
            try db.execute(sql: "ATTACH DATABASE ? AS base", arguments: [baseCopy.path])
        }
        baseCopied = true
    }

    /// The notes of `cards` (Anki's ids), as the merge holds them.
    package func notes(ofCards cards: Set<Int64>) throws -> Set<Int64> {
        let list = String(decoding: try JSONSerialization.data(withJSONObject: Array(cards)), as: UTF8.self)
        return try queue.read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT DISTINCT nid FROM main.cards WHERE id IN (SELECT value FROM json_each(?))", arguments: [list]))
        }
    }

    // MARK: Deletions

    /// Cards and notes of the base this side no longer has: deleted here.
    package func localGraves() throws -> SyncGraves {
        guard changedHere else { return SyncGraves() }
        return try queue.read { db in
            SyncGraves(cards: try Int64.fetchAll(db, sql: "SELECT id FROM base.cards WHERE id NOT IN (SELECT id FROM main.cards)"),
                       notes: try Int64.fetchAll(db, sql: "SELECT id FROM base.notes WHERE id NOT IN (SELECT id FROM main.notes)"))
        }
    }

    /// The server's deletions, as Anki's client takes them: whatever this side did to the rows.
    package func apply(serverGraves graves: SyncGraves) throws {
        try queue.write { db in
            for id in graves.cards { try db.execute(sql: "DELETE FROM cards WHERE id = ?", arguments: [id]) }
            for id in graves.notes {
                try db.execute(sql: "DELETE FROM cards WHERE nid = ?", arguments: [id])
                try db.execute(sql: "DELETE FROM notes WHERE id = ?", arguments: [id])
            }
            if !graves.decks.isEmpty {
                var decks = try Self.objects(db, "decks")
                for id in graves.decks {
                    if let deck = decks["\(id)"] as? [String: Any], !Self.isFiltered(deck) { serverDeletedHeldDecks = true }
                    decks["\(id)"] = nil
                    decksDeletedThere.insert("\(id)")
                }
                try Self.save(db, "decks", decks)
            }
        }
    }

    // MARK: Note types, decks, options, tags

    /// Keys that change without the learner changing anything (today's counts, on a new day:
    /// whether a deck counts other answers is `countsDiffer`): left out when deciding whether
    /// an object changed.
    static let volatileKeys: Set<String> = ["mod", "usn", "newToday", "revToday", "lrnToday", "timeToday"]
    /// The day's counters a deck sends when they changed (`countsDiffer`): Anki counts a day's
    /// answers against the limits by them, and an answer sends its deck.
    static let dayCountKeys = ["newToday", "revToday"]

    /// Whether `deck` counts other answers today than `base` did: this side answered in it
    /// since. Maeil's counters are its log's (and what Anki counted beyond it), so they hold
    /// the other devices' answers too. A count of another day than the deck's is none today: a
    /// new day alone sends no deck.
    static func countsDiffer(_ base: [String: Any], _ deck: [String: Any]) -> Bool {
        dayCountKeys.contains { key in
            guard let now = deck[key] as? [Any], now.count == 2, let day = int(now[0]), let count = int(now[1]) else { return false }
            let before = base[key] as? [Any]
            let counted = before?.count == 2 && before.flatMap { int($0[0]) } == day ? before.flatMap { int($0[1]) } ?? 0 : 0
            return count != counted
        }
    }

    /// And a note type's last deck (where Anki's Add screen puts its next note): Maeil's export
    /// names the deck of the type's first note, and sent for that alone, a note type went up at
    /// every sync and turned the phone's Add screen to another deck.
    static let volatileModelKeys = volatileKeys.union(["did"])

    /// Note types, decks and options that differ from the base's (or are new), marked pending
    /// and made newer than the base's; and the tags new here. Objects the base has and the copy
    /// lacks are put back: Maeil writes only what it holds, and deletes none of them this way;
    /// but not a deck the server deleted (`apply(serverGraves:)` runs first).
    /// What is sent carries the server's `usn`, as Anki's client sends it (the server keeps it).
    package func localObjects(usn: Int) throws -> SyncObjects {
        try queue.write { db in
            var changes = SyncObjects()
            for column in ["models", "decks", "dconf"] {
                var mine = try Self.objects(db, column)
                let theirs = hasBase ? try Self.objects(db, column, schema: "base") : [:]
                // Written back only where something in it changed (so too where the server's come
                // and at the end): Foundation's JSON writer took a tenth of a sync of ten notes.
                var changed = false
                for (key, value) in theirs where mine[key] == nil && !(column == "decks" && decksDeletedThere.contains(key)) {
                    mine[key] = value
                    changed = true
                }
                var pending: [[String: Any]] = []
                for (key, value) in mine {
                    guard var object = value as? [String: Any] else { continue }
                    let before = theirs[key] as? [String: Any]
                    if changedHere, column == "models", let before {
                        // Anki takes a note type with other fields or card types only in a full sync.
                        for key in ["flds", "tmpls"] where (before[key] as? [Any])?.count != (object[key] as? [Any])?.count {
                            throw SyncError(.schema, "the note type \(object["name"] as? String ?? key) has other fields or card types here than at "
                                            + "the last sync; only a full sync can carry that")
                        }
                    }
                    let differs = before.map { !Self.same($0, object, ignoring: column == "models" ? Self.volatileModelKeys : Self.volatileKeys) } ?? true
                    let countsOnly = !differs && column == "decks" && before.map { Self.countsDiffer($0, object) } == true
                    if changedHere, differs || countsOnly {
                        let baseModified = Self.int(before?["mod"]) ?? 0
                        // Counts alone go up as old as the base's: Anki's server takes an object
                        // not older than its own, so they replace a deck unchanged there, and a
                        // deck changed there since (renamed on the phone) stays and comes down;
                        // these counts then go up at the next sync, with the phone's answers.
                        object["mod"] = countsOnly ? baseModified : max(Self.int(object["mod"]) ?? 0, baseModified + 1)
                        sentDayCounts += countsOnly ? 1 : 0
                        object["usn"] = usn
                        pending.append(object)
                        object["usn"] = -1
                    } else {
                        object["usn"] = 0
                    }
                    let stored = value as? [String: Any]
                    changed = changed || Self.int(stored?["usn"]) != Self.int(object["usn"]) || Self.int(stored?["mod"]) != Self.int(object["mod"])
                    mine[key] = object
                }
                if changed { try Self.save(db, column, mine) }
                switch column {
                case "models": changes.models = pending
                case "decks": changes.decks = pending
                default: changes.deckConfigs = pending
                }
            }
            if changedHere { changes.tags = try Self.tags(db, "main").subtracting(try Self.tags(db, "base")).sorted() }
            return changes
        }
    }

    /// The server's note types, decks and options: each replaces this side's unless this side's
    /// is pending and not older. A note type whose fields or templates differ in number cannot
    /// be merged: only a full sync will do, as in Anki.
    package func apply(serverObjects remote: SyncObjects) throws {
        try queue.write { db in
            for (column, incoming) in [("models", remote.models), ("decks", remote.decks), ("dconf", remote.deckConfigs)] {
                guard !incoming.isEmpty else { continue }
                var mine = try Self.objects(db, column)
                var changed = false
                for object in incoming {
                    guard let id = Self.int(object["id"]) else { continue }
                    let local = mine["\(id)"] as? [String: Any]
                    if let local, Self.int(local["usn"]) == -1, (Self.int(local["mod"]) ?? 0) >= (Self.int(object["mod"]) ?? 0) { continue }
                    // A filtered deck (a phone's custom study) is none Maeil holds: its cards stay in
                    // their home decks here, and the base keeps the deck for the server's counts.
                    let filtered = column == "decks" && Self.isFiltered(object) && (local.map(Self.isFiltered) ?? true)
                    if !filtered, local.map({ Self.changesWhatMaeilUses(column, $0, object) }) ?? true {
                        switch (column, local) {
                        case ("dconf", .some): serverChangedOptions.insert(id)
                        case ("dconf", .none): serverNewOptions.insert(id)
                        case ("decks", .some(let local)) where !Self.isFiltered(local) && !Self.isFiltered(object): serverChangedDecks.insert(id)
                        case ("decks", .none) where !Self.isFiltered(object): serverNewDecks.insert(id)
                        case ("models", .none): serverNewNoteTypes.insert(id)
                        case ("models", .some(let local)) where AnkiNoteType(id: id, legacy: local).makesTheSameHere(as: AnkiNoteType(id: id, legacy: object)):
                            serverRestyledNoteTypes.insert(id)
                        default: serverChangedObjects = true
                        }
                    }
                    if column == "models", let local {
                        for key in ["flds", "tmpls"] where (local[key] as? [Any])?.count != (object[key] as? [Any])?.count {
                            throw SyncError(.schema, "the note type \(object["name"] as? String ?? "\(id)") has other fields or card types on the "
                                            + "server than here; only a full sync can bring the two together")
                        }
                    }
                    if column == "decks", !Self.isFiltered(object), !(local.map(Self.isFiltered) ?? false) { serverTakenDecks.insert(id) }
                    mine["\(id)"] = object
                    changed = true
                }
                if changed { try Self.save(db, column, mine) }
            }
        }
    }

    // MARK: The collection's config

    /// Keys of the collection's config that Maeil holds as settings of its own, each with
    /// Anki's value where the key is absent: the limits' rules, which change no card (a sync
    /// takes them in place), and the hour a day starts and FSRS, which change what Maeil makes
    /// of every card (a sync takes them with the whole merge).
    static let limitRuleKeys: [(key: String, absent: Int64)] = [("newCardsIgnoreReviewLimit", 0), ("applyAllParentLimits", 0)]
    static let cardSettingKeys: [(key: String, absent: Int64)] = [("rollover", 4), ("fsrs", 0)]
    static let ownConfigKeys = limitRuleKeys + cardSettingKeys

    static func ownConfigDiffers(_ a: [String: Any], _ b: [String: Any], among keys: [(key: String, absent: Int64)] = ownConfigKeys) -> Bool {
        keys.contains { (int(a[$0.key]) ?? $0.absent) != (int(b[$0.key]) ?? $0.absent) }
    }

    /// The collection's config and creation time to send, where this side changed a setting of
    /// its own since the base: Anki's client sends its whole config when it is the newer side,
    /// and the server takes it whole, so it is the base's (every key the server had at the
    /// last sync, the phone's too) with this side's settings over it, and the next new card's
    /// place past every new card's. Nil where none changed: the server's comes down instead.
    package func localConfig() throws -> (config: [String: Any], created: Int64)? {
        guard changedHere, hasBase else { return nil }
        return try queue.read { db in
            let mine = try Self.config(db, schema: "main"), base = try Self.config(db, schema: "base")
            guard Self.ownConfigDiffers(mine, base), let created = try Int64.fetchOne(db, sql: "SELECT crt FROM base.col") else { return nil }
            var config = base
            for (key, _) in Self.ownConfigKeys { config[key] = mine[key] }
            let lastNew = try Int64.fetchOne(db, sql: "SELECT max(due) FROM cards WHERE type = 0") ?? 0
            config["nextPos"] = max(Self.int(base["nextPos"]) ?? 0, lastNew + 1)
            return (config, created)
        }
    }

    /// Moves the copy (and the base) to the server's calendar: review due days count from the
    /// creation date of the server's collection, which an export made here does not share. The
    /// copy takes `config` whole, the server's config as it now stands (nil: none came, and
    /// this side's stays). Answers whether a setting Maeil holds (`ownConfigKeys`) other than
    /// the limits' rules differs from this side's; whether those do is `serverChangedLimitRules`.
    @discardableResult
    package func adopt(created: Int64, config: [String: Any]?) throws -> Bool {
        // Worked out before writing: a base whose days move is copied first, outside a transaction.
        let (shift, baseShift, config, conf) = try queue.read { db in
            let conf = try Self.config(db, schema: "main")
            let ownCreated = try Int64.fetchOne(db, sql: "SELECT crt FROM col") ?? created
            // A collection without the creator's offset counts from this machine's (as Anki does): the export's.
            var config = config ?? conf
            if config["creationOffset"] == nil { config["creationOffset"] = conf["creationOffset"] }
            let base = hasBase ? Self.createdDay(try Int64.fetchOne(db, sql: "SELECT crt FROM base.col") ?? ownCreated,
                                                 try Self.config(db, schema: "base")) - Self.createdDay(created, config) : nil
            return (Self.createdDay(ownCreated, conf) - Self.createdDay(created, config), base, config, conf)
        }
        if let baseShift, baseShift != 0 { try copyBase() }
        return try queue.write { db in
            for (schema, shift) in [("main", shift), ("base", baseShift)] {
                // Due days (not positions, not timestamps): cards that were studied, due before 1,000,000,000.
                guard let shift, shift != 0 else { continue }
                guard schema == "main" || baseCopied else { preconditionFailure("the last sync's base would be written where it lies") }
                try db.execute(sql: "UPDATE \(schema).cards SET due = due + ? WHERE type != 0 AND due < 1000000000", arguments: [shift])
                // A deck's limit for one day, and its counts of a day's answers, name that day in the same count.
                let decks = Self.movingDays(try Self.objects(db, "decks", schema: schema), by: shift)
                try db.execute(sql: "UPDATE \(schema).col SET decks = ?", arguments: [try Self.text(decks)])
            }
            try db.execute(sql: "UPDATE col SET crt = ?, conf = ?", arguments: [created, try Self.text(config)])
            serverChangedLimitRules = Self.ownConfigDiffers(config, conf, among: Self.limitRuleKeys)
            return Self.ownConfigDiffers(config, conf, among: Self.cardSettingKeys)
        }
    }

    /// Decks whose limits for one day ("Today only") and counts of the day's answers (which
    /// Anki limits the day by) name that day `shift` days further on: the same day, counted from
    /// a creation day `shift` days earlier.
    static func movingDays(_ decks: [String: Any], by shift: Int64) -> [String: Any] {
        guard shift != 0 else { return decks }
        var moved = decks
        for (key, value) in decks {
            guard var deck = value as? [String: Any] else { continue }
            for name in ["reviewLimitToday", "newLimitToday"] {
                guard var limit = deck[name] as? [String: Any], let today = int(limit["today"]) else { continue }
                limit["today"] = today + shift
                deck[name] = limit
            }
            // [day, count]; a deck never studied counts nothing on day 0, which stays.
            for name in ["newToday", "revToday", "lrnToday", "timeToday"] {
                guard let counted = deck[name] as? [Any], counted.count == 2, let day = int(counted[0]), day != 0 || int(counted[1]) != 0 else { continue }
                deck[name] = [day + shift, counted[1]] as [Any]
            }
            moved[key] = deck
        }
        return moved
    }

    static func createdDay(_ created: Int64, _ config: [String: Any]) -> Int64 {
        let minutesWest = Int64((config["creationOffset"] as? NSNumber)?.intValue ?? 0)
        return Int64((Double(created - minutesWest * 60) / 86_400).rounded(.down))
    }

    // MARK: Rows

    /// Marks what changed here since the base, among the rows that may have (usn −1): cards and
    /// notes that differ in anything but their modification time (made newer than the base's,
    /// so a change here is never older than what it changed), and answers the base does not
    /// have. The others are not pending (usn 0).
    /// A row changed here is newer than the base's, as Anki's own change would be: where it was
    /// changed in the second the base's was made, a second later, but never later than `now`.
    /// (A time a second ahead tied with a change a phone made in that second: the server and
    /// the phone each kept their own, and the sides differed from then on.)
    package func markPendingRows(now: Date) throws {
        guard changedHere else { return }
        try queue.write { db in
            let cardColumns = ["nid", "did", "ord", "type", "queue", "due", "ivl", "factor", "reps", "lapses", "left", "odue", "odid", "flags", "data"]
            let noteColumns = ["guid", "mid", "tags", "flds", "flags", "data"]
            for (table, columns) in [("cards", cardColumns), ("notes", noteColumns)] {
                let same = columns.map { "b.\($0) IS \(table).\($0)" }.joined(separator: " AND ")
                try db.execute(sql: """
                    UPDATE \(table) SET usn = 0 WHERE usn = -1 AND EXISTS (SELECT 1 FROM base.\(table) b WHERE b.id = \(table).id AND \(same));
                    UPDATE \(table) SET mod = max(mod, min(coalesce((SELECT b.mod + 1 FROM base.\(table) b WHERE b.id = \(table).id), mod), ?1)) WHERE usn = -1
                    """, arguments: [Int64(now.timeIntervalSince1970.rounded(.down))])
            }
            // Each looked up by its id: `id IN (SELECT id FROM base.revlog)` read every answer of the base (14 ms at 100,000).
            try db.execute(sql: "UPDATE revlog SET usn = 0 WHERE usn = -1 AND EXISTS (SELECT 1 FROM base.revlog b WHERE b.id = revlog.id)")
        }
    }

    /// What one chunk from the server held: how many rows of each table, and whether it was the last.
    package struct ChunkCounts: Sendable, Equatable {
        package var done = true
        package var revlog = 0, cards = 0, notes = 0

        package var total: Int { revlog + cards + notes }
    }

    /// One chunk of the server's rows, as Anki's client takes it: answers added (both sides'
    /// survive); a card or note replaces this side's unless this side's is pending and not older.
    /// Set by set, each table's rows read from the chunk's JSON by SQLite (a row shorter than
    /// Anki's is left out, as Anki's client refuses it).
    @discardableResult
    package func apply(serverChunk chunk: SyncChunk) throws -> ChunkCounts {
        try queue.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT CASE WHEN json_valid(?) THEN json_type(?) = 'object' ELSE 0 END", arguments: [chunk.json, chunk.json]) == true else {
                throw SyncError(.server, "the sync server's chunk of changes is not Anki's")
            }
            var counts = ChunkCounts()
            counts.done = try Bool.fetchOne(db, sql: "SELECT coalesce(json_extract(?, '$.done'), 1)", arguments: [chunk.json]) ?? true
            func columns(_ range: Range<Int>) -> String { range.map { "json_extract(value, '$[\($0)]')" }.joined(separator: ", ") }
            func rows(_ table: String, _ width: Int) -> String { "json_each(?, '$.\(table)') WHERE json_array_length(value) >= \(width)" }
            let revlog = rows("revlog", 9)
            try db.execute(sql: "INSERT OR IGNORE INTO revlog SELECT \(columns(0..<9)) FROM \(revlog)", arguments: [chunk.json])
            let answered = try Int64?.fetchAll(db, sql: "SELECT json_extract(value, '$[1]') FROM \(revlog)", arguments: [chunk.json])
            counts.revlog = answered.count
            receivedCards.formUnion(answered.compactMap { $0 })
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS incoming (id INTEGER, mod INTEGER, kept INTEGER, value TEXT)")
            for (table, width, modified) in [("cards", 18, 4), ("notes", 11, 3)] {
                try db.execute(sql: "DELETE FROM temp.incoming")
                try db.execute(sql: """
                    INSERT INTO temp.incoming (id, mod, value)
                    SELECT coalesce(json_extract(value, '$[0]'), 0), coalesce(json_extract(value, '$[\(modified)]'), 0), value FROM \(rows(table, width))
                    """, arguments: [chunk.json])
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.incoming") ?? 0
                if table == "cards" {
                    counts.cards = count
                    receivedCards.formUnion(try Int64.fetchAll(db, sql: "SELECT id FROM temp.incoming"))
                    changedOnBothSides.formUnion(try Int64.fetchAll(db, sql: """
                        SELECT i.id FROM temp.incoming i JOIN main.cards c ON c.id = i.id WHERE c.usn = -1
                        """))
                } else {
                    counts.notes = count
                }
                guard count > 0 else { continue }
                // This side's row stays where it is pending and not older; where it is as old,
                // it is made a second newer: Anki's server takes a row only when it is newer than
                // its own, and one changed here in the same second as there would stay as it was
                // on the server, and the sides would differ.
                try db.execute(sql: """
                    UPDATE temp.incoming SET kept = EXISTS (SELECT 1 FROM main.\(table) m WHERE m.id = incoming.id AND m.usn = -1 AND m.mod >= incoming.mod);
                    UPDATE main.\(table) SET mod = (SELECT max(i.mod) + 1 FROM temp.incoming i WHERE i.id = \(table).id AND i.kept)
                      WHERE id IN (SELECT id FROM temp.incoming WHERE kept)
                        AND mod <= (SELECT max(i.mod) FROM temp.incoming i WHERE i.id = \(table).id AND i.kept)
                    """)
                let taken = try Int64.fetchAll(db, sql: "SELECT id FROM temp.incoming WHERE NOT kept")
                if table == "cards" { takenCards.formUnion(taken) } else { takenNotes.formUnion(taken) }
                // Anki sends a note no sort field or checksum: the reader needs neither.
                let values = table == "cards" ? columns(0..<width) : columns(0..<7) + ", '', 0, " + columns(9..<width)
                try db.execute(sql: "INSERT OR REPLACE INTO main.\(table) SELECT \(values) FROM temp.incoming WHERE NOT kept ORDER BY rowid")
            }
            return counts
        }
    }

    /// What is still pending once the server's rows are in, in chunks of at most `size` rows,
    /// with the server's usn: the last chunk says it is the last. Each row is Anki's JSON array,
    /// its numbers whole (a missing one 0), as Anki's client sends it.
    package func pendingChunks(usn: Int, size: Int = 250) throws -> [OutgoingChunk] {
        try queue.read { db in
            var chunks: [OutgoingChunk] = []
            var current = OutgoingChunk()
            func add(_ row: String, to keyPath: WritableKeyPath<OutgoingChunk, [String]>) {
                current[keyPath: keyPath].append(row)
                if current.count >= size {
                    chunks.append(current)
                    current = OutgoingChunk()
                }
            }
            func whole(_ columns: [String]) -> String { columns.map { $0 == "?" ? $0 : "coalesce(CAST(\($0) AS INTEGER), 0)" }.joined(separator: ", ") }
            let revlog = whole(["id", "cid", "?", "ease", "ivl", "lastIvl", "factor", "time", "type"])
            for row in try String.fetchAll(db, sql: "SELECT json_array(\(revlog)) FROM revlog WHERE usn = -1 ORDER BY id", arguments: [usn]) {
                add(row, to: \.revlog)
            }
            let cards = whole(["id", "nid", "did", "ord", "mod", "?", "type", "queue", "due", "ivl", "factor", "reps", "lapses", "left", "odue", "odid", "flags"])
            for row in try String.fetchAll(db, sql: "SELECT json_array(\(cards), coalesce(data, '')) FROM cards WHERE usn = -1 ORDER BY id", arguments: [usn]) {
                add(row, to: \.cards)
            }
            for row in try String.fetchAll(db, sql: """
                SELECT json_array(id, guid, mid, mod, ?, tags, flds, '', '', coalesce(flags, 0), coalesce(data, '')) FROM notes WHERE usn = -1 ORDER BY id
                """, arguments: [usn]) {
                add(row, to: \.notes)
            }
            current.done = true
            chunks.append(current)
            return chunks
        }
    }

    /// The counts the server checks once both sides' changes are in.
    package func counts() throws -> (cards: Int, notes: Int, revlog: Int, models: Int, decks: Int, deckConfigs: Int) {
        try queue.read { db in
            func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
            return (try count("cards"), try count("notes"), try count("revlog"), try Self.objects(db, "models").count,
                    try Self.objects(db, "decks").count, try Self.objects(db, "dconf").count)
        }
    }

    /// After `finish`: nothing pending, the server's usn and time on everything sent.
    package func settle(usn: Int, modified: Int64, schema: Int64) throws {
        try queue.write { db in
            for table in ["cards", "notes", "revlog"] { try db.execute(sql: "UPDATE \(table) SET usn = ? WHERE usn = -1", arguments: [usn]) }
            for column in ["models", "decks", "dconf"] {
                var objects = try Self.objects(db, column)
                var sent = false
                for (key, value) in objects {
                    guard var object = value as? [String: Any], Self.int(object["usn"]) == -1 else { continue }
                    object["usn"] = usn
                    objects[key] = object
                    sent = true
                }
                if sent { try Self.save(db, column, objects) }
            }
            try db.execute(sql: "DELETE FROM graves")
            try db.execute(sql: "UPDATE col SET usn = ?, mod = ?, ls = ?, scm = ?", arguments: [usn + 1, modified, modified, schema])
        }
    }

    // MARK: Whole files

    /// The note types, decks, options and collection config a schema-11 collection file holds.
    package static func storedObjects(in file: URL) throws -> SyncObjects {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        return try queue.read { db in
            func values(_ column: String) throws -> [[String: Any]] { try objects(db, column).values.compactMap { $0 as? [String: Any] } }
            var stored = SyncObjects(models: try values("models"), decks: try values("decks"), deckConfigs: try values("dconf"))
            stored.config = try Self.config(db, schema: "main")
            return stored
        }
    }

    /// Adds to a schema-11 collection file the note types, decks and options it lacks (by id):
    /// what the server holds that Maeil does not (a note type no note uses, a filtered deck),
    /// so the base counts what the server counts. The file takes the server's collection config
    /// whole (a sync that sends this side's settings sends the rest as the server had it), but
    /// for the offset its own creation day is counted at.
    package static func addMissing(_ objects: SyncObjects, to file: URL) throws {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        try queue.write { db in
            if var config = objects.config {
                config["creationOffset"] = try Self.config(db, schema: "main")["creationOffset"]
                try save(db, "conf", config)
            }
            for (column, incoming) in [("models", objects.models), ("decks", objects.decks), ("dconf", objects.deckConfigs)] {
                var mine = try Self.objects(db, column)
                for object in incoming {
                    guard let id = int(object["id"]), mine["\(id)"] == nil else { continue }
                    mine["\(id)"] = object
                }
                try save(db, column, mine)
            }
        }
    }

    /// The collection file `file` (a base exported here) moved to the calendar of `server` (the
    /// server's copy, or a merge on its days): review due days, a deck's limits for one day and
    /// its counts of the day then count from the server's creation date. A sync sends its decks
    /// before the server's creation date comes down (`adopt`), so they go up on the base's days:
    /// an export's own (the day before its earliest date) named the wrong day there.
    /// `keepingDayCountsOf`: decks (Anki's ids) whose counts of the day the base takes from
    /// `server` as it has them: this side's count more, and go up at the next sync.
    package static func moveToCalendar(of server: URL, in file: URL, keepingDayCountsOf kept: Set<Int64> = []) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        let (created, offset, theirs) = try DatabaseQueue(path: server.path, configuration: readOnly).read { db in
            (try Int64.fetchOne(db, sql: "SELECT crt FROM col") ?? 0, try config(db, schema: "main")["creationOffset"], try objects(db, "decks"))
        }
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        try queue.write { db in
            var conf = try config(db, schema: "main")
            let own = createdDay(try Int64.fetchOne(db, sql: "SELECT crt FROM col") ?? created, conf)
            if let offset { conf["creationOffset"] = offset }
            let shift = own - createdDay(created, conf)
            if shift != 0 {
                try db.execute(sql: "UPDATE cards SET due = due + ? WHERE type != 0 AND due < 1000000000", arguments: [shift])
            }
            if shift != 0 || !kept.isEmpty {
                var decks = movingDays(try objects(db, "decks"), by: shift)
                takeDayCounts(of: kept.map { "\($0)" }, from: theirs, into: &decks)
                try save(db, "decks", decks)
            }
            try db.execute(sql: "UPDATE col SET crt = ?, conf = ?", arguments: [created, try text(conf)])
        }
    }

    /// The day's counts (`dayCountKeys`) of the decks `keys` names, in `decks` as `kept` has them:
    /// both on the same days.
    static func takeDayCounts(of keys: some Sequence<String>, from kept: [String: Any], into decks: inout [String: Any]) {
        for key in keys {
            guard var deck = decks[key] as? [String: Any], let theirs = kept[key] as? [String: Any] else { continue }
            for name in dayCountKeys { deck[name] = theirs[name] }
            decks[key] = deck
        }
    }

    // MARK: JSON columns

    static func objects(_ db: Database, _ column: String, schema: String = "main") throws -> [String: Any] {
        let text = try String.fetchOne(db, sql: "SELECT \(column) FROM \(schema).col") ?? "{}"
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func config(_ db: Database, schema: String) throws -> [String: Any] {
        try objects(db, "conf", schema: schema)
    }

    static func save(_ db: Database, _ column: String, _ objects: [String: Any]) throws {
        try db.execute(sql: "UPDATE col SET \(column) = ?", arguments: [try text(objects)])
    }

    static func text(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Whether `incoming` differs from `local` in what Maeil reads of it: a deck's name, options,
    /// description and limits; the options as the preset they make; a note type's name, kind,
    /// style, fields and templates. Each side writes the rest its own way.
    static func changesWhatMaeilUses(_ column: String, _ local: [String: Any], _ incoming: [String: Any]) -> Bool {
        switch column {
        case "decks":
            return ["name", "conf", "desc", "dyn", "reviewLimit", "newLimit", "reviewLimitToday", "newLimitToday"].contains {
                normalized(local[$0]) != normalized(incoming[$0])
            }
        case "dconf":
            func settings(_ object: [String: Any]) -> Preset? {
                guard let text = try? Self.text(object), var preset = AnkiPackage.preset(ankiConfig: text, fsrs: false) else { return nil }
                (preset.id, preset.ankiConfig) = (nil, nil)
                return preset
            }
            return settings(local) != settings(incoming)
        default:
            func shape(_ object: [String: Any]) -> String {
                let fields = (object["flds"] as? [[String: Any]] ?? []).map { normalized($0["name"]) }
                let templates = (object["tmpls"] as? [[String: Any]] ?? []).map { template in ["name", "qfmt", "afmt"].map { normalized(template[$0]) } }
                return normalized([object["name"], object["type"], object["css"]]) + "\(fields)\(templates)"
            }
            return shape(local) != shape(incoming)
        }
    }

    /// A JSON value as text that is the same for the same value however it was written: a
    /// flag and the number it stands for alike, a missing key and null alike.
    static func normalized(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "null"
        case let number as NSNumber: return number.doubleValue == number.doubleValue.rounded() ? "\(number.int64Value)" : "\(number.doubleValue)"
        case let text as String: return "\"" + text + "\""
        case let list as [Any?]: return "[" + list.map(normalized).joined(separator: ",") + "]"
        case let object as [String: Any]: return "{" + object.keys.sorted().map { "\($0):" + normalized(object[$0]) }.joined(separator: ",") + "}"
        default: return "\(value!)"
        }
    }

    /// Whether two objects say the same but for what changes by itself, read as `normalized`
    /// reads values: a flag written true or 1, a key left out or null, is no change. Compared
    /// as written (Anki's server and Maeil's exporter write some values differently), every deck,
    /// note type and option group went up at every sync that carried a change from here, and
    /// so a deck the server had deleted (a phone's finished custom study) came back there.
    static func same(_ a: [String: Any], _ b: [String: Any], ignoring volatile: Set<String>) -> Bool {
        Set(a.keys).union(b.keys).allSatisfy { volatile.contains($0) || normalized(a[$0]) == normalized(b[$0]) }
    }

    static func tags(_ db: Database, _ schema: String) throws -> Set<String> {
        var tags = Set<String>()
        for line in try String.fetchAll(db, sql: "SELECT DISTINCT tags FROM \(schema).notes") {
            for tag in line.split(separator: " ") { tags.insert(String(tag)) }
        }
        return tags
    }

    static func int(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }

    /// Whether a deck is a filtered one (Anki's `dyn`, written as a flag or a number).
    package static func isFiltered(_ deck: [String: Any]) -> Bool { normalized(deck["dyn"]) == "1" }
}
