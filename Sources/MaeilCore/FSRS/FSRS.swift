import Foundation

/// The FSRS-6 memory model: how stability and difficulty change with each answer, and how
/// recall decays. Pure math; the scheduler and the simulator both call it, so the formulas
/// live here only.
public struct FSRS: Sendable, Hashable {
    /// The 21 weights stored inline: FSRS is then plain data, copied without reference
    /// counting (the simulator copies it on every answer; an array would be retained each time).
    @usableFromInline
    struct Weights: Sendable {
        @usableFromInline var storage: InlineArray<21, Double>

        init(_ weights: [Double]) {
            precondition(weights.count == 21, "FSRSParameters guarantees 21 weights")
            storage = InlineArray { weights[$0] }
        }

        @inlinable subscript(index: Int) -> Double { storage[index] }
        var array: [Double] { (0..<21).map { storage[$0] } }
    }

    public static let stabilityRange = 0.001...36_500.0
    public static let difficultyRange = 1.0...10.0

    public var parameters: FSRSParameters { FSRSParameters(uncheckedWeights: w.array) }
    @usableFromInline let w: Weights
    /// The forgetting curve's exponent, −w20.
    public let decay: Double
    /// Chosen so that R(S, S) = 0.9: F = 0.9^(1/decay) − 1.
    public let factor: Double
    /// Same-day answers at or above this rating never lower stability. fsrs-rs's model (and
    /// Anki) floor from hard; its review simulator from good.
    public let sameDayFloor: Rating
    // Constants of the formulas, computed once: the simulator evaluates them millions of times.
    private let growthScale: Double  // e^w8
    @usableFromInline let meanDifficulty: Double  // D0(easy), unclamped
    private let shortTermFailureCeiling: Double  // e^(w17·w18)

    public init(parameters: FSRSParameters = .fsrs6Default, sameDayFloor: Rating = .hard) {
        self.sameDayFloor = sameDayFloor
        let w = Weights(parameters.weights)
        self.w = w
        decay = -w[20]
        factor = pow(0.9, 1 / decay) - 1
        growthScale = exp(w[8])
        meanDifficulty = w[4] - exp(w[5] * 3) + 1
        shortTermFailureCeiling = exp(w[17] * w[18])
    }

    /// Probability of recall after `elapsedDays` at stability `stability`: (1 + F·t/S)^decay.
    @inlinable
    public func retrievability(elapsedDays: Double, stability: Double) -> Double {
        pow(1 + factor * max(elapsedDays, 0) / stability, decay)
    }

    /// Days until recall falls to `desiredRetention`, before rounding. At 0.9 it equals S.
    public func interval(stability: Double, desiredRetention: Double) -> Double {
        stability / factor * (pow(desiredRetention, 1 / decay) - 1)
    }

    /// D0(G) = w4 − e^(w5·(G−1)) + 1, unclamped; mean reversion aims at the unclamped D0(easy).
    func rawInitialDifficulty(_ rating: Rating) -> Double {
        w[4] - exp(w[5] * Double(rating.rawValue - 1)) + 1
    }

    public func initialMemory(_ rating: Rating) -> MemoryState {
        MemoryState(
            stability: clampStability(w[rating.rawValue - 1]),
            difficulty: clampDifficulty(rawInitialDifficulty(rating)))
    }

    /// Linear damping toward 10, then mean reversion toward D0(easy), then the clamp.
    @inlinable
    public func nextDifficulty(_ difficulty: Double, _ rating: Rating) -> Double {
        let delta = -w[6] * Double(rating.rawValue - 3)
        let damped = difficulty + delta * (10 - difficulty) / 9
        let reverted = w[7] * meanDifficulty + (1 - w[7]) * damped
        return clampDifficulty(reverted)
    }

    public func stabilityAfterSuccess(_ memory: MemoryState, retrievability r: Double, rating: Rating) -> Double {
        stabilityAfterSuccess(memory, growth: successGrowth(memory, retrievability: r), rating: rating)
    }

    /// The part of a pass's stability growth that hard, good and easy share:
    /// e^w8·(11 − D)·S^(−w9)·(e^(w10·(1−R)) − 1). Computed once for all three proposals.
    func successGrowth(_ memory: MemoryState, retrievability r: Double) -> Double {
        growthScale * (11 - memory.difficulty) * pow(memory.stability, -w[9]) * (exp(w[10] * (1 - r)) - 1)
    }

    func stabilityAfterSuccess(_ memory: MemoryState, growth: Double, rating: Rating) -> Double {
        let hardPenalty = rating == .hard ? w[15] : 1
        let easyBonus = rating == .easy ? w[16] : 1
        return clampStability(memory.stability * (1 + growth * hardPenalty * easyBonus))
    }

    public func stabilityAfterFailure(_ memory: MemoryState, retrievability r: Double) -> Double {
        let longTerm = w[11] * pow(memory.difficulty, -w[12]) * (pow(memory.stability + 1, w[13]) - 1)
            * exp(w[14] * (1 - r))
        let ceiling = memory.stability / shortTermFailureCeiling
        return clampStability(min(longTerm, ceiling))
    }

    /// Same-day answers: S·e^(w17·(G − 3 + w18))·S^(−w19). A pass (hard or better, see
    /// `sameDayFloor`) never lowers stability, as in fsrs-rs's model.
    public func stabilityShortTerm(_ stability: Double, rating: Rating) -> Double {
        var growth = exp(w[17] * (Double(rating.rawValue) - 3 + w[18])) * pow(stability, -w[19])
        if rating >= sameDayFloor { growth = max(growth, 1) }
        return clampStability(stability * growth)
    }

    /// The memory after an answer. The new stability uses the difficulty and retrievability
    /// from before the answer; difficulty is updated afterwards.
    public func nextMemory(_ memory: MemoryState?, elapsedDays: Int, rating: Rating) -> MemoryState {
        nextMemory(memory, elapsedDays: elapsedDays, rating: rating,
                   terms: memory.map { reviewTerms($0, elapsedDays: elapsedDays, passes: rating.isPass) })
    }

    /// What one answer's proposals share: the retrievability and, for passes, their growth.
    struct ReviewTerms {
        var retrievability = 1.0
        var successGrowth = 0.0
    }

    func reviewTerms(_ memory: MemoryState, elapsedDays: Int, passes: Bool) -> ReviewTerms {
        guard elapsedDays > 0 else { return ReviewTerms() }
        let r = retrievability(elapsedDays: Double(elapsedDays), stability: memory.stability)
        return ReviewTerms(retrievability: r, successGrowth: passes ? successGrowth(memory, retrievability: r) : 0)
    }

    /// `terms`, when given, must come from `reviewTerms` for this memory and elapsed time.
    func nextMemory(_ memory: MemoryState?, elapsedDays: Int, rating: Rating, terms known: ReviewTerms?) -> MemoryState {
        guard let memory else { return initialMemory(rating) }
        let terms = known ?? reviewTerms(memory, elapsedDays: elapsedDays, passes: rating.isPass)
        let stability: Double
        if elapsedDays == 0 {
            stability = stabilityShortTerm(memory.stability, rating: rating)
        } else {
            stability = rating == .again
                ? stabilityAfterFailure(memory, retrievability: terms.retrievability)
                : stabilityAfterSuccess(memory, growth: terms.successGrowth, rating: rating)
        }
        return MemoryState(stability: stability, difficulty: nextDifficulty(memory.difficulty, rating))
    }

    public static func == (lhs: FSRS, rhs: FSRS) -> Bool {
        lhs.w.array == rhs.w.array && lhs.sameDayFloor == rhs.sameDayFloor
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(w.array)
        hasher.combine(sameDayFloor)
    }

    @inlinable
    func clampStability(_ s: Double) -> Double {
        min(max(s, Self.stabilityRange.lowerBound), Self.stabilityRange.upperBound)
    }

    @inlinable
    func clampDifficulty(_ d: Double) -> Double {
        min(max(d, Self.difficultyRange.lowerBound), Self.difficultyRange.upperBound)
    }
}

/// The memory state and unrounded interval FSRS proposes for the answers asked for (all four
/// for the prompt's buttons; only those an answer depends on when answering).
struct FSRSNextStates {
    struct Item {
        var memory: MemoryState
        var interval: Double
    }

    // Four stored slots, not an array: no allocation per answer.
    private var againItem, hardItem, goodItem, easyItem: Item?

    /// The interval is proportional to stability: `intervalPerStability` is
    /// `fsrs.interval(stability: 1, desiredRetention:)`, computed once by the scheduler.
    init(fsrs: FSRS, memory: MemoryState?, elapsedDays: Int, intervalPerStability: Double, ratings: RatingSet = .all) {
        let passes = !ratings.isDisjoint(with: .passes)
        let terms = memory.map { fsrs.reviewTerms($0, elapsedDays: elapsedDays, passes: passes) }
        for rating in Rating.allCases where ratings.contains(rating) {
            let next = fsrs.nextMemory(memory, elapsedDays: elapsedDays, rating: rating, terms: terms)
            let item = Item(memory: next, interval: next.stability * intervalPerStability)
            switch rating {
            case .again: againItem = item
            case .hard: hardItem = item
            case .good: goodItem = item
            case .easy: easyItem = item
            }
        }
    }

    subscript(rating: Rating) -> Item {
        let item: Item?
        switch rating {
        case .again: item = againItem
        case .hard: item = hardItem
        case .good: item = goodItem
        case .easy: item = easyItem
        }
        guard let item else { preconditionFailure("FSRS proposal for \(rating) was not computed") }
        return item
    }

    var again: Item { self[.again] }
    var hard: Item { self[.hard] }
    var good: Item { self[.good] }
    var easy: Item { self[.easy] }
}
