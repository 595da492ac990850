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
