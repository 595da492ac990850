import Foundation
import MaeilCore
import MaeilSession
import MaeilStore

/// `maeil decks`: each deck with today's counts. As in Anki's deck list, a deck's counts are
/// what reviewing it would show: its subdecks' cards too, within its limits.
package enum DeckListView {
    package struct Row: Encodable {
        let name: String
        let kind: String?
        let cards: Int
        let due: Int
        let learning: Int
        let new: Int
    }

    package static func rows(_ collection: Collection, now: Date, timeZone: TimeZone) throws -> [Row] {
        let decks = try collection.decks()
        return try decks.map { deck in
            let family = [deck.id] + decks.filter { DeckNames.isSubdeck($0.name, of: deck.name) }.map(\.id)
            let today = try TodayCounts(collection, deckIDs: family, now: now, timeZone: timeZone)
            return Row(name: deck.name, kind: deck.kind?.rawValue, cards: try collection.cardCount(deckID: deck.id),
                       due: today.due, learning: today.learning, new: today.new)
        }
    }

    package static func text(_ rows: [Row]) -> String {
        guard !rows.isEmpty else {
            return "No decks yet. `maeil import Decks/hangul-jamo` adds the Hangul deck, or run `maeil` for the bundled decks."
        }
        return TextTable.render(header: ["deck", "cards", "due", "learning", "new"],
                                rows: rows.map { [TerminalText.sanitize($0.name), "\($0.cards)", "\($0.due)", "\($0.learning)", "\($0.new)"] })
    }
}

/// `maeil deck DECK`: the options of its preset, and the decks that share it.
package enum DeckOptionsView {
    package static func json(_ deck: Deck, preset: Preset, sharing: [String], rules: LimitRules, today: Int) -> JSONObject {
        JSONObject([("deck", deck.name), ("preset", preset.name), ("shared_with", sharing)]
            + PresetKey.allCases.map { ($0.rawValue, typed($0, in: preset)) }
            + DeckLimitKey.allCases.map { key in
                let text = key.value(in: deck.limits, rules: rules, today: today)
                let typed: any Encodable = key.isCollectionWide ? text == "true" : Int(text) as Int?
                return (key.rawValue, typed)
            })
    }

    /// A setting as a script reads it: numbers as numbers, flags as true or false, the FSRS
    /// parameters and easy days as lists; steps and choices as the text `set` takes.
    static func typed(_ key: PresetKey, in preset: Preset) -> any Encodable {
        let text = key.value(in: preset)
        switch key.domain {
        case .whole: return Int(text) ?? 0
        case .number: return Double(text) ?? 0
        case .flag: return text == "true"
        case .parameters: return preset.scheduler.fsrsParameters.weights
        case .easyDays: return preset.scheduler.easyDays
        case .steps, .choice: return text
        }
    }

    /// What a change set, and which other decks it applies to.
    /// A deck's own limit over the one changed is named, with how to clear it: the preset's
    /// reviews_per_day raised under a deck_reviews_per_day from Anki changed nothing there.
    package static func changed(_ key: PresetKey, _ result: PresetChange.Result, deck: Deck, today: Int, style: Style) -> [String] {
        let others = result.decks.filter { $0.id != deck.id }.map { TerminalText.sanitize($0.name) }
        var lines = ["\(key.rawValue) = \(key.value(in: result.preset))"
                     + (others.isEmpty ? "" : style.dim(" (also for \(others.joined(separator: ", ")), which share the preset)"))]
        if let own = DeckLimitKey.standing(over: key, in: deck.limits, today: today) {
            let name = TerminalText.sanitize(deck.name)
            lines.append("\(name) keeps its own limit there, \(own.rawValue) \(own.value(in: deck.limits, rules: LimitRules(), today: today)) "
                         + "(deck \(ShellWords.quoted(name)) set \(own.rawValue) \(DeckLimitKey.clear) takes it away).")
        }
        if result.cardsWithMemory > 0 {
            lines.append("\(counted(result.cardsWithMemory, "card")) got a memory state from the review log; due dates are unchanged.")
        }
        return lines
    }

    /// What a change to a deck's own limit, or to the collection's rules, set.
    package static func changed(_ key: DeckLimitKey, deck: Deck, rules: LimitRules, today: Int, style: Style) -> [String] {
        ["\(key.rawValue) = \(key.value(in: deck.limits, rules: rules, today: today))" + style.dim(key.isCollectionWide ? " (for every deck)" : "")]
    }

    package static func lines(_ deck: Deck, preset: Preset, sharing: [String], rules: LimitRules, today: Int, style: Style) -> [String] {
        // The parameters are a long list: after the table, under their name and indented, so
        // where the terminal wraps them they stay apart from the name (beside it, the list broke
        // back to the first column at 60 columns).
        let short = PresetKey.allCases.filter { $0 != .fsrsParameters }
        return [
            style.bold(TerminalText.sanitize(deck.name)) + style.dim(" · preset \(TerminalText.sanitize(preset.name))")
                + (sharing.isEmpty ? "" : style.dim(", shared with \(sharing.map(TerminalText.sanitize).joined(separator: ", "))")),
            TextTable.render(header: ["option", "value"], rows: short.map { [$0.rawValue, $0.value(in: preset)] }
                             + DeckLimitKey.allCases.map { [$0.rawValue, $0.value(in: deck.limits, rules: rules, today: today)] }),
            PresetKey.fsrsParameters.rawValue,
            "  " + PresetKey.fsrsParameters.value(in: preset),
            style.dim("deck \(DeckNames.slug(deck.name)) set KEY VALUE changes one; `maeil deck --help` says what each does."),
        ]
    }
}

/// `deck`'s words: a deck's name (in one word or several), then optionally `set KEY VALUE`.
package struct DeckWords: Sendable {
    package var deck: String
    package var change: (key: Key, value: String)?

    /// A preset's option, or one of the limits Anki keeps outside a preset.
    package enum Key: Sendable {
        case preset(PresetKey)
        case limit(DeckLimitKey)

        init?(_ name: String) {
            if let key = PresetKey(rawValue: name) { self = .preset(key) } else if let key = DeckLimitKey(rawValue: name) { self = .limit(key) } else { return nil }
        }

        static var names: [String] { PresetKey.allCases.map(\.rawValue) + DeckLimitKey.allCases.map(\.rawValue) }
    }

    package struct Problem: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    package init(_ words: [String]) throws(Problem) {
        guard !words.isEmpty else { throw Problem(description: "which deck? deck DECK, or deck DECK set KEY VALUE") }
        guard let index = words.lastIndex(of: "set"), index > 0 else {
            deck = words.joined(separator: " ")
            if words.contains("set") { throw Problem(description: "set what? deck DECK set KEY VALUE; `maeil deck --help` lists the keys") }
            return
        }
        deck = words[..<index].joined(separator: " ")
        guard let name = words.dropFirst(index + 1).first else {
            throw Problem(description: "set what? deck DECK set KEY VALUE; `maeil deck --help` lists the keys")
        }
        guard let key = Key(name) else {
            throw Problem(description: "no option '\(name)'; the options are \(Key.names.joined(separator: ", "))")
        }
        let value = words.dropFirst(index + 2)
        guard !value.isEmpty else { throw Problem(description: "\(name) needs a value: deck DECK set \(name) VALUE") }
        change = (key, value.joined(separator: " "))
    }
}
