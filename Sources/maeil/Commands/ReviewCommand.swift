import ArgumentParser
import Foundation
import MaeilCore
import MaeilFocus
import MaeilREPL
import MaeilSession
import MaeilStore

struct ReviewCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review today's cards; --missed and --focus go over some cards again without touching their schedule.",
        discussion: """
            At a terminal each key acts at once: ⏎ or Space shows the answer, 1–4 answer, u undo, s star, e edit, \
            p speak, h hint, o pictures, b bury, f then 0–7 flag, ! suspend, q leave; a card that asks for its answer takes every key \
            until ⏎. Ctrl-C twice leaves, keeping every answer given. From a pipe, one key or typed answer per line, \
            no prompts, no colour; each answer is acknowledged ("good · 4d") once it is committed.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks to review (default: all).", completion: Completions.decks) var decks: [String] = []

    @Flag(help: "Go over the cards you miss most, without changing their schedule.") var missed = false

    @Flag(help: "Go over the focus list (starred, leeches, today's misses, at risk), without changing their schedule.") var focus = false

    @Option(help: ArgumentHelp("Review fuzz: on, or off for exact intervals.", valueName: "on|off")) var fuzz: String = "on"

    func validate() throws {
        guard ["on", "off"].contains(fuzz) else { throw ValidationError("--fuzz takes on or off") }
        if missed, focus { throw ValidationError("--missed and --focus do not go together") }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let ids = try DeckNames.resolveIDs(decks, in: collection)
        let session = try ReviewStart.session(ids, collection: collection, practice: missed ? .missed : (focus ? .focus : nil), fuzz: fuzz == "on",
                                              context: context)
        try ReviewStart.run(session, collection: collection, context: context)
    }
}

struct QueueCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "queue",
        abstract: "Today's cards in the order `review` shows them (the decks' display order), without answering any.",
        discussion: """
            Learning cards due now come first, then the reviews, learning cards from an earlier day and new \
            cards as the first deck's options mix and order them, then learning cards due later today. \
            Options: deck DECK set new_mix, review_order, new_gather_order, new_sort_order, interday_learning_mix.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks (default: all).", completion: Completions.decks) var decks: [String] = []

    @Option(help: "At most this many.") var limit = 50

    @Flag(help: "Print JSON.") var json = false

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let ids = try DeckNames.resolveIDs(decks, in: collection)
        let (now, zone) = (context.now, context.environment.timeZone)
        let queue = try collection.studyQueue(deckIDs: ids, now: now, timeZone: zone)
        let nowSeconds = Int64(now.timeIntervalSince1970)
        let dueNow = queue.learning.prefix { $0.due <= nowSeconds }
        let inOrder = dueNow + queue.main + queue.learning.dropFirst(dueNow.count)
        let cards = try inOrder.prefix(max(limit, 0)).map { try collection.card(id: $0.id) }
        let rows = try CardListView.rows(cards, in: collection, now: now, timeZone: zone)
        if json { return context.verbatim(try JSONOutput.string(rows)) }
        context.line(rows.isEmpty ? "Nothing is due today." : CardListView.text(rows))
    }
}
