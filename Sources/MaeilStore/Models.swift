import Foundation
import MaeilCore

public struct Deck: Hashable, Sendable {
    public var id: Int64
    public var name: String
    public var kind: NoteKind?
    public var description: String
    public var presetID: Int64
    public var templates: [CardTemplate]
    /// The field whose text is spoken when a card's front is shown, if the deck asks for speech.
    public var speak: String?
    public var source: String?
}

/// A curriculum unit: a chapter, a "Day N". New cards come unit by unit, in position order.
public struct CurriculumUnit: Hashable, Sendable {
    public var id: Int64
    public var deckID: Int64
    public var key: String
    public var title: String
    public var position: Int
}

public struct Note: Hashable, Sendable {
    public var id: Int64
    public var guid: String
    public var deckID: Int64
    public var kind: NoteKind
    public var fields: [NoteField]
    public var tags: [String]
    public var unitID: Int64?
    public var position: Int
    public var source: String?
    /// The Anki note type it came from, if any.
    public var noteType: String?
    /// The values are Anki's HTML; otherwise plain text.
    public var html: Bool = false
    /// Anki's note type id and the note's modification time there, when it came from Anki.
    public var ankiNoteTypeID: Int64?
    public var ankiModified: Int64?
    /// When Maeil last changed the note (seconds).
    public var modified: Int64 = 0

    public var isTaggedLeech: Bool { tags.contains { $0.lowercased() == "leech" } }
}

public struct Card: Hashable, Sendable {
    public var id: Int64
    public var noteID: Int64
    public var deckID: Int64
    public var template: String
    public var ordinal: Int
    public var state: CardState
    public var starred: Bool
    public var suspended: Bool
    public var buriedUntil: Date?
    /// The card's modification time in Anki when it came from there (seconds).
    public var ankiModified: Int64?
}
