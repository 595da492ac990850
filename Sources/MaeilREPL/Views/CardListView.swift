import Foundation
import MaeilCore
import MaeilStore

/// Cards found (`maeil find --cards`): card and note numbers, Anki's card id where the card
/// came from Anki (so a script can hold the list against Anki's own search), deck, front, state.
package enum CardListView {
    package struct Row: Encodable {
        let card: Int64
        let ankiID: Int64?
        let note: Int64
        let deck: String
        let front: String
        let state: String
        package let due: String?

        enum CodingKeys: String, CodingKey { case card, ankiID = "anki_id", note, deck, front, state, due }
    }

    package static func rows(_ cards: [Card], in collection: Collection, now: Date, timeZone: TimeZone) throws -> [Row] {
        var decks: [Int64: (deck: Deck, clock: DayClock)] = [:]
        func deck(_ id: Int64) throws -> (deck: Deck, clock: DayClock) {
            if let known = decks[id] { return known }
            let deck = try collection.deck(id: id)
            decks[id] = (deck, try collection.preset(id: deck.presetID).dayClock(in: timeZone))
            return decks[id]!
        }
        return try cards.map { card in
            let note = try collection.note(id: card.noteID)
            let (cardDeck, clock) = try deck(card.deckID)
            let due = card.state.phase == .new ? nil : card.state.due.map { date -> String in
                let day = DayClock.civil(clock.dayNumber(of: date))
                return String(format: "%04d-%02d-%02d", day.year, day.month, day.day)
            }
            return Row(card: card.id, ankiID: card.ankiID, note: note.id, deck: cardDeck.name,
                       front: front(of: card, note: note, templates: try deck(note.deckID).deck.templates),
                       state: state(of: card, now: now), due: due)
        }
    }

    /// What the card's front shows, as plain text; the note's first field where the template is
    /// gone. `templates`: its note's deck's (a card Anki keeps in another deck keeps its note's).
    package static func front(of card: Card, note: Note, templates: [CardTemplate]) -> String {
        let template = templates.first { $0.name == card.template }
        let front = template?.front.compactMap { note.fields.value($0).map { FieldText.plain($0, html: note.html) } }
            .filter { !$0.isEmpty }.joined(separator: " ")
        return front.flatMap { $0.isEmpty ? nil : $0 } ?? note.fields.first.map { FieldText.plain($0.value, html: note.html) } ?? ""
    }

    static func state(of card: Card, now: Date) -> String {
        if card.suspended { return "suspended" }
        if let until = card.buriedUntil, until > now { return "buried" }
        return card.state.phase.rawValue
    }

    package static func text(_ rows: [Row]) -> String {
        guard !rows.isEmpty else { return "No cards match." }
        return TextTable.render(header: ["card", "note", "deck", "front", "state", "due"],
                                rows: rows.map { ["\($0.card)", "\($0.note)", TerminalText.sanitize($0.deck),
                                                  TerminalText.sanitize($0.front).replacingOccurrences(of: "\n", with: " "),
                                                  $0.state, $0.due ?? ""] })
    }
}
