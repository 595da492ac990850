import Foundation
import MaeilCore
import MaeilStore

/// Notes found (`maeil find`): their numbers, first fields and decks.
package enum NoteListView {
    /// Each deck's name by its id, for the notes' lines.
    package static func deckNames(in collection: Collection) throws -> [Int64: String] {
        Dictionary(try collection.decks().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    package static func json(_ notes: [Note], deckNames names: [Int64: String]) -> [JSONObject] {
        notes.map { note in
            JSONObject([("note", note.id), ("deck", names[note.deckID] ?? ""),
                        ("fields", Dictionary(note.fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })),
                        ("tags", note.tags)])
        }
    }

    package static func lines(_ notes: [Note], deckNames names: [Int64: String], style: Style) -> [String] {
        guard !notes.isEmpty else { return ["No notes match."] }
        return notes.map { note in
            let values = note.fields.map { FieldText.plain($0.value, html: note.html) }.filter { !$0.isEmpty }.prefix(3)
                .map { TerminalText.sanitize($0).replacingOccurrences(of: "\n", with: " ") }
            return style.bold("\(note.id)") + "  " + values.joined(separator: style.dim(" · "))
                + style.dim("  [\(TerminalText.sanitize(names[note.deckID] ?? ""))]")
        }
    }
}
