import Foundation
import GRDB
import MaeilCore
import MaeilDecks
import MaeilPrograms

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
    package internal(set) var changedOnBothSides: Set<Int64> = []
    /// Cards the server sent a row or an answer of, by Anki's id; and of those it sent a row
    /// of, the ones whose row the merge took (this side's was not the newer).
    package internal(set) var receivedCards: Set<Int64> = []
    package internal(set) var takenCards: Set<Int64> = []
    /// Cards whose row went up (changed here), by Anki's id: with `takenCards`, the rows the
    /// merge holds as both sides now do.
    package internal(set) var sentCards: Set<Int64> = []
    /// Notes whose row from the server the merge took (this side's was not the newer), by Anki's id.
    package internal(set) var takenNotes: Set<Int64> = []
    /// Whether a note type the server sent differs from this side's in what Maeil makes of it
    /// (`AnkiNoteType.makesTheSameHere`), or a deck turned filtered or back.
    package internal(set) var serverChangedObjects = false
    /// Anki's ids of the note types the server has that this side had not at the last sync
    /// (made there since), and of those it changed only in what Maeil keeps for Anki (a style,
    /// the HTML around the fields).
    package internal(set) var serverNewNoteTypes: Set<Int64> = []
    package internal(set) var serverRestyledNoteTypes: Set<Int64> = []
    /// Anki's ids of the decks (not filtered) and the options the server has that this side had
    /// not at the last sync: made there since.
    package internal(set) var serverNewDecks: Set<Int64> = []
    package internal(set) var serverNewOptions: Set<Int64> = []
    /// Anki's ids of the decks this side has whose name, description, options or own limits the
    /// server changed (a deck's counts of the day and modification time change by themselves).
    package internal(set) var serverChangedDecks: Set<Int64> = []
    /// Whether the server's collection settings differ from this side's in the limits' rules
    /// (new cards ignore the review limit, every parent's limits apply), as `adopt` found.
    package internal(set) var serverChangedLimitRules = false
    /// Anki's ids of the decks (not filtered) whose row from the server the merge took, for
    /// whatever changed there: a day's counts too.
    package internal(set) var serverTakenDecks: Set<Int64> = []
    /// How many decks went up for their counts of the day alone (`localObjects`).
    package internal(set) var sentDayCounts = 0
    /// Anki's ids of the options (presets) this side has that the server changed in what Maeil uses.
    package internal(set) var serverChangedOptions: Set<Int64> = []
    /// The decks the server deleted since the last sync (their ids as the file's keys): the base
    /// still holds them, and must not put them back.
    var decksDeletedThere: Set<String> = []
    /// Whether one of them is a deck this side holds (not a filtered deck: Maeil keeps none).
    package internal(set) var serverDeletedHeldDecks = false
    /// Of the ids of answers not yet sent, the ones that are Anki's own (imported with their
    /// ids, which Maeil keeps): never moved off an id (`moveRecordsInTheWay`), only answers
    /// given here are. Asked only where an answer is in the way.
    package var answersUnderAnkiIDs: ([Int64]) throws -> Set<Int64> = { _ in [] }

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
            try FileCopy.copy(URL(fileURLWithPath: path), to: baseCopy)
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

    /// The day this side last lifted the day's burials (`lastUnburied`, counted from the base's
    /// creation day), where this side sends a card it buried and the base names an earlier day.
    /// Anki's deck list lifts every card buried before the day its config names: a phone that
    /// last came by on an earlier day would lift the card sent buried unless the config that
    /// comes down names this side's day.
    package func burialDay() throws -> Int64? {
        guard changedHere, hasBase else { return nil }
        return try queue.read { db in
            let mine = try Self.config(db, schema: "main"), base = try Self.config(db, schema: "base")
            guard let day = Self.int(mine["lastUnburied"]), let created = try Int64.fetchOne(db, sql: "SELECT crt FROM main.col"),
                  let baseCreated = try Int64.fetchOne(db, sql: "SELECT crt FROM base.col") else { return nil }
            let counted = day + Self.createdDay(created, mine) - Self.createdDay(baseCreated, base)
            guard counted > Self.int(base["lastUnburied"]) ?? .min else { return nil }
            let burying = try Bool.fetchOne(db, sql: """
                SELECT EXISTS (SELECT 1 FROM main.cards c WHERE c.queue IN (-2, -3)
                  AND NOT EXISTS (SELECT 1 FROM base.cards b WHERE b.id = c.id AND b.queue = c.queue))
                """) ?? false
            return burying ? counted : nil
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
                guard let shift, shift != 0 else { continue }
                guard schema == "main" || baseCopied else { preconditionFailure("the last sync's base would be written where it lies") }
                try Self.moveDays(db, schema: schema, by: shift)
            }
            try db.execute(sql: "UPDATE col SET crt = ?, conf = ?", arguments: [created, try Self.text(config)])
            serverChangedLimitRules = Self.ownConfigDiffers(config, conf, among: Self.limitRuleKeys)
            return Self.ownConfigDiffers(config, conf, among: Self.cardSettingKeys)
        }
    }

    /// A collection file's due days moved `shift` days on, in `schema`: its studied cards' (not
    /// new cards' positions, not learning cards' times: due before 1,000,000,000) and its decks'
    /// limits for one day and counts of a day's answers, which name that day in the same count
    /// (`movingDays`).
    static func moveDays(_ db: Database, schema: String, by shift: Int64) throws {
        guard shift != 0 else { return }
        try db.execute(sql: "UPDATE \(schema).cards SET due = due + ? WHERE type != 0 AND due < 1000000000", arguments: [shift])
        try db.execute(sql: "UPDATE \(schema).col SET decks = ?", arguments: [try text(movingDays(try objects(db, "decks", schema: schema), by: shift))])
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
}
