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
        for deck in decks {
            let contents = try collection.deckContents(deckID: deck.id)
            // In the deck's order, so new cards come in as they would at the prompt.
            let ordered = contents.notes.flatMap { contents.cards[$0.id] ?? [] }.filter { !$0.suspended }
            for card in ordered {
                let state = card.state
                guard state.phase != .new else {
                    cards.append(StartingCard(state: .new, memory: nil, daysSinceReview: 0, dueInDays: 0, lapses: 0))
                    continue
                }
                // The learner's memory: the card's FSRS state, else what its review log gives.
                let memory = state.memory
                    ?? FSRSHistory(log: contents.logs[card.id] ?? [], nextDayStart: nextDayStart, fsrs: fsrs)?.memory(fsrs)
                    ?? MemoryState(stability: max(Double(state.intervalDays), 0.1), difficulty: 5)
                let last = state.lastReview ?? contents.logs[card.id]?.last?.time ?? now
                cards.append(StartingCard(state: state, memory: memory, daysSinceReview: max(0, today - clock.dayNumber(of: last)),
                                          dueInDays: state.due.map { clock.dayNumber(of: $0) - today } ?? 0, lapses: state.lapses))
            }
        }
        config.startingCards = cards
        config.items = cards.count
    }
}
