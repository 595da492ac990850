import Foundation
import MaeilCore
import MaeilStore

/// Anki's Change Deck, decided here and made by the store in one transaction (undoable as
/// one): a note with every card of it, or cards alone, which keep their note's templates and
/// are studied in the deck they go to.
package enum NoteMove {
    package static func note(_ noteID: Int64, to deck: Deck, now: Date, timeZone: TimeZone) -> ManualChange {
        .note(noteID, .move(toDeck: deck.id, memory: memory(now: now, timeZone: timeZone)) { target, _, cards, type in
            names(of: cards, type: type, in: target)
        }, label: "move note \(noteID) to \(deck.name)")
    }

    package static func cards(_ cardIDs: [Int64], to deck: Deck, now: Date, timeZone: TimeZone) -> ManualChange {
        // Not asked: cards alone keep their note's templates.
        .cards(cardIDs, .move(toDeck: deck.id, memory: memory(now: now, timeZone: timeZone)) { _, _, _, _ in nil },
               label: "move card\(cardIDs.count == 1 ? "" : "s") \(cardIDs.map(String.init).joined(separator: ", ")) to \(deck.name)")
    }

    /// Anki's Change Deck works each moved card's FSRS memory out again from its log, by the
    /// new deck's preset (its due date and interval stay): the memory it had came from the
    /// other preset's parameters, or from none.
    static func memory(now: Date, timeZone: TimeZone) -> ManualChange.MoveMemory {
        ManualChange.MoveMemory(now: now) { card, preset, log in
            guard preset.scheduler.kind == .fsrs else { return nil }
            let fsrs = FSRS(parameters: preset.scheduler.fsrsParameters)
            let clock = preset.dayClock(in: timeZone)
            return PresetChange.memoryState(of: card, log: log, fsrs: fsrs, historicalRetention: preset.historicalRetention, clock: clock, now: now)
        }
    }

    /// The deck's templates with a note's, and the name each of its cards has there. A note of
    /// an Anki note type brings its type's templates, named apart from another type's of the
    /// same name (as an import of the note into that deck names them); one of Maeil's own decks
    /// goes only where each of its templates is, by name (nil elsewhere).
    static func names(of cards: [Card], type: AnkiNoteType?, in deck: Deck) -> ManualChange.TemplateNames? {
        guard let type else {
            guard cards.allSatisfy({ card in deck.templates.contains { $0.name == card.template } }) else { return nil }
            return ManualChange.TemplateNames(deck: deck.templates, cards: Dictionary(uniqueKeysWithValues: cards.map { ($0.id, $0.template) }))
        }
        let (templates, names) = CardTemplate.adding(type.maeilTemplates, ofType: type.name, to: deck.templates)
        let named = cards.map { card in
            let ordinal = Exporter.ordinal(of: card, in: type)
            return (card.id, type.isCloze ? names.first ?? card.template : ordinal < names.count ? names[ordinal] : card.template)
        }
        return ManualChange.TemplateNames(deck: templates, cards: Dictionary(uniqueKeysWithValues: named))
    }
}
