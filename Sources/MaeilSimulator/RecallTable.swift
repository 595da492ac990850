import MaeilCore

/// R(t, S) depends only on t/S. The daily "memorized" sum needs it for every learned item on
/// every day, about 1.5 million times for 10,000 items over a year, and `pow` was most of the
/// run. A table over u = t/S in steps of 1/1024, read with linear interpolation, is exact to
/// about 1e-6; beyond the table the exact formula is used. Recall draws at reviews stay exact.
struct RecallTable {
    let fsrs: FSRS
    let values: [Double]
    static let resolution = 1024.0
    static let limit = 64.0

    init(fsrs: FSRS) {
        self.fsrs = fsrs
        let count = Int(Self.limit * Self.resolution) + 2
        values = (0..<count).map { fsrs.retrievability(elapsedDays: Double($0) / Self.resolution, stability: 1) }
    }

    @inline(__always)
    func recall(elapsedDays: Double, stability: Double) -> Double {
        let position = elapsedDays / stability * Self.resolution
        guard position < Self.limit * Self.resolution else { return fsrs.retrievability(elapsedDays: elapsedDays, stability: stability) }
        let index = Int(position)
        let fraction = position - Double(index)
        return values[index] + (values[index + 1] - values[index]) * fraction
    }
}
