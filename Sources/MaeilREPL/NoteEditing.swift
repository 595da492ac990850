import MaeilCore
import MaeilStore

/// Editing a note's fields one by one, the same at the prompt, in a review and from a script.
package enum NoteEditing {
    /// At a terminal each field starts with its current text, edited in place; from a pipe each
    /// line replaces a field and an empty line keeps it. Nil when the learner cancelled.
    ///
    /// A field comes back byte for byte as it was when its line comes back as it was shown: the
    /// line shows it without control sequences, with spaces for its line breaks and in NFC, so
    /// the text typed back is not the field's own.
    package static func edit(_ fields: [NoteField], console: Console, input: LineReader) -> [NoteField]? {
        var fields = fields
        if console.isInteractive { console.line(console.style.dim("Edit each field in place; ⏎ keeps it, Ctrl-C cancels.")) }
        for index in fields.indices {
            let shown = LineRequest.typeable(TerminalText.sanitize(fields[index].value)).nfc
            let request = LineRequest(prompt: console.isInteractive ? "\(fields[index].name): " : "",
                                      initialText: console.isInteractive ? shown : "")
            switch input.readLine(request) {
            case .line(let text):
                guard text.nfc != shown || !console.isInteractive else { continue }
                if console.isInteractive || !text.isEmpty { fields[index].value = text.nfc }
            case .interrupted, .end:
                console.line(console.style.dim("edit cancelled"))
                return nil
            }
        }
        return fields
    }

    /// `edit NOTE`: the fields edited, and saved when they changed; every card keeps its schedule.
    package static func editAndSave(_ note: Note, in collection: Collection, context: CommandContext) throws {
        guard let fields = edit(note.fields, console: context.console, input: context.input) else { return }
        guard fields != note.fields else { return context.line("Nothing changed.") }
        try collection.updateNote(id: note.id, fields: fields, now: context.now)
        context.line("Saved note \(note.id); every card keeps its schedule.")
    }
}
