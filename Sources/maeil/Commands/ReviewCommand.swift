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
            At a terminal: ⏎ shows the answer (or type it, for cards that ask), 1–4 answer, u undo, s star, \
            e edit, p speak, h hint, b bury, ! suspend, q leave. Ctrl-C clears a typed answer; a second one \
            leaves, keeping every answer given. From a pipe, the same keys one per line, with no prompts and \
            no colour; each answer is acknowledged ("good · 4d") once it is committed.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks to review (default: all).")
    var decks: [String] = []

    @Flag(help: "Go over the cards you miss most, without changing their schedule.")
    var missed = false

    @Flag(help: "Go over the focus list (starred, leeches, today's misses, at risk), without changing their schedule.")
    var focus = false

    @Option(help: ArgumentHelp("Review fuzz: on, or off for exact intervals.", valueName: "on|off"))
    var fuzz: String = "on"

    func validate() throws {
        guard ["on", "off"].contains(fuzz) else { throw ValidationError("--fuzz takes on or off") }
        if missed, focus { throw ValidationError("--missed and --focus do not go together") }
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection)
        let ids = try deckIDs(decks, in: collection)
        let environment = SessionEnvironment(now: context.environment.now, timeZone: context.environment.timeZone,
                                             maximumAnswerSeconds: context.environment.maximumAnswerSeconds, fuzz: fuzz == "on")
        let session: ReviewSession
        if missed {
            let scopes: [Int64?] = ids.map { $0.map(Optional.some) } ?? [nil]
            let cards = try scopes.flatMap { try collection.mostMissed(deckID: $0, now: context.now, limit: 20) }.map(\.cardID)
            session = ReviewSession(collection: collection, practicing: cards, environment: environment)
        } else if focus {
            let limit = context.config["focus.limit"].flatMap(Int.init) ?? 10
            let cards = try FocusCards.cardIDs(collection, deckIDs: ids, now: context.now, timeZone: environment.timeZone, limit: limit)
            session = ReviewSession(collection: collection, practicing: cards, environment: environment)
        } else {
            session = try ReviewSession(collection: collection, deckIDs: ids, environment: environment)
        }
        var answered = 0
        // The focus list follows the answers: re-exported every ten, and at the end.
        let loop = ReviewLoop(session: session, console: context.console, input: context.input, speaker: context.speaker,
                              speech: context.config.speech) {
            answered += 1
            if answered % 10 == 0 { context.exportFocus(collection) }
        }
        try loop.run()
        context.exportFocus(collection)
    }
}
