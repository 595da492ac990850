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
            let templates = note.deckID == deck.id ? deck.templates : try collection.deck(id: note.deckID).templates
            return Row(card: card.id, note: note.id, deck: deck.name, front: CardListView.front(of: card, note: note, templates: templates),
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
