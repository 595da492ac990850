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

    @Option(help: ArgumentHelp("The plan, by its id or name (needed when there are several).", valueName: "plan"))
    var plan: String?

    @Option(help: ArgumentHelp("Another day of the plan (reading ahead, or catching up).", valueName: "number"))
    var day: Int?

    func validate() throws {
        if let day, day < 1 { throw ValidationError("--day must be 1 or more") }
    }

    /// The plan asked for, or the only one.
    func plan(in collection: Collection) throws -> StoredReadingPlan {
        let plans = try collection.readingPlans()
        if let plan {
            let wanted = plan.lowercased()
            guard let found = plans.first(where: { $0.plan.key == wanted || $0.plan.name.lowercased() == wanted }) else {
                throw UserError("no reading plan '\(plan)'; the plans are: " + plans.map(\.plan.key).joined(separator: ", "))
            }
            return found
        }
        guard let first = plans.first else {
            let folder = BundledDecks.directory().map { ShellWords.quoted($0.appendingPathComponent("mcheyne-reading-plan").path) }
                ?? "Decks/mcheyne-reading-plan"
            throw UserError("there is no reading plan yet; `maeil import \(folder)` adds M'Cheyne's")
        }
        guard plans.count == 1 else {
            throw UserError("there are \(plans.count) reading plans; name one with --plan: " + plans.map(\.plan.key).joined(separator: ", "))
        }
        return first
    }

    func today(_ stored: StoredReadingPlan, in collection: Collection, context: CommandContext) throws -> TodayReading {
        if let day, day > stored.plan.days.count {
            throw UserError("\(stored.plan.name) has \(stored.plan.days.count) days")
        }
        guard let reading = try TodayReading.load(stored, from: collection, now: context.now, timeZone: context.environment.timeZone, day: day) else {
            throw UserError("\(stored.plan.name) is read to its end: all \(stored.plan.days.count) days. --day N shows one again.")
        }
        return reading
    }
}

struct ReadShowCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the day's readings, numbered.")

    @OptionGroup var options: ReadOptions

    @Flag(help: "Print JSON.")
    var json = false

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

    /// The plan, the day as `read` shows it, and the plan's part indices of the readings named
    /// (a day's readings as shown leave out the parts with nothing that day).
    func resolve(in collection: Collection, context: CommandContext) throws -> (StoredReadingPlan, TodayReading, parts: [Int]) {
        let stored = try options.plan(in: collection)
        let reading = try options.today(stored, in: collection, context: context)
        for number in numbers where !(1...reading.readings.count).contains(number) {
            throw UserError("there is no reading \(number); day \(reading.day) has \(reading.readings.count)")
        }
        let day = stored.plan.days[reading.day - 1]
        let shownParts = day.readings.indices.filter { !day.readings[$0].isEmpty }
        return (stored, reading, numbers.isEmpty ? shownParts : numbers.map { shownParts[$0 - 1] })
    }
}

struct ReadDoneCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "done", abstract: "Mark the day's readings read (or those numbered).")

    @OptionGroup var parts: ReadingParts

    func run(in context: CommandContext) throws {
        let collection = try context.collection(parts.options.collection)
        let (stored, reading, indices) = try parts.resolve(in: collection, context: context)
        if reading.finishedToday, parts.options.day == nil {
            context.line("Day \(reading.day) is already read today. read --day \(reading.day + 1) shows the next; read done --day \(reading.day + 1) marks it.")
            return
        }
        try collection.markRead(planID: stored.id, day: reading.day, parts: indices,
                                studyDay: TodayReading.studyDay(now: context.now, timeZone: context.environment.timeZone), at: context.now)
        context.exportFocus(collection)
        let after = try TodayReading.load(stored, from: collection, now: context.now, timeZone: context.environment.timeZone, day: reading.day)
        if let after { ReadingView.lines(after, style: context.style).forEach(context.line) }
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

    @Argument(help: ArgumentHelp("The verse, e.g. John 3:16 or Psalm 23:1-3.", valueName: "reference"))
    var reference: [String]

    @Option(help: "The verse's text, instead of looking it up.")
    var text: String?

    @Option(help: ArgumentHelp("The deck to add it to (default: the only verse deck).", valueName: "deck"))
    var deck: String?

    func validate() throws {
        if reference.isEmpty { throw ValidationError("name the verse, e.g. maeil read verse John 3:16") }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let target: Deck
        if let deck {
            target = try context.deck(deck, in: collection)
        } else {
            let decks = try MemoryVerses.decks(in: collection)
            guard decks.count == 1 else {
                if decks.isEmpty {
                    let folder = BundledDecks.directory().map { ShellWords.quoted($0.appendingPathComponent("memory-verses").path) } ?? "Decks/memory-verses"
                    throw UserError("there is no verse deck yet; `maeil import \(folder)` adds Memory Verses (or give --deck)")
                }
                throw UserError("there are \(decks.count) verse decks; name one with --deck: " + decks.map { DeckNames.slug($0.name) }.joined(separator: ", "))
            }
            target = decks[0]
        }
        let asked = reference.joined(separator: " ").nfc
        let passage: VerseText.Passage
        if let text {
            passage = VerseText.given(reference: asked, text: text)
        } else {
            do {
                passage = try VerseText.lookup(asked)
            } catch VerseText.LookupError.notInstalled {
                throw UserError("looking up verses needs the World English Bible: \(VerseText.install); or give the text with --text")
            } catch VerseText.LookupError.noSuchPassage {
                throw UserError("the World English Bible has no verse \(asked); write it as Book chapter:verse, e.g. John 3:16")
            }
        }
        switch try MemoryVerses.add(passage, to: target, collection: collection, now: context.now) {
        case .added(let note, let cards):
            context.line("Added \(TerminalText.sanitize(passage.reference)) to \(TerminalText.sanitize(target.name)) (note \(note.id), \(counted(cards, "card"))):")
            context.line(context.style.dim(TerminalText.sanitize(passage.text)))
        case .alreadyThere(let note):
            context.line("\(TerminalText.sanitize(passage.reference)) is already in \(TerminalText.sanitize(target.name)) (note \(note.id)).")
        }
    }
}
