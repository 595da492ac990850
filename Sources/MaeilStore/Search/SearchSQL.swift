import Foundation
import GRDB
import MaeilCore

/// A search as SQL over `card JOIN note`, meaning what Anki's search means on the same cards:
/// a card is due, new, buried or rated as Anki would say after Maeil's package reached it.
/// Terms that depend on the day use each deck's own study day; names (decks, tags, fields,
/// note types) are matched here in Swift, case-insensitively as Anki does.
struct SearchSQL {
    let now: Date
    /// The decks by the hour their day starts: most collections have one group.
    let clocks: [(clock: DayClock, deckIDs: [Int64])]
    let decks: [(id: Int64, name: String)]
    let noteTypes: [String]
    private(set) var arguments: [any DatabaseValueConvertible & Sendable] = []
    /// Matchers Swift runs row by row, added to the connection for this query only.
    private(set) var functions: [DatabaseFunction] = []

    init(now: Date, clocks: [(clock: DayClock, deckIDs: [Int64])], decks: [(id: Int64, name: String)], noteTypes: [String]) {
        (self.now, self.clocks, self.decks, self.noteTypes) = (now, clocks, decks, noteTypes)
    }

    mutating func condition(_ node: SearchNode) -> String {
        switch node {
        case .all(let parts): return parts.isEmpty ? "1" : "(" + parts.map { condition($0) }.joined(separator: " AND ") + ")"
        case .any(let parts): return "(" + parts.map { condition($0) }.joined(separator: " OR ") + ")"
        case .not(let inner): return "NOT " + condition(inner)
        case .term(let term): return condition(term)
        }
    }

    private var nowSeconds: Int64 { Int64(now.timeIntervalSince1970.rounded(.down)) }
    private static let learning = "card.phase IN ('learning', 'relearning')"
    private var visible: String { "(card.suspended = 0 AND (card.buried_until IS NULL OR card.buried_until <= \(nowSeconds)))" }

    mutating func condition(_ term: SearchTerm) -> String {
        switch term {
        case .text(let text):
            arguments.append("%" + SearchPattern.like(text) + "%")
            return "note.field_values LIKE ? ESCAPE '\\'"
        case .deck(let name):
            if name == "*" { return "1" }
            let pattern = try? NSRegularExpression(pattern: "^" + SearchPattern.regex(name) + "(::.*)?$", options: [.caseInsensitive, .dotMatchesLineSeparators])
            // By its name, or by the slug the command line also knows it by ("korean-practice").
            let ids = decks.filter { deck in
                [deck.name, Deck.slug(deck.name)].contains { pattern?.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil }
            }.map(\.id)
            return "card.deck_id IN (\(ids.map(String.init).joined(separator: ",")))"
        case .tag(let name):
            if name == "*" { return "1" }
            if name.lowercased() == "none" { return "trim(note.tags) = ''" }
            return function(["note.tags"], Self.tagMatcher(name))
        case .noteType(let name):
            let matched = noteTypes.filter(SearchPattern.nameMatcher(name))
            arguments += matched
            return "note.note_type IN (\(matched.map { _ in "?" }.joined(separator: ",")))"
        case .field(let name, let value):
            let names = SearchPattern.nameMatcher(name), values = SearchPattern.nameMatcher(value)
            return function(["note.field_names", "note.field_values"]) { arguments in
                let fieldNames = arguments[0].split(separator: "\u{1f}", omittingEmptySubsequences: false)
                let fieldValues = arguments[1].split(separator: "\u{1f}", omittingEmptySubsequences: false)
                return zip(fieldNames, fieldValues).contains { names(String($0)) && values(String($1)) }
            }
        case .state(let state): return condition(state)
        case .flag(let flag): return "card.flags = \(flag)"
        case .property(let property, let comparison, let value): return condition(property, comparison, value)
        case .rated(let days, let rating):
            return byClock { clock in
                // Days of 86,400 seconds back from the day's end as Anki reckons it, as Anki counts.
                let cutoff = (Int64(clock.ankiDayEnd(after: now).timeIntervalSince1970) - 86_400 * Int64(days)) * 1000
                return "card.id IN (SELECT card_id FROM review_log WHERE time >= \(cutoff) AND " + (rating.map { "rating = \($0)" } ?? "rating > 0") + ")"
            }
        case .added(let days):
            return byClock { clock in
                let cutoff = Int64(clock.ankiDayEnd(after: now).timeIntervalSince1970) - 86_400 * Int64(days)
                return "COALESCE(card.anki_id, note.created_at * 1000) > \(cutoff * 1000)"
            }
        case .noteIDs(let ids):
            let list = ids.map(String.init).joined(separator: ",")
            return "(note.id IN (\(list)) OR note.anki_id IN (\(list)))"
        case .cardIDs(let ids):
            let list = ids.map(String.init).joined(separator: ",")
            return "(card.id IN (\(list)) OR card.anki_id IN (\(list)))"
        }
    }

    /// Anki's states as Anki's queue would have them: a buried or suspended card is never due,
    /// a learning card is due when it is due within the learn-ahead time, or on a day.
    private func condition(_ state: CardStateFilter) -> String {
        switch state {
        case .new: return "card.phase = 'new'"
        case .learn: return Self.learning
        case .review: return "card.phase IN ('review', 'relearning')"
        case .suspended: return "card.suspended = 1"
        case .buried: return "(card.suspended = 0 AND card.buried_until > \(nowSeconds))"
        case .buriedSibling: return "(card.suspended = 0 AND card.buried_until > \(nowSeconds) AND card.buried_by_user = 0)"
        case .buriedManually: return "(card.suspended = 0 AND card.buried_until > \(nowSeconds) AND card.buried_by_user = 1)"
        case .starred: return "card.starred = 1"
        case .due:
            let learnAhead = nowSeconds + StudyQueue.learnAheadSeconds
            return "(\(visible) AND " + byClock { clock in
                let rollover = Int64(clock.nextRollover(after: now).timeIntervalSince1970)
                return "((card.phase = 'review' AND card.due < \(rollover)) OR (\(Self.learning) AND (card.due <= \(learnAhead)"
                    + " OR (card.scheduled_seconds >= 86400 AND card.due < \(rollover)))))"
            } + ")"
        }
    }

    private func condition(_ property: SearchProperty, _ comparison: SearchComparison, _ value: Double) -> String {
        let op = comparison.rawValue
        switch property {
        case .ivl: return "card.interval_days \(op) \(value)"
        case .reps: return "card.reps \(op) \(value)"
        case .lapses: return "card.lapses \(op) \(value)"
        // Anki's factor: per mille, and 0 until a card first leaves learning.
        case .ease: return "(CASE WHEN card.phase IN ('new', 'learning') THEN 0 ELSE card.ease END) \(op) \(Int(value * 1000))"
        case .due:
            // Days from today: a card due on a day by its day; one due within today by
            // whole days from the next day's start, as Anki counts its learning cards.
            let days = Int(value)
            return "(\(visible) AND " + byClock { clock in
                let today = clock.dayNumber(of: now)
                let start = clock.start(ofDay: today + days).unixSeconds, end = clock.start(ofDay: today + days + 1).unixSeconds
                let rollover = clock.start(ofDay: today + 1).unixSeconds
                let byDay = switch comparison {
                case .less: "card.due < \(start)"
                case .lessOrEqual: "card.due < \(end)"
                case .equal: "(card.due >= \(start) AND card.due < \(end))"
                case .notEqual: "NOT (card.due >= \(start) AND card.due < \(end))"
                case .greater: "card.due >= \(end)"
                case .greaterOrEqual: "card.due >= \(start)"
                }
                return "(((card.phase = 'review' OR (\(Self.learning) AND card.due >= \(rollover))) AND \(byDay))"
                    + " OR (\(Self.learning) AND card.due < \(rollover) AND (card.due - \(rollover)) / 86400 \(op) \(days)))"
            } + ")"
        }
    }

    /// `body` for each group of decks that share a study day, joined.
    private func byClock(_ body: (DayClock) -> String) -> String {
        guard !clocks.isEmpty else { return "0" }
        if clocks.count == 1 { return body(clocks[0].clock) }
        return "(" + clocks.map { "(card.deck_id IN (\($0.deckIDs.map(String.init).joined(separator: ","))) AND \(body($0.clock)))" }
            .joined(separator: " OR ") + ")"
    }

    /// A tag, or a tag under it (`a` finds `a::b`); `*` and `_` within one tag.
    static func tagMatcher(_ name: String) -> @Sendable ([String]) -> Bool {
        let pattern = try? NSRegularExpression(pattern: "^" + SearchPattern.regex(name, any: "\\S") + "(::\\S*)?$", options: [.caseInsensitive])
        return { arguments in
            arguments[0].split(separator: " ").contains { tag in
                let tag = String(tag)
                return pattern?.firstMatch(in: tag, range: NSRange(tag.startIndex..., in: tag)) != nil
            }
        }
    }

    /// A SQL call of a Swift matcher over text columns.
    private mutating func function(_ columns: [String], _ matches: @escaping @Sendable ([String]) -> Bool) -> String {
        let name = "maeil_search_\(functions.count)"
        functions.append(DatabaseFunction(name, argumentCount: columns.count, pure: true) { values in
            matches(values.map { String.fromDatabaseValue($0) ?? "" })
        })
        return "\(name)(\(columns.joined(separator: ", ")))"
    }
}
