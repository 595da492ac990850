import Foundation
import MaeilCore
import MaeilFocus
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

    /// A new learner with an empty collection is reviewing Hangul within a minute.
    static func offerBundledDecks(_ context: CommandContext, collection: Collection) -> Outcome {
        let style = context.style
        context.line(style.bold("매일 Maeil") + " — welcome. Your collection is empty.")
        guard let directory = BundledDecks.directory() else {
            context.line("Import a deck to begin: import FILE (Anki .apkg, text, CSV, or a deck folder).")
            return .greeted
        }
        // The question stays short: libedit draws a prompt as it is, and a long one would wrap mid-word.
        let starters = BundledDecks.starterFolders(in: directory)
        let names = starters.map(\.lastPathComponent).joined(separator: ", ")
        context.line("Maeil comes with these decks: \(names).")
        let later = BundledDecks.folders(in: directory).map(\.lastPathComponent).filter(BundledDecks.later.contains)
        if !later.isEmpty {
            context.line(style.dim("For later: \(later.joined(separator: ", ")); import a folder from Decks/ when its time comes (maeil about shows where)."))
        }
        guard ask("Add the bundled decks? [Y/n] ", context) else {
            context.line("import FILE adds a deck when you are ready.")
            return .greeted
        }
        do {
            let summary = try BundledDecks.importAll(from: directory, into: collection, now: context.now)
            context.line("Added \(summary.added) notes in \(summary.decks.count) decks.")
        } catch {
            context.console.error("\(error)")
            return .greeted
        }
        if ask("Start with Hangul now? [Y/n] ", context) { return .startWithHangul }
        context.line(style.dim("review to start · help for the commands"))
        return .greeted
    }

    static func ask(_ question: String, _ context: CommandContext) -> Bool {
        guard let answer = context.ask(question) else { return false }
        let trimmed = answer.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty || trimmed.hasPrefix("y")
    }
}
