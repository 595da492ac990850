import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilSession
import MaeilStore

struct DecksCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "decks", abstract: "List the decks with today's counts.")

    @OptionGroup var collection: CollectionOptions

    @Flag(help: "Print JSON.")
    var json = false

    struct Row: Encodable {
        let name: String
        let kind: String?
        let cards: Int
        let due: Int
        let learning: Int
        let new: Int
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let rows = try collection.decks().map { deck in
            let today = try TodayCounts(collection, deckIDs: [deck.id], now: context.now, timeZone: context.environment.timeZone)
            return Row(name: deck.name, kind: deck.kind?.rawValue, cards: try collection.cards(deckID: deck.id).count,
                       due: today.due, learning: today.learning, new: today.new)
        }
        if json {
            context.verbatim(try JSONOutput.string(rows))
        } else if rows.isEmpty {
            context.line("No decks yet. `maeil import Decks/hangul-jamo` adds the Hangul deck, or run `maeil` for the bundled decks.")
        } else {
            context.line(TextTable.render(header: ["deck", "cards", "due", "learning", "new"],
                                          rows: rows.map { [TerminalText.sanitize($0.name), "\($0.cards)", "\($0.due)", "\($0.learning)", "\($0.new)"] }))
        }
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
            """)

    @OptionGroup var collection: CollectionOptions

    // Unrecognized words too, so that a value such as -1 is a value, not an option.
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The deck, then optionally: set KEY VALUE.", valueName: "deck"))
    var words: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    /// The deck's words and the change, split at "set".
    var parts: (deck: String, key: String?, value: [String]) {
        guard let index = words.lastIndex(of: "set"), index > 0 else { return (words.joined(separator: " "), nil, []) }
        return (words[..<index].joined(separator: " "), words.dropFirst(index + 1).first, Array(words.dropFirst(index + 2)))
    }

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("which deck? deck DECK, or deck DECK set KEY VALUE") }
        let (_, key, value) = parts
        if words.contains("set") {
            guard let key else { throw ValidationError("set what? deck DECK set KEY VALUE; `maeil deck --help` lists the keys") }
            guard PresetKey(rawValue: key) != nil else {
                throw ValidationError("no option '\(key)'; the options are \(PresetKey.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            guard !value.isEmpty else { throw ValidationError("\(key) needs a value: deck DECK set \(key) VALUE") }
        }
    }

    func run(in context: CommandContext) throws {
        let (name, key, value) = parts
        let collection = try context.collection(self.collection, readOnly: key == nil)
        let deck = try context.deck(name, in: collection)
        if let key, let presetKey = PresetKey(rawValue: key) {
            let result: PresetChange.Result
            do {
                result = try PresetChange(collection: collection).set(presetKey, .text(value.joined(separator: " ")), deck: deck, now: context.now,
                                                                      timeZone: context.environment.timeZone)
            } catch let problem as PresetChangeProblem {
                throw UsageError(problem.description)
            }
            let others = result.decks.filter { $0.id != deck.id }.map { TerminalText.sanitize($0.name) }
            context.line("\(key) = \(presetKey.value(in: result.preset))"
                         + (others.isEmpty ? "" : context.style.dim(" (also for \(others.joined(separator: ", ")), which share the preset)")))
            if result.cardsWithMemory > 0 {
                context.line("\(counted(result.cardsWithMemory, "card")) got a memory state from the review log; due dates are unchanged.")
            }
            return
        }
        let preset = try collection.preset(id: deck.presetID)
        let sharing = try collection.decks().filter { $0.presetID == deck.presetID && $0.id != deck.id }.map(\.name)
        if json {
            context.verbatim(try JSONOutput.string(JSONObject([("deck", deck.name), ("preset", preset.name), ("shared_with", sharing)]
                + PresetKey.allCases.map { ($0.rawValue, $0.value(in: preset)) })))
            return
        }
        let style = context.style
        context.line(style.bold(TerminalText.sanitize(deck.name)) + style.dim(" · preset \(TerminalText.sanitize(preset.name))")
                     + (sharing.isEmpty ? "" : style.dim(", shared with \(sharing.map(TerminalText.sanitize).joined(separator: ", "))")))
        // The parameters are a long list: a row of their own after the table, wrapped by the terminal.
        let short = PresetKey.allCases.filter { $0 != .fsrsParameters }
        context.line(TextTable.render(header: ["option", "value"], rows: short.map { [$0.rawValue, $0.value(in: preset)] }))
        context.line(PresetKey.fsrsParameters.rawValue + "  " + PresetKey.fsrsParameters.value(in: preset))
        context.line(style.dim("deck \(DeckNames.slug(deck.name)) set KEY VALUE changes one; `maeil deck --help` says what each does."))
    }
}
