import Foundation

/// The FSRS-6 memory model: how stability and difficulty change with each answer, and how
/// recall decays. Pure math; the scheduler and the simulator both call it, so the formulas
/// live here only.
public struct FSRS: Sendable, Hashable {
    public static let stabilityRange = 0.001...36_500.0
    public static let difficultyRange = 1.0...10.0

    public let parameters: FSRSParameters
    private let w: [Double]
    /// The forgetting curve's exponent, −w20.
    public let decay: Double
    /// Chosen so that R(S, S) = 0.9: F = 0.9^(1/decay) − 1.
    public let factor: Double
    /// Same-day answers at or above this rating never lower stability. fsrs-rs's model (and
    /// Anki) floor from hard; its review simulator from good.
    public let sameDayFloor: Rating

    public init(parameters: FSRSParameters = .fsrs6Default, sameDayFloor: Rating = .hard) {
        self.parameters = parameters
        self.sameDayFloor = sameDayFloor
        w = parameters.weights
        decay = -w[20]
        factor = pow(0.9, 1 / decay) - 1
    }

    /// Probability of recall after `elapsedDays` at stability `stability`: (1 + F·t/S)^decay.
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
    public func nextDifficulty(_ difficulty: Double, _ rating: Rating) -> Double {
        let delta = -w[6] * Double(rating.rawValue - 3)
        let damped = difficulty + delta * (10 - difficulty) / 9
        let reverted = w[7] * rawInitialDifficulty(.easy) + (1 - w[7]) * damped
        return clampDifficulty(reverted)
    }

    public func stabilityAfterSuccess(_ memory: MemoryState, retrievability r: Double, rating: Rating) -> Double {
        let hardPenalty = rating == .hard ? w[15] : 1
        let easyBonus = rating == .easy ? w[16] : 1
        let growth = exp(w[8]) * (11 - memory.difficulty) * pow(memory.stability, -w[9])
            * (exp(w[10] * (1 - r)) - 1) * hardPenalty * easyBonus
        return clampStability(memory.stability * (1 + growth))
    }

    public func stabilityAfterFailure(_ memory: MemoryState, retrievability r: Double) -> Double {
        let longTerm = w[11] * pow(memory.difficulty, -w[12]) * (pow(memory.stability + 1, w[13]) - 1)
            * exp(w[14] * (1 - r))
        let ceiling = memory.stability / exp(w[17] * w[18])
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
        guard let memory else { return initialMemory(rating) }
        let stability: Double
        if elapsedDays == 0 {
            stability = stabilityShortTerm(memory.stability, rating: rating)
        } else {
            let r = retrievability(elapsedDays: Double(elapsedDays), stability: memory.stability)
            stability = rating == .again
                ? stabilityAfterFailure(memory, retrievability: r)
                : stabilityAfterSuccess(memory, retrievability: r, rating: rating)
        }
        return MemoryState(stability: stability, difficulty: nextDifficulty(memory.difficulty, rating))
    }

    func clampStability(_ s: Double) -> Double {
        min(max(s, Self.stabilityRange.lowerBound), Self.stabilityRange.upperBound)
    }

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
    init(fsrs: FSRS, memory: MemoryState?, elapsedDays: Int, intervalPerStability: Double, ratings: [Rating] = Rating.allCases) {
        for rating in ratings {
            let next = fsrs.nextMemory(memory, elapsedDays: elapsedDays, rating: rating)
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
