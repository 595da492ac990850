import Foundation

/// A number with its derivatives by the 21 FSRS parameters (forward-mode automatic
/// differentiation). Chosen over reverse mode (`_Differentiation`) because a review history is
/// a short chain of scalar steps: carrying 21 partials along in SIMD lanes costs a few vector
/// instructions per step, needs no tape, and keeps the model one plain function that the same
/// code evaluates with `Double` for metrics. Lanes 21–23 stay zero.
struct Dual: Sendable {
    var value: Double
    var partials: SIMD32<Double>

    init(_ value: Double, partials: SIMD32<Double>) {
        self.value = value
        self.partials = partials
    }

    /// A constant: no parameter moves it.
    init(_ value: Double) {
        self.init(value, partials: .zero)
    }

    /// Parameter `index` as a variable: its derivative by itself is 1.
    static func variable(_ value: Double, index: Int) -> Dual {
        var partials = SIMD32<Double>.zero
        partials[index] = 1
        return Dual(value, partials: partials)
    }
}

/// What the training model needs of a number: arithmetic, exp, log, pow, and comparisons on
/// the value (a clamp or a min passes the derivative of the branch taken).
protocol ModelScalar: Sendable {
    init(_ value: Double)
    var value: Double { get }
    static func + (lhs: Self, rhs: Self) -> Self
    static func - (lhs: Self, rhs: Self) -> Self
    static func * (lhs: Self, rhs: Self) -> Self
    static func / (lhs: Self, rhs: Self) -> Self
    static prefix func - (operand: Self) -> Self
    static func exp(_ x: Self) -> Self
    static func log(_ x: Self) -> Self
    /// x^y for x > 0.
    static func pow(_ x: Self, _ y: Self) -> Self
}

extension ModelScalar {
    static func + (lhs: Self, rhs: Double) -> Self { lhs + Self(rhs) }
    static func - (lhs: Self, rhs: Double) -> Self { lhs - Self(rhs) }
    static func - (lhs: Double, rhs: Self) -> Self { Self(lhs) - rhs }
    static func * (lhs: Self, rhs: Double) -> Self { lhs * Self(rhs) }
    static func * (lhs: Double, rhs: Self) -> Self { Self(lhs) * rhs }
    static func / (lhs: Self, rhs: Double) -> Self { lhs / Self(rhs) }

    /// The value clamped to `range`; inside it (bounds included) the derivative passes, outside
    /// it is zero, as in fsrs-rs.
    func clamped(_ lower: Double, _ upper: Double) -> Self {
        if value < lower { return Self(lower) }
        if value > upper { return Self(upper) }
        return self
    }

    static func minimum(_ a: Self, _ b: Self) -> Self { a.value <= b.value ? a : b }
    static func maximum(_ a: Self, _ b: Self) -> Self { a.value >= b.value ? a : b }
}

extension Double: ModelScalar {
    var value: Double { self }
    static func exp(_ x: Double) -> Double { Foundation.exp(x) }
    static func log(_ x: Double) -> Double { Foundation.log(x) }
    static func pow(_ x: Double, _ y: Double) -> Double { Foundation.pow(x, y) }
}

extension Dual: ModelScalar {
    static func + (lhs: Dual, rhs: Dual) -> Dual { Dual(lhs.value + rhs.value, partials: lhs.partials + rhs.partials) }
    static func - (lhs: Dual, rhs: Dual) -> Dual { Dual(lhs.value - rhs.value, partials: lhs.partials - rhs.partials) }
    static func * (lhs: Dual, rhs: Dual) -> Dual {
        Dual(lhs.value * rhs.value, partials: lhs.partials * rhs.value + rhs.partials * lhs.value)
    }
    static func / (lhs: Dual, rhs: Dual) -> Dual {
        let quotient = lhs.value / rhs.value
        return Dual(quotient, partials: (lhs.partials - rhs.partials * quotient) / rhs.value)
    }
    static prefix func - (operand: Dual) -> Dual { Dual(-operand.value, partials: -operand.partials) }
    static func exp(_ x: Dual) -> Dual {
        let e = Foundation.exp(x.value)
        return Dual(e, partials: x.partials * e)
    }
    static func log(_ x: Dual) -> Dual { Dual(Foundation.log(x.value), partials: x.partials / x.value) }
    static func pow(_ x: Dual, _ y: Dual) -> Dual {
        let p = Foundation.pow(x.value, y.value)
        // d(x^y) = y·x^(y−1)·dx + x^y·ln x·dy
        return Dual(p, partials: x.partials * (y.value * Foundation.pow(x.value, y.value - 1)) + y.partials * (p * Foundation.log(x.value)))
    }
}
