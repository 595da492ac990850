import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore

/// Reads decks out of a collection for the writers (Anki text, Anki packages).
public struct Exporter {
    public let collection: Collection

    public init(collection: Collection) { self.collection = collection }

    public func decks(named names: [String]) throws -> [ExportDeck] {
        let decks = names.isEmpty ? try collection.decks() : try names.map { try collection.requireDeck(named: $0) }
        return try decks.map(exportDeck)
    }

    public func decks(_ decks: [Deck]) throws -> [ExportDeck] {
        try decks.map(exportDeck)
    }

    func exportDeck(_ deck: Deck) throws -> ExportDeck {
        let notes = try collection.notes(deckID: deck.id)
        // Linear in the fields: a set answers "seen?", and each note's values are looked up by
        // name once (a note of many fields made this quadratic).
        var fieldNames: [String] = []
        var seen = Set<String>()
        for note in notes { for field in note.fields where seen.insert(field.name).inserted { fieldNames.append(field.name) } }
        if fieldNames.isEmpty { fieldNames = deck.templates.flatMap { $0.front + $0.back } }
        let isCloze = deck.kind == .cloze
        let templateIndex = Dictionary(deck.templates.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        var position = 0
        let exported = try notes.map { note -> ExportNote in
            let cards = try collection.cards(noteID: note.id).map { card -> ExportCard in
                position += 1
                let ordinal = isCloze ? max(card.ordinal - 1, 0) : (templateIndex[card.template] ?? 0)
                return ExportCard(ordinal: ordinal, state: card.state, suspended: card.suspended, position: position)
            }
            let values = Dictionary(note.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
            return ExportNote(guid: note.guid, values: fieldNames.map { values[$0] ?? "" }, tags: note.tags, cards: cards)
        }
        return ExportDeck(name: deck.name, fieldNames: fieldNames, templates: deck.templates, isCloze: isCloze, notes: exported)
    }
}
