import Foundation
import MaeilCore
import MaeilSession
import MaeilStore

/// `add`'s questions: which deck, when none was named, and each field in turn.
package enum NoteEntry {
    /// The deck typed at the question, or nil when the answer names none.
    package static func askDeck(_ context: CommandContext, collection: Collection) throws -> Deck? {
        let decks = try collection.decks()
        guard !decks.isEmpty else { throw UserError("there are no decks yet; `maeil import FILE` adds one") }
        context.line("Decks: " + decks.map { DeckNames.slug($0.name) }.joined(separator: ", "))
        guard let name = context.ask("deck: "), let found = try DeckNames.find(name.trimmingCharacters(in: .whitespaces), in: collection) else {
            context.line(context.style.dim("no such deck; nothing added"))
            return nil
        }
        return found
    }

    /// Each field asked for in turn (one line each from a pipe); nil when the input ends or
    /// the first field is left empty.
    package static func askFields(_ blank: [NoteField], deck: Deck, _ context: CommandContext) -> [NoteField]? {
        var fields = blank
        if context.console.isInteractive {
            context.line(context.style.dim("New note in \(TerminalText.sanitize(deck.name)); leave the first field empty to cancel."))
        }
        for index in fields.indices {
            let language = fields[index].language.map { " (\($0))" } ?? ""
            guard let text = context.ask("\(fields[index].name)\(language): "),
                  index > 0 || !text.trimmingCharacters(in: .whitespaces).isEmpty else {
                context.line(context.style.dim("nothing added"))
                return nil
            }
            fields[index].value = text.nfc
        }
        return fields
    }
}
