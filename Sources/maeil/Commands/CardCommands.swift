import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilSession
import MaeilStore

struct InfoCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "A card's schedule and every review: date, answer, interval, ease or S/D, time taken.",
        discussion: "CARD is a card's number, as missed, focus and show print it.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The card's number.", valueName: "card")) var card: CardID

    @Flag(help: "Print JSON.") var json = false

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let card = try collection.card(id: self.card.value)
        let deck = try collection.deck(id: card.deckID)
        let log = try collection.reviewLog(cardID: card.id)
        if json { return context.verbatim(try JSONOutput.string(CardInfoView.json(card, deck: deck, log: log, now: context.now))) }
        CardInfoView.lines(card, deck: deck, log: log, timeZone: context.environment.timeZone, now: context.now, style: context.style).forEach(context.line)
    }
}

struct ForgetCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "forget", abstract: "Put a card back to new; its review history stays in the log.",
        discussion: "CARD is a card's number, as missed, focus, info and show print it.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The card's number.", valueName: "card")) var card: CardID

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        _ = try collection.forget(cardID: card.value, at: context.now)
        context.line("card \(card.value) is new again")
        context.exportFocus(collection)
    }
}

/// Star, unstar, suspend, unsuspend and unbury: each acts on every card of a note, as one change.
protocol NoteFlagCommand: MaeilCommand {
    var collection: CollectionOptions { get }
    var note: NoteID { get }
    /// "★ starred", "suspended"…
    static var done: String { get }
    static var action: ManualChange.Action { get }
}

extension NoteFlagCommand {
    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        try collection.apply(.note(note.value, Self.action, label: "\(Self.configuration.commandName ?? "change") note \(note.value)"))
        context.line("\(Self.done) note \(note.value)")
        context.exportFocus(collection)
    }
}

struct StarCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "star", abstract: "Star a note's cards: they stay in the focus list.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "★ starred"
    static let action = ManualChange.Action.star(true)
}

struct UnstarCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "unstar", abstract: "Unstar a note's cards.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "☆ unstarred"
    static let action = ManualChange.Action.star(false)
}

struct SuspendCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "suspend", abstract: "Suspend a note's cards: they are not shown until unsuspended.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "suspended"
    static let action = ManualChange.Action.suspend(true)
}

struct UnsuspendCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "unsuspend", abstract: "Unsuspend a note's cards.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "unsuspended"
    static let action = ManualChange.Action.suspend(false)
}

struct UnburyCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "unbury", abstract: "Bring back a note's buried cards today.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "unburied"
    static let action = ManualChange.Action.bury(until: nil)
}

struct FlagCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "flag", abstract: "Flag cards as Anki does: 1 red, 2 orange, 3 green, 4 blue, 5 pink, 6 turquoise, 7 purple; 0 takes it off.",
                                                    discussion: "find flag:N lists them. Example: flag 1 card:12 card:13")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("0 to 7.", valueName: "flag")) var flag: Int
    @Argument(help: ArgumentHelp("The cards' numbers.", valueName: "card")) var cards: [CardID]
    func validate() throws { if !(0...7).contains(flag) { throw ValidationError("a flag is 0 (none) to 7") } }
    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        try collection.apply(CardChanges.flag(cards.map(\.value), flag))
        context.line("⚑ \(CardChanges.flagNames[flag]): \(counted(cards.count, "card"))")
    }
}

struct SetDueCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "set-due", abstract: "Make cards due in DAYS, as Anki's Set Due Date: 0 today, 3, 1-7 (one day picked at random), 3! (interval 3).",
                                                    discussion: "The cards become review cards, no longer suspended or buried, as in Anki; undo takes it back. Example: set-due 1-7 card:12 card:13")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("0, N, N-M, with ! to make the interval that many days.", valueName: "days")) var days: String
    @Argument(help: ArgumentHelp("The cards' numbers.", valueName: "card")) var cards: [CardID]
    func validate() throws { if DueDateChange(days) == nil { throw ValidationError("days is 0, a number, a range as 1-7, and ! to reset the interval, as 3!") } }
    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        var generator = SystemRandomNumberGenerator()
        try collection.apply(CardChanges.setDueDate(cards.map(\.value), DueDateChange(days)!, now: context.now, timeZone: context.environment.timeZone, using: &generator))
        let changed = try cards.map { try collection.card(id: $0.value) }
        for (card, row) in zip(changed, try CardListView.rows(changed, in: collection, now: context.now, timeZone: context.environment.timeZone)) {
            context.line("card \(card.id): due \(row.due ?? "?"), interval \(counted(card.state.intervalDays, "day"))")
        }
        context.exportFocus(collection)
    }
}

struct MoveCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "move", abstract: "Move a note with its cards, or cards alone, to another deck, as Anki's Change Deck.",
        discussion: """
            A card moved alone is studied in that deck, by its options, and still shows its note's fields as its \
            note's deck's template does, as in Anki. Undo takes a move back. Examples: move Korean::Food 12, \
            move Korean::Food card:40 card:41
            """)
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The deck to move to.", valueName: "deck")) var deck: String
    @Argument(help: ArgumentHelp("A note's number, or cards' numbers as card:N.", valueName: "note-or-cards")) var targets: [NoteOrCard]
    func validate() throws {
        let notes = targets.compactMap(\.note)
        guard !targets.isEmpty, notes.isEmpty || targets.count == 1 else { throw ValidationError("move one note, or cards as card:N") }
    }
    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let deck = try context.deck(self.deck, in: collection)
        if let note = targets.first?.note {
            try collection.apply(NoteMove.note(note, to: deck, now: context.now, timeZone: context.environment.timeZone))
            context.line("moved note \(note) to \(TerminalText.sanitize(deck.name))")
        } else {
            let cards = targets.compactMap(\.card)
            try collection.apply(NoteMove.cards(cards, to: deck, now: context.now, timeZone: context.environment.timeZone))
            context.line("moved \(counted(cards.count, "card")) to \(TerminalText.sanitize(deck.name))")
        }
        context.exportFocus(collection)
    }
}

struct BackupCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "backup", abstract: "Back up the collection now; --list lists its backups.", discussion: BackupView.discussion)
    @OptionGroup var collection: CollectionOptions
    @Flag(help: "List the backups, newest first, with what each holds.") var list = false
    func run(in context: CommandContext) throws { try BackupView.backUp(list: list, try context.collection(collection, readOnly: list), context) }
}

struct RestoreCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "restore", abstract: "Put a backup in place of the collection; the collection as it is is backed up first.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("Its number in backup --list (1 is the newest), or its file.", valueName: "backup")) var backup: String
    func run(in context: CommandContext) throws { try BackupView.restore(backup, into: try context.collection(collection), context) }
}

struct UndoCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Undo the last answer or change (edit, delete, tag, star, flag, bury, suspend, forget, due, move), exactly.")

    @OptionGroup var collection: CollectionOptions

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        switch try collection.undoLast() {
        case .answer(let card): context.line("↶ undone: card \(card.id) is back to \(card.state.phase.rawValue)")
        case .change(let label, _): context.line("↶ undone: \(label)")
        }
        context.exportFocus(collection)
    }
}
