/// The order fsrs-rs takes its batches in each epoch: Rust's `StdRng` (ChaCha12, seeded from a
/// u64 through PCG32) and rand's `shuffle` (forward Fisher–Yates drawing several indices from
/// one number). With the same order the fit gives fsrs-rs's parameters to a millionth, so a
/// difference from fsrs-rs is a difference of rule, never of luck.
struct BatchShuffle {
    private var key: [UInt32] = []
    private var counter: UInt64 = 0
    private var block: [UInt32] = []
    private var used = 16

    init(seed: UInt64) {
        // rand_core's seed_from_u64: PCG32 output words, little-endian.
        var state = seed
        for _ in 0..<8 {
            state = state &* 6_364_136_223_846_793_005 &+ 11_634_580_027_462_260_723
            let xorShifted = UInt32(truncatingIfNeeded: ((state >> 18) ^ state) >> 27)
            let rotation = UInt32(truncatingIfNeeded: state >> 59)
            key.append(xorShifted >> rotation | xorShifted << ((32 &- rotation) & 31))
        }
    }

    /// The next 32-bit word of the ChaCha12 stream (block counter from 0, nonce 0).
    mutating func nextWord() -> UInt32 {
        if used == 16 {
            refill()
            used = 0
        }
        defer { used += 1 }
        return block[used]
    }

    private mutating func refill() {
        let input: [UInt32] = [0x6170_7865, 0x3320_646E, 0x7962_2D32, 0x6B20_6574] + key
            + [UInt32(truncatingIfNeeded: counter), UInt32(truncatingIfNeeded: counter >> 32), 0, 0]
        var x = input
        func quarter(_ a: Int, _ b: Int, _ c: Int, _ d: Int) {
            x[a] = x[a] &+ x[b]; x[d] ^= x[a]; x[d] = x[d] << 16 | x[d] >> 16
            x[c] = x[c] &+ x[d]; x[b] ^= x[c]; x[b] = x[b] << 12 | x[b] >> 20
            x[a] = x[a] &+ x[b]; x[d] ^= x[a]; x[d] = x[d] << 8 | x[d] >> 24
            x[c] = x[c] &+ x[d]; x[b] ^= x[c]; x[b] = x[b] << 7 | x[b] >> 25
        }
        for _ in 0..<6 {
            quarter(0, 4, 8, 12); quarter(1, 5, 9, 13); quarter(2, 6, 10, 14); quarter(3, 7, 11, 15)
            quarter(0, 5, 10, 15); quarter(1, 6, 11, 12); quarter(2, 7, 8, 13); quarter(3, 4, 9, 14)
        }
        block = (0..<16).map { x[$0] &+ input[$0] }
        counter &+= 1
    }

    /// A uniform number below `bound`, as rand 0.9 draws one (Canon's method).
    mutating func below(_ bound: UInt32) -> UInt32 {
        let first = UInt64(nextWord()) * UInt64(bound)
        var result = UInt32(first >> 32)
        let low = UInt32(truncatingIfNeeded: first)
        if low > 0 &- bound {
            let second = UInt32((UInt64(nextWord()) * UInt64(bound)) >> 32)
            if low.addingReportingOverflow(second).overflow { result += 1 }
        }
        return result
    }

    /// `count` indices in rand's shuffled order.
    mutating func shuffled(_ count: Int) -> [Int] {
        var order = Array(0..<count)
        guard count > 1 else { return order }
        var chunk: UInt32 = 0
        var remaining = 1  // n = 0 starts with one free draw
        for i in 0..<count {
            let n = UInt32(i + 1)
            var next: Int
            if remaining > 0 {
                next = remaining - 1
            } else {
                // The largest product n·(n+1)·… that fits in 32 bits, and how many factors it has.
                var product = n, factor = n + 1
                while true {
                    let (p, overflow) = product.multipliedReportingOverflow(by: factor)
                    if overflow { break }
                    product = p
                    factor += 1
                }
                chunk = below(product)
                next = Int(factor - n) - 1
            }
            let index: UInt32
            if next == 0 {
                index = chunk
            } else {
                index = chunk % n
                chunk /= n
            }
            remaining = next
            order.swapAt(i, Int(index))
        }
        return order
    }
}
