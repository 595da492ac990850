import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilStore

struct StatsCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Due today and the next 30 days, reviews per day, true retention, streak, time studied.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks (default: all).", completion: Completions.decks) var decks: [String] = []

    @Flag(help: "Print JSON.") var json = false

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let stats = try collection.stats(deckIDs: try context.decks(decks, in: collection), now: context.now, timeZone: context.environment.timeZone)
        if json {
            context.verbatim(try JSONOutput.string(stats))
            return
        }
        context.line(StatsView.render(stats, style: context.style))
    }
}

struct MissedCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "missed", abstract: "The cards missed most: most lapses, then most recent “again” answers.",
        discussion: "Lists each card's number (for info and forget) and its note's (for show, edit, star).")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "A deck (default: all).", completion: Completions.decks) var deck: [String] = []

    @Option(help: "How many.") var limit = 10

    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let deckID = try deck.isEmpty ? nil : context.deck(deck.joined(separator: " "), in: collection).id
        let rows = try MissedView.rows(collection, deckID: deckID, now: context.now, limit: limit)
        if json { return context.verbatim(try JSONOutput.string(rows)) }
        context.line(MissedView.text(rows))
    }
}
