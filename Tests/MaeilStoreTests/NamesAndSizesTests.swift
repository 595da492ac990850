import Foundation
import MaeilCore
import MaeilStore
import MaeilTestSupport
import Testing

/// Names that print alike are one name, and a field has a size limit.
@Suite("Deck names and field sizes")
struct NamesAndSizesTests {
    @Test func namesThatPrintAlikeAreOneDeck() throws {
        let collection = try Fixture.collection()
        let deck = try collection.createDeck(name: "김치 Words", kind: .word, templates: Fixture.wordTemplates, now: Fixture.noon)
        let decomposed = "김치 Words".decomposedStringWithCanonicalMapping
        // Swift's == calls them equal; SQLite compares bytes.
        #expect(decomposed.unicodeScalars.count > "김치 Words".unicodeScalars.count)
        for alike in [decomposed, "김치\u{200B} Words", "김치 \u{FEFF}Words", "  김치   Words ", "김치\tWords"] {
            #expect(try collection.deck(named: alike)?.id == deck.id, "\(alike.unicodeScalars.map { String($0.value, radix: 16) })")
            #expect(throws: StoreError.deckExists("김치 Words")) {
                try collection.createDeck(name: alike, kind: .word, templates: Fixture.wordTemplates, now: Fixture.noon)
            }
        }
        // A line break never reaches the table of decks.
        let broken = try collection.createDeck(name: "Two\nLines\r\nDeck", kind: .word, templates: Fixture.wordTemplates, now: Fixture.noon)
        #expect(broken.name == "Two Lines Deck")
        #expect(try collection.decks().map(\.name).sorted() == ["Two Lines Deck", "김치 Words"])
    }

    @Test func aFieldOverTheLimitIsRefusedWhole() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 1)
        let huge = String(repeating: "가", count: NoteField.maximumBytes / 3 + 1)
        #expect(throws: StoreError.fieldTooLarge(name: "meaning", bytes: huge.utf8.count)) {
            try collection.addNote(NoteDraft(guid: "huge", kind: .word, fields: [NoteField(name: "word", value: "큰"), NoteField(name: "meaning", value: huge)]),
                                   deckID: deck.id, now: Fixture.noon)
        }
        #expect(try collection.counts().notes == 1)
        let note = try collection.notes(deckID: deck.id)[0]
        #expect(throws: StoreError.self) {
            try collection.updateNote(id: note.id, fields: [NoteField(name: "word", value: huge), NoteField(name: "meaning", value: "m")], now: Fixture.noon)
        }
        #expect(try collection.note(id: note.id).fields == note.fields)
    }
}
