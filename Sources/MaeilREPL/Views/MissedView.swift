import Foundation
import MaeilCore
import MaeilStore

/// `maeil missed`: the cards missed most, with card and note numbers.
package enum MissedView {
    package struct Row: Encodable {
        let card: Int64
        let note: Int64
        let deck: String
        let front: String
        let lapses: Int
        let recentAgains: Int
    }

    package static func rows(_ collection: Collection, deckID: Int64?, now: Date, limit: Int) throws -> [Row] {
        try collection.mostMissed(deckID: deckID, now: now, limit: limit).map { missed in
            let (card, note, _) = try collection.cardWithNote(id: missed.cardID)
            let deck = try collection.deck(id: card.deckID)
            let template = deck.templates.first { $0.name == card.template }
            let front = template?.front.compactMap { note.fields.value($0).map { FieldText.plain($0, html: note.html) } }
                .filter { !$0.isEmpty }.joined(separator: " ")
            return Row(card: card.id, note: note.id, deck: deck.name, front: front.flatMap { $0.isEmpty ? nil : $0 } ?? note.fields.first?.value ?? "",
                       lapses: missed.lapses, recentAgains: missed.recentAgains)
        }
    }

    package static func text(_ rows: [Row]) -> String {
        guard !rows.isEmpty else { return "Nothing missed yet." }
        return TextTable.render(header: ["card", "note", "deck", "front", "lapses", "again (30d)"],
                                rows: rows.map { ["\($0.card)", "\($0.note)", TerminalText.sanitize($0.deck),
                                                  TerminalText.sanitize($0.front).replacingOccurrences(of: "\n", with: " "),
                                                  "\($0.lapses)", "\($0.recentAgains)"] })
    }
}
