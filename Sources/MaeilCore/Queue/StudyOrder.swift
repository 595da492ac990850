/// The order of a day's cards: Anki's "display order" deck options, with Anki's choices and
/// defaults. Each case names itself as `maeil deck … set` and deck files spell it; `ankiValue`
/// is the number Anki's deck options keep for it.
public struct StudyOrder: Hashable, Sendable, Codable {
    /// Where one kind of card goes among the reviews: spread evenly through them, or all
    /// after or before them.
    public enum Mix: String, CaseIterable, Sendable, Codable {
        case mixed = "mix"
        case afterReviews = "after-reviews"
        case beforeReviews = "before-reviews"
    }

    /// The order of the day's reviews; which of them are taken when the day's limit is lower
    /// than what is due.
    public enum ReviewOrder: String, CaseIterable, Sendable, Codable {
        case dueDate = "due-date"
        case dueDateThenDeck = "due-date-then-deck"
        case deckThenDueDate = "deck-then-due-date"
        case ascendingIntervals = "ascending-intervals"
        case descendingIntervals = "descending-intervals"
        case ascendingEase = "ascending-ease"
        case descendingEase = "descending-ease"
        case ascendingRetrievability = "ascending-retrievability"
        case descendingRetrievability = "descending-retrievability"
        case relativeOverdueness = "relative-overdueness"
        case random
        case added = "order-added"
        case reverseAdded = "reverse-order-added"
    }

    /// Which new cards are taken for the day's limit.
    public enum NewGather: String, CaseIterable, Sendable, Codable {
        case deck
        case deckThenRandomNotes = "deck-then-random-notes"
        case ascendingPosition = "ascending-position"
        case descendingPosition = "descending-position"
        case randomNotes = "random-notes"
        case randomCards = "random-cards"
    }

    /// How the new cards taken are then ordered.
    public enum NewSort: String, CaseIterable, Sendable, Codable {
        case templateThenGather = "template-then-gather"
        case gather
        case templateThenRandom = "template-then-random"
        case randomNoteThenTemplate = "random-note-then-template"
        case randomCard = "random-card"
    }

    public var newMix: Mix = .mixed
    public var interdayLearningMix: Mix = .mixed
    public var reviews: ReviewOrder = .dueDate
    public var newGather: NewGather = .deck
    public var newSort: NewSort = .templateThenGather

    public init() {}

    enum CodingKeys: String, CodingKey { case newMix, interdayLearningMix, reviews, newGather, newSort }

    /// Orders saved by an older Maeil lack the choices added since: they take Anki's defaults.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        newMix = try container.decodeIfPresent(Mix.self, forKey: .newMix) ?? .mixed
        interdayLearningMix = try container.decodeIfPresent(Mix.self, forKey: .interdayLearningMix) ?? .mixed
        reviews = try container.decodeIfPresent(ReviewOrder.self, forKey: .reviews) ?? .dueDate
        newGather = try container.decodeIfPresent(NewGather.self, forKey: .newGather) ?? .deck
        newSort = try container.decodeIfPresent(NewSort.self, forKey: .newSort) ?? .templateThenGather
    }
}

/// A choice Anki keeps as a number.
public protocol AnkiNumbered: CaseIterable, Equatable {
    /// Anki's number for each case, in its own order.
    static var ankiNumbers: [(Self, Int)] { get }
}

extension AnkiNumbered {
    public var ankiValue: Int { Self.ankiNumbers.first { $0.0 == self }!.1 }

    /// The case Anki's number stands for; nil for a number Anki does not have (a newer Anki's).
    public init?(ankiValue: Int) {
        guard let found = Self.ankiNumbers.first(where: { $0.1 == ankiValue }) else { return nil }
        self = found.0
    }
}

extension StudyOrder.Mix: AnkiNumbered {
    public static let ankiNumbers: [(Self, Int)] = [(.mixed, 0), (.afterReviews, 1), (.beforeReviews, 2)]
}

extension StudyOrder.ReviewOrder: AnkiNumbered {
    public static let ankiNumbers: [(Self, Int)] = [
        (.dueDate, 0), (.dueDateThenDeck, 1), (.deckThenDueDate, 2), (.ascendingIntervals, 3), (.descendingIntervals, 4),
        (.ascendingEase, 5), (.descendingEase, 6), (.ascendingRetrievability, 7), (.random, 8), (.added, 9), (.reverseAdded, 10),
        (.descendingRetrievability, 11), (.relativeOverdueness, 12),
    ]
}

extension StudyOrder.NewGather: AnkiNumbered {
    public static let ankiNumbers: [(Self, Int)] = [
        (.deck, 0), (.ascendingPosition, 1), (.descendingPosition, 2), (.randomNotes, 3), (.randomCards, 4), (.deckThenRandomNotes, 5),
    ]
}

extension StudyOrder.NewSort: AnkiNumbered {
    public static let ankiNumbers: [(Self, Int)] = [
        (.templateThenGather, 0), (.gather, 1), (.templateThenRandom, 2), (.randomNoteThenTemplate, 3), (.randomCard, 4),
    ]
}
