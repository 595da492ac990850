import Foundation
import MaeilCore

/// One line of a card's history in `info`.
package struct ReviewRow {
    package let cells: [String]

    package init(_ entry: ReviewLogEntry, timeZone: TimeZone) {
        let after = entry.after
        let memory = after.map { state -> String in
            if let memory = state.memory { return String(format: "S %.1f d · D %.1f", memory.stability, memory.difficulty) }
            return state.phase == .new ? "–" : String(format: "%.2f", state.ease)
        } ?? "–"
        cells = [DateText.minute(entry.time, timeZone: timeZone), entry.rating?.name ?? Self.kind(entry), after.map(Self.interval) ?? "–",
                 memory, entry.rating == nil ? "" : String(format: "%.1fs", Double(entry.durationMilliseconds) / 1000)]
    }

    /// "answer", "imported", or what a manual change did, here or in Anki: Anki's Forget and
    /// Set Due Date rows read "forgotten" and "set" as Maeil's own do, not "imported".
    package static func kind(_ entry: ReviewLogEntry) -> String {
        switch entry.kind {
        case .answer: return "answer"
        case .imported:
            guard let anki = entry.anki, entry.rating == nil else { return "imported" }
            if anki.isReset { return "forgotten" }
            return anki.type == 4 || anki.type == 5 ? "set" : "imported"
        case .manual: return entry.after?.phase == .new ? "forgotten" : "set"
        }
    }

    /// The interval an entry left: a learning step in minutes, a review interval in days.
    package static func interval(_ state: CardState) -> String {
        switch state.phase {
        case .new: return "new"
        case .learning, .relearning: return IntervalFormat.seconds(state.scheduledSeconds)
        case .review: return IntervalFormat.days(state.intervalDays)
        }
    }
}
