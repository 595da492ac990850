/// FSRS model weights w0…w20. FSRS-5's 19 weights are accepted and widened the way fsrs-rs
/// does it: w19 = 0 (no stability-dependent same-day term) and w20 = 0.5 (fixed decay).
public struct FSRSParameters: Hashable, Sendable, Codable {
    public let weights: [Double]

    public static let fsrs6Default = FSRSParameters(uncheckedWeights: [
        0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796,
        1.4835, 0.0614, 0.2629, 1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542,
    ])

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case wrongCount(Int)
        case notFinite(index: Int)
        case decayOutOfRange(Double)

        public var description: String {
            switch self {
            case .wrongCount(let count): "FSRS needs 21 parameters (or 19 for FSRS-5), not \(count)"
            case .notFinite(let index): "FSRS parameter w\(index) is not a finite number"
            case .decayOutOfRange(let decay): "FSRS decay w20 must be above 0, not \(decay)"
            }
        }
    }

    public init(weights: [Double]) throws(Problem) {
        var weights = weights
        switch weights.count {
        case 21: break
        case 19: weights += [0, 0.5]
        default: throw .wrongCount(weights.count)
        }
        if let bad = weights.firstIndex(where: { !$0.isFinite }) { throw .notFinite(index: bad) }
        guard weights[20] > 0 else { throw .decayOutOfRange(weights[20]) }
        self.weights = weights
    }

    init(uncheckedWeights: [Double]) { weights = uncheckedWeights }

    public init(from decoder: any Decoder) throws {
        let weights = try decoder.singleValueContainer().decode([Double].self)
        try self.init(weights: weights)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(weights)
    }
}
