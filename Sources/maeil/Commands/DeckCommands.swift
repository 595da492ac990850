import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilSession
import MaeilStore

struct DecksCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "decks", abstract: "List the decks with today's counts.")

    @OptionGroup var collection: CollectionOptions

    @Flag(help: "Print JSON.") var json = false

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let rows = try DeckListView.rows(collection, now: context.now, timeZone: context.environment.timeZone)
        if json { return context.verbatim(try JSONOutput.string(rows)) }
        context.line(DeckListView.text(rows))
    }
}

struct DeckCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "deck", abstract: "A deck's options: deck DECK shows them, deck DECK set KEY VALUE changes one.",
        discussion: """
            The options belong to the deck's preset, which other decks may share; a change applies to all of \
            them, as in Anki. Switching a deck from SM-2 to FSRS gives each reviewed card its memory state from \
            its review log, so no card starts over. Keys:
            \(PresetKey.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))
            These are the deck's own, or the collection's, as in Anki:
            \(DeckLimitKey.allCases.map { "  \($0.rawValue): \($0.summary)" }.joined(separator: "\n"))
            """)

    @OptionGroup var collection: CollectionOptions

    // Unrecognized words too, so that a value such as -1 is a value, not an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The deck, then optionally: set KEY VALUE.", valueName: "deck"),
              completion: Completions.deckWords)
    var given: [String] = []
    var words: [String] { GivenWords.without(terminator: given) }

    @Flag(help: "Print JSON.") var json = false

    func validate() throws {
        do { _ = try DeckWords(words) } catch { throw ValidationError(error.description) }
    }

    func run(in context: CommandContext) throws {
        let request = try DeckWords(words)
        let collection = try context.collection(self.collection, readOnly: request.change == nil)
        let deck = try context.deck(request.deck, in: collection)
        let preset = try collection.preset(id: deck.presetID)
        // A day limit is for the deck's study day.
        let today = preset.dayClock(in: context.environment.timeZone).dayNumber(of: context.now)
        switch request.change {
        case (.preset(let key), let value)?:
            let result: PresetChange.Result
            do {
                result = try PresetChange(collection: collection).set(key, .text(value), deck: deck, now: context.now, timeZone: context.environment.timeZone)
            } catch let problem as PresetChangeProblem {
                throw UsageError(problem.description)
            }
            return DeckOptionsView.changed(key, result, deck: deck, today: today, style: context.style).forEach(context.line)
        case (.limit(let key), let value)?:
            let (changed, rules): (Deck, LimitRules)
            do {
                (changed, rules) = try collection.setLimit(key, value, deckID: deck.id, today: today)
            } catch let problem as PresetKey.Problem {
                throw UsageError(problem.description)
            }
            return DeckOptionsView.changed(key, deck: changed, rules: rules, today: today, style: context.style).forEach(context.line)
        case nil:
            break
        }
        let rules = try collection.limitRules()
        let sharing = try collection.decks().filter { $0.presetID == deck.presetID && $0.id != deck.id }.map(\.name)
        if json { return context.verbatim(try JSONOutput.string(DeckOptionsView.json(deck, preset: preset, sharing: sharing, rules: rules, today: today))) }
        DeckOptionsView.lines(deck, preset: preset, sharing: sharing, rules: rules, today: today, style: context.style).forEach(context.line)
    }
}
