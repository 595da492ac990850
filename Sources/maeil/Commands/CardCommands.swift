import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilStore

struct InfoCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "info", abstract: "A card's schedule and every review: date, answer, interval, ease or S/D, time taken.",
        discussion: "CARD is a card's number, as missed, focus and show print it.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: ArgumentHelp("The card's number.", valueName: "card"))
    var card: CardID

    @Flag(help: "Print JSON.")
    var json = false

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

    @Argument(help: ArgumentHelp("The card's number.", valueName: "card"))
    var card: CardID

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        _ = try collection.forget(cardID: card.value, at: context.now)
        context.line("card \(card.value) is new again")
        context.exportFocus(collection)
    }
}

/// Star, unstar, suspend and unsuspend: each acts on every card of a note.
protocol NoteFlagCommand: MaeilCommand {
    var collection: CollectionOptions { get }
    var note: NoteID { get }
    /// "★ starred", "suspended"…
    static var done: String { get }
    static func apply(_ collection: Collection, cardID: Int64) throws
}

extension NoteFlagCommand {
    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        // The note is looked up first, so that a wrong number is said as such.
        for card in try collection.cards(noteID: try collection.note(id: note.value).id) { try Self.apply(collection, cardID: card.id) }
        context.line("\(Self.done) note \(note.value)")
        context.exportFocus(collection)
    }
}

struct StarCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "star", abstract: "Star a note's cards: they stay in the focus list.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "★ starred"
    static func apply(_ collection: Collection, cardID: Int64) throws { try collection.setStarred(cardID: cardID, true) }
}

struct UnstarCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "unstar", abstract: "Unstar a note's cards.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "☆ unstarred"
    static func apply(_ collection: Collection, cardID: Int64) throws { try collection.setStarred(cardID: cardID, false) }
}

struct SuspendCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "suspend", abstract: "Suspend a note's cards: they are not shown until unsuspended.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "suspended"
    static func apply(_ collection: Collection, cardID: Int64) throws { try collection.setSuspended(cardID: cardID, true) }
}

struct UnsuspendCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "unsuspend", abstract: "Unsuspend a note's cards.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "unsuspended"
    static func apply(_ collection: Collection, cardID: Int64) throws { try collection.setSuspended(cardID: cardID, false) }
}

struct UnburyCommand: NoteFlagCommand {
    static let configuration = CommandConfiguration(commandName: "unbury", abstract: "Bring back a note's buried cards today.")
    @OptionGroup var collection: CollectionOptions
    @Argument(help: ArgumentHelp("The note's number, as find prints it.", valueName: "note")) var note: NoteID
    static let done = "unburied"
    static func apply(_ collection: Collection, cardID: Int64) throws { try collection.bury(cardID: cardID, until: nil) }
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
    static let configuration = CommandConfiguration(commandName: "undo", abstract: "Undo the last answer, restoring the card exactly.")

    @OptionGroup var collection: CollectionOptions

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        guard let logID = try collection.lastAnswerLogID() else { throw StoreError.nothingToUndo }
        let card = try collection.undo(logID: logID)
        context.line("↶ undone: card \(card.id) is back to \(card.state.phase.rawValue)")
    }
}
