import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilSession
import MaeilStore

struct AddCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "add", abstract: "Add a note to a deck, field by field.",
        discussion: """
            At a terminal each field is asked for; from a pipe, one field per line. An empty first field adds nothing. \
            The note is of the type most of the deck's notes have; in a deck from Anki with no notes of its own, of the \
            type Anki's Add screen would offer for it.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The deck (asked for when not given).", valueName: "deck"), completion: Completions.decks)
    var deckName: [String] = []

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let chosen = deckName.isEmpty ? try NoteEntry.askDeck(context, collection: collection)
                                      : try context.deck(deckName.joined(separator: " "), in: collection)
        guard let deck = chosen else { return }
        let blank = try NewNote.blank(deck: deck, in: collection)
        guard let fields = NoteEntry.askFields(blank.fields, deck: deck, context) else { return }
        let (note, cards) = try NewNote.add(fields, like: blank, to: deck, collection: collection, now: context.now)
        context.line("Added note \(note.id) with \(counted(cards, "card")).")
    }
}

struct FindCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "find", abstract: "Find notes or cards with Anki's search words; prints their numbers.",
        discussion: SearchNode.help)

    @OptionGroup var collection: CollectionOptions

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("Search words; -WORD too.", valueName: "words"), completion: Completions.findWords)
    var given: [String] = []
    var words: [String] { GivenWords.without(terminator: given) }
    @Option(help: "Only this deck.", completion: Completions.decks) var deck: String?
    @Flag(help: "List the cards found, not their notes.") var cards = false
    @Option(help: "At most this many.") var limit = 50
    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        if words.joined().trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("find what? find TEXT, or find tag:NAME") } }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let deckID = try deck.map { try context.deck($0, in: collection).id }
        let query = words.joined(separator: " ").nfc, (now, zone) = (context.now, context.environment.timeZone)
        if cards {
            let found = try collection.findCards(query, deckIDs: deckID.map { [$0] }, limit: limit, now: now, timeZone: zone)
            let rows = try CardListView.rows(found, in: collection, now: now, timeZone: zone)
            return json ? context.verbatim(try JSONOutput.string(rows)) : context.line(CardListView.text(rows))
        }
        let notes = try collection.findNotes(query, deckID: deckID, limit: limit, now: now, timeZone: zone)
        let names = try NoteListView.deckNames(in: collection)
        if json { return context.verbatim(try JSONOutput.string(NoteListView.json(notes, deckNames: names))) }
        NoteListView.lines(notes, deckNames: names, style: context.style).forEach(context.line)
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

    @Argument(help: ArgumentHelp("A note's number, or card:ID.", valueName: "id")) var id: NoteOrCard

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let (note, remark) = try NoteView.find(id.note, card: id.card, in: collection)
        if let remark { context.line(context.style.dim(remark)) }
        try NoteView.print(note, collection: collection, context: context)
    }
}

struct EditCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit", abstract: "Edit a note's fields; every card keeps its schedule.",
        discussion: "At a terminal each field starts with its text, edited in place; from a pipe, one line per field, an empty line keeping it.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let note = try collection.note(id: self.note.value)
        try NoteEditing.editAndSave(note, in: collection, context: context)
    }
}

struct DeleteCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete", abstract: "Delete a note and its cards (their review history stays in the log).",
        discussion: "Asks first at a terminal; from a script, --yes says yes.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID

    @Flag(help: "Do not ask.") var yes = false

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let note = try collection.note(id: self.note.value)
        guard try NoteDeletion.confirmAndDelete(note, in: collection, asking: !yes, context: context) else { return }
        context.exportFocus(collection)
    }
}

struct TagCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "tag", abstract: "Add and remove a note's tags: tag NOTE +food -review.",
        discussion: "A word with + (or none) adds a tag, one with - removes it. With no words, prints the note's tags.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID

    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("+TAG to add, -TAG to remove.", valueName: "±tag")) var given: [String] = []
    var changes: [String] { GivenWords.without(terminator: given) }

    func validate() throws {
        do { _ = try TagChanges(changes) } catch { throw ValidationError(error.description) }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        _ = try collection.note(id: note.value)
        let tagging = try TagChanges(changes)
        if !changes.isEmpty { try collection.setTags(noteID: note.value, add: tagging.add, remove: tagging.remove) }
        let tags = try collection.note(id: note.value).tags
        context.line("note \(note.value): " + (tags.isEmpty ? "no tags" : tags.map(TerminalText.sanitize).joined(separator: " ")))
        if !changes.isEmpty { context.exportFocus(collection) }
    }
}
