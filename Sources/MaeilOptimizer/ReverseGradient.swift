import Foundation

/// The loss's gradient by the 21 parameters for one card's history, derived by hand in reverse
/// mode: one pass forward keeps each state, one pass back carries the adjoints of stability and
/// difficulty. It computes what `TrainingModel<Dual>` computes (the tests hold the two to 1e-9)
/// at about a twentieth of the cost, since forward mode carries 21 partials through every step.
struct ReverseGradient {
    /// Inline: read on every step of every card, an array would be retained and released each time.
    let w: InlineArray<21, Double>
    private let f: Double             // 0.9^(−1/w20) − 1
    private let dfdDecay: Double      // df/dw20
    private let meanDifficulty: Double  // D0(easy), unclamped
    private let growthScale: Double   // e^w8
    private let lapseCeiling: Double  // e^(w17·w18)

    init(_ w: [Double]) {
        precondition(w.count == 21)
        self.w = InlineArray { w[$0] }
        let ln09 = log(0.9)
        f = exp(-ln09 / w[20]) - 1
        dfdDecay = (f + 1) * ln09 / (w[20] * w[20])
        meanDifficulty = w[4] - exp(3 * w[5]) + 1
        growthScale = exp(w[8])
        lapseCeiling = exp(w[17] * w[18])
    }

    /// R(t, s) and its derivatives by s and by w20.
    @inline(__always)
    private func retrievability(_ t: Double, _ s: Double) -> (r: Double, ds: Double, dDecay: Double) {
        let c = w[20]
        let base = 1 + f * t / s
        let r = pow(base, -c)
        let ds = c * r / base * f * t / (s * s)
        let dDecay = -log(base) * r + (-c * r / base * t / s) * dfdDecay
        return (r, ds, dDecay)
    }

    /// What a step computed on the way forward that the way back needs again: R and its
    /// derivatives, and the powers and exponentials of the branch taken. Kept, not recomputed.
    struct StepCache {
        var r = 1.0, drds = 0.0, drdDecay = 0.0
        var first = 0.0, second = 0.0, third = 0.0
    }

    /// The states and caches of one card, kept between cards so that a batch allocates once.
    struct Scratch {
        var stability: [Double] = []
        var difficulty: [Double] = []
        var caches: [StepCache] = []
    }

    /// Adds this card's weighted BCE gradient to `gradient`, reusing `scratch` from card to card.
    func accumulate(_ reviews: ArraySlice<FSRSReview>, positions: ArraySlice<Int>, weights: ArraySlice<Double>, into gradient: inout [Double],
                    scratch: inout Scratch) {
        guard let last = positions.last, last >= 1 else { return }
        // States after reviews 0…last−1, and what each step computed.
        if scratch.stability.count < last + 1 {
            scratch.stability = [Double](repeating: 0, count: (last + 1) * 2)
            scratch.difficulty = [Double](repeating: 0, count: (last + 1) * 2)
            scratch.caches = [StepCache](repeating: StepCache(), count: (last + 1) * 2)
        }
        var stability = scratch.stability, difficulty = scratch.difficulty, caches = scratch.caches
        scratch.stability = []
        scratch.difficulty = []
        scratch.caches = []
        defer {
            scratch.stability = stability
            scratch.difficulty = difficulty
            scratch.caches = caches
        }
        let g0 = reviews[0].rating
        let rawD0 = w[4] - exp(w[5] * Double(g0 - 1)) + 1
        stability[0] = min(max(w[g0 - 1], 0.001), 36_500)
        difficulty[0] = min(max(rawD0, 1), 10)
        if last > 1 {
            for k in 1..<last {
                (stability[k], difficulty[k], caches[k]) = forward(stability[k - 1], difficulty[k - 1], reviews[k])
            }
        }
        var adjointS = 0.0, adjointD = 0.0
        var target = positions.count - 1
        for k in stride(from: last, through: 1, by: -1) {
            if target >= 0, positions[positions.startIndex + target] == k {
                // A target is a review on a later day: its step (if taken) computed this R already.
                let (r, drds, drdDecay) = k < last
                    ? (caches[k].r, caches[k].drds, caches[k].drdDecay)
                    : retrievability(Double(reviews[k].deltaT), stability[k - 1])
                let weight = weights[weights.startIndex + target]
                if r > 1e-7, r < 1 - 1e-7 {
                    let dLdR = weight * (reviews[k].rating > 1 ? -1 / r : 1 / (1 - r))
                    adjointS += dLdR * drds
                    gradient[20] += dLdR * drdDecay
                }
                target -= 1
            }
            if k - 1 >= 1 {
                (adjointS, adjointD) = backward(stability[k - 2], difficulty[k - 2], reviews[k - 1], caches[k - 1], adjointS, adjointD,
                                                &gradient)
            }
        }
        // Into the first review's stability and difficulty.
        if w[g0 - 1] >= 0.001, w[g0 - 1] <= 36_500 { gradient[g0 - 1] += adjointS }
        if rawD0 >= 1, rawD0 <= 10 {
            gradient[4] += adjointD
            gradient[5] += adjointD * -Double(g0 - 1) * exp(w[5] * Double(g0 - 1))
        }
    }

    @inline(__always)
    private func forward(_ s: Double, _ d: Double, _ review: FSRSReview) -> (Double, Double, StepCache) {
        let g = Double(review.rating)
        var cache = StepCache()
        var next: Double
        if review.deltaT == 0 {
            let growth = exp(w[17] * (w[18] + (g - 3))) * pow(s, -w[19])
            cache.first = growth
            next = s * (review.rating >= 2 && growth < 1 ? 1 : growth)
        } else {
            (cache.r, cache.drds, cache.drdDecay) = retrievability(Double(review.deltaT), s)
            let r = cache.r
            if review.rating == 1 {
                cache.first = pow(d, -w[12])
                cache.second = pow(s + 1, w[13])
                cache.third = exp(w[14] * (1 - r))
                next = min(w[11] * cache.first * (cache.second - 1) * cache.third, s / lapseCeiling)
            } else {
                cache.first = pow(s, -w[9])
                cache.second = exp(w[10] * (1 - r))
                var growth = growthScale * (11 - d) * cache.first * (cache.second - 1)
                if review.rating == 2 { growth *= w[15] }
                if review.rating == 4 { growth *= w[16] }
                next = s * (growth + 1)
            }
        }
        let damped = d - w[6] * (g - 3) * (10 - d) / 9
        let reverted = w[7] * meanDifficulty + (1 - w[7]) * damped
        return (min(max(next, 0.001), 36_500), min(max(reverted, 1), 10), cache)
    }

    /// Carries the adjoints of the state after `review` back to the state before it, adding the
    /// parameters' share to `gradient`.
    @inline(__always)
    private func backward(_ s: Double, _ d: Double, _ review: FSRSReview, _ cache: StepCache, _ adjointNextS: Double,
                          _ adjointNextD: Double, _ gradient: inout [Double]) -> (Double, Double) {
        let g = Double(review.rating)
        var adjointS = 0.0, adjointD = 0.0
        // Difficulty: damping, mean reversion, clamp.
        let damped = d - w[6] * (g - 3) * (10 - d) / 9
        let reverted = w[7] * meanDifficulty + (1 - w[7]) * damped
        if reverted >= 1, reverted <= 10 {
            let a = adjointNextD
            gradient[7] += a * (meanDifficulty - damped)
            gradient[4] += a * w[7]
            gradient[5] += a * w[7] * -3 * exp(3 * w[5])
            let aDamped = a * (1 - w[7])
            adjointD += aDamped * (1 + w[6] * (g - 3) / 9)
            gradient[6] += aDamped * -(g - 3) * (10 - d) / 9
        }
        // Stability, before its clamp.
        let a = adjointNextS
        if review.deltaT == 0 {
            let growth = cache.first
            if review.rating >= 2, growth < 1 {
                if s >= 0.001, s <= 36_500 { adjointS += a }
            } else if s * growth >= 0.001, s * growth <= 36_500 {
                adjointS += a * growth * (1 - w[19])
                gradient[17] += a * s * growth * (w[18] + (g - 3))
                gradient[18] += a * s * growth * w[17]
                gradient[19] += a * s * growth * -log(s)
            }
        } else if review.rating == 1 {
            let (r, drds, drdDecay) = (cache.r, cache.drds, cache.drdDecay)
            let power = cache.first, grown = cache.second, recall = cache.third
            let longTerm = w[11] * power * (grown - 1) * recall
            let ceiling = s / lapseCeiling
            if longTerm <= ceiling {
                if longTerm >= 0.001, longTerm <= 36_500 {
                    gradient[11] += a * power * (grown - 1) * recall
                    gradient[12] += a * longTerm * -log(d)
                    gradient[13] += a * w[11] * power * recall * grown * log(s + 1)
                    gradient[14] += a * longTerm * (1 - r)
                    adjointD += a * longTerm * -w[12] / d
                    let dLongTermdR = longTerm * -w[14]
                    adjointS += a * (w[11] * power * recall * w[13] * pow(s + 1, w[13] - 1) + dLongTermdR * drds)
                    gradient[20] += a * dLongTermdR * drdDecay
                }
            } else if ceiling >= 0.001, ceiling <= 36_500 {
                adjointS += a / lapseCeiling
                gradient[17] += a * -ceiling * w[18]
                gradient[18] += a * -ceiling * w[17]
            }
        } else {
            let (r, drds, drdDecay) = (cache.r, cache.drds, cache.drdDecay)
            let multiplier = review.rating == 2 ? w[15] : (review.rating == 4 ? w[16] : 1)
            let power = cache.first, recall = cache.second
            let shared = growthScale * (11 - d) * power  // growth = shared·(recall − 1)·multiplier
            let plain = shared * (recall - 1)
            let growth = plain * multiplier
            let next = s * (growth + 1)
            if next >= 0.001, next <= 36_500 {
                let aGrowth = a * s
                gradient[8] += aGrowth * growth
                gradient[9] += aGrowth * growth * -log(s)
                gradient[10] += aGrowth * shared * multiplier * recall * (1 - r)
                if review.rating == 2 { gradient[15] += aGrowth * plain }
                if review.rating == 4 { gradient[16] += aGrowth * plain }
                adjointD += aGrowth * -growthScale * power * (recall - 1) * multiplier
                let dGrowthdR = shared * multiplier * recall * -w[10]
                adjointS += a * (growth + 1) + aGrowth * (growth * -w[9] / s + dGrowthdR * drds)
                gradient[20] += aGrowth * dGrowthdR * drdDecay
            }
        }
        return (adjointS, adjointD)
    }
}
