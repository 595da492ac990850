import Foundation
import MaeilCore
import MaeilOptimizer
import MaeilStore

/// The review log of some decks as FSRS training items, by Anki's rules: what `maeil optimize`
/// fits and evaluates.
package enum FittingHistory {
    package static func items(collection: Collection, decks: [Deck], now: Date, timeZone: TimeZone) throws -> [FSRSItem] {
        // Days are counted back from the next study day of the last deck's preset, for all.
        var nextDayStart = now.timeIntervalSince1970
        for deck in decks {
            let preset = try collection.preset(id: deck.presetID)
            let clock = DayClock(timeZone: timeZone, rolloverHour: preset.rolloverHour)
            nextDayStart = clock.start(ofDay: clock.dayNumber(of: now) + 1).timeIntervalSince1970
        }
        // Card by card, only the items kept: at a million cards the decks' notes, cards and
        // whole log entries took gigabytes.
        var collector = ItemBuilder.Collector(nextDayStart: nextDayStart)
        for deck in decks {
            try collection.forEachCardLogOutline(deckID: deck.id) { card, entries in collector.add(cardID: card, events: entries.map(event)) }
        }
        return collector.items()
    }

    /// A log entry as fsrs-rs sees a revlog row: an answer by the phase it was given in, a
    /// forget as a reset, any other change by hand as manual.
    static func event(_ entry: ReviewLogOutline) -> ReviewEvent {
        let time = entry.time.timeIntervalSince1970
        guard let rating = entry.rating else {
            if entry.isAnki { return ReviewEvent(time: time, rating: 0, kind: entry.isAnkiReset ? .reset : .manual) }
            let forgotten = entry.afterPhase == .new && entry.beforePhase.map { $0 != .new } ?? false
            return ReviewEvent(time: time, rating: 0, kind: forgotten ? .reset : .manual)
        }
        let kind: ReviewEvent.Kind
        switch entry.beforePhase ?? .new {
        case .new, .learning: kind = .learning
        case .review: kind = .review
        case .relearning: kind = .relearning
        }
        return ReviewEvent(time: time, rating: rating.rawValue, kind: kind)
    }

    /// Relearning steps under a day, which bound two parameters in the fit (as in Anki).
    package static func relearningSteps(_ preset: Preset) -> Int {
        var total = 0
        var count = 0
        for seconds in preset.scheduler.relearningSteps.seconds {
            total += seconds
            if total < 86_400 { count += 1 }
        }
        return count
    }
}
