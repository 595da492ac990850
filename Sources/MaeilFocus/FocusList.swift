import Foundation
import MaeilCore
import MaeilStore

/// What a learner wants in sight all day: starred items, leeches, the cards missed today and
/// the ones at risk of being forgotten by the next session, with today's counts.
package struct FocusList: Sendable, Codable, Equatable {
    package enum Reason: String, Sendable, Codable, CaseIterable {
        case starred, leech, missed = "missed-today", atRisk = "at-risk"
    }

    package struct Item: Sendable, Codable, Equatable {
        package var card: Int64
        package var note: Int64
        package var deck: String
        package var front: String
        package var back: String
        package var reasons: [Reason]
        /// When the card is next due; nil for a new card.
        package var due: Date?
        /// Predicted recall right now, 0–1; nil for cards not yet learned.
        package var recall: Double?
    }

    package struct Counts: Sendable, Codable, Equatable {
        /// Reviews due today, as `stats` counts them.
        package var due: Int
        /// Learning cards due before the next study day.
        package var learning: Int
        package var new: Int
        /// Cards answered today, each counted once.
        package var learned: Int
        package var streak: Int

        /// Everything waiting today (reviews and learning cards), for a widget's one number.
        package var waiting: Int { due + learning }
    }

    /// Bump when the JSON's shape or a field's meaning changes; widgets can check it.
    /// 2: `counts.due` counts reviews only, as `stats` does; learning cards are `counts.learning`.
    /// (Fields are added within a version: `readings` came in 2.)
    package static let schema = 2

    package var schema = FocusList.schema
    package var generated: Date
    package var counts: Counts
    package var items: [Item]
    /// Today's readings, one entry per reading plan in the collection.
    package var readings: [TodayReading] = []
}

package enum FocusListBuilder {
    /// Builds the list: starred, then leeches, then today's misses, then the cards at risk, one
    /// item per note, at most `limit`. A card is at risk when its predicted recall at the start
    /// of the next study day is below its deck's desired retention (0.9 under SM-2), lowest
    /// first; a card answered today is never at risk (it is fresh, or it is already a miss).
    package static func build(_ collection: Collection, deckIDs: [Int64]? = nil, limit: Int = 10, now: Date, timeZone: TimeZone) throws -> FocusList {
        let today = try collection.todayCounts(deckIDs: deckIDs, now: now, timeZone: timeZone)
        let dayStarts = try collection.dayStarts(deckIDs: deckIDs, now: now, timeZone: timeZone)
        let candidates = try collection.focusCandidates(deckIDs: deckIDs, dayStarts: dayStarts)
        let decks = try DeckRisk.all(collection, deckIDs: Array(dayStarts.keys), now: now, timeZone: timeZone)
        var byNote: [Int64: FocusList.Item] = [:]
        var order: [Int64] = []
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
                reasons: [reason], due: candidate.state.phase == .new ? nil : candidate.state.due,
                recall: decks[candidate.deckID]?.recall(candidate.state, at: now))
        }
        for candidate in candidates where candidate.starred { add(candidate, .starred) }
        for candidate in candidates where candidate.leech { add(candidate, .leech) }
        for candidate in candidates where candidate.missedToday { add(candidate, .missed) }
        let atRisk = candidates.compactMap { candidate -> (FocusCandidate, Double)? in
            guard let risk = decks[candidate.deckID], let recall = risk.recallNextSession(candidate.state) else { return nil }
            return recall < risk.desiredRetention ? (candidate, recall) : nil
        }.sorted { $0.1 < $1.1 }
        // Risk only fills the list: an item already there for another reason is not marked again.
        for (candidate, _) in atRisk where byNote[candidate.noteID] == nil { add(candidate, .atRisk) }
        // Only the cards chosen are rendered as text.
        let texts = try collection.focusTexts(cardIDs: order.compactMap { byNote[$0]?.card })
        let items = order.compactMap { note -> FocusList.Item? in
            guard var item = byNote[note], let text = texts[item.card] else { return byNote[note] }
            (item.deck, item.front, item.back) = (text.deck, text.front, text.back)
            return item
        }
        return FocusList(generated: now, counts: .init(due: today.due, learning: today.learning, new: today.new,
                                                       learned: today.answeredToday, streak: today.streak),
                         items: items, readings: try TodayReading.load(collection, now: now, timeZone: timeZone))
    }
}

/// What deciding a deck's cards' risk needs: its recall target, when today began and when the
/// next study day begins.
struct DeckRisk {
    let desiredRetention: Double
    let todayStart: Date
    let nextSession: Date
    let fsrs: FSRS

    static func all(_ collection: Collection, deckIDs: [Int64], now: Date, timeZone: TimeZone) throws -> [Int64: DeckRisk] {
        var result: [Int64: DeckRisk] = [:]
        for id in deckIDs {
            let preset = try collection.preset(id: try collection.deck(id: id).presetID)
            let clock = preset.dayClock(in: timeZone)
            let today = clock.dayNumber(of: now)
            let fsrsRetention = preset.scheduler.kind == .fsrs ? preset.scheduler.desiredRetention : 0.9
            result[id] = DeckRisk(desiredRetention: fsrsRetention, todayStart: clock.start(ofDay: today),
                                  nextSession: clock.start(ofDay: today + 1), fsrs: FSRS(parameters: preset.scheduler.fsrsParameters))
        }
        return result
    }

    /// Predicted recall at `date`; nil for a card not yet learned.
    func recall(_ state: CardState, at date: Date) -> Double? {
        guard state.phase != .new, let last = state.lastReview else { return nil }
        let memory = state.memory ?? fsrs.memoryFromSM2(ease: state.ease, intervalDays: Double(max(state.intervalDays, 1)))
        return fsrs.retrievability(elapsedDays: max(0, date.timeIntervalSince(last) / 86_400), stability: memory.stability)
    }

    /// Predicted recall when the next study day begins; nil for a card not yet learned or one
    /// answered today.
    func recallNextSession(_ state: CardState) -> Double? {
        guard let last = state.lastReview, last < todayStart else { return nil }
        return recall(state, at: nextSession)
    }
}

/// The cards the focus list names, for `review --focus`.
package enum FocusCards {
    package static func cardIDs(_ collection: Collection, deckIDs: [Int64]? = nil, now: Date, timeZone: TimeZone, limit: Int) throws -> [Int64] {
        try FocusListBuilder.build(collection, deckIDs: deckIDs, limit: limit, now: now, timeZone: timeZone).items.map(\.card)
    }
}
