import Foundation

/// How well parameters predict reviews: fsrs-rs's log loss and RMSE over bins (inference.rs).
package struct Evaluation: Hashable, Sendable, Codable {
    package var logLoss: Double
    package var rmseBins: Double
    package var reviews: Int

    /// Predictions for `items` (unclamped, as fsrs-rs's evaluate), weighted by recency when
    /// `recency` (fsrs-rs's `evaluate`), else all alike (its time-series evaluation).
    package static func evaluate(_ items: [FSRSItem], parameters: [Double], recency: Bool = true) -> Evaluation {
        ScoringSet(items[...], recency: recency).evaluate(parameters)
    }

    /// Held-out evaluation (fsrs-rs's TimeSeriesSplit): five times, fit on the reviews up to a
    /// point and predict the next sixth; `current` is scored on the same sixths without a fit.
    /// Returns nil below 6 items.
    package static func heldOut(_ items: [FSRSItem], current: [Double], optimizer: Optimizer,
                               progress: (Double) -> Void = { _ in }) throws -> HeldOut? {
        guard items.count >= 6 else { return nil }
        let segment = items.count / 6
        var currentScores = Accumulator(), fittedScores = Accumulator()
        var splits: [[Double]] = []
        for split in 0..<5 {
            let train = Array(items[0..<((split + 1) * segment)])
            let test = ScoringSet(items[((split + 1) * segment)..<(split == 4 ? items.count : (split + 2) * segment)], recency: false)
            let fitted = try optimizer.fit(train) { progress((Double(split) + $0) / 5) }
            splits.append(fitted)
            test.score(current, into: &currentScores)
            test.score(fitted, into: &fittedScores)
        }
        return HeldOut(current: currentScores.result, fitted: fittedScores.result, splits: splits)
    }

    package struct HeldOut: Sendable {
        package var current: Evaluation
        package var fitted: Evaluation
        /// The parameters each split's fit found.
        package var splits: [[Double]]
    }

    struct Accumulator {
        struct Bin {
            var predicted = 0.0, actual = 0.0, count = 0.0, weight = 0.0

            mutating func add(predicted p: Double, actual y: Double, weight w: Double) {
                predicted += p
                actual += y
                count += 1
                weight += w
            }
        }
        var loss = 0.0, weights = 0.0, count = 0
        var bins: [BinKey: Bin] = [:]

        struct BinKey: Hashable { var days: Int; var length: Int; var lapses: Int }

        mutating func add(_ key: BinKey, recalled: Bool, prediction p: Double, weight: Double) {
            let y = recalled ? 1.0 : 0.0
            loss -= weight * Double(Float(y * log(p) + (1 - y) * log(1 - p)))
            weights += weight
            count += 1
            bins[key, default: Bin()].add(predicted: p, actual: y, weight: weight)
        }

        /// fsrs-rs's bins: the target's days, the history's length and its lapses, each on a log
        /// scale. Each bucket costs a logarithm and a power, and a log has few distinct values:
        /// each is worked out once.
        struct BinKeys {
            private var days: [Int: Int] = [:], lengths: [Int: Int] = [:], lapses: [Int: Int] = [:]

            mutating func key(_ item: FSRSItem) -> BinKey {
                func bucket(_ x: Int, scale: Double, base: Double) -> Double {
                    scale * pow(base, floor(log(Double(x)) / log(base)))
                }
                var longTerm = 0, lapseCount = 0
                for (index, review) in item.reviews.enumerated() where review.deltaT > 0 {
                    longTerm += 1
                    if review.rating == 1, index < item.reviews.count - 1 { lapseCount += 1 }
                }
                let deltaT = item.target.deltaT
                let daysKey = deltaT == 0 ? 0 : memo(&days, deltaT) { Int((bucket($0, scale: 2.48, base: 3.62) * 100).rounded()) }
                let lengthKey = memo(&lengths, longTerm + 1) { Int(bucket($0, scale: 1.99, base: 1.89).rounded()) }
                let lapseKey = lapseCount == 0 ? 0 : memo(&lapses, lapseCount) { Int(bucket($0, scale: 1.65, base: 1.73).rounded()) }
                return BinKey(days: daysKey, length: lengthKey, lapses: lapseKey)
            }

            private func memo(_ table: inout [Int: Int], _ value: Int, _ compute: (Int) -> Int) -> Int {
                if let known = table[value] { return known }
                let key = compute(value)
                table[value] = key
                return key
            }
        }

        var result: Evaluation {
            var squares = 0.0, total = 0.0
            for bin in bins.values {
                let difference = bin.predicted / bin.count - bin.actual / bin.count
                squares += bin.weight * difference * difference
                total += bin.weight
            }
            return Evaluation(logLoss: weights > 0 ? loss / weights : 0, rmseBins: total > 0 ? (squares / total).squareRoot() : 0, reviews: count)
        }
    }
}
