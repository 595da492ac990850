import Foundation
import MaeilCore

package struct Deck: Hashable, Sendable {
    package var id: Int64
    package var name: String
    package var kind: NoteKind?
    package var description: String
    package var presetID: Int64
    package var templates: [CardTemplate]
    /// The field whose text is spoken when a card's front is shown, if the deck asks for speech.
    package var speak: String?
    package var source: String?
    /// Anki's id for the deck, when it came from Anki; its description is then Anki's HTML.
    package var ankiID: Int64? = nil
    /// Its own daily limits over its preset's.
    package var limits = DeckLimits()
    /// The rest of Anki's deck as Anki keeps it (legacy JSON: collapsed or not, an add-on's
    /// keys…), for writing it back whole.
    package var ankiJSON: String? = nil
}

extension Deck {
    /// A name without capitals or spaces, as a deck can also be called: "Korean Practice" is
    /// "korean-practice", which needs no quotes at a prompt.
    package static func slug(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).joined(separator: "-")
    }
}

/// What a card takes of Anki's row where Anki's is the newer (an import's or a sync's merge):
/// everything Anki's card says besides its schedule.
package struct AnkiCardRow: Hashable, Sendable {
    /// Anki's modification time (seconds).
    package var modified: Int64
    package var suspended: Bool
    package var buriedUntil: Date?
    /// Buried by the user, not as a sibling.
    package var buriedByUser: Bool
    /// Anki's flag (0 none, 1–7).
    package var flags: Int
    package var data: AnkiCardData
    /// The deck here Anki keeps the card in where that is not its note's (Browse › Change Deck,
    /// a card type's deck override); nil: its note's.
    package var deckID: Int64?

    package init(modified: Int64, suspended: Bool, buriedUntil: Date?, buriedByUser: Bool, flags: Int, data: AnkiCardData, deckID: Int64? = nil) {
        (self.modified, self.suspended, self.buriedUntil, self.buriedByUser) = (modified, suspended, buriedUntil, buriedByUser)
        (self.flags, self.data, self.deckID) = (flags, data, deckID)
    }
}

/// What Anki keeps on a card that Maeil does not use, kept so it goes back as it came.
package struct AnkiCardData: Hashable, Sendable {
    /// Custom data, as custom scheduling code leaves it (JSON object text).
    package var customData: String?
    /// The card's place in the new queue before it left it.
    package var originalPosition: Int64?
    /// Its place in the new queue while new.
    package var position: Int64?
    /// The desired retention Anki last scheduled it with (FSRS).
    package var retention: Double?

    package init(customData: String? = nil, originalPosition: Int64? = nil, position: Int64? = nil, retention: Double? = nil) {
        (self.customData, self.originalPosition, self.position, self.retention) = (customData, originalPosition, position, retention)
    }

    var isEmpty: Bool { customData == nil && originalPosition == nil && position == nil && retention == nil }

    /// The retention Anki keeps on the card, the one its last answer was scheduled for: the
    /// options' (`options`) where that answer was given here, else the one the card came with.
    package func retention(after history: [ReviewLogEntry], options: Double) -> Double {
        history.last { $0.rating != nil }?.kind == .answer ? options : retention ?? options
    }
}

/// A curriculum unit: a chapter, a "Day N". New cards come unit by unit, in position order.
package struct CurriculumUnit: Hashable, Sendable {
    package var id: Int64
    package var deckID: Int64
    package var key: String
    package var title: String
    package var position: Int
}

package struct Note: Hashable, Sendable {
    package var id: Int64
    package var guid: String
    package var deckID: Int64
    package var kind: NoteKind
    package var fields: [NoteField]
    package var tags: [String]
    package var unitID: Int64?
    package var position: Int
    package var source: String?
    /// The Anki note type it came from, if any.
    package var noteType: String?
    /// The values are Anki's HTML; otherwise plain text.
    package var html: Bool = false
    /// Anki's note type id and the note's modification time there, when it came from Anki.
    package var ankiNoteTypeID: Int64?
    package var ankiModified: Int64?
    /// When Maeil last changed the note (seconds).
    package var modified: Int64 = 0
    /// The note's id in Anki, when it came from Anki.
    package var ankiID: Int64?
    /// When the note was made here (seconds): an Anki id for one that never was in Anki.
    package var created: Int64 = 0

    package var isTaggedLeech: Bool { tags.contains { $0.lowercased() == "leech" } }
}

package struct Card: Hashable, Sendable {
    package var id: Int64
    package var noteID: Int64
    package var deckID: Int64
    package var template: String
    package var ordinal: Int
    package var state: CardState
    package var starred: Bool
    package var suspended: Bool
    package var buriedUntil: Date?
    /// The card's modification time in Anki when it came from there (seconds).
    package var ankiModified: Int64?
    /// The card's id in Anki, when it came from Anki.
    package var ankiID: Int64? = nil
    /// Anki's flag: 0 none, 1–7 a colour.
    package var flags: Int = 0
    /// Buried by the learner, not by an answer to a sibling (Anki keeps the two apart).
    package var buriedByUser = false
}
