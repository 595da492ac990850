import Foundation
import MaeilCore
import MaeilStore

/// What a session needs of a deck for every card it shows and every answer it gives: the
/// deck, its preset, the scheduler the preset describes and its study-day clock. Read once per
/// deck per session, not once per card.
struct DeckContext {
    let deck: Deck
    let preset: Preset
    let scheduler: any Scheduler
    let clock: DayClock

    init(deck: Deck, preset: Preset, timeZone: TimeZone) {
        self.deck = deck
        self.preset = preset
        scheduler = preset.scheduler.makeScheduler()
        clock = preset.dayClock(in: timeZone)
    }
}

/// The decks a session has met, each read once.
struct DeckContexts {
    let collection: Collection
    let timeZone: TimeZone
    private var known: [Int64: DeckContext] = [:]

    init(collection: Collection, timeZone: TimeZone) {
        self.collection = collection
        self.timeZone = timeZone
    }

    mutating func context(for deckID: Int64) throws -> DeckContext {
        if let context = known[deckID] { return context }
        let deck = try collection.deck(id: deckID)
        let context = DeckContext(deck: deck, preset: try collection.preset(id: deck.presetID), timeZone: timeZone)
        known[deckID] = context
        return context
    }
}
