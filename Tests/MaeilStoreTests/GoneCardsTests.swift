import Foundation
import GRDB
import MaeilCore
import MaeilTestSupport
import Testing
@testable import MaeilStore

/// Issue 24: answers Anki keeps for cards deleted there come into the log of the card they are
/// answers to, each once.
@Suite("Answers of cards deleted in Anki")
struct GoneCardsTests {
    /// A card made here went up under the id exports give it; a phone answered it, then deleted
    /// its note. The sync takes the deletion, then the phone's answers with the card's whole log:
    /// they join the card gone here, under the same number. Found by the busy sync test (seed
    /// 445): they went to a second gone card with the answers given here copied into it, and
    /// Anki's file, where both have one id, kept the first card's answers alone.
    @Test func aPhonesAnswersToACardMadeHereJoinItOnceItIsGone() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 2)
        let note = try collection.notes(deckID: deck.id)[0]
        let cards = try collection.cards(noteID: note.id), card = cards[0]
        #expect(card.ankiID == nil && note.ankiID == nil)
        let ankiCardID = try #require(Collection.proposedAnkiID(created: note.created, id: card.id))
        let ankiNoteID = try #require(Collection.proposedAnkiID(created: note.created, id: note.id))
        func answer(_ milliseconds: Int64, _ rating: Rating) -> ReviewLogEntry {
            var entry = ReviewLogEntry(time: Date(timeIntervalSince1970: Double(milliseconds) / 1000), kind: .imported, rating: rating,
                                       scheduler: "anki", before: nil, after: nil)
            entry.ankiID = milliseconds
            return entry
        }
        let here = answer(1_796_576_833_000, .good), there = [answer(1_796_576_835_503, .good), answer(1_796_576_835_504, .easy)]
        try collection.batch(now: Fixture.noon) { writer in try writer.appendLog(here, cardID: card.id, deckID: card.deckID) }
        let added = try collection.batch(now: Fixture.noon) { writer -> Int in
            #expect(try writer.deleteAnkiRecords(notes: [ankiNoteID], cards: [ankiCardID]))
            return try writer.keepGoneCards([GoneCardDraft(ankiID: ankiCardID, history: [here] + there)])
        }
        #expect(added == 2)
        let (gone, log) = try collection.read { db in
            (try Int64.fetchAll(db, sql: "SELECT id FROM gone_card"),
             try Int64.fetchAll(db, sql: "SELECT anki_id FROM review_log WHERE card_id = ? ORDER BY anki_id", arguments: [card.id]))
        }
        #expect(gone == cards.map(\.id).sorted(), "no gone card but the note's own")
        #expect(log == [here, there[0], there[1]].compactMap(\.ankiID))
    }

    /// What that left in a collection: the check finds the two gone cards, and its repair makes
    /// them one, with each answer once, so the next export carries the phone's answers too.
    @Test func theCheckMakesTwoGoneCardsOfOneAnkiCardOne() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 2)
        let note = try collection.notes(deckID: deck.id)[0]
        let card = try collection.cards(noteID: note.id)[0]
        let ankiCardID = try #require(Collection.proposedAnkiID(created: note.created, id: card.id))
        try collection.transaction { db in
            try db.execute(sql: "INSERT INTO review_log (card_id, deck_id, time, kind, rating, duration_ms, scheduler, anki_id) VALUES (?, ?, 1, 2, 3, 0, 'anki', 11)",
                           arguments: [card.id, card.deckID])
            try db.execute(sql: "DELETE FROM note WHERE id = ?", arguments: [note.id])
            try db.execute(sql: "INSERT INTO gone_card (id, anki_id) VALUES (100, ?)", arguments: [ankiCardID])
            for answer in [11, 12, 13] {
                try db.execute(sql: "INSERT INTO review_log (card_id, deck_id, time, kind, rating, duration_ms, scheduler, anki_id) VALUES (100, 0, ?, 2, 3, 0, 'anki', ?)",
                               arguments: [answer, answer])
            }
        }
        let found = try collection.check(repair: false, now: Fixture.noon)
        #expect(found.problems == ["Anki's card \(ankiCardID) is 2 deleted cards here; its answers are exported from the first alone"])
        let repaired = try collection.check(repair: true, now: Fixture.noon)
        #expect(repaired.repaired == 1)
        #expect(try collection.check(repair: false, now: Fixture.noon).isHealthy)
        let (gone, log) = try collection.read { db in
            (try Int64.fetchAll(db, sql: "SELECT id FROM gone_card WHERE id = ? OR id = 100", arguments: [card.id]),
             try Int64.fetchAll(db, sql: "SELECT anki_id FROM review_log WHERE card_id IN (?, 100) ORDER BY anki_id", arguments: [card.id]))
        }
        #expect(gone == [card.id])
        #expect(log == [11, 12, 13])
    }
}
