import Foundation
import MaeilOptimizer

/// Fitting FSRS to 100,000 reviews (scripts/anki/optimizer-check.py times fsrs-rs on logs alike).
enum OptimizerBenchmarks {
    static var all: [Benchmark] {
        [
            Benchmark(name: "optimize.fit") {
                // A simulated learner far from the defaults; about 100,000 reviews.
                let truth = [0.1, 0.6, 1.2, 4.0, 7.5, 1.0, 3.5, 0.05, 1.4, 0.25, 0.6, 2.0, 0.05, 0.2, 2.0, 0.7, 1.5, 0.7, 0.1, 0.05, 0.4]
                let items = SyntheticLog.items(parameters: truth, cards: 8500, seed: 2)
                precondition(items.count > 95_000 && items.count < 110_000, "\(items.count)")
                let seconds = try Benchmarks.bestTime(repeats: 3) { _ = try Optimizer().fit(items) }
                return [BenchFigure(name: "optimize.fit_\(items.count / 1000)k_reviews_s", value: seconds, unit: "s")]
            },
        ]
    }
}
