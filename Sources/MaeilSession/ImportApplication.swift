import Foundation
import MaeilDecks
import MaeilStore

/// The decks of one import as their events arrive, each written with the writer of the
/// transaction it runs in: what `Importer` does for a file, and what a sync does for the notes
/// that came down new.
struct ImportApplication {
    private(set) var decks: [DeckImport] = []
    private(set) var importedGUIDs: [String] = []
    /// The decks so far, here, by the Anki id the file gives them: a card Anki keeps apart
    /// from its note's goes to its own.
    private var decksByAnkiID: [Int64: Int64] = [:]

    /// Writes a deck, its templates, its notes, or Anki's note types; answers false for any
    /// other event, which the caller handles.
    mutating func apply(_ event: ImportEvent, writer: CollectionWriter, noteWritten: () -> Void) throws -> Bool {
        switch event {
        case .deck(let deck):
            decks.append(try DeckImport(deck, writer: writer))
            if let ankiID = deck.ankiID { decksByAnkiID[ankiID] = decks[decks.count - 1].deck.id }
        case .templates(let deck, let templates):
            try decks[deck].add(templates, writer: writer)
        case .notes(let deck, let notes):
            try decks[deck].add(notes, cardDecks: decksByAnkiID, writer: writer, noteWritten: noteWritten)
            importedGUIDs += notes.map(\.guid)
        case .noteTypes(let types):
            try writer.save(types)
        default:
            return false
        }
        return true
    }

    /// Writes the new cards still waiting, so they have their numbers.
    mutating func flushNewCards() throws {
        for index in decks.indices { try decks[index].flushNewCards() }
    }

    /// Keeps what Anki counted of today's answers beyond the log, for the decks whose file says:
    /// last, when the import's every answer is in the log.
    func keepAnkiDayCounts(writer: CollectionWriter) throws {
        for deck in decks {
            guard let answered = deck.ankiAnsweredToday else { continue }
            try AnkiDayCount.keep(answered, deck: deck.deck.id, writer: writer)
        }
    }

    /// Writes what is still waiting; answers each deck's summary (`listingGone`: see `DeckImport.finish`).
    mutating func finish(writer: CollectionWriter, listingGone: Bool = true) throws -> [ImportSummary.DeckSummary] {
        try decks.indices.map { try decks[$0].finish(writer: writer, listingGone: listingGone) }
    }
}
