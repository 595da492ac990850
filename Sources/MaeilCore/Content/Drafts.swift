import Foundation

/// A note on its way into a collection, before it has an id: what every deck reader produces,
/// what the prompt's `add` makes, and what the store writes.
package struct NoteDraft: Hashable, Sendable {
    /// Stable across imports: a second import of the same item updates this note.
    package var guid: String
    package var kind: NoteKind
    /// The Anki note type it came from, if any.
    package var noteType: String?
    package var fields: [NoteField]
    package var tags: [String]
    /// The key of its curriculum unit, in a deck that has units.
    package var unit: String?
    /// Its place among the deck's notes: new cards come in this order.
    package var position: Int
    /// Where it came from ("deck.yaml:12", "words.csv:40", "added"): for messages, and kept
    /// with the note.
    package var origin: String?
    /// Schedules another program gave its cards (Anki packages), by template and ordinal.
    package var cards: [CardDraft]
    /// When a note with this guid is already there, leave it exactly as it is (Anki's "keep current").
    package var keepExisting: Bool
    /// The values are Anki's HTML (a package, an Anki text file with #html:true), shown as
    /// formatted text and written back as they came; otherwise plain text.
    package var html: Bool
    /// Anki's note type id and the note's modification time there (seconds), for going back.
    package var ankiNoteTypeID: Int64?
    package var ankiModified: Int64?
    /// The note's id in Anki, kept so the note goes back as the same record.
    package var ankiID: Int64?
    /// The field names are a reader's guess (an Anki text file names no fields): a note already
    /// in the collection with this guid takes the values in its own fields' order, and keeps
    /// its kind, note type and cards.
    package var fieldsByPosition = false
    /// Its cards are in the collection as the file has them (`KnownAnkiCards`), so the file's
    /// schedules were left out of `cards`: the note is here, and its cards are left as they are.
    package var cardsKnown = false
    /// The note is in the collection as the file has it (`KnownAnkiCards`), its cards too: the
    /// reader left out its fields, tags and cards, and an import writes nothing for it.
    package var asStored = false

    package init(guid: String, kind: NoteKind, noteType: String? = nil, fields: [NoteField], tags: [String] = [], unit: String? = nil,
                position: Int = 0, origin: String? = nil, cards: [CardDraft] = [], keepExisting: Bool = false, html: Bool = false,
                ankiNoteTypeID: Int64? = nil, ankiModified: Int64? = nil) {
        self.html = html
        self.ankiNoteTypeID = ankiNoteTypeID
        self.ankiModified = ankiModified
        self.guid = guid
        self.kind = kind
        self.noteType = noteType
        self.fields = fields
        self.tags = tags
        self.unit = unit
        self.position = position
        self.origin = origin
        self.cards = cards
        self.keepExisting = keepExisting
    }
}

/// A card's schedule carried over from another program, for the card of this template and
/// ordinal that its note gets.
package struct CardDraft: Hashable, Sendable {
    package var template: String
    package var ordinal: Int
    package var state: CardState
    package var suspended: Bool
    package var buriedUntil: Date?
    /// The answers that led to `state`, oldest first.
    package var history: [ReviewLogEntry]
    /// The card's modification time in Anki (seconds): Anki takes a card's schedule back only
    /// from a card changed later than its own.
    package var ankiModified: Int64?
    /// The card's id in Anki, and its flag (0 none, 1–7 a colour).
    package var ankiID: Int64?
    package var flags: Int
    /// Buried by the learner (Anki's queue -3), not by an answer to a sibling (-2).
    package var buriedByUser: Bool
    /// Anki's custom data on the card, as its text (kept, never read).
    package var ankiCustomData: String? = nil
    /// Anki's record of the card's place in the new queue once it left it.
    package var ankiOriginalPosition: Int64? = nil
    /// A new card's place in Anki's new queue.
    package var ankiPosition: Int64? = nil
    /// The desired retention Anki keeps on the card ("dr").
    package var ankiRetention: Double? = nil
    /// Anki's deck of the card where it is not its note's (Browse › Change Deck on some of a
    /// note's cards, a card type's deck override): the card is written into that deck here,
    /// and studied there.
    package var ankiDeckID: Int64? = nil

    package init(template: String, ordinal: Int, state: CardState, suspended: Bool = false, buriedUntil: Date? = nil,
                history: [ReviewLogEntry] = [], ankiModified: Int64? = nil, ankiID: Int64? = nil, flags: Int = 0, buriedByUser: Bool = false) {
        self.ankiModified = ankiModified
        self.buriedByUser = buriedByUser
        self.ankiID = ankiID
        self.flags = flags
        self.template = template
        self.ordinal = ordinal
        self.state = state
        self.suspended = suspended
        self.buriedUntil = buriedUntil
        self.history = history
    }
}
