import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilSession
import MaeilStore

struct ReviewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "review",
        abstract: "Review today's cards.",
        discussion: """
            At a terminal: ⏎ shows the answer, 1–4 answer, u undo, s star, e edit, p speak, q leave. \
            From a pipe, the same keys one per line, with no prompts and no colour; each answer is \
            acknowledged ("good · 4d") once it is committed.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks to review (default: all).")
    var decks: [String] = []

    @Flag(help: "Go over the cards missed most in these decks, without changing their schedule.")
    var missed = false

    @Option(help: ArgumentHelp("Review fuzz: on, or off for exact intervals.", valueName: "on|off"))
    var fuzz: String = "on"

    func validate() throws {
        guard ["on", "off"].contains(fuzz) else { throw ValidationError("--fuzz takes on or off") }
    }

    func run() throws {
        let collection = try collection.open()
        let ids = try deckIDs(decks, in: collection)
        let console = StandardConsole()
        let environment = SessionEnvironment(fuzz: fuzz == "on")
        let session: ReviewSession
        if missed {
            let scopes: [Int64?] = ids.map { $0.map(Optional.some) } ?? [nil]
            let cards = try scopes.flatMap { try collection.mostMissed(deckID: $0, now: Date(), limit: 20) }.map(\.cardID)
            session = ReviewSession(collection: collection, practicing: cards, environment: environment)
        } else {
            session = try ReviewSession(collection: collection, deckIDs: ids, environment: environment)
        }
        let input: LineReader = PipedLineReader()
        try ReviewLoop(session: session, console: console, input: input).run()
    }
}

