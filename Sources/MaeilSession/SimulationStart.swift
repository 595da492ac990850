import Foundation
import MaeilCore
import MaeilSimulator
import MaeilStore

/// A deck as the simulator starts from it (`maeil sim --deck`), as Anki's simulator does: its
/// cards with their schedules and memory, its preset's scheduler and limits, and its FSRS
/// parameters (the fitted ones after `maeil optimize --save`) as the learner's memory.
package enum SimulationStart {
    package static func configure(_ config: inout SimulationConfig, collection: Collection, decks: [Deck], now: Date,
                                 timeZone: TimeZone) throws {
        guard let first = decks.first else { return }
        let preset = try collection.preset(id: first.presetID)
        config.scheduler = preset.scheduler
        config.newPerDay = preset.newPerDay
        config.reviewsPerDay = preset.reviewsPerDay
        config.learner.parameters = preset.scheduler.fsrsParameters
        let fsrs = FSRS(parameters: preset.scheduler.fsrsParameters)
        let clock = DayClock(timeZone: timeZone, rolloverHour: preset.rolloverHour)
        let today = clock.dayNumber(of: now)
        let nextDayStart = clock.start(ofDay: today + 1)
        var cards: [StartingCard] = []
        // Grown once: doubling a million cards' array held both copies at once.
        cards.reserveCapacity(try decks.reduce(0) { $0 + (try collection.cardCount(deckID: $1.id)) })
        for deck in decks {
            // The learner's memory of a reviewed card without an FSRS state comes from its log:
            // read card by card, only these cards' memories kept.
            var fromLog: [Int64: (memory: MemoryState?, last: Date?)] = [:]
            try collection.forEachCardLog(deckID: deck.id) { card, log in
                fromLog[card] = (FSRSHistory(log: log, nextDayStart: nextDayStart, clock: clock, fsrs: fsrs,
                                             historicalRetention: preset.historicalRetention)?.memory(fsrs), log.last?.time)
            }
            // In the deck's order, so new cards come in as they would at the prompt.
            try collection.forEachCardInDeckOrder(deckID: deck.id) { card in
                guard !card.suspended else { return }
                let state = card.state
                guard state.phase != .new else {
                    cards.append(StartingCard(state: .new, memory: nil, daysSinceReview: 0, dueInDays: 0, lapses: 0))
                    return
                }
                let logged = fromLog[card.id]
                let memory = state.memory ?? logged?.memory ?? MemoryState(stability: max(Double(state.intervalDays), 0.1), difficulty: 5)
                let last = state.lastReview ?? logged?.last ?? now
                cards.append(StartingCard(state: state, memory: memory, daysSinceReview: max(0, today - clock.dayNumber(of: last)),
                                          dueInDays: state.due.map { clock.dayNumber(of: $0) - today } ?? 0, lapses: state.lapses))
            }
        }
        config.startingCards = cards
        config.items = cards.count
    }
}
