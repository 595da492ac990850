import Foundation
import MaeilCore
import MaeilStore

/// Adds a verse a reader loves to a verse deck, as a note like the bundled ones: the same
/// fields, the same id scheme (so importing the bundled deck again does not duplicate it).
package enum MemoryVerses {
    package enum Outcome: Equatable {
        case added(Note, cards: Int)
        case alreadyThere(Note)
    }

    /// The decks verses can go to: those of kind verse.
    package static func decks(in collection: Collection) throws -> [Deck] {
        try collection.decks().filter { $0.kind == .verse }
    }

    package static func add(_ passage: VerseText.Passage, to deck: Deck, collection: Collection, now: Date) throws -> Outcome {
        let notes = try collection.notes(deckID: deck.id)
        // The bundled deck's ids are "memory-verses/<first verse>"; a deck of the reader's own
        // gets the same shape under its own prefix.
        let prefix = notes.lazy.compactMap { note in note.guid.firstIndex(of: "/").map { String(note.guid[...$0]) } }.first ?? "verses/"
        let names = notes.first?.fields.map(\.name) ?? ["reference", "text"]
        let referenceField = names.contains("reference") ? "reference" : names[0]
        let textField = names.contains("text") ? "text" : (names.first { $0 != referenceField } ?? "text")
        if let existing = try collection.note(guid: prefix + passage.key)
            ?? notes.first(where: { $0.fields[field: referenceField]?.value == passage.reference }) {
            return .alreadyThere(existing)
        }
        let fields = names.map { name in
            NoteField(name: name, value: name == referenceField ? passage.reference : name == textField ? passage.text : "",
                      language: notes.first?.fields[field: name]?.language ?? "en")
        }
        let draft = NoteDraft(guid: prefix + passage.key, kind: .verse, fields: fields, tags: ["added"],
                              position: try collection.nextNotePosition(deckID: deck.id), origin: "read verse")
        let note = try collection.addNote(draft, deckID: deck.id, now: now)
        return .added(note, cards: try collection.cards(noteID: note.id).count)
    }
}
