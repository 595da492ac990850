import Foundation
import MaeilCore

/// A deck's options, shared by the decks that use it (Anki's "preset").
public struct Preset: Hashable, Sendable, Codable {
    public var id: Int64?
    public var name: String
    public var scheduler: SchedulerSettings
    public var newPerDay: Int
    public var reviewsPerDay: Int
    /// The hour a new study day starts, in local time.
    public var rolloverHour: Int
    /// Bury a card's siblings until the next day once it is answered.
    public var burySiblings: Bool
    /// Open a curriculum unit only when every card of the one before has left learning.
    public var curriculumGating: Bool

    public init(
        id: Int64? = nil, name: String, scheduler: SchedulerSettings = SchedulerSettings(),
        newPerDay: Int = 20, reviewsPerDay: Int = 200, rolloverHour: Int = 4,
        burySiblings: Bool = true, curriculumGating: Bool = false
    ) {
        self.id = id
        self.name = name
        self.scheduler = scheduler
        self.newPerDay = newPerDay
        self.reviewsPerDay = reviewsPerDay
        self.rolloverHour = rolloverHour
        self.burySiblings = burySiblings
        self.curriculumGating = curriculumGating
    }

    public static let defaultName = "Default"
}

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
}

/// One review-log row.
public struct ReviewLog: Hashable, Sendable {
    public enum Kind: Int, Sendable {
        case answer = 0
        case manual = 1
        case imported = 2
    }

    public var id: Int64
    public var cardID: Int64
    public var deckID: Int64
    public var time: Date
    public var kind: Kind
    /// Nil for manual changes.
    public var rating: Rating?
    public var durationMilliseconds: Int
    public var scheduler: String
    public var before: CardState?
    public var after: CardState?
}
