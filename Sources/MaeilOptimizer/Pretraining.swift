import Foundation

/// fsrs-rs's first stage (parameter_initialization.rs): the four initial stabilities, each the
/// one that best explains the first long-term reviews after that first rating, with the fixed
/// default decay; then ordered and gaps filled in log space.
enum Pretraining {
    static let defaults = Array(Optimizer.defaultParameters[0..<4])

    /// The four stabilities and how many items each first rating had.
    static func initialStabilities(_ pretraining: [FSRSItem], averageRecall: Double) throws -> (stabilities: [Double], counts: [Int: Int]) {
        struct Group { var recalled = 0; var count = 0 }
        var groups: [Int: [Int: Group]] = [:]
        var counts: [Int: Int] = [:]
        for item in pretraining {
            let rating = item.reviews[0].rating
            counts[rating, default: 0] += 1
            let days = item.target.deltaT
            groups[rating, default: [:]][days, default: Group()].count += 1
            if item.recalled { groups[rating, default: [:]][days]!.recalled += 1 }
        }
        let decay = 0.1542, factor = pow(0.9, -1 / decay) - 1
        var stabilities: [Int: Double] = [:]
        for (rating, byDays) in groups {
            let points = byDays.map { days, group -> (days: Double, recall: Double, count: Double) in
                let n = Double(group.count), p = Double(group.recalled) / n
                return (Double(days), (p * n + averageRecall) / (n + 1), n)
            }
            let prior = defaults[rating - 1]
            func loss(_ s: Double) -> Double {
                var total = 0.0
                for point in points {
                    let r = min(max(pow(1 + factor * point.days / s, -decay), 1e-10), 1 - 1e-10)
                    total -= point.count * (point.recall * log(r) + (1 - point.recall) * log(1 - r))
                }
                return total + abs(s - prior) / 16
            }
            var low = 0.001, high = 100.0
            for _ in 0..<1000 where high - low > Double.ulpOfOne {
                let m1 = low + (high - low) / 3, m2 = high - (high - low) / 3
                if loss(m1) < loss(m2) { high = m2 } else { low = m1 }
            }
            stabilities[rating] = Double(Float((low + high) / 2))
        }
        return (try smoothAndFill(stabilities, counts: counts), counts)
    }

    /// Orders the stabilities (again ≤ hard ≤ good ≤ easy, the better-attested one winning) and
    /// fills missing ones from their neighbours in log space.
    static func smoothAndFill(_ given: [Int: Double], counts: [Int: Int]) throws -> [Double] {
        var s = given.filter { counts[$0.key] != nil }
        for (small, big) in [(1, 2), (2, 3), (3, 4), (1, 3), (2, 4), (1, 4)] {
            guard let a = s[small], let b = s[big], a > b else { continue }
            let countSmall = counts[small] ?? 0, countBig = counts[big] ?? 0
            if countSmall > countBig { s[big] = a } else { s[small] = b }
        }
        // ln s2 = a·ln s1 + (1−a)·ln s3 and ln s3 = (1−b)·ln s2 + b·ln s4, solved for what is missing.
        let a = 0.41, b = 0.54
        var l: [Int: Double] = s.mapValues { log($0) }
        func fromA1() { l[1] = (l[2]! - (1 - a) * l[3]!) / a }
        func fromA2() { l[2] = a * l[1]! + (1 - a) * l[3]! }
        func fromA3() { l[3] = (l[2]! - a * l[1]!) / (1 - a) }
        func fromB2() { l[2] = (l[3]! - b * l[4]!) / (1 - b) }
        func fromB3() { l[3] = (1 - b) * l[2]! + b * l[4]! }
        func fromB4() { l[4] = (l[3]! - (1 - b) * l[2]!) / b }
        switch Set(l.keys) {
        case [1, 2, 3, 4]: break
        case [2, 3, 4]: fromA1()
        case [1, 3, 4]: fromA2()
        case [1, 2, 4]: fromB3()
        case [1, 2, 3]: fromB4()
        case [1, 2]: fromA3(); fromB4()
        case [1, 3]: fromA2(); fromB4()
        case [2, 3]: fromA1(); fromB4()
        case [2, 4]: fromB3(); fromA1()
        case [3, 4]: fromB2(); fromA1()
        case [1, 4]:
            let k = a / (a + b - a * b), k2 = b / (a + b - a * b)
            l[2] = k * l[1]! + (1 - k) * l[4]!
            l[3] = (1 - k2) * l[1]! + k2 * l[4]!
        default:
            guard let (rating, value) = s.first else { throw Optimizer.Failure.notEnoughData }
            let scale = value / defaults[rating - 1]
            for other in 1...4 { l[other] = log(defaults[other - 1] * scale) }
        }
        s = l.mapValues { exp($0) }
        return (1...4).map { min(max(s[$0] ?? defaults[$0 - 1], 0.001), 100) }
    }
}
