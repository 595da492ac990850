import ArgumentParser
import Foundation
import MaeilCore
import MaeilFocus
import MaeilREPL
import MaeilSession
import MaeilStore

struct ReadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "read",
        abstract: "A reading plan's day: show it, mark readings done, keep a verse you love.",
        discussion: "Import a plan first: maeil import Decks/mcheyne-reading-plan. The day to read is the first one not yet read, "
            + "at your own pace; the greeting and the focus list show it too.",
        subcommands: [ReadShowCommand.self, ReadDoneCommand.self, ReadUndoCommand.self, ReadVerseCommand.self],
        defaultSubcommand: ReadShowCommand.self)
}

struct ReadOptions: ParsableArguments {
    @OptionGroup var collection: CollectionOptions

    @Option(help: ArgumentHelp("The plan, by its id or name (needed when there are several).", valueName: "plan")) var plan: String?

    @Option(help: ArgumentHelp("Another day of the plan (reading ahead, or catching up).", valueName: "number")) var day: Int?

    func validate() throws {
        if let day, day < 1 { throw ValidationError("--day must be 1 or more") }
    }

    func plan(in collection: Collection) throws -> StoredReadingPlan { try ReadingChoice.plan(plan, in: collection) }

    func today(_ stored: StoredReadingPlan, in collection: Collection, context: CommandContext) throws -> TodayReading {
        try ReadingChoice.today(stored, day: day, in: collection, now: context.now, timeZone: context.environment.timeZone)
    }
}

struct ReadShowCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the day's readings, numbered.")

    @OptionGroup var options: ReadOptions

    @Flag(help: "Print JSON.") var json = false

    func run(in context: CommandContext) throws {
        let collection = try context.collection(options.collection, readOnly: true)
        let reading = try options.today(try options.plan(in: collection), in: collection, context: context)
        if json {
            context.verbatim(try JSONOutput.string(reading))
            return
        }
        ReadingView.lines(reading, style: context.style).forEach(context.line)
    }
}

/// The readings `done` and `undo` act on: those numbered, else every one of the day.
struct ReadingParts: ParsableArguments {
    @OptionGroup var options: ReadOptions

    @Argument(help: ArgumentHelp("Which readings, by their number in `read` (default: all of the day).", valueName: "number"))
    var numbers: [Int] = []

    func resolve(in collection: Collection, context: CommandContext) throws -> (StoredReadingPlan, TodayReading, parts: [Int]) {
        let stored = try options.plan(in: collection)
        let reading = try options.today(stored, in: collection, context: context)
        return (stored, reading, try ReadingChoice.parts(numbers, of: reading, in: stored))
    }
}

struct ReadDoneCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark the day's readings read (or those numbered).")

    @OptionGroup var parts: ReadingParts

    func run(in context: CommandContext) throws {
        let collection = try context.collection(parts.options.collection)
        let (stored, reading, indices) = try parts.resolve(in: collection, context: context)
        let after = try ReadingChoice.markDone(stored, reading, parts: indices, dayGiven: parts.options.day != nil, in: collection,
                                               now: context.now, timeZone: context.environment.timeZone)
        if case .alreadyRead = after {
            let next = reading.day + 1
            return context.line("Day \(reading.day) is already read today. read --day \(next) shows the next; read done --day \(next) marks it.")
        }
        context.exportFocus(collection)
        if case .marked(let shown?) = after { ReadingView.lines(shown, style: context.style).forEach(context.line) }
    }
}

struct ReadUndoCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Take back readings marked read by mistake.")

    @OptionGroup var parts: ReadingParts

    func run(in context: CommandContext) throws {
        let collection = try context.collection(parts.options.collection)
        let (stored, reading, indices) = try parts.resolve(in: collection, context: context)
        let removed = try collection.unmarkRead(planID: stored.id, day: reading.day, parts: indices)
        context.exportFocus(collection)
        context.line("\(counted(removed, "reading")) of day \(reading.day) marked unread.")
    }
}

struct ReadVerseCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "verse",
        abstract: "Add a verse you love to your memory verses deck.",
        discussion: "The text comes from the World English Bible when it is installed (\(VerseText.install)), as the bundled "
            + "verses do; --text gives it yourself (any translation you may use).")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The verse, e.g. John 3:16 or Psalm 23:1-3.", valueName: "reference")) var reference: [String]

    @Option(help: "The verse's text, instead of looking it up.") var text: String?

    @Option(help: ArgumentHelp("The deck to add it to (default: the only verse deck).", valueName: "deck"), completion: Completions.decks)
    var deck: String?

    func validate() throws {
        if reference.isEmpty { throw ValidationError("name the verse, e.g. maeil read verse John 3:16") }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let target = try deck.map { try context.deck($0, in: collection) } ?? ReadingChoice.verseDeck(in: collection)
        let passage = try ReadingChoice.passage(reference.joined(separator: " ").nfc, text: text)
        switch try MemoryVerses.add(passage, to: target, collection: collection, now: context.now) {
        case .added(let note, let cards):
            context.line("Added \(TerminalText.sanitize(passage.reference)) to \(TerminalText.sanitize(target.name)) (note \(note.id), \(counted(cards, "card"))):")
            context.line(context.style.dim(TerminalText.sanitize(passage.text)))
        case .alreadyThere(let note):
            context.line("\(TerminalText.sanitize(passage.reference)) is already in \(TerminalText.sanitize(target.name)) (note \(note.id)).")
        }
    }
}
