import Foundation
import GRDB
import MaeilCore
import MaeilTestSupport
import Testing

@testable import MaeilStore

/// A day's due reviews come in Anki's order of ties: its hash of each card's id and modification
/// time in Anki (`AnkiTieBreak`). For a note made here that time includes the note's last edit,
/// which the queue reads from each card's copy of it (migration v29), not from the note.
@Suite("Tied reviews in Anki's order")
struct TiedReviewsTests {
    @Test func aNoteEditedHereMovesItsCardsAmongTheDaysTies() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 10)
        let clock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
        let today = clock.dayNumber(of: Fixture.noon)
        for card in try collection.cards(deckID: deck.id) {
            let state = CardState(phase: .review, intervalDays: 3, easePermille: 2500, due: clock.start(ofDay: today).addingTimeInterval(3600),
                                  reps: 1, lapses: 0, lastReview: Fixture.noon.addingTimeInterval(-3 * 86400))
            try collection.setState(cardID: card.id, state, at: Fixture.noon)
        }
        // What Anki would order them by, from the note's own rows, as an export writes them.
        func ranked() throws -> [Int64] {
            try collection.read { db in
                try Row.fetchAll(db, sql: """
                    SELECT card.id, card.anki_id, card.anki_mod, card.modified_at, note.anki_mod, note.modified_at, note.created_at
                    FROM card JOIN note ON note.id = card.note_id
                    """).map { row -> (id: Int64, rank: Int64) in
                    let id: Int64 = row[0]
                    let ankiID = (row[1] as Int64?) ?? Collection.proposedAnkiID(created: row[6], id: id) ?? id
                    let modified = Collection.ankiCardModified(cardAnkiMod: row[2], cardChanged: row[3], noteAnkiMod: row[4], noteModified: row[5])
                    return (id, AnkiTieBreak.rank(cardID: ankiID, modified: modified))
                }
                .sorted { $0.rank < $1.rank }.map(\.id)
            }
        }
        func queued() throws -> [Int64] {
            try collection.studyQueue(now: Fixture.noon, timeZone: clock.timeZone, countingSiblings: true).reviews.map(\.id)
        }
        let before = try queued()
        #expect(before.count == 20)
        #expect(before == (try ranked()))

        // Edited years later (after the clock that dated the cards' changes), one second apart: their cards' times in Anki are the edits'.
        for (offset, note) in try collection.notes(deckID: deck.id).prefix(5).enumerated() {
            var fields = note.fields
            fields[1].value += " (edited)"
            _ = try collection.updateNote(id: note.id, fields: fields, now: Fixture.noon.addingTimeInterval(5 * 365 * 86400 + Double(offset)))
        }
        let after = try queued()
        #expect(after == (try ranked()))
        #expect(after != before)

        // A copy gone stale is a problem `maeil check` finds and repairs.
        try collection.transaction { try $0.execute(sql: "UPDATE card SET note_changed = 0 WHERE id = ?", arguments: [after[0]]) }
        let found = try collection.check(repair: true, now: Fixture.noon)
        #expect(found.problems.contains { $0.hasPrefix("1 card: the copy of the note's times") })
        #expect(try queued() == after)
        #expect(try collection.check(repair: false, now: Fixture.noon).isHealthy)
    }

    /// A collection from before the copies (v28) gets them when opened, and what a sync would
    /// carry stays as it was: no note marked, the change flag untouched, the marking triggers
    /// still there and marking.
    @Test func anOlderCollectionTakesTheCopiesWithoutChangingWhatASyncCarries() throws {
        let path = Fixture.temporaryPath()
        let collection = try Collection(path: path)
        let deck = try Fixture.wordDeck(collection, count: 4)
        _ = try collection.takeChangeFlag()
        try collection.settleChangeFlag()
        try collection.transaction { try $0.execute(sql: "DELETE FROM sync_dirty_note; UPDATE meta SET value = '0' WHERE key = 'sync_dirty'") }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                DROP TRIGGER card_note_tie_follows; DROP TRIGGER card_note_tie_taken; DROP INDEX card_deck_due;
                ALTER TABLE card DROP COLUMN note_created; ALTER TABLE card DROP COLUMN note_changed;
                CREATE INDEX card_deck_due ON card(deck_id, phase, due, note_id, suspended, buried_until, anki_id, anki_mod, modified_at);
                DELETE FROM grdb_migrations WHERE identifier = 'v29';
                """)
        }
        try queue.close()
        let reopened = try Collection(path: path)
        let (copies, marked, flag, triggers) = try reopened.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM card WHERE note_created IS NOT NULL AND note_changed IS NOT NULL")!,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM sync_dirty_note")!,
             try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'sync_dirty'"),
             try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'card' AND name LIKE 'sync%' ORDER BY name"))
        }
        #expect(copies == 8)
        #expect(marked == 0 && flag == "0")
        #expect(triggers == ["sync_changed_card_delete", "sync_changed_card_insert", "sync_changed_card_update",
                             "sync_mark_card_delete", "sync_mark_card_insert", "sync_mark_card_update"])
        #expect(try reopened.check(repair: false, now: Fixture.noon).isHealthy)
        // Still marking: a card written afterwards is a change.
        let card = try reopened.cards(deckID: deck.id)[0]
        try reopened.transaction { try $0.execute(sql: "UPDATE card SET flags = 1 WHERE id = ?", arguments: [card.id]) }
        #expect(try reopened.read { try Int64.fetchAll($0, sql: "SELECT note_id FROM sync_dirty_note") } == [card.noteID])
        #expect(try reopened.changedSinceSync())
    }
}
