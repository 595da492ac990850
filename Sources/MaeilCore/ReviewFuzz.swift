/// Anki's review fuzz (fuzz.rs): spreads cards learned together over nearby days, inside the
/// allowed [minimum, maximum]. The factor is an input, so a schedule can be replayed exactly.
/// Arithmetic is 32-bit floating point, as in Anki.
public enum ReviewFuzz {
    private static let ranges: [(start: Float, end: Float, factor: Float)] = [
        (2.5, 7.0, 0.15),
        (7.0, 20.0, 0.1),
        (20.0, .greatestFiniteMagnitude, 0.05),
    ]

    /// Days of fuzz in each direction: none under 2.5 days, then 1 day plus a share of the
    /// days inside each range.
    static func delta(_ interval: Float) -> Float {
        guard interval >= 2.5 else { return 0 }
        return ranges.reduce(Float(1)) { delta, range in
            delta + range.factor * max(min(interval, range.end) - range.start, 0)
        }
    }

    /// The fuzz range, kept inside [minimum, maximum] and at least two days wide when it can be.
    public static func bounds(interval: Float, minimum: Int, maximum: Int) -> (lower: Int, upper: Int) {
        let minimum = min(minimum, maximum)
        let interval = min(max(interval, Float(minimum)), Float(maximum))
        let delta = delta(interval)
        var lower = roundedDays(interval - delta)
        var upper = roundedDays(interval + delta)
        lower = min(max(lower, minimum), maximum)
        upper = min(max(upper, minimum), maximum)
        if upper == lower && upper > 2 && upper < maximum {
            upper = lower + 1
        }
        return (lower, upper)
    }

    /// The least a passing FSRS review may be fuzzed down to (Anki's
    /// minimum_review_fuzz_interval): a day more than the previous interval when the new one has
    /// grown; the previous interval itself when it has not but lies within the fuzz range, so a
    /// pass never goes backwards; nothing when the interval truly shrank (the learner lowered
    /// the desired retention, say).
    public static func floor(interval: Float, previous: Int, maximum: Int) -> Int {
        if roundedDays(interval) > previous { return previous + 1 }
        return previous <= bounds(interval: interval, minimum: 1, maximum: maximum).upper ? previous : 0
    }

    /// The fuzzed interval for factor `f` in [0, 1), or the rounded, clamped interval when
    /// fuzz is off.
    public static func apply(factor: Double?, interval: Float, minimum: Int, maximum: Int) -> Int {
        guard let factor else {
            return min(max(roundedDays(interval), minimum), maximum)
        }
        let (lower, upper) = bounds(interval: interval, minimum: minimum, maximum: maximum)
        // In 32 bits, lower + f·(n + 1) can round up to upper + 1 when f is close to 1 and the
        // interval is large (36497 + 0.9995 × 4 = 36501.0): keep the result inside the range.
        return min(Int((Float(lower) + Float(factor) * Float(1 + upper - lower)).rounded(.down)), upper)
    }

    /// Rounds half away from zero, saturating at zero like Rust's `as u32`.
    static func roundedDays(_ value: Float) -> Int {
        let rounded = value.rounded(.toNearestOrAwayFromZero)
        guard rounded > 0 else { return 0 }
        return rounded >= Float(Int32.max) ? Int(Int32.max) : Int(rounded)
    }
}
