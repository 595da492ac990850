import Foundation
import MaeilCore
import MaeilStore

/// The changes the card commands make, decided here and applied by the store in one
/// transaction each (undoable as one).
package enum CardChanges {
    /// Anki's seven flags: 0 takes the flag off.
    package static let flagNames = ["none", "red", "orange", "green", "blue", "pink", "turquoise", "purple"]

    package static func flag(_ cardIDs: [Int64], _ flag: Int) -> ManualChange {
        .cards(cardIDs, .flag(flag), label: "flag \(flagNames[flag]) on card\(cardIDs.count == 1 ? "" : "s") \(cardIDs.map(String.init).joined(separator: ", "))")
    }

    /// Set due date: each card due on a day `change` picks, counted in its deck's study days.
    package static func setDueDate(_ cardIDs: [Int64], _ change: DueDateChange, now: Date, timeZone: TimeZone,
                                   using generator: inout some RandomNumberGenerator) -> ManualChange {
        let days = Dictionary(uniqueKeysWithValues: cardIDs.map { ($0, change.days(using: &generator)) })
        return .cards(cardIDs, .reschedule(now: now) { card, preset in
            let clock = preset.dayClock(in: timeZone)
            return change.state(from: card.state, days: days[card.id] ?? change.minimumDays, today: clock.dayNumber(of: now), clock: clock,
                                startingEasePermille: preset.scheduler.startingEasePermille, fsrs: preset.scheduler.kind == .fsrs)
        }, label: "set due date of card\(cardIDs.count == 1 ? "" : "s") \(cardIDs.map(String.init).joined(separator: ", "))")
    }
}
