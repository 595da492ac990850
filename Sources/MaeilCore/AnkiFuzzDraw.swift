/// Anki's random draw for one answer. Anki seeds a new generator with the card's id plus its
/// reps (rslib `get_fuzz_seed`), so the same answer fuzzes the same way on every device; its
/// generator is rand's `StdRng` (ChaCha with 12 rounds, its key spread from the 64-bit seed by
/// PCG32), and the review fuzz factor, the load balancer's pick and the learning fuzz all come
/// from its first two words. With the same draw Maeil schedules a card exactly as Anki would.
public struct AnkiFuzzDraw: Sendable, Hashable {
    /// The generator's first two 32-bit outputs.
    public let first: UInt32, second: UInt32

    public init(seed: UInt64) {
        let block = Self.chachaBlock(key: Self.pcgKey(seed))
        (first, second) = (block.0, block.1)
    }

    /// For an answer to the card Anki knows by `cardID`, `reps` answers in.
    public init(cardID: Int64, reps: Int) {
        self.init(seed: UInt64(bitPattern: cardID) &+ UInt64(max(reps, 0)))
    }

    /// rand's float in [0, 1) (`random_range(0.0..1.0)` for f32): 23 random bits of mantissa.
    public var factor: Double { Double(Float(first >> 9) * 0x1p-23) }

    /// A learning step's delay with up to min(25 %, 5 minutes) more, as Anki's
    /// `with_learning_fuzz` draws it (`random_range(secs..upper)`, rand's Canon method).
    public func learningSeconds(_ secs: Int) -> Int {
        let upper = secs + Int((Float(secs) * 0.25).rounded(.down).clamped(to: 0...300))
        guard secs < upper else { return secs }
        let range = UInt32(upper - secs)
        let wide = UInt64(first) * UInt64(range)
        var result = UInt32(wide >> 32)
        let low = UInt32(truncatingIfNeeded: wide)
        if low > 0 &- range {
            let corrected = UInt32((UInt64(second) * UInt64(range)) >> 32)
            if low.addingReportingOverflow(corrected).overflow { result += 1 }
        }
        return secs + Int(result)
    }

    /// rand_core's `seed_from_u64`: eight PCG32 outputs as the 32-byte key.
    static func pcgKey(_ seed: UInt64) -> [UInt32] {
        var state = seed
        return (0..<8).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 11_634_580_027_462_260_723
            let shifted = UInt32(truncatingIfNeeded: ((state >> 18) ^ state) >> 27)
            let rotation = UInt32(state >> 59)
            return (shifted >> rotation) | (shifted << ((32 &- rotation) & 31))
        }
    }

    /// The first two words of ChaCha12's block 0 (counter and stream 0) under `key`.
    static func chachaBlock(key: [UInt32]) -> (UInt32, UInt32) {
        let input: [UInt32] = [0x6170_7865, 0x3320_646E, 0x7962_2D32, 0x6B20_6574] + key + [0, 0, 0, 0]
        var x = input
        func quarter(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
            x[a] &+= x[b]; x[d] = (x[d] ^ x[a]).rotatedLeft(16)
            x[c] &+= x[d]; x[b] = (x[b] ^ x[c]).rotatedLeft(12)
            x[a] &+= x[b]; x[d] = (x[d] ^ x[a]).rotatedLeft(8)
            x[c] &+= x[d]; x[b] = (x[b] ^ x[c]).rotatedLeft(7)
        }
        for _ in 0..<6 {
            quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15)
            quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14)
        }
        return (x[0] &+ input[0], x[1] &+ input[1])
    }
}

extension UInt32 {
    fileprivate func rotatedLeft(_ count: UInt32) -> UInt32 { (self << count) | (self >> (32 - count)) }
}
