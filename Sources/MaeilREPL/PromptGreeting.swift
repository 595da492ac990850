import Foundation
import MaeilCore
import MaeilFocus
import MaeilDecks
import MaeilSession
import MaeilStore

/// What the prompt says when it opens.
package enum PromptGreeting {
    package enum Outcome { case greeted, startWithHangul }

    /// Today's counts and readings; or, on an empty collection, the bundled decks.
    package static func greet(_ context: CommandContext, collection: Collection) -> Outcome {
        let style = context.style
        let decks = (try? collection.decks()) ?? []
        if decks.isEmpty { return offerBundledDecks(context, collection: collection) }
        let today = (try? TodayCounts(collection, deckIDs: nil, now: context.now, timeZone: context.environment.timeZone))
            .map { $0.text(style) } ?? ""
        context.line(style.bold("매일 Maeil") + style.dim(" · ") + today + style.dim(" · ")
                     + decks.map { TerminalText.sanitize($0.name) }.joined(separator: ", "))
        for reading in (try? TodayReading.load(collection, now: context.now, timeZone: context.environment.timeZone)) ?? [] {
            context.line(ReadingView.greeting(reading, style: style))
        }
        context.line(style.dim("review to start · help for the commands · quit to leave"))
        return .greeted
    }

    /// A new learner with an empty collection picks decks and a daily load, sees what the
    /// simulator expects that load to cost in four weeks, and is reviewing within a minute.
    static func offerBundledDecks(_ context: CommandContext, collection: Collection) -> Outcome {
        let style = context.style
        context.line(style.bold("매일 Maeil") + " — welcome. Your collection is empty.")
        guard let directory = BundledDecks.directory(),
              var bundle = try? DeckReader.read(BundledDecks.starterFolders(in: directory).map(\.path), options: ImportOptions()) else {
            context.line("Import a deck to begin: import FILE (Anki .apkg, text, CSV, or a deck folder).")
            return .greeted
        }
        context.line("Maeil comes with these decks:")
        let width = bundle.decks.map { TerminalWidth.of($0.name) }.max() ?? 0
        for (index, deck) in bundle.decks.enumerated() {
            let name = deck.name + String(repeating: " ", count: width - TerminalWidth.of(deck.name))
            context.line("  \(index + 1)  \(name)  " + style.dim("\(FirstRun.cards(deck)) cards, \(deck.preset?.newPerDay ?? 20) new a day"))
        }
        let later = BundledDecks.folders(in: directory).map(\.lastPathComponent).filter(BundledDecks.later.contains)
        if !later.isEmpty {
            context.line(style.dim("For later: \(later.joined(separator: ", ")); import a folder from Decks/ when its time comes (maeil about shows where)."))
        }
        // Questions stay short: libedit draws a prompt as it is, and a long one would wrap mid-word.
        guard let chosen = FirstRun.chooseDecks(count: bundle.decks.count, context), !chosen.isEmpty else {
            context.line("import FILE adds a deck when you are ready.")
            return .greeted
        }
        bundle.decks = chosen.map { bundle.decks[$0] }
        guard let load = FirstRun.chooseLoad(bundle.decks, context) else { return .greeted }
        FirstRun.share(load, among: &bundle.decks)
        do {
            let summary = try Importer(collection: collection, now: context.now).apply(bundle)
            context.line("Added \(counted(summary.added, "note")) in \(counted(summary.decks.count, "deck")), \(load) new cards a day in all (deck NAME set new_per_day N changes one).")
        } catch {
            context.console.error("\(error)")
            return .greeted
        }
        if bundle.decks.contains(where: { $0.name == "Hangul Jamo" }), ask("Start with Hangul now? [Y/n] ", context) { return .startWithHangul }
        context.line(style.dim("review to start · help for the commands"))
        return .greeted
    }

    static func ask(_ question: String, _ context: CommandContext) -> Bool {
        context.confirm(question, default: true) ?? false
    }
}
