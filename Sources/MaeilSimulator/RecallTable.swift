import MaeilCore

/// R(t, S) depends only on t/S. The daily "memorized" sum needs it for every learned item on
/// every day, about 1.5 million times for 10,000 items over a year, and `pow` was most of the
/// run. A table over u = t/S in steps of 1/256, read with linear interpolation, is within
/// 4e-7 of the formula (the curve's second derivative is at most 0.2, so the error is at most
/// 0.2/8/256²); beyond u = 64 the formula is used. Reviews draw recall from it too: an error
/// of 4e-7 in a probability cannot be seen in any figure the simulator reports, and building
/// the table costs 16,000 `pow` calls instead of 65,000.
struct RecallTable {
    let fsrs: FSRS
    static let resolution = 256.0
    static let limit = 64.0

    /// Each table point's value and the step to the next, side by side: the hot loop reads one
    /// pair instead of two values and a difference.
    let pairs: [SIMD2<Double>]

    init(fsrs: FSRS) {
        self.fsrs = fsrs
        let count = Int(Self.limit * Self.resolution) + 2
        let values = (0..<count).map { fsrs.retrievability(elapsedDays: Double($0) / Self.resolution, stability: 1) }
        pairs = (0..<count).map { SIMD2(values[$0], $0 + 1 < count ? values[$0 + 1] - values[$0] : 0) }
    }

    /// Adds R(t, S) for t = 0, 1, 2, … to `days` slots from `first` on: the hot loop of the
    /// daily "memorized" sum, through the table without a division per day.
    /// `elapsed` is t on the first slot (a card reviewed before the simulation began).
    func addRecall(stability: Double, days: Int, into slots: inout [Double], from first: Int, elapsed: Int = 0) {
        precondition(first >= 0 && first + days <= slots.count)
        let step = Self.resolution / stability
        guard elapsed == 0 else {
            for day in 0..<days { slots[first + day] += recall(elapsedDays: Double(elapsed + day), stability: stability) }
            return
        }
        let inTable = min(days, Int(((Self.limit * Self.resolution - 1) / step).rounded(.down)) + 1)
        pairs.withUnsafeBufferPointer { table in
            slots.withUnsafeMutableBufferPointer { out in
                // Each position from its own product, not a running sum: no chain from one day
                // to the next, so the processor overlaps the iterations.
                let base = out.baseAddress! + first
                for day in 0..<inTable {
                    let position = Double(day) * step
                    let index = Int(position)
                    let point = table[index]
                    base[day] += point.x + point.y * (position - Double(index))
                }
            }
        }
        for day in inTable..<days {
            slots[first + day] += fsrs.retrievability(elapsedDays: Double(day), stability: stability)
        }
    }

    @inline(__always)
    func recall(elapsedDays: Double, stability: Double) -> Double {
        let position = elapsedDays / stability * Self.resolution
        guard position < Self.limit * Self.resolution else { return fsrs.retrievability(elapsedDays: elapsedDays, stability: stability) }
        let index = Int(position)
        let point = pairs[index]
        return point.x + point.y * (position - Double(index))
    }
}
