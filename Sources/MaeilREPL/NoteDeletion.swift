import Foundation
import MaeilCore
import MaeilStore

/// `delete`: asks first at a terminal (a script says yes with --yes), then deletes the note and
/// its cards; their review history stays in the log.
package enum NoteDeletion {
    /// Whether the note was deleted.
    package static func confirmAndDelete(_ note: Note, in collection: Collection, asking: Bool, context: CommandContext) throws -> Bool {
        let cards = try collection.cards(noteID: note.id)
        let label = TerminalText.sanitize(note.fields.first?.value ?? "").replacingOccurrences(of: "\n", with: " ")
        if asking {
            guard context.console.isInteractive else {
                throw UsageError("delete asks first; give --yes to delete note \(note.id) from a script")
            }
            guard context.confirm("Delete note \(note.id) (\(label)) and its \(counted(cards.count, "card"))? [y/N] ", default: false) == true else {
                context.line("Nothing deleted.")
                return false
            }
        }
        try collection.deleteNote(id: note.id)
        context.line("Deleted note \(note.id) (\(label)) and its \(counted(cards.count, "card")).")
        return true
    }
}
