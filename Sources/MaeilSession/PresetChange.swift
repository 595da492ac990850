import Foundation
import MaeilCore
import MaeilStore

/// A change to a deck's options (`maeil deck DECK set KEY VALUE`). The options belong to the
/// deck's preset, so every deck sharing it changes with it, as in Anki.
package struct PresetChange {
    package let collection: Collection

    package init(collection: Collection) {
        self.collection = collection
    }

    package struct Result: Sendable {
        package var preset: Preset
        /// The decks that use the preset.
        package var decks: [Deck]
        /// Cards given a memory state from their review log (switching to FSRS).
        package var cardsWithMemory: Int
    }

    /// Sets `key` to `value` on the preset of `deck`. Switching from SM-2 to FSRS gives every
    /// card that has been reviewed its memory state from its review log, so no card starts
    /// over; its due date stays where it was.
    ///
    /// The preset, the cards and their logs are read in the same write transaction that
    /// writes them: another process's change to the same preset, or an answer given
    /// meanwhile, is either wholly before it (and read) or waits for it, never written over.
    package func set(_ key: PresetKey, _ value: PresetKey.Input, deck: Deck, now: Date, timeZone: TimeZone) throws -> Result {
        try collection.batch(now: now) { writer in
            let presetID = try writer.deck(id: deck.id).presetID
            var preset = try writer.preset(id: presetID)
            let wasFSRS = preset.scheduler.kind == .fsrs
            let oldClock = preset.dayClock(in: timeZone)
            do throws(PresetKey.Problem) {
                try key.set(value, on: &preset)
            } catch {
                throw PresetChangeProblem(description: error.description)
            }
            let decks = try writer.decks().filter { $0.presetID == presetID }
            try Self.moveBurials(decks: decks, from: oldClock, to: preset.dayClock(in: timeZone), now: now, in: writer)
            let switchesToFSRS = !wasFSRS && preset.scheduler.kind == .fsrs
            let memories = switchesToFSRS ? try Self.memoryStates(decks: decks, preset: preset, now: now, timeZone: timeZone, in: writer) : []
            for (card, state) in memories { try writer.setState(cardID: card, state, kind: .manual) }
            return Result(preset: try writer.save(preset), decks: decks, cardsWithMemory: memories.count)
        }
    }

    /// Where the hour a day starts moves, every burial in force ends by the new hour
    /// (`DayClock.burialEnd`).
    static func moveBurials(decks: [Deck], from old: DayClock, to new: DayClock, now: Date, in writer: CollectionWriter) throws {
        guard old != new else { return }
        for deck in decks {
            for card in try writer.cards(deckID: deck.id) {
                guard let until = card.buriedUntil, until > now else { continue }
                try writer.setBuriedUntil(cardID: card.id, new.burialEnd(until, countedBy: old, now: now))
            }
        }
    }

    /// Each reviewed card's state with the memory its history gives under `preset`'s FSRS.
    static func memoryStates(decks: [Deck], preset: Preset, now: Date, timeZone: TimeZone, in writer: CollectionWriter) throws -> [(Int64, CardState)] {
        let fsrs = FSRS(parameters: preset.scheduler.fsrsParameters)
        let clock = preset.dayClock(in: timeZone)
        var result: [(Int64, CardState)] = []
        for deck in decks {
            for card in try writer.cards(deckID: deck.id) where card.state.phase != .new {
                let log = try writer.reviewLog(cardID: card.id).map(\.entry)
                guard let state = memoryState(of: card, log: log, fsrs: fsrs, historicalRetention: preset.historicalRetention, clock: clock, now: now),
                      state != card.state else { continue }
                result.append((card.id, state))
            }
        }
        return result
    }

    /// A card's state with the memory its history gives under `fsrs`, as Anki works it out
    /// (switching FSRS on, a card moved to another deck); nil for a card with none to give.
    static func memoryState(of card: Card, log: [ReviewLogEntry], fsrs: FSRS, historicalRetention: Double, clock: DayClock, now: Date) -> CardState? {
        guard card.state.phase != .new else { return nil }
        var state = card.state
        // Without a history FSRS can read, a card in review starts from its interval and
        // ease; one still in its first steps has no memory yet.
        let nextDayStart = clock.start(ofDay: clock.dayNumber(of: now) + 1)
        let fromLog = FSRSHistory(log: log, nextDayStart: nextDayStart, clock: clock, fsrs: fsrs, historicalRetention: historicalRetention)
            .flatMap { $0.memory(fsrs) }
        guard let memory = fromLog ?? (state.intervalDays > 0
            ? fsrs.memoryFromSM2(ease: state.ease, intervalDays: Double(state.intervalDays), retention: historicalRetention) : nil) else { return nil }
        // As Anki stores it, so the next answer starts where Anki's would.
        let stored = memory.stored
        state.stability = stored.stability
        state.difficulty = stored.difficulty
        return state
    }
}

/// A value a setting cannot take, in words a person can act on.
package struct PresetChangeProblem: Error, CustomStringConvertible, Sendable {
    package let description: String
}
