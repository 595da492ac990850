import Foundation
import MaeilCore
import MaeilDecks
import MaeilSession

/// The first run's two questions: which bundled decks, and how many new cards a day.
enum FirstRun {
    /// Cards a deck makes, as the import will make them: each template's cards for each note.
    static func cards(_ deck: ImportedDeck) -> Int {
        deck.notes.reduce(0) { sum, note in sum + deck.templates.reduce(0) { $0 + $1.ordinals(for: note.fields, noteType: note.noteType).count } }
    }

    /// Deck numbers as the learner gives them ("1 3", "all", ⏎ for all, "none"); nil when input ended.
    static func chooseDecks(count: Int, _ context: CommandContext) -> [Int]? {
        while true {
            guard let answer = context.ask("Which decks? Numbers, all or none [all]: ")?.trimmingCharacters(in: .whitespaces).lowercased() else { return nil }
            if answer.isEmpty || answer == "all" { return Array(0..<count) }
            if answer == "none" || answer == "n" || answer == "no" { return [] }
            let numbers = answer.split(whereSeparator: { $0 == " " || $0 == "," }).map { Int($0) }
            if !numbers.isEmpty, numbers.allSatisfy({ $0.map { (1...count).contains($0) } ?? false }) {
                return Array(Set(numbers.map { $0! - 1 })).sorted()
            }
            context.line("Numbers from 1 to \(count), like 1 3; or all, or none.")
        }
    }

    /// The new cards a day, all chosen decks together, confirmed after the simulator's estimate
    /// of what it costs once the reviews come back; nil when input ended.
    static func chooseLoad(_ decks: [ImportedDeck], _ context: CommandContext) -> Int? {
        var load = decks.reduce(0) { $0 + ($1.preset?.newPerDay ?? 20) }
        let cards = decks.reduce(0) { $0 + Self.cards($1) }
        while true {
            guard let answer = context.ask("New cards a day, all together [\(load)]: ")?.trimmingCharacters(in: .whitespaces) else { return nil }
            if !answer.isEmpty {
                guard let number = Int(answer), (1...9999).contains(number) else {
                    context.line("A number of new cards a day, like 10.")
                    continue
                }
                load = number
            }
            let estimate = DailyLoadEstimate.estimate(cards: cards, newPerDay: load)
            context.line("In four weeks a day holds about \(estimate.reviews) cards (\(load) of them new) and \(estimate.minutes) minutes, "
                         + "by the simulator's estimate.")
            guard let confirmed = context.confirm("Go with \(load) a day? [Y/n] ", default: true) else { return nil }
            if confirmed { return load }
        }
    }

    /// `load` shared among the decks as their own limits are (largest remainders, so the shares
    /// add up to it exactly); each deck keeps at least one a day while there are enough.
    static func share(_ load: Int, among decks: inout [ImportedDeck]) {
        let own = decks.map { Double($0.preset?.newPerDay ?? 20) }
        let total = own.reduce(0, +)
        guard total > 0, !decks.isEmpty else { return }
        let exact = own.map { $0 / total * Double(load) }
        var shares = exact.map { load >= decks.count ? max(1, Int($0)) : Int($0) }
        var left = load - shares.reduce(0, +)
        for index in exact.indices.sorted(by: { exact[$0] - floor(exact[$0]) > exact[$1] - floor(exact[$1]) }) where left > 0 {
            shares[index] += 1
            left -= 1
        }
        // The ones kept at one a day were taken from the largest.
        while left < 0, let largest = shares.indices.max(by: { shares[$0] < shares[$1] }), shares[largest] > 1 {
            shares[largest] -= 1
            left += 1
        }
        for index in decks.indices {
            if decks[index].preset == nil { decks[index].preset = Preset(name: decks[index].name) }
            decks[index].preset?.newPerDay = shares[index]
        }
    }
}
