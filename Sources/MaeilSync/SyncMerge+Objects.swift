import Foundation
import GRDB
import MaeilCore
import MaeilDecks

/// Note types, decks, options and tags across a normal sync: what changed here goes up newer
/// than the base's, what the server changed is merged as Anki's client merges it.
extension SyncMerge {
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
}
