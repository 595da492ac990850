import Foundation
import GRDB
import MaeilCore
import MaeilTestSupport
import Testing
@testable import MaeilStore

/// Issue 25, point 7: `undo` takes back the last action whatever it was, as Anki's undo does —
/// an answer, or a change made by hand — and puts back exactly the rows it altered, once and
/// only while nothing has altered them since.
@Suite("Undo of any change")
struct UndoTests {
    /// Every row of the note, card and review_log tables.
    static func everything(_ collection: Collection) throws -> [String] {
        try collection.read { db in
            try ["note", "card", "review_log", "gone_card"].flatMap { try Row.fetchAll(db, sql: "SELECT * FROM \($0) ORDER BY id").map(\.description) }
        }
    }

    static func fixture() throws -> (Collection, Deck, TestClock) {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 4)
        let clock = TestClock(Fixture.noon)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        try session.send(.answer(.good))
        try session.send(.answer(.easy))
        return (collection, deck, clock)
    }

    @Test(arguments: ["star", "suspend", "bury", "flag", "tag", "edit", "delete", "forget", "set due", "move note", "move cards"])
    func eachChangeIsUndoneExactly(_ kind: String) throws {
        let (collection, deck, clock) = try Self.fixture()
        let other = try Fixture.wordDeck(collection, name: "Other", count: 0)
        let note = try collection.notes(deckID: deck.id)[0]
        let cards = try collection.cards(noteID: note.id).map(\.id)
        try collection.setTags(noteID: note.id, add: ["before"])
        let before = try Self.everything(collection)
        let change: ManualChange = switch kind {
        case "star": .cards(cards, .star(true), label: kind)
        case "suspend": .cards(cards, .suspend(true), label: kind)
        case "bury": .cards(cards, .bury(until: clock.now.addingTimeInterval(86_400)), label: kind)
        case "flag": .cards(cards, .flag(3), label: kind)
        case "tag": .note(note.id, .tags(add: ["new"], remove: ["before"]), label: kind)
        case "edit": .note(note.id, .edit(fields: note.fields.map { NoteField(name: $0.name, value: $0.value + "!", language: $0.language) }, now: clock.now), label: kind)
        case "delete": .note(note.id, .delete, label: kind)
        case "forget": .cards(cards, .reschedule(now: clock.now) { _, _ in .new }, label: kind)
        case "move note": .note(note.id, .move(toDeck: other.id) { target, _, cards, _ in
            .init(deck: target.templates, cards: Dictionary(uniqueKeysWithValues: cards.map { ($0.id, $0.template) }))
        }, label: kind)
        case "move cards": .cards(cards, .move(toDeck: other.id) { _, _, _, _ in nil }, label: kind)
        default: .cards(cards, .reschedule(now: clock.now) { card, preset in
            DueDateChange("3!")!.state(from: card.state, days: 3, today: 20_000, clock: preset.dayClock(in: Fixture.utc),
                                       startingEasePermille: 2500, fsrs: false)
        }, label: kind)
        }
        try collection.apply(change)
        #expect(try Self.everything(collection) != before, "\(kind) changed something")
        #expect(try collection.undoLast() == .change(label: kind, cardIDs: cards))
        #expect(try Self.everything(collection) == before, "\(kind) undone: every row as it was")
        #expect(try collection.undoLast() == .change(label: "tag note \(note.id)", cardIDs: cards), "the change before it is next")
    }

    /// A note moved to a deck that cannot show its cards (its templates are not there) is
    /// refused with nothing written, and no undo step.
    @Test func aNoteMovedWhereItsTemplatesAreNotIsRefused() throws {
        let (collection, deck, _) = try Self.fixture()
        let other = try Fixture.wordDeck(collection, name: "Other", count: 0, templates: [CardTemplate(name: "listen", front: ["word"], back: ["meaning"])])
        let note = try collection.notes(deckID: deck.id)[0]
        let before = try Self.everything(collection)
        #expect(throws: StoreError.templatesMissing(noteID: note.id, deck: "Other")) {
            try collection.apply(.note(note.id, .move(toDeck: other.id) { _, _, _, _ in nil }, label: "move"))
        }
        #expect(try Self.everything(collection) == before)
        #expect(try collection.undoLast() != .change(label: "move", cardIDs: try collection.cards(noteID: note.id).map(\.id)))
    }

    @Test func answersAndChangesAreUndoneNewestFirst() throws {
        let (collection, deck, clock) = try Self.fixture()
        let note = try collection.notes(deckID: deck.id)[1]
        try collection.setTags(noteID: note.id, add: ["x"])
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        let answered = try #require(session.state.current?.card.id)
        try session.send(.answer(.again))
        guard case .answer(let card) = try collection.undoLast() else { Issue.record("the answer is undone first"); return }
        #expect(card.id == answered)
        #expect(try collection.undoLast() == .change(label: "tag note \(note.id)", cardIDs: try collection.cards(noteID: note.id).map(\.id)))
        #expect(try collection.note(id: note.id).tags.isEmpty)
    }

    @Test func aChangeAlteredSinceIsNotUndone() throws {
        let (collection, deck, clock) = try Self.fixture()
        let note = try collection.notes(deckID: deck.id)[0]
        let tagged = try collection.setTags(noteID: note.id, add: ["x"])
        try collection.updateNote(id: note.id, fields: note.fields.map { NoteField(name: $0.name, value: "changed", language: $0.language) }, now: clock.now)
        let after = try Self.everything(collection)
        #expect(throws: StoreError.changedSince("tag note \(note.id)")) { try collection.undoChange(tagged) }
        #expect(try Self.everything(collection) == after, "nothing undone")
        // A deleted note cannot be edited back by undoing an older change.
        try collection.deleteNote(id: note.id)
        #expect(throws: StoreError.changedSince("tag note \(note.id)")) { try collection.undoChange(tagged) }
    }
}
