import Foundation

/// A range of values for one setting (`--sweep KEY=FROM:TO:STEP`), each checked where the
/// setting's limits live (`SimulationConfig.set`).
package struct Sweep: Sendable {
    package let key: String
    package let values: [Double]

    package static let keys = ["desired_retention", "new_per_day", "reviews_per_day", "minutes_per_day", "starting_ease", "interval_modifier",
                              "maximum_interval"]

    /// A sweep the command line cannot run, said in its words.
    package struct Problem: Error, CustomStringConvertible {
        package let description: String
    }

    package init(_ text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, Self.keys.contains(parts[0]) else {
            throw Problem(description: "--sweep takes KEY=FROM:TO:STEP with KEY one of \(Self.keys.joined(separator: ", "))")
        }
        let numbers = parts[1].split(separator: ":").map { Double($0) }
        guard numbers.count == 3, let from = numbers[0], let to = numbers[1], let step = numbers[2], step > 0, from <= to else {
            throw Problem(description: "--sweep needs FROM:TO:STEP with FROM ≤ TO and STEP > 0, e.g. desired_retention=0.80:0.95:0.05")
        }
        let count = Int(((to - from) / step + 1e-9).rounded(.down)) + 1
        guard count <= 200 else { throw Problem(description: "--sweep would run \(count) settings; 200 at most") }
        key = parts[0]
        values = (0..<count).map { from + Double($0) * step }
        var probe = SimulationConfig()
        for value in values {
            do {
                try probe.set(key, .text(Self.text(value)))
            } catch {
                throw Problem(description: "--sweep: \(error.description)")
            }
        }
    }

    /// A range as wide as this one beyond `value`, toward `edge`, cut where the setting ends;
    /// nil when the value is already the setting's limit.
    package func wider(around value: Double, toward edge: SweepAdvice.Edge) -> String? {
        guard values.count > 1 else { return nil }
        let step = values[1] - values[0]
        for count in stride(from: values.count - 1, through: 1, by: -1) {
            let (from, to) = edge == .high ? (value, value + Double(count) * step) : (value - Double(count) * step, value)
            let text = "\(key)=\(Self.text(from)):\(Self.text(to)):\(Self.text(step))"
            if (try? Sweep(text)) != nil { return text }
        }
        return nil
    }

    /// A value without binary noise, as a number.
    package static func rounded(_ value: Double) -> Double { Double(text(value)) ?? value }

    /// The value as a setting reads it: no binary noise (0.85, not 0.8500000000000001).
    package static func text(_ value: Double) -> String {
        let rounded = (value * 1e9).rounded() / 1e9
        return rounded == rounded.rounded() ? String(Int(rounded)) : "\(rounded)"
    }

    package func apply(_ value: Double, to config: inout SimulationConfig) {
        // Every value was checked when the sweep was parsed.
        try? config.set(key, .text(Self.text(value)))
    }

    package func format(_ value: Double) -> String {
        value == value.rounded() && key != "desired_retention" ? String(Int(value)) : String(format: "%.3g", value)
    }
}
