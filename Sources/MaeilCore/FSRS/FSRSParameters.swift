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
        case outOfRange(index: Int, value: Double)

        public var description: String {
            switch self {
            case .wrongCount(let count): "FSRS needs 21 parameters (or 19 for FSRS-5), not \(count)"
            case .notFinite(let index): "FSRS parameter w\(index) is not a finite number"
            case .outOfRange(let index, let value):
                "FSRS parameter w\(index) must be from \(Self.text(FSRSParameters.bounds[index].lowerBound)) to "
                    + "\(Self.text(FSRSParameters.bounds[index].upperBound)), not \(Self.text(value))"
            }
        }

        static func text(_ value: Double) -> String {
            value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
        }
    }

    /// The range of each weight, as fsrs-rs's parameter clipper keeps them when it trains (w17
    /// and w18 at their widest). Inside these every stability, difficulty and interval the
    /// model computes is finite; outside them a weight of 1000 overflows to infinity.
    public static let bounds: [ClosedRange<Double>] = [
        0.001...100, 0.001...100, 0.001...100, 0.001...100, 1...10, 0.001...4, 0.001...4, 0.001...0.75, 0...4.5, 0...0.8,
        0.001...3.5, 0.001...5, 0.001...0.25, 0.001...0.9, 0...4, 0...1, 1...6, 0...2, 0...2, 0...0.8, 0.1...0.8,
    ]

    /// Weights a person gave: each must lie within its bounds.
    public init(weights: [Double]) throws(Problem) {
        let weights = try Self.widened(weights)
        if let bad = weights.firstIndex(where: { !$0.isFinite }) { throw .notFinite(index: bad) }
        if let bad = weights.indices.first(where: { !Self.bounds[$0].contains(weights[$0]) }) {
            throw .outOfRange(index: bad, value: weights[bad])
        }
        self.weights = weights
    }

    /// Weights from a file Maeil did not write (an Anki package): moved into their bounds, as
    /// fsrs-rs clips them; nil when they are not numbers at all.
    public init?(clamping weights: [Double]) {
        guard let widened = try? Self.widened(weights), widened.allSatisfy(\.isFinite) else { return nil }
        self.weights = widened.indices.map { widened[$0].clamped(to: Self.bounds[$0]) }
    }

    /// FSRS-5's 19 weights with w19 = 0 and w20 = 0.5, as fsrs-rs widens them.
    static func widened(_ weights: [Double]) throws(Problem) -> [Double] {
        switch weights.count {
        case 21: return weights
        case 19: return weights + [0, 0.5]
        default: throw .wrongCount(weights.count)
        }
    }

    init(uncheckedWeights: [Double]) { weights = uncheckedWeights }

    /// A stored preset: weights an older Maeil let through are moved into their bounds rather
    /// than make the collection unreadable.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        guard let weights = FSRSParameters(clamping: try container.decode([Double].self)) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "FSRS needs 21 (or 19) finite parameters")
        }
        self = weights
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(weights)
    }
}
