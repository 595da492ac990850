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

    @Argument(help: "Decks (default: all).")
    var decks: [String] = []

    @Flag(help: "Print JSON.")
    var json = false

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

enum StatsView {
    static func render(_ stats: CollectionStats, style: Style) -> String {
        var lines: [String] = []
        let today = TodayCounts(due: stats.dueToday, learning: stats.learningToday, new: stats.newToday)
        lines.append(style.bold("Today") + ": " + today.text(style) + " · \(counted(stats.cardsAnsweredToday, "card")) studied")
        lines.append("Next 30 days: " + Sparkline.render(stats.forecast.map { Double($0.count) })
                     + "  (\(counted(stats.forecast.reduce(0) { $0 + $1.count }, "review")))")
        lines.append("Last 30 days: " + Sparkline.render(stats.reviewsPerDay.map { Double($0.count) })
                     + "  (\(counted(stats.reviewsPerDay.reduce(0) { $0 + $1.count }, "answer")))")
        let retention = stats.retention.map { item in
            "\(item.days)d " + (item.rate.map { String(format: "%.1f%%", $0 * 100) } ?? "–") + " of \(item.reviews)"
        }
        lines.append("True retention: " + retention.joined(separator: " · "))
        lines.append("Streak: \(counted(stats.streak, "day")) · studied today \(stats.secondsStudiedToday / 60) min · in all "
                     + "\(stats.secondsStudiedTotal / 3600) h \(stats.secondsStudiedTotal % 3600 / 60) min")
        lines.append("Cards: \(stats.totalCards) · \(stats.starred) starred · \(stats.suspended) suspended")
        return lines.joined(separator: "\n")
    }
}

struct MissedCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "missed", abstract: "The cards missed most: most lapses, then most recent “again” answers.",
        discussion: "Lists each card's number (for info and forget) and its note's (for show, edit, star).")

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "A deck (default: all).")
    var deck: [String] = []

    @Option(help: "How many.")
    var limit = 10

    @Flag(help: "Print JSON.")
    var json = false

    func validate() throws {
        if limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    struct Row: Encodable {
        let card: Int64
        let note: Int64
        let deck: String
        let front: String
        let lapses: Int
        let recentAgains: Int
    }

    func run(in context: CommandContext) throws {
        let collection = try context.collection(self.collection, readOnly: true)
        let deckID = try deck.isEmpty ? nil : context.deck(deck.joined(separator: " "), in: collection).id
        let rows = try collection.mostMissed(deckID: deckID, now: context.now, limit: limit).map { missed in
            let (card, note, _) = try collection.cardWithNote(id: missed.cardID)
            let deck = try collection.deck(id: card.deckID)
            let template = deck.templates.first { $0.name == card.template }
            let front = template?.front.compactMap { note.fields.value($0).map { FieldText.plain($0, html: note.html) } }
                .filter { !$0.isEmpty }.joined(separator: " ")
            return Row(card: card.id, note: note.id, deck: deck.name, front: front.flatMap { $0.isEmpty ? nil : $0 } ?? note.fields.first?.value ?? "",
                       lapses: missed.lapses, recentAgains: missed.recentAgains)
        }
        if json {
            context.verbatim(try JSONOutput.string(rows))
        } else if rows.isEmpty {
            context.line("Nothing missed yet.")
        } else {
            context.line(TextTable.render(header: ["card", "note", "deck", "front", "lapses", "again (30d)"],
                                          rows: rows.map { ["\($0.card)", "\($0.note)", TerminalText.sanitize($0.deck),
                                                            TerminalText.sanitize($0.front).replacingOccurrences(of: "\n", with: " "),
                                                            "\($0.lapses)", "\($0.recentAgains)"] }))
        }
    }
}
