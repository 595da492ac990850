import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilStore

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify the collection: the file's integrity, and every card's state against its review log.")

    @OptionGroup var collection: CollectionOptions

    @Flag(help: "Repair what can be repaired: restore each card's state from its review log.")
    var repair = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run() throws {
        let collection = try collection.open()
        let report = try collection.check(repair: repair, now: Date())
        if json {
            print(try JSONOutput.string(report))
        } else {
            print("integrity: \(report.integrity)")
            print("cards checked: \(report.cardsChecked)")
            for problem in report.problems.prefix(50) { print("problem: \(problem)") }
            if report.problems.count > 50 { print("… and \(report.problems.count - 50) more") }
            if repair { print("repaired: \(report.repaired)") }
            if report.isHealthy { print("ok") } else if !repair { print("run `maeil check --repair` to repair") }
        }
        if report.integrity != "ok" || (!report.problems.isEmpty && !repair) {
            throw ExitCode(1)
        }
    }
}

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Due today and the next 30 days, reviews per day, true retention, streak, time studied.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks (default: all).")
    var decks: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let collection = try collection.open()
        let stats = try collection.stats(deckIDs: try deckIDs(decks, in: collection), now: Date(), timeZone: .current)
        if json {
            print(try JSONOutput.string(stats))
            return
        }
        print(StatsView.render(stats, style: Style.forStandardOutput()))
    }
}

enum StatsView {
    static func render(_ stats: CollectionStats, style: Style) -> String {
        var lines: [String] = []
        lines.append(style.bold("Today") + ": \(stats.dueToday) due · \(stats.newToday) new · \(stats.learningToday) learning")
        lines.append("Next 30 days: " + Sparkline.render(stats.forecast.map { Double($0.count) })
                     + "  (\(counted(stats.forecast.reduce(0) { $0 + $1.count }, "review")))")
        lines.append("Last 30 days: " + Sparkline.render(stats.reviewsPerDay.map { Double($0.count) })
                     + "  (\(counted(stats.reviewsPerDay.reduce(0) { $0 + $1.count }, "answer")))")
        let retention = stats.retention.map { item in
            "\(item.days)d " + (item.rate.map { String(format: "%.1f%%", $0 * 100) } ?? "–") + " of \(item.reviews)"
        }
        lines.append("True retention: " + retention.joined(separator: " · "))
        lines.append("Streak: \(stats.streak) day\(stats.streak == 1 ? "" : "s") · studied today \(stats.secondsStudiedToday / 60) min · in all \(stats.secondsStudiedTotal / 3600) h \(stats.secondsStudiedTotal % 3600 / 60) min")
        lines.append("Cards: \(stats.totalCards) · \(stats.starred) starred · \(stats.suspended) suspended")
        return lines.joined(separator: "\n")
    }
}

enum Sparkline {
    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Bars from `floor` (0, or the smallest value when `fromMinimum`) to the largest value.
    static func render(_ values: [Double], fromMinimum: Bool = false) -> String {
        let floor = fromMinimum ? (values.min() ?? 0) : 0
        guard let top = values.max(), top > floor else { return String(repeating: "▁", count: values.count) }
        return String(values.map { bars[min(bars.count - 1, max(0, Int(($0 - floor) / (top - floor) * Double(bars.count - 1) + 0.5)))] })
    }
}

struct DecksCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "decks", abstract: "List the decks with today's counts.")

    @OptionGroup var collection: CollectionOptions

    @Flag(help: "Print JSON.")
    var json = false

    struct Row: Encodable {
        let name: String
        let kind: String?
        let cards: Int
        let new: Int
        let learning: Int
        let review: Int
    }

    func run() throws {
        let collection = try collection.open()
        let now = Date()
        let rows = try collection.decks().map { deck in
            let queue = try collection.studyQueue(deckIDs: [deck.id], now: now, timeZone: .current)
            return Row(name: deck.name, kind: deck.kind?.rawValue, cards: try collection.cards(deckID: deck.id).count,
                       new: queue.new.count, learning: queue.learning.count, review: queue.reviews.count)
        }
        if json {
            print(try JSONOutput.string(rows))
        } else if rows.isEmpty {
            print("No decks yet. `maeil import Decks/hangul-jamo` adds the Hangul deck, or run `maeil` for the bundled decks.")
        } else {
            print(TextTable.render(header: ["deck", "cards", "new", "learning", "review"],
                                   rows: rows.map { [TerminalText.sanitize($0.name), "\($0.cards)", "\($0.new)", "\($0.learning)", "\($0.review)"] }))
        }
    }
}

struct MissedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "missed", abstract: "The cards missed most: most lapses, then most recent “again” answers.")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "A deck (default: all).")
    var deck: String?

    @Option(help: "How many.")
    var limit = 10

    @Flag(help: "Print JSON.")
    var json = false

    struct Row: Encodable {
        let card: Int64
        let deck: String
        let front: String
        let lapses: Int
        let recentAgains: Int
        enum CodingKeys: String, CodingKey { case card, deck, front, lapses, recentAgains = "recent_agains" }
    }

    func run() throws {
        let collection = try collection.open()
        let deckID = try deck.map { try collection.requireDeck(named: $0).id }
        let rows = try collection.mostMissed(deckID: deckID, now: Date(), limit: limit).map { missed in
            let card = try collection.card(id: missed.cardID)
            let note = try collection.note(id: card.noteID)
            let deck = try collection.deck(id: card.deckID)
            let template = deck.templates.first { $0.name == card.template }
            let front = template?.front.compactMap { note.fields.value($0) }.joined(separator: " ") ?? note.fields.first?.value ?? ""
            return Row(card: card.id, deck: deck.name, front: front, lapses: missed.lapses, recentAgains: missed.recentAgains)
        }
        if json {
            print(try JSONOutput.string(rows))
        } else if rows.isEmpty {
            print("Nothing missed yet.")
        } else {
            print(TextTable.render(header: ["card", "deck", "front", "lapses", "again (30d)"],
                                   rows: rows.map { ["\($0.card)", TerminalText.sanitize($0.deck), TerminalText.sanitize($0.front),
                                                      "\($0.lapses)", "\($0.recentAgains)"] }))
        }
    }
}

/// "1 review", "2 reviews".
func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
