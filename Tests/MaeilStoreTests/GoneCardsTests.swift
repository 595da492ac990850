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
}
