import Foundation
import GRDB
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

    /// Issue 27, point 6: decks named before names had one form (decomposed, with a zero-width
    /// space, with a line break) take it when the collection is opened; one that would print
    /// like another deck is told apart by a number.
    @Test func olderNamesTakeTheirOneForm() throws {
        let path = Fixture.temporaryPath()
        let first = try Collection(path: path)
        for name in ["Café", "Crème", "Words", "Two Lines", "Plain"] {
            _ = try first.createDeck(name: name, kind: .word, templates: Fixture.wordTemplates, now: Fixture.noon)
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for (old, stored) in [("Crème", "Crème".decomposedStringWithCanonicalMapping), ("Words", "Wo\u{200B}rds"), ("Two Lines", "Two\nLines"),
                                  ("Plain", "Café".decomposedStringWithCanonicalMapping)] {  // a decomposed twin of a deck that has the name
                try db.execute(sql: "UPDATE deck SET name = ? WHERE name = ?", arguments: [stored, old])
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier = 'v8'")
        }
        try queue.close()
        let reopened = try Collection(path: path)
        // Compared as bytes: Swift's == would call the decomposed names right too.
        let decks = try reopened.decks()
        let names = Set(decks.map { Array($0.name.utf8) })
        #expect(names == Set(["Café", "Café (2)", "Crème", "Words", "Two Lines"].map { Array($0.precomposedStringWithCanonicalMapping.utf8) }),
                "\(decks.map { $0.name.unicodeScalars.map { String($0.value, radix: 16) } })")
        for name in ["Café", "Café (2)", "Crème", "Words", "Two Lines"] { #expect(try reopened.deck(named: name) != nil, "\(name)") }
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
