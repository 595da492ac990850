/// The limit settings Anki keeps outside a preset, under the names `maeil deck … set` uses:
/// a deck's own limits ("This deck", "Today only") and the collection's rules for counting
/// them, which hold for every deck at once.
public enum DeckLimitKey: String, CaseIterable, Sendable {
    case deckNewPerDay = "deck_new_per_day"
    case deckReviewsPerDay = "deck_reviews_per_day"
    case todayNewPerDay = "today_new_per_day"
    case todayReviewsPerDay = "today_reviews_per_day"
    case newCardsIgnoreReviewLimit = "new_cards_ignore_review_limit"
    case applyAllParentLimits = "apply_all_parent_limits"

    /// The word that takes a deck's own limit away, leaving its preset's.
    public static let clear = "preset"

    public var summary: String {
        switch self {
        case .deckNewPerDay: "new cards a day for this deck only, over its preset's (\(Self.clear): the preset's)"
        case .deckReviewsPerDay: "reviews a day for this deck only, over its preset's (\(Self.clear): the preset's)"
        case .todayNewPerDay: "new cards for this deck today only (\(Self.clear): the usual limit)"
        case .todayReviewsPerDay: "reviews for this deck today only (\(Self.clear): the usual limit)"
        case .newCardsIgnoreReviewLimit: "every deck: new cards are not held back by the review limit"
        case .applyAllParentLimits: "every deck: studying a subdeck, the limits of all decks above it apply"
        }
    }

    /// The deck's own limit that stands over its preset's `key` on study day `today` (today's
    /// before the deck's), if any: a preset's daily limit changed there changes nothing.
    public static func standing(over key: PresetKey, in limits: DeckLimits, today: Int) -> DeckLimitKey? {
        let (day, own): (DeckLimitKey, DeckLimitKey)
        switch key {
        case .newPerDay: (day, own) = (.todayNewPerDay, .deckNewPerDay)
        case .reviewsPerDay: (day, own) = (.todayReviewsPerDay, .deckReviewsPerDay)
        default: return nil
        }
        return [day, own].first { $0.value(in: limits, rules: LimitRules(), today: today) != clear }
    }

    /// Whether it holds for every deck of the collection.
    public var isCollectionWide: Bool { self == .newCardsIgnoreReviewLimit || self == .applyAllParentLimits }

    private var range: ClosedRange<Int> {
        switch self {
        case .deckNewPerDay, .todayNewPerDay: PresetKey.newPerDay.wholeRange
        default: PresetKey.reviewsPerDay.wholeRange
        }
    }

    /// The setting as `set` takes it, on study day `today`.
    public func value(in limits: DeckLimits, rules: LimitRules, today: Int) -> String {
        func text(_ limit: Int?) -> String { limit.map(String.init) ?? Self.clear }
        switch self {
        case .deckNewPerDay: return text(limits.newPerDay)
        case .deckReviewsPerDay: return text(limits.reviewsPerDay)
        case .todayNewPerDay: return text(limits.newToday.flatMap { $0.day == today ? $0.limit : nil })
        case .todayReviewsPerDay: return text(limits.reviewsToday.flatMap { $0.day == today ? $0.limit : nil })
        case .newCardsIgnoreReviewLimit: return String(rules.newIgnoresReviewLimit)
        case .applyAllParentLimits: return String(rules.applyAllParentLimits)
        }
    }

    /// Parses `text` and sets it; refuses a value outside the setting's domain.
    public func set(_ text: String, limits: inout DeckLimits, rules: inout LimitRules, today: Int) throws(PresetKey.Problem) {
        if isCollectionWide {
            guard let flag = PresetKey.flag(text) else { throw PresetKey.Problem(description: "\(rawValue) must be true or false") }
            if self == .newCardsIgnoreReviewLimit { rules.newIgnoresReviewLimit = flag } else { rules.applyAllParentLimits = flag }
            return
        }
        let limit: Int?
        if text.lowercased() == Self.clear {
            limit = nil
        } else if let number = Int(text), range.contains(number) {
            limit = number
        } else {
            throw PresetKey.Problem(description: "\(rawValue) must be a whole number from \(range.lowerBound) to \(range.upperBound), or \(Self.clear)")
        }
        switch self {
        case .deckNewPerDay: limits.newPerDay = limit
        case .deckReviewsPerDay: limits.reviewsPerDay = limit
        case .todayNewPerDay: limits.newToday = limit.map { DeckLimits.DayLimit(limit: $0, day: today) }
        case .todayReviewsPerDay: limits.reviewsToday = limit.map { DeckLimits.DayLimit(limit: $0, day: today) }
        case .newCardsIgnoreReviewLimit, .applyAllParentLimits: break
        }
    }
}
