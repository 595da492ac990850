import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilStore

struct AddCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a note to a deck, field by field.",
        discussion: "At a terminal each field is asked for; from a pipe, one field per line. An empty first field adds nothing.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The deck (asked for when not given).", valueName: "deck"))
    var deckName: [String] = []

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let deck: Deck
        if deckName.isEmpty {
            let decks = try collection.decks()
            guard !decks.isEmpty else { throw UserError("there are no decks yet; `maeil import FILE` adds one") }
            context.line("Decks: " + decks.map { DeckNames.slug($0.name) }.joined(separator: ", "))
            guard let name = context.ask("deck: "), let found = try DeckNames.find(name.trimmingCharacters(in: .whitespaces), in: collection) else {
                context.line(context.style.dim("no such deck; nothing added"))
                return
            }
            deck = found
        } else {
            deck = try context.deck(deckName.joined(separator: " "), in: collection)
        }
        let template = try collection.notes(deckID: deck.id).first?.fields.map { NoteField(name: $0.name, value: "", language: $0.language) }
            ?? Array(Set(deck.templates.flatMap { $0.front + $0.back + [$0.typed, $0.blanks].compactMap { $0 } })).sorted()
                .map { NoteField(name: $0, value: "") }
        var fields = template
        if context.console.isInteractive {
            context.line(context.style.dim("New note in \(TerminalText.sanitize(deck.name)); leave the first field empty to cancel."))
        }
        for index in fields.indices {
            let language = fields[index].language.map { " (\($0))" } ?? ""
            guard let text = context.ask("\(fields[index].name)\(language): ") else {
                context.line(context.style.dim("nothing added"))
                return
            }
            fields[index].value = text.nfc
            if index == 0, text.trimmingCharacters(in: .whitespaces).isEmpty {
                context.line(context.style.dim("nothing added"))
                return
            }
        }
        let position = try collection.nextNotePosition(deckID: deck.id)
        let note = try collection.addNote(NoteDraft(guid: "maeil-" + UUID().uuidString.lowercased(), kind: deck.kind ?? .basic,
                                                    fields: fields, position: position, origin: "added"), deckID: deck.id, now: context.now)
        let cards = try collection.cards(noteID: note.id)
        context.line("Added note \(note.id) with \(counted(cards.count, "card")).")
    }
}

struct FindCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", abstract: "Find notes by their text or a tag; prints note numbers.",
        discussion: "Examples: find 김치 · find tag:food · find water --deck korean-practice")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Text to find, or tag:NAME.")
    var words: [String] = []

    @Option(help: "Only this deck.")
    var deck: String?

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        guard !words.joined().trimmingCharacters(in: .whitespaces).isEmpty else {
            throw ValidationError("find what? find TEXT, or find tag:NAME")
        }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let deckID = try deck.map { try context.deck($0, in: collection).id }
        let notes = try collection.findNotes(words.joined(separator: " ").nfc, deckID: deckID, limit: 50)
        let names = Dictionary(try collection.decks().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        if json {
            context.verbatim(try JSONOutput.string(notes.map { note in
                JSONObject([("note", note.id), ("deck", names[note.deckID] ?? ""), ("fields", Dictionary(note.fields.map { ($0.name, $0.value) },
                                                                                                       uniquingKeysWith: { first, _ in first })),
                            ("tags", note.tags)])
            }))
            return
        }
        guard !notes.isEmpty else {
            context.line("No notes match.")
            return
        }
        let style = context.style
        for note in notes {
            let values = note.fields.map { FieldText.plain($0.value, html: note.html) }.filter { !$0.isEmpty }.prefix(3)
                .map { TerminalText.sanitize($0).replacingOccurrences(of: "\n", with: " ") }
            context.line(style.bold("\(note.id)") + "  " + values.joined(separator: style.dim(" · "))
                         + style.dim("  [\(TerminalText.sanitize(names[note.deckID] ?? ""))]"))
        }
    }
}

struct ShowCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "show", abstract: "Show a note, its cards and their schedule.",
        discussion: """
            ID is a note's number (as find prints it), or a card's as card:ID (as missed, focus and info print \
            them). A number that is no note but is a card shows that card's note, and says so.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("A note's number, or card:ID.", valueName: "id"))
    var id: NoteOrCard

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let note: Note
        switch id {
        case .note(let id):
            do {
                note = try collection.note(id: id)
            } catch StoreError.noSuchNote {
                guard let card = try? collection.card(id: id) else { throw StoreError.noSuchNote(id) }
                note = try collection.note(id: card.noteID)
                context.line(context.style.dim("There is no note \(id); card \(id) is of note \(note.id):"))
            }
        case .card(let id):
            let card = try collection.card(id: id)
            note = try collection.note(id: card.noteID)
            context.line(context.style.dim("Card \(id) is of note \(note.id):"))
        }
        try NoteView.print(note, collection: collection, context: context)
    }
}

/// A note, its fields and its cards' schedule, as `show` and `edit` print it.
enum NoteView {
    static func print(_ note: Note, collection: Collection, context: CommandContext) throws {
        let style = context.style
        let deck = try collection.deck(id: note.deckID)
        context.line(style.bold("Note \(note.id)") + style.dim(" · \(TerminalText.sanitize(deck.name)) · \(note.kind.rawValue)"))
        for field in note.fields where !field.value.isEmpty {
            context.line(style.dim(TerminalText.sanitize(field.name) + ":") + " " + FieldView.render(field.value, html: note.html, style: style))
        }
        if !note.tags.isEmpty { context.line(style.dim("tags: ") + note.tags.map(TerminalText.sanitize).joined(separator: " ")) }
        for card in try collection.cards(noteID: note.id) {
            context.line("  " + CardSummary.parts(card, timeZone: context.environment.timeZone).joined(separator: style.dim(" · ")))
        }
    }
}

/// One card's schedule in a line: its number, template, phase, due date and memory.
enum CardSummary {
    static func parts(_ card: Card, timeZone: TimeZone) -> [String] {
        let state = card.state
        var parts = ["card \(card.id)", card.template + (card.ordinal > 0 ? " \(card.ordinal)" : ""), state.phase.rawValue]
        if state.phase != .new {
            if let due = state.due { parts.append("due \(DateText.minute(due, timeZone: timeZone))") }
            if state.phase == .review { parts.append("every \(IntervalFormat.days(state.intervalDays))") }
            if let memory = state.memory {
                parts.append(String(format: "S %.1f d · D %.1f", memory.stability, memory.difficulty))
            } else {
                parts.append(String(format: "ease %.2f", state.ease))
            }
            parts.append("\(state.reps) reps · \(state.lapses) lapses")
        }
        if card.starred { parts.append("★") }
        if card.suspended { parts.append("suspended") }
        return parts
    }
}

enum DateText {
    static func minute(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}

struct EditCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Edit a note's fields; every card keeps its schedule.",
        discussion: "At a terminal each field starts with its text, edited in place; from a pipe, one line per field, an empty line keeping it.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note"))
    var note: NoteID

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let note = try collection.note(id: self.note.value)
        guard let fields = NoteEditing.edit(note.fields, console: context.console, input: context.input) else { return }
        guard fields != note.fields else {
            context.line("Nothing changed.")
            return
        }
        try collection.updateNote(id: note.id, fields: fields, now: context.now)
        context.line("Saved note \(note.id); every card keeps its schedule.")
    }
}

struct DeleteCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a note and its cards (their review history stays in the log).",
        discussion: "Asks first at a terminal; from a script, --yes says yes.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note"))
    var note: NoteID

    @Flag(help: "Do not ask.")
    var yes = false

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let note = try collection.note(id: self.note.value)
        let cards = try collection.cards(noteID: note.id)
        let label = TerminalText.sanitize(note.fields.first?.value ?? "").replacingOccurrences(of: "\n", with: " ")
        if !yes {
            guard context.console.isInteractive else {
                throw UsageError("delete asks first; give --yes to delete note \(note.id) from a script")
            }
            guard let answer = context.ask("Delete note \(note.id) (\(label)) and its \(counted(cards.count, "card"))? [y/N] "),
                  answer.lowercased().hasPrefix("y") else {
                context.line("Nothing deleted.")
                return
            }
        }
        try collection.deleteNote(id: note.id)
        context.line("Deleted note \(note.id) (\(label)) and its \(counted(cards.count, "card")).")
        context.exportFocus(collection)
    }
}

struct TagCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Add and remove a note's tags: tag NOTE +food -review.",
        discussion: "A word with + (or none) adds a tag, one with - removes it. With no words, prints the note's tags.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note"))
    var note: NoteID

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("+TAG to add, -TAG to remove.", valueName: "±tag"))
    var changes: [String] = []

    func validate() throws {
        for change in changes {
            let tag = change.hasPrefix("+") || change.hasPrefix("-") ? String(change.dropFirst()) : change
            if tag.isEmpty || tag.contains(where: \.isWhitespace) { throw ValidationError("'\(change)' is no tag: a tag is one word") }
        }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        _ = try collection.note(id: note.value)
        let add = changes.filter { !$0.hasPrefix("-") }.map { ($0.hasPrefix("+") ? String($0.dropFirst()) : $0).nfc }
        let remove = changes.filter { $0.hasPrefix("-") }.map { String($0.dropFirst()).nfc }
        if !changes.isEmpty { try collection.setTags(noteID: note.value, add: add, remove: remove) }
        let tags = try collection.note(id: note.value).tags
        context.line("note \(note.value): " + (tags.isEmpty ? "no tags" : tags.map(TerminalText.sanitize).joined(separator: " ")))
        if !changes.isEmpty { context.exportFocus(collection) }
    }
}
