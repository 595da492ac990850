import Foundation
import MaeilCore
import MaeilStore

/// What a learner wants in sight all day: starred items, leeches, the cards missed today and
/// the ones most at risk of being forgotten (lowest predicted recall today), with today's counts.
public struct FocusList: Sendable, Codable, Equatable {
    public enum Reason: String, Sendable, Codable, CaseIterable {
        case starred, leech, missed = "missed-today", atRisk = "at-risk"
    }

    public struct Item: Sendable, Codable, Equatable {
        public var card: Int64
        public var note: Int64
        public var deck: String
        public var front: String
        public var back: String
        public var reasons: [Reason]
        /// When the card is next due; nil for a new card.
        public var due: Date?
        /// Predicted recall right now, 0–1; nil for cards not yet learned.
        public var recall: Double?
    }

    public struct Counts: Sendable, Codable, Equatable {
        public var due: Int
        public var new: Int
        /// Cards answered today.
        public var learned: Int
        public var streak: Int
    }

    /// Bump when the JSON's shape changes; widgets can check it.
    public static let schema = 1

    public var schema = FocusList.schema
    public var generated: Date
    public var counts: Counts
    public var items: [Item]
}

public enum FocusListBuilder {
    /// Builds the list: starred, then leeches, then today's misses, then the lowest predicted
    /// recall, one item per note, at most `limit`.
    public static func build(_ collection: Collection, deckIDs: [Int64]? = nil, limit: Int = 10, now: Date, timeZone: TimeZone) throws -> FocusList {
        let stats = try collection.stats(deckIDs: deckIDs, now: now, timeZone: timeZone)
        let dayStarts = try collection.dayStarts(deckIDs: deckIDs, now: now, timeZone: timeZone)
        let candidates = try collection.focusCandidates(deckIDs: deckIDs, dayStarts: dayStarts)
        let fsrs = FSRS()
        var byNote: [Int64: FocusList.Item] = [:]
        var order: [Int64] = []
        func recall(_ state: CardState) -> Double? {
            guard state.phase != .new, let last = state.lastReview else { return nil }
            let memory = state.memory ?? fsrs.memoryFromSM2(ease: state.ease, intervalDays: Double(max(state.intervalDays, 1)))
            return fsrs.retrievability(elapsedDays: max(0, now.timeIntervalSince(last) / 86_400), stability: memory.stability)
        }
        func add(_ candidate: FocusCandidate, _ reason: FocusList.Reason) {
            if var item = byNote[candidate.noteID] {
                if !item.reasons.contains(reason) { item.reasons.append(reason) }
                byNote[candidate.noteID] = item
                return
            }
            guard order.count < limit else { return }
            order.append(candidate.noteID)
            byNote[candidate.noteID] = FocusList.Item(
                card: candidate.cardID, note: candidate.noteID, deck: candidate.deck, front: candidate.front, back: candidate.back,
                reasons: [reason], due: candidate.state.phase == .new ? nil : candidate.state.due, recall: recall(candidate.state))
        }
        for candidate in candidates where candidate.starred { add(candidate, .starred) }
        for candidate in candidates where candidate.leech { add(candidate, .leech) }
        for candidate in candidates where candidate.missedToday { add(candidate, .missed) }
        let atRisk = candidates.compactMap { candidate in recall(candidate.state).map { (candidate, $0) } }.sorted { $0.1 < $1.1 }
        // Recall only fills the list: an item already there for another reason is not marked again.
        for (candidate, _) in atRisk where byNote[candidate.noteID] == nil { add(candidate, .atRisk) }
        let learned = stats.reviewsPerDay.last?.count ?? 0
        return FocusList(generated: now, counts: .init(due: stats.dueToday + stats.learningToday, new: stats.newToday, learned: learned,
                                                       streak: stats.streak),
                         items: order.compactMap { byNote[$0] })
    }
}

/// The cards the focus list names, for `review --focus`.
public enum FocusCards {
    public static func cardIDs(_ collection: Collection, now: Date, timeZone: TimeZone, limit: Int) throws -> [Int64] {
        try FocusListBuilder.build(collection, limit: limit, now: now, timeZone: timeZone).items.map(\.card)
    }
}
