import Foundation
import MaeilCore
import MaeilStore

/// `maeil info`: a card's schedule and every review of it.
package enum CardInfoView {
    package static func json(_ card: Card, deck: Deck, log: [ReviewLog], now: Date) -> JSONObject {
        let state = card.state
        return JSONObject([
            ("card", card.id), ("note", card.noteID), ("deck", deck.name), ("template", card.template), ("phase", state.phase.rawValue),
            ("due", state.due.map { ISO8601DateFormatter().string(from: $0) }), ("interval_days", state.intervalDays),
            ("ease", state.memory == nil && state.phase != .new ? state.ease : nil), ("stability", state.stability),
            ("difficulty", state.difficulty), ("reps", state.reps), ("lapses", state.lapses), ("starred", card.starred),
            ("suspended", card.suspended),
            ("buried_until", card.buriedUntil.flatMap { $0 > now ? ISO8601DateFormatter().string(from: $0) : nil }),
            ("reviews", log.map { entry in
                JSONObject([("time", ISO8601DateFormatter().string(from: entry.time)), ("kind", ReviewRow.kind(entry.entry)),
                            ("rating", entry.rating?.name), ("interval", entry.after.map(ReviewRow.interval)),
                            ("ease", entry.after.flatMap { $0.memory == nil ? $0.ease : nil }),
                            ("stability", entry.after?.stability), ("difficulty", entry.after?.difficulty),
                            ("seconds", Double(entry.durationMilliseconds) / 1000)])
            }),
        ])
    }

    package static func lines(_ card: Card, deck: Deck, log: [ReviewLog], timeZone: TimeZone, now: Date, style: Style) -> [String] {
        var lines = [style.bold("Card \(card.id)") + style.dim(" · note \(card.noteID) · \(TerminalText.sanitize(deck.name))"),
                     CardSummary.parts(card, timeZone: timeZone, now: now).dropFirst().joined(separator: style.dim(" · "))]
        guard !log.isEmpty else { return lines + ["No reviews yet."] }
        lines.append(TextTable.render(header: ["date", "answer", "interval", "ease or S/D", "time"],
                                      rows: log.map { ReviewRow($0.entry, timeZone: timeZone).cells }))
        return lines
    }
}
