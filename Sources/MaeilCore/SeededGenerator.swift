/// Deterministic random numbers. The core never touches the system generator: callers pass
/// a seeded generator, so a simulation or a fuzzed schedule can be replayed from its seed.
///
/// xoshiro256** (Blackman & Vigna), seeded through SplitMix64 as its authors recommend.
public struct SeededGenerator: RandomNumberGenerator, Sendable, Hashable {
    @usableFromInline var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64

    public init(seed: UInt64) {
        var mixer = SplitMix64(state: seed)
        s0 = mixer.next()
        s1 = mixer.next()
        s2 = mixer.next()
        s3 = mixer.next()
    }

    @inlinable
    public mutating func next() -> UInt64 {
        let result = rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        return result
    }

    @inlinable
    func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    /// A double in [0, 1) from the top 53 bits.
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}

/// SplitMix64: a fast 64-bit mixer, also used on its own to hash (seed, counter) pairs, and
/// as a short stream of its own (the simulator gives each card one per day).
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    public var state: UInt64

    @inlinable
    public init(state: UInt64) { self.state = state }

    /// A stream for `key` that starts at a mixed point, so that keys a few apart do not give
    /// overlapping streams (SplitMix64 steps its state by a constant).
    @inlinable
    public init(mixing key: UInt64) {
        var mixer = SplitMix64(state: key)
        state = mixer.next()
    }

    /// A double in [0, 1) from the top 53 bits.
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

public enum FuzzFactor {
    /// The fuzz factor for one answer of one card, in [0, 1). Like Anki's (card id + reps)
    /// seed, it is stable for a given answer, so showing the buttons and answering agree,
    /// and it changes from one answer to the next.
    public static func forAnswer(cardID: Int64, reps: Int, seed: UInt64 = 0) -> Double {
        var mixer = SplitMix64(state: seed ^ UInt64(bitPattern: cardID) &* 0x9E37_79B9_7F4A_7C15)
        mixer.state &+= UInt64(reps)
        _ = mixer.next()
        return Double(mixer.next() >> 11) * 0x1.0p-53
    }
}
