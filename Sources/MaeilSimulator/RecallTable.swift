import MaeilCore
import Synchronization

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
        pairs = Self.pairs(for: fsrs)
    }

    /// Tables built before, by learner model: 16,000 `pow` calls are a tenth of a short run,
    /// and sweeps and repeated runs simulate the same learner again and again.
    private static let built = Mutex<[FSRS: [SIMD2<Double>]]>([:])

    private static func pairs(for fsrs: FSRS) -> [SIMD2<Double>] {
        if let pairs = built.withLock({ $0[fsrs] }) { return pairs }
        let count = Int(limit * resolution) + 2
        let values = (0..<count).map { fsrs.retrievability(elapsedDays: Double($0) / resolution, stability: 1) }
        let pairs = (0..<count).map { SIMD2(values[$0], $0 + 1 < count ? values[$0 + 1] - values[$0] : 0) }
        built.withLock { tables in
            // A few learners at a time, at 260 KB each.
            if tables.count >= 16 { tables.removeAll() }
            tables[fsrs] = pairs
        }
        return pairs
    }

    /// Recall sums are kept in fixed point, R × 2^36, in 64-bit integers: integer sums come out
    /// the same in any order, so the cores can each keep their own and the run's total does not
    /// depend on how many there were. Each term is rounded to within 2^-37 (1e-11); 10 million
    /// items at recall 1 sum to 6.9e17, well inside Int64.
    static let fixedPointScale = 0x1p36

    /// R in fixed point, rounded to nearest: adding 1.5 × 2^52 puts the integer in the low
    /// bits of the double (its last place is then 1), without a checked conversion.
    @inline(__always)
    static func fixedPoint(_ recall: Double) -> Int64 {
        let magic = 0x1.8p52
        return Int64(bitPattern: (recall * fixedPointScale + magic).bitPattern) &- Int64(bitPattern: magic.bitPattern)
    }

    /// Adds R(t, S) for t = 0, 1, 2, … to `days` slots from `first` on, in fixed point: the
    /// hot loop of the daily "memorized" sum, through the table without a division per day.
    /// `elapsed` is t on the first slot (a card reviewed before the simulation began).
    func addRecall(stability: Double, days: Int, into slots: UnsafeMutableBufferPointer<Int64>, from first: Int, elapsed: Int = 0) {
        precondition(first >= 0 && first + days <= slots.count)
        let step = Self.resolution / stability
        guard elapsed == 0 else {
            for day in 0..<days { slots[first + day] &+= Self.fixedPoint(recall(elapsedDays: Double(elapsed + day), stability: stability)) }
            return
        }
        let inTable = min(days, Int(((Self.limit * Self.resolution - 1) / step).rounded(.down)) + 1)
        pairs.withUnsafeBufferPointer { table in
            // The position in 32.32 fixed point: one integer add a day, and the index and the
            // fraction come out of it by shifting and masking, without the checked
            // floating-point-to-integer conversion (three compares and a branch each day).
            // Truncating the step keeps every position at or below the true one, so inside the
            // table; the error after 36,500 days is below 1e-5 of one table step.
            let base = slots.baseAddress! + first
            let fixedStep = UInt64(step * 0x1p32)
            var position: UInt64 = 0
            for day in 0..<inTable {
                let point = table[Int(truncatingIfNeeded: position &>> 32)]
                let fraction = Double(UInt32(truncatingIfNeeded: position)) * 0x1p-32
                base[day] &+= Self.fixedPoint(point.x + point.y * fraction)
                position &+= fixedStep
            }
        }
        for day in inTable..<days {
            slots[first + day] &+= Self.fixedPoint(fsrs.retrievability(elapsedDays: Double(day), stability: stability))
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
