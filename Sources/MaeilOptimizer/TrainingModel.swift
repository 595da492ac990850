import Foundation

/// One review in an FSRS training item: the rating (1–4) and whole days since the previous
/// review in the item (0 for the first, and for a review the same day).
package struct FSRSReview: Hashable, Sendable {
    package var rating: Int
    package var deltaT: Int

    package init(rating: Int, deltaT: Int) {
        self.rating = rating
        self.deltaT = deltaT
    }
}

/// One card's reviews up to and including the one to predict (the last): what fsrs-rs calls an
/// FSRSItem. The label is whether that last review was a pass.
package struct FSRSItem: Hashable, Sendable {
    /// Always a prefix (from index 0): a card's items share its history's storage, where an
    /// array each made a log of 100,000 reviews copy a million.
    package private(set) var reviews: ArraySlice<FSRSReview>
    package var cardID: Int64

    package init(reviews: [FSRSReview], cardID: Int64) {
        self.init(history: reviews, count: reviews.count, cardID: cardID)
    }

    /// The first `count` reviews of `history`.
    package init(history: [FSRSReview], count: Int, cardID: Int64) {
        reviews = history[..<count]
        self.cardID = cardID
    }

    var target: FSRSReview { reviews[reviews.count - 1] }
    var recalled: Bool { target.rating > 1 }
    /// Reviews on a later day than the one before, the target included.
    var longTermReviewCount: Int { reviews.reduce(0) { $0 + ($1.deltaT > 0 ? 1 : 0) } }
}

/// FSRS-6 as fsrs-rs trains and evaluates it (its model.rs), over any `ModelScalar`: `Double` to
/// predict, `Dual` to get the loss's gradient by the parameters. The scheduler's FSRS
/// (MaeilCore's `FSRS`) computes the same states in fsrs-rs's 32-bit order for Anki's
/// schedules; `TrainingModelTests` holds the two to the same memory on random histories.
struct TrainingModel<Scalar: ModelScalar> {
    let w: [Scalar]
    private let factor: Scalar
    private let meanDifficulty: Scalar  // D0(easy), unclamped

    init(_ w: [Scalar]) {
        precondition(w.count == 21)
        self.w = w
        factor = Scalar.exp(Scalar.log(Scalar(0.9)) / -w[20]) - 1
        meanDifficulty = w[4] - Scalar.exp(w[5] * 3) + 1
    }

    /// R(t, S) = (1 + F·t/S)^(−w20), with R(S, S) = 0.9.
    func retrievability(_ days: Int, _ stability: Scalar) -> Scalar {
        Scalar.pow(factor * Double(max(days, 0)) / stability + 1, -w[20])
    }

    struct Memory {
        var stability: Scalar
        var difficulty: Scalar
    }

    func initial(_ rating: Int) -> Memory {
        Memory(stability: w[rating - 1].clamped(0.001, 36_500),
               difficulty: (w[4] - Scalar.exp(w[5] * Double(rating - 1)) + 1).clamped(1, 10))
    }

    func next(_ memory: Memory, rating: Int, deltaT: Int) -> Memory {
        let s = memory.stability.clamped(0.001, 36_500), d = memory.difficulty.clamped(1, 10)
        let g = Double(rating)
        var stability: Scalar
        if deltaT == 0 {
            var growth = Scalar.exp(w[17] * (w[18] + (g - 3))) * Scalar.pow(s, -w[19])
            if rating >= 2 { growth = Scalar.maximum(growth, Scalar(1)) }
            stability = s * growth
        } else if rating == 1 {
            let r = retrievability(deltaT, s)
            let longTerm = w[11] * Scalar.pow(d, -w[12]) * (Scalar.pow(s + 1, w[13]) - 1) * Scalar.exp(w[14] * (1 - r))
            stability = Scalar.minimum(longTerm, s / Scalar.exp(w[17] * w[18]))
        } else {
            let r = retrievability(deltaT, s)
            var growth = Scalar.exp(w[8]) * (11 - d) * Scalar.pow(s, -w[9]) * (Scalar.exp(w[10] * (1 - r)) - 1)
            if rating == 2 { growth = growth * w[15] }
            if rating == 4 { growth = growth * w[16] }
            stability = s * (growth + 1)
        }
        let damped = d - w[6] * (g - 3) * (10 - d) / 9
        let difficulty = (w[7] * meanDifficulty + (1 - w[7]) * damped).clamped(1, 10)
        stability = stability.clamped(0.001, 36_500)
        return Memory(stability: stability, difficulty: difficulty)
    }

    /// Runs a card's reviews and calls `target` with the prediction for each position in
    /// `positions` (ascending; a position k predicts review k from reviews 0..<k).
    func predict(_ reviews: ArraySlice<FSRSReview>, at positions: ArraySlice<Int>, _ target: (Int, Scalar) -> Void) {
        guard let first = reviews.first else { return }
        var memory = initial(first.rating)
        var next = positions.startIndex
        for k in 1..<reviews.count {
            while next < positions.endIndex, positions[next] < k { next += 1 }
            if next < positions.endIndex, positions[next] == k {
                target(k, retrievability(reviews[k].deltaT, memory.stability.clamped(0.001, 36_500)))
            }
            if k == positions.last { return }
            memory = self.next(memory, rating: reviews[k].rating, deltaT: reviews[k].deltaT)
        }
    }
}
