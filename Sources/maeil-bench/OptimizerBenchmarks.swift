import Foundation
import MaeilPrograms
import MaeilOptimizer

/// Fitting FSRS to about 100,000 reviews, and fsrs-rs fitting the same items side by side when
/// its Python package is installed (scripts/setup puts it in .build/anki-venv; MAEIL_FSRS_PYTHON
/// names another interpreter).
enum OptimizerBenchmarks {
    static var all: [Benchmark] {
        [
            Benchmark(name: "optimize.fit") {
                // A simulated learner far from the defaults; about 100,000 reviews.
                let truth = [0.1, 0.6, 1.2, 4.0, 7.5, 1.0, 3.5, 0.05, 1.4, 0.25, 0.6, 2.0, 0.05, 0.2, 2.0, 0.7, 1.5, 0.7, 0.1, 0.05, 0.4]
                let items = SyntheticLog.items(parameters: truth, cards: 8500, seed: 2)
                precondition(items.count > 95_000 && items.count < 110_000, "\(items.count)")
                let seconds = try Benchmarks.bestTime(repeats: 3) { _ = try Optimizer().fit(items) }
                let name = "\(items.count / 1000)k_reviews_s"
                var figures = [BenchFigure(name: "optimize.fit_" + name, value: seconds, unit: "s")]
                if let fsrsRS = try fsrsRSSeconds(items) {
                    figures.append(BenchFigure(name: "optimize.fsrs_rs_fit_" + name, value: fsrsRS, unit: "s"))
                }
                return figures
            },
            Benchmark(name: "optimize.run") { try wholeRun(cards: 3500) + wholeRun(cards: 9000) },
        ]
    }

    /// `maeil optimize --csv` from start to end (reading the log, building the items, the fit,
    /// scoring both parameter sets) on a simulated learner's `cards`, beside fsrs-rs fitting the
    /// same items (already built, in memory), as Anki has it: both for fsrs-rs's 5 passes.
    static func wholeRun(cards: Int) throws -> [BenchFigure] {
        let truth = [0.1, 0.6, 1.2, 4.0, 7.5, 1.0, 3.5, 0.05, 1.4, 0.25, 0.6, 2.0, 0.05, 0.2, 2.0, 0.7, 1.5, 0.7, 0.1, 0.05, 0.4]
        let csv = SyntheticLog.csv(parameters: truth, cards: cards, seed: 2)
        let build = { try ItemBuilder.items(csv: csv, timeZone: TimeZone(identifier: "UTC")!, rolloverHour: 4) }
        let items = try build()
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-bench-\(UUID().uuidString).csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let seconds = try Benchmarks.bestTime(repeats: 3) {
            let output = try MaeilChild.output(["optimize", "--csv", file.path, "--json", "--epochs", "5"])
            guard (try JSONSerialization.jsonObject(with: output) as? [String: Any])?["items"] as? Int == items.count else {
                throw BenchFailure(description: "maeil optimize did not fit the \(items.count) items")
            }
        }
        let name = "\(items.count / 1000)k_reviews"
        var figures = [
            BenchFigure(name: "optimize.run_\(name)_s", value: seconds, unit: "s"),
            BenchFigure(name: "optimize.items_from_csv_\(name)_s", value: try Benchmarks.bestTime(repeats: 3) { _ = try build() }, unit: "s"),
        ]
        if let fsrsRS = try fsrsRSSeconds(items) {
            figures.append(BenchFigure(name: "optimize.fsrs_rs_fit_\(name)_s", value: fsrsRS, unit: "s"))
            figures.append(BenchFigure(name: "optimize.run_per_fsrs_rs_fit_\(name)", value: seconds / fsrsRS, unit: "×"))
        }
        return figures
    }

    /// fsrs-rs-python's compute_parameters on the same items (with card ids, as Anki calls it),
    /// best of `repeats`; nil when it is not installed.
    static func fsrsRSSeconds(_ items: [FSRSItem], repeats: Int = 3) throws -> Double? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-bench-fsrs-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = items.map { item in ["card": item.cardID, "reviews": item.reviews.map { [$0.rating, $0.deltaT] }] as [String: Any] }
        try JSONSerialization.data(withJSONObject: data).write(to: folder.appendingPathComponent("items.json"))
        let script = """
            import json, sys, time
            from fsrs_rs_python import FSRS, FSRSItem, FSRSReview, DEFAULT_PARAMETERS
            data = json.load(open(sys.argv[1]))
            items = [FSRSItem([FSRSReview(r, d) for r, d in entry["reviews"]]) for entry in data]
            cards = [entry["card"] for entry in data]
            best = min((lambda start: (FSRS(DEFAULT_PARAMETERS).compute_parameters(items, card_ids=cards), time.perf_counter() - start)[1])(time.perf_counter()) for _ in range(\(repeats)))
            print(best)
            """
        return try FSRSRSPython.number(script: script, arguments: [folder.appendingPathComponent("items.json").path])
    }
}

/// fsrs-rs's Python package, for the figures measured beside Maeil's: scripts/setup installs it
/// in .build/anki-venv; MAEIL_FSRS_PYTHON names another interpreter.
enum FSRSRSPython {
    /// The number a script prints, or nil when the package is not there or the script fails.
    static func number(script: String, arguments: [String]) throws -> Double? {
        let candidates = [ProcessInfo.processInfo.environment["MAEIL_FSRS_PYTHON"], ".build/anki-venv/bin/python"].compactMap { $0 }
        guard let python = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
        let result = try ExternalProgram.run(python, ["-c", script] + arguments)
        guard result.status == 0 else { return nil }
        return Double(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
