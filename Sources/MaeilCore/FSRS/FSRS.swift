import Foundation

/// The FSRS-6 memory model: how stability and difficulty change with each answer, and how
/// recall decays. Pure math; the scheduler and the simulator both call it, so the formulas
/// live here only.
///
/// The formulas are evaluated in 32-bit floating point, each in the order fsrs-rs evaluates it,
/// because that is what Anki schedules with: in doubles, one answer in a few thousand lands a
/// second or a ten-thousandth of stability away from Anki's, and the difference then carries
/// on. Values come in and go out as `Double`.
public struct FSRS: Sendable, Hashable {
    /// The 21 weights stored inline: FSRS is then plain data, copied without reference
    /// counting (the simulator copies it on every answer; an array would be retained each time).
    @usableFromInline
    struct Weights: Sendable {
        @usableFromInline var storage: InlineArray<21, Float>

        init(_ weights: [Double]) {
            precondition(weights.count == 21, "FSRSParameters guarantees 21 weights")
            storage = InlineArray { Float(weights[$0]) }
        }

        @inlinable subscript(index: Int) -> Float { storage[index] }
        var array: [Double] { (0..<21).map { Double(storage[$0]) } }
    }

    public static let stabilityRange = 0.001...36_500.0
    public static let difficultyRange = 1.0...10.0

    public let parameters: FSRSParameters
    @usableFromInline let w: Weights
    /// The forgetting curve's exponent, −w20.
    @usableFromInline let decay32: Float
    /// Chosen so that R(S, S) = 0.9: F = e^(ln 0.9 / decay) − 1, in that order (as fsrs-rs and
    /// Anki compute it: 0.9^(1/decay) or e^((1/decay)·ln 0.9) differ in the last bit for about
    /// one decay in twelve, enough to move a long interval by a day).
    @usableFromInline let factor32: Float
    public var decay: Double { Double(decay32) }
    public var factor: Double { Double(factor32) }
    /// Same-day answers at or above this rating never lower stability. fsrs-rs's model (and
    /// Anki) floor from hard; its review simulator from good.
    public let sameDayFloor: Rating
    /// Whether intervals under half a day may be scheduled within the day, as Anki allows with
    /// the default parameters, or with others whose same-day terms w17 and w18 are both positive.
    public let allowsShortTerm: Bool
    // Constants of the formulas, computed once: the simulator evaluates them millions of times.
    private let growthScale: Float  // e^w8
    @usableFromInline let meanDifficulty: Float  // D0(easy), unclamped
    private let shortTermFailureCeiling: Float  // e^(w17·w18)

    public init(parameters: FSRSParameters = .fsrs6Default, sameDayFloor: Rating = .hard) {
        self.parameters = parameters
        self.sameDayFloor = sameDayFloor
        allowsShortTerm = parameters == .fsrs6Default || (parameters.weights[17] > 0 && parameters.weights[18] > 0)
        let w = Weights(parameters.weights)
        self.w = w
        decay32 = -w[20]
        factor32 = Foundation.exp(Foundation.log(Float(0.9)) / decay32) - 1
        growthScale = Foundation.exp(w[8])
        meanDifficulty = w[4] - Foundation.exp(w[5] * 3) + 1
        shortTermFailureCeiling = Foundation.exp(w[17] * w[18])
    }

    /// Probability of recall after `elapsedDays` at stability `stability`: (1 + F·t/S)^decay.
    @inlinable
    public func retrievability(elapsedDays: Double, stability: Double) -> Double {
        Double(retrievability32(Float(max(elapsedDays, 0)), Float(stability)))
    }

    @inlinable
    func retrievability32(_ t: Float, _ s: Float) -> Float {
        Foundation.pow(t / s * factor32 + 1, decay32)
    }

    /// (R^(1/decay) − 1) for a desired retention R: what turns stability into an interval.
    func retentionTerm(_ desiredRetention: Double) -> Float {
        Foundation.pow(Float(desiredRetention), 1 / decay32) - 1
    }

    /// Days until recall falls to `desiredRetention`, before rounding. At 0.9 it equals S.
    public func interval(stability: Double, desiredRetention: Double) -> Double {
        Double(interval32(Float(stability), retentionTerm: retentionTerm(desiredRetention)))
    }

    /// S/F·(R^(1/decay) − 1), at most 36,500 days, in fsrs-rs's order.
    func interval32(_ s: Float, retentionTerm: Float) -> Float {
        min(max(s / factor32 * retentionTerm, 0), Float(Self.stabilityRange.upperBound))
    }

    /// D0(G) = w4 − e^(w5·(G−1)) + 1, unclamped; mean reversion aims at the unclamped D0(easy).
    func rawInitialDifficulty(_ rating: Rating) -> Float {
        w[4] - Foundation.exp(w[5] * Float(rating.rawValue - 1)) + 1
    }

    public func initialMemory(_ rating: Rating) -> MemoryState {
        MemoryState(
            stability: Double(clampStability(w[rating.rawValue - 1])),
            difficulty: Double(clampDifficulty(rawInitialDifficulty(rating))))
    }

    /// Linear damping toward 10, then mean reversion toward D0(easy), then the clamp.
    @inlinable
    public func nextDifficulty(_ difficulty: Double, _ rating: Rating) -> Double {
        Double(nextDifficulty32(Float(difficulty), rating))
    }

    @inlinable
    func nextDifficulty32(_ d: Float, _ rating: Rating) -> Float {
        let delta = -w[6] * Float(rating.rawValue - 3)
        // In Anki's order: (10 − D)·ΔD, then ÷ 9.
        let damped = d + (10 - d) * delta / 9
        return clampDifficulty(w[7] * (meanDifficulty - damped) + damped)
    }

    public func stabilityAfterSuccess(_ memory: MemoryState, retrievability r: Double, rating: Rating) -> Double {
        Double(stabilityAfterSuccess32(Float(memory.stability), growth: successGrowth32(memory, Float(r)), rating: rating))
    }

    /// The part of a pass's stability growth that hard, good and easy share:
    /// e^w8·(11 − D)·S^(−w9)·(e^(w10·(1−R)) − 1). Computed once for all three proposals.
    func successGrowth32(_ memory: MemoryState, _ r: Float) -> Float {
        let s = Float(memory.stability), d = Float(memory.difficulty)
        return growthScale * (11 - d) * Foundation.pow(s, -w[9]) * (Foundation.exp((1 - r) * w[10]) - 1)
    }

    func stabilityAfterSuccess32(_ s: Float, growth: Float, rating: Rating) -> Float {
        let hardPenalty = rating == .hard ? w[15] : 1
        let easyBonus = rating == .easy ? w[16] : 1
        return clampStability(s * (growth * hardPenalty * easyBonus + 1))
    }

    public func stabilityAfterFailure(_ memory: MemoryState, retrievability r: Double) -> Double {
        Double(stabilityAfterFailure32(memory, Float(r)))
    }

    func stabilityAfterFailure32(_ memory: MemoryState, _ r: Float) -> Float {
        let s = Float(memory.stability), d = Float(memory.difficulty)
        let longTerm = w[11] * Foundation.pow(d, -w[12]) * (Foundation.pow(s + 1, w[13]) - 1) * Foundation.exp((1 - r) * w[14])
        return clampStability(min(longTerm, s / shortTermFailureCeiling))
    }

    /// Same-day answers: S·e^(w17·(G − 3 + w18))·S^(−w19). A pass (hard or better, see
    /// `sameDayFloor`) never lowers stability, as in fsrs-rs's model.
    public func stabilityShortTerm(_ stability: Double, rating: Rating) -> Double {
        Double(stabilityShortTerm32(Float(stability), rating: rating))
    }

    func stabilityShortTerm32(_ s: Float, rating: Rating) -> Float {
        var growth = Foundation.exp(w[17] * (Float(rating.rawValue - 3) + w[18])) * Foundation.pow(s, -w[19])
        if rating >= sameDayFloor { growth = max(growth, 1) }
        return clampStability(s * growth)
    }

    /// The memory after an answer. The new stability uses the difficulty and retrievability
    /// from before the answer; difficulty is updated afterwards.
    public func nextMemory(_ memory: MemoryState?, elapsedDays: Int, rating: Rating) -> MemoryState {
        nextMemory(memory, elapsedDays: elapsedDays, rating: rating,
                   terms: memory.map { reviewTerms($0, elapsedDays: elapsedDays, passes: rating.isPass) })
    }

    /// What one answer's proposals share: the retrievability and, for passes, their growth.
    struct ReviewTerms {
        var retrievability: Float = 1
        var successGrowth: Float = 0
    }

    func reviewTerms(_ memory: MemoryState, elapsedDays: Int, passes: Bool) -> ReviewTerms {
        guard elapsedDays > 0 else { return ReviewTerms() }
        let r = retrievability32(Float(elapsedDays), Float(memory.stability))
        return ReviewTerms(retrievability: r, successGrowth: passes ? successGrowth32(memory, r) : 0)
    }

    /// `terms`, when given, must come from `reviewTerms` for this memory and elapsed time.
    func nextMemory(_ memory: MemoryState?, elapsedDays: Int, rating: Rating, terms known: ReviewTerms?) -> MemoryState {
        guard let memory else { return initialMemory(rating) }
        let terms = known ?? reviewTerms(memory, elapsedDays: elapsedDays, passes: rating.isPass)
        let stability: Float
        if elapsedDays == 0 {
            stability = stabilityShortTerm32(Float(memory.stability), rating: rating)
        } else {
            stability = rating == .again
                ? stabilityAfterFailure32(memory, terms.retrievability)
                : stabilityAfterSuccess32(Float(memory.stability), growth: terms.successGrowth, rating: rating)
        }
        return MemoryState(stability: Double(stability), difficulty: Double(nextDifficulty32(Float(memory.difficulty), rating)))
    }

    /// The proposals for `ratings`. A method rather than an initializer taking the model, so
    /// that the model is read where it is stored instead of copied for every answer.
    /// `retentionTerm` is `retentionTerm(desiredRetention)`, computed once by the scheduler.
    func nextStates(memory: MemoryState?, elapsedDays: Int, retentionTerm: Float, ratings: RatingSet = .all) -> FSRSNextStates {
        var states = FSRSNextStates()
        let passes = !ratings.isDisjoint(with: .passes)
        let terms = memory.map { reviewTerms($0, elapsedDays: elapsedDays, passes: passes) }
        for rating in Rating.allCases where ratings.contains(rating) {
            let next = nextMemory(memory, elapsedDays: elapsedDays, rating: rating, terms: terms)
            states.set(rating, FSRSNextStates.Item(memory: next, interval: Double(interval32(Float(next.stability), retentionTerm: retentionTerm))))
        }
        return states
    }

    public static func == (lhs: FSRS, rhs: FSRS) -> Bool {
        lhs.parameters == rhs.parameters && lhs.sameDayFloor == rhs.sameDayFloor
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(parameters)
        hasher.combine(sameDayFloor)
    }

    @inlinable
    func clampStability(_ s: Float) -> Float {
        min(max(s, Float(Self.stabilityRange.lowerBound)), Float(Self.stabilityRange.upperBound))
    }

    @inlinable
    func clampDifficulty(_ d: Float) -> Float {
        min(max(d, 1), 10)
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

    mutating func set(_ rating: Rating, _ item: Item) {
        switch rating {
        case .again: againItem = item
        case .hard: hardItem = item
        case .good: goodItem = item
        case .easy: easyItem = item
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
