import Foundation
import MaeilCore
import MaeilDecks
import MaeilSession
import MaeilStore

/// What an import did (or would do), as `maeil import` says it.
package enum ImportView {
    package static func describe(_ summary: ImportSummary) -> String {
        var lines: [String] = []
        if summary.dryRun { lines.append("Dry run — nothing was changed. The import would give:") }
        for deck in summary.decks {
            var line = "\(TerminalText.sanitize(deck.name))\(deck.created ? " (new deck)" : ""): \(deck.added) added, \(deck.updated) updated, \(deck.unchanged) unchanged"
            if deck.cardsWithHistory > 0 { line += ", \(deck.cardsWithHistory) cards with their schedule" }
            lines.append(line)
            if let scheduler = deck.fileScheduler {
                lines.append("  the file schedules this deck with \(scheduler); it keeps its own options here "
                             + "(`maeil deck \(ShellWords.quoted(TerminalText.sanitize(deck.name))) set scheduler \(scheduler)` switches it)")
            }
            if deck.optionsTaken { lines.append("  its options changed in Anki since they came: taken") }
            if deck.optionsKept {
                lines.append("  its options changed in Anki since they came, and here too: these are kept "
                             + "(`maeil deck \(ShellWords.quoted(TerminalText.sanitize(deck.name)))` shows them)")
            }
            if deck.moved > 0 {
                lines.append("  \(counted(deck.moved, "note")) moved into this deck in Anki since the last import, and here too")
            }
            if deck.kept > 0 {
                lines.append("  \(counted(deck.kept, "note")) changed here since the file's copy and kept as \(deck.kept == 1 ? "it is" : "they are")")
            }
            if !deck.gone.isEmpty {
                lines.append("  \(deck.gone.count) note\(deck.gone.count == 1 ? " is" : "s are") no longer in the file and "
                             + "\(deck.gone.count == 1 ? "was" : "were") kept: "
                             + deck.gone.prefix(5).map(TerminalText.sanitize).joined(separator: ", ") + (deck.gone.count > 5 ? ", …" : ""))
            }
        }
        for plan in summary.readingPlans {
            lines.append("\(TerminalText.sanitize(plan.name)) (\(plan.created ? "new reading plan" : "reading plan updated; what you read stays marked")): "
                         + "\(plan.days) days; `maeil read` shows the next")
        }
        if summary.media > 0 { lines.append("\(summary.media) media file\(summary.media == 1 ? "" : "s")") }
        if !summary.skipped.isEmpty {
            lines.append("\(summary.skipped.count) skipped:")
            lines += summary.skipped.prefix(20).map { "  " + TerminalText.sanitize($0) }
            if summary.skipped.count > 20 { lines.append("  … and \(summary.skipped.count - 20) more") }
        }
        return lines.joined(separator: "\n")
    }
}

extension ImportView {
    /// Anki schedules a whole collection with FSRS or with SM-2: a package holding both turns
    /// FSRS on in Anki, for the SM-2 decks too, and that is said, with how many cards it moves.
    package static func schedulerNote(_ exported: ExportSummary) -> String? {
        let sm2 = exported.decks.filter { $0.scheduler != .fsrs && $0.notes > 0 }
        guard exported.decks.contains(where: { $0.scheduler == .fsrs }), !sm2.isEmpty else { return nil }
        let reviewed = sm2.reduce(0) { $0 + $1.reviewedCards }
        return "Anki has one scheduler for a whole collection, and this package turns FSRS on: in Anki, "
            + "\(counted(sm2.count, "SM-2 deck")) (\(sm2.map { TerminalText.sanitize($0.name) }.prefix(3).joined(separator: ", "))"
            + "\(sm2.count > 3 ? ", …" : "")) will be scheduled with FSRS, \(counted(reviewed, "reviewed card")) among them."
    }

    /// "Exported 12 notes from 2 decks with 3 media files to out.apkg".
    package static func exported(_ exported: ExportSummary, textOnly: Bool, to path: String) -> String {
        let notes = exported.decks.reduce(0) { $0 + $1.notes }
        let decks = exported.decks.count
        return "Exported \(notes) note\(notes == 1 ? "" : "s") from \(decks) deck\(decks == 1 ? "" : "s")"
            + (exported.media == 0 || textOnly ? "" : " with \(counted(exported.media, "media file"))") + " to \(path)"
    }
}

/// `maeil import`: the files read while the collection is opened and written (see
/// `Importer`), all or nothing, with a progress bar at a terminal.
package enum ImportRun {
    package static func apply(_ files: [String], options: ImportOptions, dryRun: Bool, showProgress: Bool, now: Date,
                             collection open: () throws -> Collection) throws -> ImportSummary {
        do {
            // A missing file or one that is no deck is refused before the collection is opened.
            for file in files { _ = try DeckReader.format(of: file) }
            let reading = ImportReading(files: files, options: options)
            let collection = try open()
            let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1 && showProgress)
            let importer = Importer(collection: collection, now: now, progress: { done, total in bar.update(done, of: total) })
            defer { bar.finish() }
            return try importer.apply(reading, dryRun: dryRun)
        } catch let failure as ImportFailure {
            throw UserError("nothing was imported:\n" + failure.description)
        } catch let problem as ImportProblem {
            throw UserError("nothing was imported: " + problem.description)
        }
    }
}

/// A progress bar on standard error, for imports large enough to wait for.
package final class ProgressBar {
    package let enabled: Bool
    private var shown = false

    package init(enabled: Bool) { self.enabled = enabled }

    package func update(_ done: Int, of total: Int) {
        guard enabled, total >= 2000 else { return }
        let width = 30
        let filled = total == 0 ? width : done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        FileHandle.standardError.write(Data("\r\(bar) \(done)/\(total)".utf8))
        shown = true
    }

    package func finish() {
        if shown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }
}
