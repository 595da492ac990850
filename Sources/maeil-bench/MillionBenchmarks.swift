import Foundation
import MaeilCore
import MaeilDecks
import MaeilOptimizer
import MaeilSession
import MaeilStore
#if canImport(Glibc)
import Glibc
#endif

/// A collection of a million cards, as an Anki user brings one (issue 27's size): a package of
/// 1,000,000 notes, half of them reviewed twice, imported by `maeil`, then every command a day
/// at the prompt uses, each in a process of its own: its time and peak memory. Minutes long, so
/// only run when asked for by name (`maeil bench --filter million`).
enum MillionBenchmarks {
    static let notes = Int(ProcessInfo.processInfo.environment["MAEIL_BENCH_MILLION_NOTES"] ?? "") ?? 1_000_000
    static let timedAnswers = 1_000

    static var all: [Benchmark] {
        [Benchmark(name: "million.commands") {
            let folder = ImportBenchmarks.temporaryFolder()
            // MAEIL_BENCH_KEEP_FOLDER=1 leaves the collection there, for a closer look.
            defer { if ProcessInfo.processInfo.environment["MAEIL_BENCH_KEEP_FOLDER"] == nil { try? FileManager.default.removeItem(at: folder) } }
            let package = folder.appendingPathComponent("million.apkg")
            let clock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
            try AnkiPackageWriter.write(ImportBenchmarks.package(notes: notes, reviewsEach: 2), to: package, now: clock.start(ofDay: 20_500), clock: clock)
            let collection = folder.appendingPathComponent("collection.sqlite").path
            let home = folder.appendingPathComponent("home").path
            let thousands = "\(notes / 1000)k"
            var figures: [BenchFigure] = []
            func measure(_ name: String, _ arguments: [String], input: String? = nil) throws {
                let started = Date()
                let run = try MaeilChild.peakMemory(arguments + ["--collection", collection], input: input, environment: ["HOME": home, "XDG_DATA_HOME": home,
                                                                                                                         "XDG_STATE_HOME": home, "MAEIL_SPEECH": "stub"])
                let seconds = Date().timeIntervalSince(started)
                guard run.status == 0 else { throw BenchFailure(description: "maeil \(arguments.joined(separator: " ")) exited \(run.status)") }
                figures.append(BenchFigure(name: "million.\(name)_\(thousands)_s", value: seconds, unit: "s"))
                figures.append(BenchFigure(name: "million.\(name)_\(thousands)_peak_mb", value: run.megabytes, unit: "MB"))
            }
            try measure("import", ["import", package.path, "--create", "--max-unpacked", "4096"])
            try measure("decks", ["decks"])
            try measure("stats", ["stats"])
            try measure("find_due", ["find", "--cards", "is:due", "--limit", "20"])
            // Start-up to the first card and out again; then 1,000 answers at a terminal, each
            // committed before the next card shows: how long a person waits for each. The day's
            // limit is raised to let them come: at the preset's 200 (100 reviews due at once)
            // the p99 of a hundred answers was the single slowest, 0.4 to 4.6 ms run to run.
            try measure("review_open_and_leave", ["review"], input: "q\n")
            try measure("raise_review_limit", ["deck", "Bench", "set", "reviews_per_day", "\(timedAnswers)"])
            let terminal = try TerminalSession.review(collection: collection, answers: timedAnswers,
                                                      environment: ["HOME": home, "XDG_DATA_HOME": home, "XDG_STATE_HOME": home, "MAEIL_SPEECH": "stub"])
            figures += [
                BenchFigure(name: "million.review_first_card_\(thousands)_ms", value: terminal.firstCard * 1000, unit: "ms"),
                BenchFigure(name: "million.review_answer_p50_\(thousands)_ms", value: terminal.answerQuantile(0.5) * 1000, unit: "ms"),
                BenchFigure(name: "million.review_answer_p99_\(thousands)_ms", value: terminal.answerQuantile(0.99) * 1000, unit: "ms"),
                BenchFigure(name: "million.review_answer_max_\(thousands)_ms", value: (terminal.answers.max() ?? 0) * 1000, unit: "ms"),
                BenchFigure(name: "million.review_answers_timed_\(thousands)", value: Double(terminal.answers.count), unit: ""),
                BenchFigure(name: "million.review_leave_after_answers_\(thousands)_s", value: terminal.leaving, unit: "s"),
                BenchFigure(name: "million.review_at_terminal_\(thousands)_peak_mb", value: terminal.peakMegabytes, unit: "MB"),
            ]
            try measure("check", ["check"])
            try measure("export_apkg", ["export", "--out", folder.appendingPathComponent("out.apkg").path])
            try measure("optimize", ["optimize"])
            // fsrs-rs fitting the items `optimize` fits, built the same way, in the same run.
            let opened = try Collection(path: collection, readOnly: true)
            let items = try FittingHistory.items(collection: opened, decks: try opened.decks(), now: Date(), timeZone: TimeZone.current)
            if let fsrsRS = try OptimizerBenchmarks.fsrsRSSeconds(items, repeats: 1) {
                figures.append(BenchFigure(name: "million.fsrs_rs_fit_same_\(items.count)_items_s", value: fsrsRS, unit: "s"))
            }
            // Maeil's fit alone on those items, as fsrs-rs's is timed: the command above also
            // reads the log from the collection, builds the items and scores both parameter sets.
            let fit = try Benchmarks.bestTime(repeats: 1) { _ = try Optimizer().fit(items) }
            figures.append(BenchFigure(name: "million.maeil_fit_same_\(items.count)_items_s", value: fit, unit: "s"))
            try measure("sim_deck_30_days", ["sim", "--deck", "Bench", "--days", "30"])
            return figures
        }]
    }
}
