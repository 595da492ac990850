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
        let decks = try DeckRisk.all(collection, deckIDs: Array(dayStarts.keys), now: now, timeZone: timeZone)
        // The at-risk cards kept are the lowest; only when the notes among them cannot fill the
        // list (many cards of one note) is the collection read again, keeping more.
        var keep = max(64, limit * 8)
        var chosen: [(FocusCandidate, FocusList.Reason)]
        repeat {
            var marked: [FocusCandidate] = []
            var atRisk = LowestRecall(keeping: keep)
            try collection.forEachFocusCandidate(deckIDs: deckIDs, dayStarts: dayStarts) { candidate in
                if candidate.starred || candidate.leech || candidate.missedToday { marked.append(candidate) }
                guard let risk = decks[candidate.deckID], let recall = risk.recallNextSession(candidate.state),
                      recall < risk.desiredRetention else { return }
                atRisk.offer(candidate, recall: recall)
            }
            chosen = choose(marked: marked, atRisk: atRisk.lowest(), limit: limit)
            if Set(chosen.map(\.0.noteID)).count >= limit || atRisk.holdsAll { break }
            keep *= 8
        } while true
        var items: [FocusList.Item] = []
        var noteIndex: [Int64: Int] = [:]
        for (candidate, reason) in chosen {
            if let index = noteIndex[candidate.noteID] {
                if !items[index].reasons.contains(reason) { items[index].reasons.append(reason) }
                continue
            }
            noteIndex[candidate.noteID] = items.count
            items.append(FocusList.Item(card: candidate.cardID, note: candidate.noteID, deck: "", front: "", back: "", reasons: [reason],
                                        due: candidate.state.phase == .new ? nil : candidate.state.due,
                                        recall: decks[candidate.deckID]?.recall(candidate.state, at: now)))
        }
        // Only the cards chosen are rendered as text.
        let texts = try collection.focusTexts(cardIDs: items.map(\.card))
        for index in items.indices {
            guard let text = texts[items[index].card] else { continue }
            (items[index].deck, items[index].front, items[index].back) = (text.deck, text.front, text.back)
        }
        return FocusList(generated: now, counts: .init(due: today.due, learning: today.learning, new: today.new,
                                                       learned: today.answeredToday, streak: today.streak),
                         items: items, readings: try TodayReading.load(collection, now: now, timeZone: timeZone))
    }

    /// The list's cards and why, in order: starred, then leeches, then today's misses (a note
    /// already listed gains the reason), then the cards at risk, lowest recall first, filling
    /// what is left (a note already listed is not marked at risk again). One item per note.
    static func choose(marked: [FocusCandidate], atRisk: [FocusCandidate], limit: Int) -> [(FocusCandidate, FocusList.Reason)] {
        var notes = Set<Int64>()
        var chosen: [(FocusCandidate, FocusList.Reason)] = []
        func add(_ candidate: FocusCandidate, _ reason: FocusList.Reason) {
            guard notes.contains(candidate.noteID) || notes.count < limit else { return }
            notes.insert(candidate.noteID)
            chosen.append((candidate, reason))
        }
        for candidate in marked where candidate.starred { add(candidate, .starred) }
        for candidate in marked where candidate.leech { add(candidate, .leech) }
        for candidate in marked where candidate.missedToday { add(candidate, .missed) }
        for candidate in atRisk where !notes.contains(candidate.noteID) { add(candidate, .atRisk) }
        return chosen
    }
}

/// The `keeping` candidates of lowest recall among those offered, ties in the order offered:
/// the whole collection's at-risk cards are never held at once.
struct LowestRecall {
    let keeping: Int
    private var kept: [(candidate: FocusCandidate, recall: Double, order: Int)] = []
    private var offered = 0
    private var ceiling = Double.infinity
    private var droppedAny = false

    init(keeping: Int) { self.keeping = keeping }

    mutating func offer(_ candidate: FocusCandidate, recall: Double) {
        offered += 1
        guard recall <= ceiling else {
            droppedAny = true
            return
        }
        kept.append((candidate, recall, offered))
        if kept.count >= keeping * 2 { prune() }
    }

    /// Whether every candidate offered is among `lowest()`.
    var holdsAll: Bool { !droppedAny && kept.count <= keeping }

    func lowest() -> [FocusCandidate] {
        kept.sorted(by: Self.before).prefix(keeping).map(\.candidate)
    }

    private mutating func prune() {
        kept.sort(by: Self.before)
        kept.removeLast(kept.count - keeping)
        droppedAny = true
        ceiling = kept[kept.count - 1].recall
    }

    private static func before(_ a: (candidate: FocusCandidate, recall: Double, order: Int), _ b: (candidate: FocusCandidate, recall: Double, order: Int)) -> Bool {
        (a.recall, a.order) < (b.recall, b.order)
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
