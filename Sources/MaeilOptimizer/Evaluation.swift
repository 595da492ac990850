import Foundation

/// How well parameters predict reviews: fsrs-rs's log loss and RMSE over bins (inference.rs).
package struct Evaluation: Hashable, Sendable, Codable {
    package var logLoss: Double
    package var rmseBins: Double
    package var reviews: Int

    /// Predictions for `items` (unclamped, as fsrs-rs's evaluate), weighted by recency when
    /// `recency` (fsrs-rs's `evaluate`), else all alike (its time-series evaluation).
    package static func evaluate(_ items: [FSRSItem], parameters: [Double], recency: Bool = true) -> Evaluation {
        let weights = recency ? Preparation.recencyWeights(count: items.count) : Array(repeating: 1, count: items.count)
        var accumulator = Accumulator()
        let model = TrainingModel(parameters)
        for (item, weight) in zip(items, weights) {
            model.predict(item.reviews, at: [item.reviews.count - 1]) { _, r in accumulator.add(item, prediction: r, weight: weight) }
        }
        return accumulator.result
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
            let test = items[((split + 1) * segment)..<(split == 4 ? items.count : (split + 2) * segment)]
            let fitted = try optimizer.fit(train) { progress((Double(split) + $0) / 5) }
            splits.append(fitted)
            let currentModel = TrainingModel(current), fittedModel = TrainingModel(fitted)
            for item in test {
                let position = [item.reviews.count - 1]
                currentModel.predict(item.reviews, at: position) { _, r in currentScores.add(item, prediction: r, weight: 1) }
                fittedModel.predict(item.reviews, at: position) { _, r in fittedScores.add(item, prediction: r, weight: 1) }
            }
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
        struct Bin { var predicted = 0.0; var actual = 0.0; var count = 0.0; var weight = 0.0 }
        var loss = 0.0, weights = 0.0, count = 0
        var bins: [BinKey: Bin] = [:]

        struct BinKey: Hashable { var days: Int; var length: Int; var lapses: Int }

        mutating func add(_ item: FSRSItem, prediction p: Double, weight: Double) {
            let y = item.recalled ? 1.0 : 0.0
            loss -= weight * Double(Float(y * log(p) + (1 - y) * log(1 - p)))
            weights += weight
            count += 1
            var bin = bins[Self.key(item), default: Bin()]
            bin.predicted += p
            bin.actual += y
            bin.count += 1
            bin.weight += weight
            bins[Self.key(item)] = bin
        }

        /// fsrs-rs's bin: the target's days, the history's length and its lapses, each on a log scale.
        static func key(_ item: FSRSItem) -> BinKey {
            func bucket(_ x: Double, scale: Double, base: Double) -> Double { scale * pow(base, floor(log(x) / log(base))) }
            let days = item.target.deltaT
            let daysKey = days == 0 ? 0 : Int((bucket(Double(days), scale: 2.48, base: 3.62) * 100).rounded())
            let lengthKey = Int(bucket(Double(item.longTermReviewCount + 1), scale: 1.99, base: 1.89).rounded())
            let lapses = item.reviews.dropLast().filter { $0.rating == 1 && $0.deltaT > 0 }.count
            let lapseKey = lapses == 0 ? 0 : Int(bucket(Double(lapses), scale: 1.65, base: 1.73).rounded())
            return BinKey(days: daysKey, length: lengthKey, lapses: lapseKey)
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
