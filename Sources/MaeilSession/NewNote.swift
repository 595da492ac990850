import Foundation
import MaeilCore
import MaeilStore

/// A note added by hand (`maeil add`): the fields a deck's notes have, a new guid, the place
/// after the deck's last note.
package enum NewNote {
    /// The fields of a new note in `deck`, empty: those its notes have, else those its
    /// templates show.
    package static func blankFields(deck: Deck, in collection: Collection) throws -> [NoteField] {
        try collection.notes(deckID: deck.id).first?.fields.map { NoteField(name: $0.name, value: "", language: $0.language) }
            ?? Array(Set(deck.templates.flatMap { $0.front + $0.back + [$0.typed, $0.blanks].compactMap { $0 } })).sorted()
                .map { NoteField(name: $0, value: "") }
    }

    /// Adds the note and returns it with the number of cards it made.
    package static func add(_ fields: [NoteField], to deck: Deck, collection: Collection, now: Date) throws -> (note: Note, cards: Int) {
        let position = try collection.nextNotePosition(deckID: deck.id)
        let note = try collection.addNote(NoteDraft(guid: "maeil-" + UUID().uuidString.lowercased(), kind: deck.kind ?? .basic,
                                                    fields: fields, position: position, origin: "added"), deckID: deck.id, now: now)
        return (note, try collection.cards(noteID: note.id).count)
    }
}
