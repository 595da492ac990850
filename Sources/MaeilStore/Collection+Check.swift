import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// What `maeil check` found and did.
package struct CheckReport: Hashable, Sendable, Codable {
    package var integrity: String
    package var cardsChecked: Int
    package var problems: [String]
    package var repaired: Int

    package var isHealthy: Bool { integrity == "ok" && problems.isEmpty }
}

extension Collection {
    /// Verifies the file (SQLite's integrity check, foreign keys) and that every card's state
    /// is the one its review log ends with. With `repair`, a card that disagrees with its log
    /// gets the log's state back (the log is the history), a card with a state but no log entry
    /// gets an entry recording it, and orphans are removed. All repairs are one transaction.
    package func check(repair: Bool, now: Date) throws -> CheckReport {
        let integrity = try read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check").joined(separator: "; ") }
        // Without repair the check only reads: it runs beside a session that is writing.
        let run: ((Database) throws -> CheckReport) throws -> CheckReport = repair ? { try self.transaction($0) } : { try self.read($0) }
        return try run { db in
            var problems: [String] = []
            var repaired = 0
            let foreign = try Row.fetchAll(db, sql: "PRAGMA foreign_key_check")
            if !foreign.isEmpty {
                problems.append("\(foreign.count) rows point at missing rows")
                if repair {
                    try db.execute(sql: "DELETE FROM card WHERE note_id NOT IN (SELECT id FROM note) OR deck_id NOT IN (SELECT id FROM deck)")
                    try db.execute(sql: "DELETE FROM note WHERE deck_id NOT IN (SELECT id FROM deck)")
                    try db.execute(sql: "UPDATE note SET unit_id = NULL WHERE unit_id IS NOT NULL AND unit_id NOT IN (SELECT id FROM unit)")
                    repaired += foreign.count
                }
            }
            // An Anki log row twice (a package imported again before imports merged by Anki's ids).
            let twice = try Row.fetchAll(db, sql: """
                SELECT card_id, anki_id, count(*) FROM review_log WHERE anki_id IS NOT NULL GROUP BY card_id, anki_id HAVING count(*) > 1
                """)
            for row in twice {
                problems.append("card \(row[0] as Int64): Anki's review \(row[1] as Int64) is in its log \(row[2] as Int) times")
            }
            if repair, !twice.isEmpty {
                try db.execute(sql: """
                    DELETE FROM review_log WHERE anki_id IS NOT NULL AND id NOT IN (
                        SELECT min(id) FROM review_log WHERE anki_id IS NOT NULL GROUP BY card_id, anki_id)
                    """)
                repaired += twice.count
            }
            repaired += try Self.checkGoneCardsTwice(db, repair: repair, problems: &problems)
            // Each card's copy of its note's values that order tied reviews (`Schema.noteTieTriggers` keeps them).
            let differing = "(note_created, note_changed) IS NOT (SELECT \(Schema.noteTieValues) FROM note WHERE note.id = card.note_id)"
            let ties = try Int.fetchOne(db, sql: "SELECT count(*) FROM card WHERE \(differing)") ?? 0
            if ties > 0 {
                problems.append("\(ties) card\(ties == 1 ? "" : "s"): the copy of the note's times that orders tied reviews differs from the note")
                if repair {
                    try db.execute(sql: "UPDATE card SET (note_created, note_changed) = (SELECT \(Schema.noteTieValues) FROM note WHERE note.id = card.note_id) WHERE \(differing)")
                    repaired += ties
                }
            }
            // Each card against the last log entry that recorded a state, unless Anki changed the
            // card after it: Anki changes a card's state without a log row (a reposition of new
            // cards), and where two sides changed one card the newer row wins, whatever the log
            // says (answered here, repositioned on a phone that had not synced: new, after two
            // answers). The card is as Anki has it.
            let statement = try db.makeStatement(sql: """
                SELECT \(selection(CardTable.columns, from: "c", prefix: "")), \(CardStateColumns.list(prefix: "l.a_")),
                       c.anki_mod * 1000 > l.time AS changed_in_anki
                FROM card c LEFT JOIN review_log l ON l.id = (
                    SELECT max(id) FROM review_log WHERE card_id = c.id AND a_phase IS NOT NULL)
                """)
            let columns = ColumnMap(statement)
            let cards = CardTable.Decoder(columns), logged = CardStateColumns(columns, prefix: "a_")
            let changedInAnki = columns["changed_in_anki"]
            // Read as they come and only the cards with a problem kept (at a million cards,
            // every card held took hundreds of megabytes); repaired once the reading is done.
            var checked = 0
            var found: [(card: Card, logged: CardState?)] = []
            try statement.forEachRow { row in
                checked += 1
                let card = cards.decode(row), state = logged.decode(row)
                if card.state.isValid, row.optionalInt64(changedInAnki) == 1 { return }
                if !card.state.isValid || (state.map { $0 != card.state } ?? (card.state != .new)) { found.append((card, state)) }
            }
            var binder = Binder()
            for (card, logged) in found {
                if !card.state.isValid {
                    // A damaged number (not finite, or out of its range): the card keeps its
                    // phase and due date, loses its memory state (the scheduler derives one from
                    // its interval and ease) and gets its numbers back in range.
                    problems.append("card \(card.id): its schedule holds a number that is not finite or out of range")
                    if repair {
                        let rebuilt = card.state.rebuilt
                        try Self.writeState(db, cardID: card.id, rebuilt, &binder)
                        let entry = ReviewLogEntry(time: now, kind: .manual, rating: nil, scheduler: "check", before: nil, after: rebuilt)
                        try ReviewLogTable.append(entry, cardID: card.id, deckID: card.deckID, db, &binder)
                        repaired += 1
                    }
                    continue
                }
                if let logged {
                    guard logged != card.state else { continue }
                    problems.append("card \(card.id): state differs from its review log (\(card.state.phase.rawValue) vs \(logged.phase.rawValue))")
                    if repair {
                        try Self.writeState(db, cardID: card.id, logged, &binder)
                        repaired += 1
                    }
                } else if card.state != .new {
                    problems.append("card \(card.id): scheduled (\(card.state.phase.rawValue)) but has no review log")
                    if repair {
                        let entry = ReviewLogEntry(time: now, kind: .manual, rating: nil, scheduler: "check", before: nil, after: card.state)
                        try ReviewLogTable.append(entry, cardID: card.id, deckID: card.deckID, db, &binder)
                        repaired += 1
                    }
                }
            }
            repaired += try Self.checkTemplates(db, repair: repair, now: now, problems: &problems)
            return CheckReport(integrity: integrity, cardsChecked: checked, problems: problems, repaired: repaired)
        }
    }

    /// What Anki's Check Database finds in note types, in Maeil's terms: two templates of one
    /// name in a deck (a card names its template, so it could be either; the first is kept), cards
    /// whose template is gone (deleted, as Anki deletes them; their review log stays), and notes
    /// without cards (given the cards their deck's templates make, or deleted, as Anki does,
    /// when none can be made from their fields).
    static func checkTemplates(_ db: Database, repair: Bool, now: Date, problems: inout [String]) throws -> Int {
        var repaired = 0
        var decks = try Row.fetchAll(db, sql: "SELECT \(DeckTable.columns) FROM deck ORDER BY id").map(DeckTable.decode)
        for index in decks.indices {
            var names = Set<String>()
            let unique = decks[index].templates.filter { names.insert($0.name).inserted }
            guard unique.count < decks[index].templates.count else { continue }
            let twice = decks[index].templates.count - unique.count
            problems.append("deck \(decks[index].name): \(twice) template\(twice == 1 ? "" : "s") with the name of another")
            if repair {
                decks[index].templates = unique
                try update(db, decks[index])
                repaired += twice
            }
        }
        for deck in decks {
            let names = deck.templates.map(\.name)
            let orphans = try Int64.fetchAll(db, sql: """
                SELECT c.id FROM card c JOIN note n ON n.id = c.note_id
                WHERE n.deck_id = ? AND c.template NOT IN (SELECT value FROM json_each(?)) ORDER BY c.id
                """, arguments: [deck.id, try StableJSON.string(names)])
            // A card's template is its note's deck's, wherever the card is studied.
            for card in orphans { problems.append("card \(card): its template is not in deck \(deck.name)") }
            if repair, !orphans.isEmpty {
                try db.execute(sql: "DELETE FROM card WHERE id IN (SELECT value FROM json_each(?))", arguments: [try StableJSON.string(orphans)])
                repaired += orphans.count
            }
        }
        let cardless = try Int64.fetchAll(db, sql: "SELECT id FROM note WHERE NOT EXISTS (SELECT 1 FROM card WHERE note_id = note.id) ORDER BY id")
        for noteID in cardless {
            problems.append("note \(noteID): it has no cards")
            guard repair else { continue }
            let note = try Self.note(db, id: noteID)
            guard let deck = decks.first(where: { $0.id == note.deckID }) else { continue }
            var inserter = try NoteInserter(db: db, deck: deck, now: now)
            try inserter.update(note)
            try inserter.flush()
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM card WHERE note_id = ?", arguments: [noteID]) == 0 {
                try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [noteID])
            }
            repaired += 1
        }
        return repaired
    }
}

extension Collection {
    /// Two gone cards under one Anki id: before a sync found a gone card made here by the id
    /// exports gave it, a phone's answers to it, after it was deleted, made a second gone card,
    /// and Anki's file, which holds one card per id, kept the first one's answers alone. The
    /// repair moves the other's answers into the first (each Anki answer once) and removes it.
    static func checkGoneCardsTwice(_ db: Database, repair: Bool, problems: inout [String]) throws -> Int {
        let ankiID = goneAnkiIDSQL()
        let twice = try Row.fetchAll(db, sql: """
            SELECT \(ankiID) AS anki, min(id), count(*) FROM gone_card WHERE \(ankiID) IS NOT NULL GROUP BY anki HAVING count(*) > 1
            """)
        for row in twice {
            problems.append("Anki's card \(row[0] as Int64) is \(row[2] as Int) deleted cards here; its answers are exported from the first alone")
        }
        guard repair else { return 0 }
        for row in twice {
            let (anki, kept): (Int64, Int64) = (row[0], row[1])
            let others = try Int64.fetchAll(db, sql: "SELECT id FROM gone_card WHERE \(ankiID) = ? AND id != ?", arguments: [anki, kept])
            for other in others {
                try db.execute(sql: """
                    UPDATE review_log SET card_id = ? WHERE card_id = ?
                      AND (anki_id IS NULL OR anki_id NOT IN (SELECT anki_id FROM review_log WHERE card_id = ? AND anki_id IS NOT NULL))
                    """, arguments: [kept, other, kept])
                try db.execute(sql: "DELETE FROM review_log WHERE card_id = ?", arguments: [other])
                try db.execute(sql: "DELETE FROM gone_card WHERE id = ?", arguments: [other])
            }
        }
        return twice.count
    }
}
