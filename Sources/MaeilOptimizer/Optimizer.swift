import Foundation
import MaeilCore

/// Fits FSRS-6's 21 parameters to review histories the way fsrs-rs 6.6 does (its
/// compute_parameters): outlier filter, recency weights, pre-training of the four initial
/// stabilities, then Adam over whole card histories with a cosine learning rate, a pull toward
/// the starting point, and fsrs-rs's parameter bounds after every step, the batches taken in
/// the order fsrs-rs takes them (`BatchShuffle`).
package struct Optimizer: Sendable {
    package static let defaultParameters = FSRSParameters.fsrs6Default.weights
    /// fsrs-rs's σ for each parameter's pull toward its starting value.
    static let spread: [Double] = [6.43, 9.66, 17.58, 27.85, 0.57, 0.28, 0.6, 0.12, 0.39, 0.18, 0.33, 0.3, 0.09, 0.16, 0.57, 0.25,
                                   1.03, 0.31, 0.32, 0.14, 0.27]

    package enum Failure: Error, Equatable, CustomStringConvertible {
        case notEnoughData
        case notFinite

        package var description: String {
            switch self {
            case .notEnoughData: "there are not enough reviews to fit FSRS: answer more cards, then run it again"
            case .notFinite: "the fit did not converge to finite parameters"
            }
        }
    }

    package var epochs = 5
    package var batchSize = 512
    package var learningRate = 0.04
    package var gamma = 1.0
    package var seed: UInt64 = 2023
    /// Relearning steps under a day, which bound w17 and w18 (fsrs-rs's parameter clipper).
    package var relearningSteps = 1

    package init() {}

    /// The fitted parameters; `progress` is called with the share done (0…1).
    package func fit(_ items: [FSRSItem], progress: (Double) -> Void = { _ in }) throws -> [Double] {
        let (kept, pretrainingSet) = Preparation.filterOutliers(items)
        guard kept.count >= 8 else { return Self.defaultParameters }
        let weights = Preparation.recencyWeights(count: kept.count)
        var training: [(item: FSRSItem, weight: Double)] = []
        training.reserveCapacity(kept.count)
        for (item, weight) in zip(kept, weights) where item.reviews.count <= Preparation.maxSequenceLength {
            training.append((item, weight))
        }
        let recalled = kept.reduce(0) { $0 + ($1.recalled ? 1 : 0) }
        let averageRecall = Double(Float(recalled) / Float(kept.count))
        let (initial, counts) = try Pretraining.initialStabilities(pretrainingSet, averageRecall: averageRecall)
        var start = Self.defaultParameters
        start.replaceSubrange(0..<4, with: initial)
        // In 32 bits from the start, as fsrs-rs holds them: a parameter the data says nothing
        // about then sits exactly on its starting value, where a rounding difference would be a
        // pull that Adam's normalisation blows up to a full step.
        start = start.map { Double(Float($0)) }
        if kept.count < 64 || kept.allSatisfy({ $0.longTermReviewCount == 1 }) { return start }

        let batches = Self.batches(training, size: batchSize)
        let total = training.count
        var parameters = start
        var adam = Adam(count: 21)
        var schedule = CosineSchedule(rate: learningRate, steps: (total / batchSize + 1) * epochs)
        var shuffle = BatchShuffle(seed: seed)
        for epoch in 0..<epochs {
            let order = shuffle.shuffled(batches.count)
            for (done, index) in order.enumerated() {
                let rate = schedule.step()
                let batch = batches[index]
                var gradient = Self.gradient(parameters, batch.cards)
                let share = Double(batch.predictions) / Double(total)
                for j in 0..<21 {
                    gradient[j] += 2 * gamma * share * (parameters[j] - start[j]) / (Self.spread[j] * Self.spread[j])
                }
                let step = adam.step(gradient, rate: rate)
                for j in 0..<21 {
                    parameters[j] = Double(Float(parameters[j]) - Float(step[j]))
                }
                parameters = Self.clip(parameters, bounds: bounds(parameters))
                progress((Double(epoch) + Double(done + 1) / Double(order.count)) / Double(epochs))
            }
        }
        guard parameters.allSatisfy(\.isFinite) else { throw Failure.notFinite }
        let smoothed = try Pretraining.smoothAndFill(Dictionary(uniqueKeysWithValues: (1...4).map { ($0, parameters[$0 - 1]) }),
                                                     counts: counts)
        parameters.replaceSubrange(0..<4, with: smoothed)
        return parameters.map { Double(Float($0)) }
    }

    /// fsrs-rs's clipper: the bounds, with w17 and w18 held low enough that relearning steps
    /// cannot make a lapse grow stability.
    func bounds(_ w: [Double]) -> [ClosedRange<Double>] {
        var bounds = FSRSParameters.bounds
        bounds[19] = 0.01...0.8
        var ceiling = 2.0
        if relearningSteps > 1 {
            let value = -(log(Float(w[11])) + log(pow(Float(2), Float(w[13])) - 1) + Float(0.3) * Float(w[14])) / Float(relearningSteps)
            ceiling = min(2, Double(sqrt(max(Float(0.01), value))))
        }
        bounds[17] = 0...ceiling
        bounds[18] = 0...ceiling
        return bounds
    }

    static func clip(_ parameters: [Double], bounds: [ClosedRange<Double>]) -> [Double] {
        parameters.indices.map { min(max(parameters[$0], bounds[$0].lowerBound), bounds[$0].upperBound) }
    }

    /// A card's history and the weight of each position it is asked to predict. The positions
    /// and weights are slices of arrays all cards share: half a million cards, each with arrays
    /// of its own, took a million allocations and a fifth of the fit's memory.
    struct CardTargets {
        var reviews: ArraySlice<FSRSReview>
        var positions: ArraySlice<Int>
        var weights: ArraySlice<Double>
    }

    struct Batch {
        var cards: [CardTargets]
        var predictions: Int
    }

    /// fsrs-rs's batches with card ids: a card's items are prefixes of one history, scored in
    /// one pass; cards sorted by their longest history, packed while a batch predicts at most
    /// `size` reviews.
    static func batches(_ training: [(item: FSRSItem, weight: Double)], size: Int) -> [Batch] {
        // By index: an item's reviews are an array, and moving items about would copy them.
        let groups = CardGroups(count: training.count, cardID: { training[$0].item.cardID }, length: { training[$0].item.reviews.count })
        var positions: [Int] = [], weights: [Double] = []
        positions.reserveCapacity(training.count)
        weights.reserveCapacity(training.count)
        var spans: [(reviews: ArraySlice<FSRSReview>, targets: Range<Int>)] = []
        for indices in groups {
            let start = positions.count
            for index in indices {
                positions.append(training[index].item.reviews.count - 1)
                weights.append(training[index].weight)
            }
            spans.append((training[indices.last!].item.reviews, start..<positions.count))
        }
        var batches: [Batch] = []
        var current = Batch(cards: [], predictions: 0)
        for index in spans.indices.sorted(by: { (spans[$0].reviews.count, $0) < (spans[$1].reviews.count, $1) }) {
            let card = CardTargets(reviews: spans[index].reviews, positions: positions[spans[index].targets], weights: weights[spans[index].targets])
            if current.predictions > 0, current.predictions + card.positions.count > size {
                batches.append(current)
                current = Batch(cards: [], predictions: 0)
            }
            current.cards.append(card)
            current.predictions += card.positions.count
        }
        if current.predictions > 0 { batches.append(current) }
        return batches
    }

    /// The gradient of Σ weight·BCE(label, R̂) over a batch, R̂ clamped to [1e-7, 1 − 1e-7].
    /// On one core: a batch is about a tenth of a millisecond of work, and sharing it out cost
    /// as much as it saved (`maeil bench`'s optimize.fit); the other cores score the reviews
    /// meanwhile (`FSRSFitting`).
    static func gradient(_ parameters: [Double], _ cards: [CardTargets]) -> [Double] {
        let model = ReverseGradient(parameters)
        // Summed in four parts, as when the parts ran on four cores: the fit stays what it was.
        let parts = cards.count >= 64 ? 4 : 1
        let size = (cards.count + parts - 1) / parts
        var sums = [Double](repeating: 0, count: 21)
        var scratch = ReverseGradient.Scratch()
        for part in 0..<parts {
            var gradient = [Double](repeating: 0, count: 21)
            for card in cards[min(part * size, cards.count)..<min((part + 1) * size, cards.count)] {
                model.accumulate(card.reviews, positions: card.positions, weights: card.weights, into: &gradient, scratch: &scratch)
            }
            for j in 0..<21 { sums[j] += gradient[j] }
        }
        return sums
    }

    /// The same by forward-mode differentiation of `TrainingModel`: the reference the
    /// hand-derived gradient is tested against.
    static func dualGradient(_ parameters: [Double], _ cards: [CardTargets]) -> [Double] {
        let model = TrainingModel(parameters.indices.map { Dual.variable(parameters[$0], index: $0) })
        var sum = SIMD32<Double>.zero
        for card in cards {
            var weightIndex = 0
            model.predict(card.reviews, at: card.positions) { position, r in
                let weight = card.weights[card.weights.startIndex + weightIndex]
                weightIndex += 1
                guard r.value > 1e-7, r.value < 1 - 1e-7 else { return }
                // d/dθ of −[y ln R + (1−y) ln(1−R)] = −(y/R − (1−y)/(1−R))·dR/dθ
                let recalled = card.reviews[position].rating > 1
                let factor = recalled ? -1 / r.value : 1 / (1 - r.value)
                sum += r.partials * (weight * factor)
            }
        }
        return (0..<21).map { sum[$0] }
    }
}

/// Adam with fsrs-rs's settings: β1 0.9, β2 0.999, ε 1e-8 after the square root, bias-corrected.
struct Adam {
    var m: [Double], v: [Double]
    var t = 0

    init(count: Int) {
        m = Array(repeating: 0, count: count)
        v = Array(repeating: 0, count: count)
    }

    mutating func step(_ gradient: [Double], rate: Double) -> [Double] {
        t += 1
        let b1 = 0.9, b2 = 0.999
        return gradient.indices.map { j in
            m[j] = b1 * m[j] + (1 - b1) * gradient[j]
            v[j] = b2 * v[j] + (1 - b2) * gradient[j] * gradient[j]
            let mHat = m[j] / (1 - pow(b1, Double(t))), vHat = v[j] / (1 - pow(b2, Double(t)))
            return rate * mHat / (vHat.squareRoot() + 1e-8)
        }
    }
}

/// PyTorch's chained cosine annealing (η_min 0), stepped before every batch.
struct CosineSchedule {
    let steps: Int
    let initial: Double
    var rate: Double
    var k = -1

    init(rate: Double, steps: Int) {
        self.rate = rate
        initial = rate
        self.steps = max(steps, 1)
    }

    mutating func step() -> Double {
        k += 1
        guard k > 0 else { return rate }
        let t = Double(steps)
        if (k - 1 - steps) % (2 * steps) == 0 {
            // Where the chained form would divide by zero, PyTorch restarts from the bottom.
            rate = initial * (1 - cos(Double.pi / t)) / 2
        } else {
            rate *= (1 + cos(Double.pi * Double(k) / t)) / (1 + cos(Double.pi * Double(k - 1) / t))
        }
        return rate
    }
}
