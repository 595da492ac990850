import Foundation
import MaeilCore

/// A deck on its way out of Maeil, for the writers.
public struct ExportDeck: Sendable {
    public var name: String
    public var fieldNames: [String]
    public var templates: [CardTemplate]
    public var isCloze: Bool
    public var notes: [ExportNote]

    public init(name: String, fieldNames: [String], templates: [CardTemplate], isCloze: Bool, notes: [ExportNote]) {
        self.name = name
        self.fieldNames = fieldNames
        self.templates = templates
        self.isCloze = isCloze
        self.notes = notes
    }
}

public struct ExportNote: Sendable {
    public var guid: String
    /// Values in the deck's field order.
    public var values: [String]
    public var tags: [String]
    public var cards: [ExportCard]

    public init(guid: String, values: [String], tags: [String], cards: [ExportCard]) {
        self.guid = guid
        self.values = values
        self.tags = tags
        self.cards = cards
    }
}

public struct ExportCard: Sendable {
    /// Template index (cloze: deletion number − 1), Anki's "ord".
    public var ordinal: Int
    public var state: CardState
    public var suspended: Bool
    /// Place among new cards.
    public var position: Int

    public init(ordinal: Int, state: CardState, suspended: Bool, position: Int) {
        self.ordinal = ordinal
        self.state = state
        self.suspended = suspended
        self.position = position
    }
}

/// Anki's text export: tab-separated, guid, note type and deck in columns 1–3, tags last.
public enum AnkiTextWriter {
    public static func text(_ decks: [ExportDeck]) -> String {
        var lines = ["#separator:tab", "#html:false", "#guid column:1", "#notetype column:2", "#deck column:3"]
        let width = decks.map(\.fieldNames.count).max() ?? 0
        lines.append("#tags column:\(4 + width)")
        for deck in decks {
            let noteType = noteTypeName(deck)
            for note in deck.notes {
                var cells = [note.guid, noteType, deck.name] + note.values
                cells += Array(repeating: "", count: width - note.values.count)
                cells.append(note.tags.joined(separator: " "))
                lines.append(cells.map(quoted).joined(separator: "\t"))
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func noteTypeName(_ deck: ExportDeck) -> String {
        deck.isCloze ? "Cloze" : "Maeil: \(deck.name)"
    }

    /// Quotes a field when it holds a tab, a newline or a quote; quotes inside are doubled.
    static func quoted(_ value: String) -> String {
        guard value.contains(where: { $0 == "\t" || $0 == "\n" || $0 == "\"" || $0 == "\r" }) || value.hasPrefix("#") else { return value }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
