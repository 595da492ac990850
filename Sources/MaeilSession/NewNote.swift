import Foundation
import MaeilCore
import MaeilStore

/// A note added by hand (`maeil add`): shaped like the deck's notes, a new guid, the place
/// after the deck's last note.
package enum NewNote {
    /// What a new note in `deck` is like: the note type most of its notes have, with those
    /// notes' fields, empty; in a deck with no notes, the Anki note type Anki would offer for
    /// it (the store gives the deck that type's templates as the note is added), else the
    /// fields the deck's templates show.
    package static func blank(deck: Deck, in collection: Collection) throws -> NoteDraft {
        let notes = try collection.notes(deckID: deck.id)
        var counts: [String: Int] = [:]
        for note in notes { counts[note.noteType ?? "", default: 0] += 1 }
        let common = counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
        // A deck with no notes of its own (a parent whose notes are all in its subdecks) takes the
        // note type Anki's Add screen would, with its fields as Anki has them (HTML).
        if notes.isEmpty, let type = try collection.ankiNoteTypeForAdding(to: deck) {
            let languages = type.spokenLanguages
            return NoteDraft(guid: "", kind: type.isCloze ? .cloze : .basic, noteType: type.name,
                             fields: type.fields.map { NoteField(name: $0, value: "", language: languages[$0]) },
                             html: true, ankiNoteTypeID: type.id)
        }
        guard let model = notes.first(where: { ($0.noteType ?? "") == common }) else {
            let names = Array(Set(deck.templates.flatMap { $0.front + $0.back + [$0.typed, $0.blanks].compactMap { $0 } })).sorted()
            return NoteDraft(guid: "", kind: deck.kind ?? .basic, fields: names.map { NoteField(name: $0, value: "") })
        }
        return NoteDraft(guid: "", kind: model.kind, noteType: model.noteType,
                         fields: model.fields.map { NoteField(name: $0.name, value: "", language: $0.language) },
                         html: model.html, ankiNoteTypeID: model.ankiNoteTypeID)
    }

    /// Adds a note like `blank` with the typed `fields` (as HTML in a deck whose notes are
    /// HTML) and returns it with the number of cards it made.
    package static func add(_ fields: [NoteField], like blank: NoteDraft, to deck: Deck, collection: Collection, now: Date)
        throws -> (note: Note, cards: Int) {
        var draft = blank
        draft.guid = "maeil-" + UUID().uuidString.lowercased()
        draft.fields = blank.html ? fields.map { NoteField(name: $0.name, value: FieldText.html(fromPlain: $0.value), language: $0.language) } : fields
        draft.position = try collection.nextNotePosition(deckID: deck.id)
        draft.origin = "added"
        let note = try collection.addNote(draft, deckID: deck.id, now: now)
        return (note, try collection.cards(noteID: note.id).count)
    }
}
