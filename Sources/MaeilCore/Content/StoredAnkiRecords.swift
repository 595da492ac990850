/// What a collection holds of Anki's notes and cards, in the columns an import of a package
/// compares with the package's rows: enough to tell a note or a card that is here exactly as
/// the package has it, whose import would change nothing.
package struct StoredAnkiRecords: Sendable {
    /// A card, by Anki's card id: its note (this collection's id for it) and the modification
    /// time Anki gave the card when it last came (the import or sync that wrote it).
    package struct Card: Sendable, Hashable {
        package var note: Int64
        package var modified: Int64

        package init(note: Int64, modified: Int64) {
            self.note = note
            self.modified = modified
        }
    }

    /// A note that came from Anki, by guid, as an import compares it (`DeckImport.add`).
    package struct Note: Sendable, Equatable {
        /// This collection's id for it.
        package var id: Int64
        /// Its fields' values joined by U+001F, as Anki's `flds` column holds them.
        package var values: String
        /// Its tags as the collection's column holds them: separated by spaces, with one at each
        /// end, as Anki's `tags` column.
        package var tags: String
        package var fieldNames: [String]
        package var languages: [String?]
        package var kind: NoteKind
        package var noteType: String?
        package var ankiNoteType: Int64?
        package var html: Bool
        package var inUnit: Bool

        package init(id: Int64, values: String, tags: String, fieldNames: [String], languages: [String?], kind: NoteKind, noteType: String?,
                     ankiNoteType: Int64?, html: Bool, inUnit: Bool) {
            self.id = id
            (self.values, self.tags, self.fieldNames, self.languages) = (values, tags, fieldNames, languages)
            (self.kind, self.noteType, self.ankiNoteType, self.html, self.inUnit) = (kind, noteType, ankiNoteType, html, inUnit)
        }
    }

    package var cards: [Int64: Card] = [:]
    package var notes: [String: Note] = [:]

    package init(cards: [Int64: Card] = [:], notes: [String: Note] = [:]) {
        self.cards = cards
        self.notes = notes
    }
}
