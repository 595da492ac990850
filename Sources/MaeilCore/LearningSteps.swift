import Foundation

/// Learning or relearning steps, in seconds, and Anki's rules for the delay each answer gives.
public struct LearningSteps: Hashable, Sendable, Codable, ExpressibleByArrayLiteral, CustomStringConvertible {
    public var seconds: [Int]

    public init(seconds: [Int]) { self.seconds = seconds }
    public init(arrayLiteral elements: Int...) { seconds = elements }

    public init(from decoder: any Decoder) throws {
        seconds = try decoder.singleValueContainer().decode([Int].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(seconds)
    }

    /// The length a step may have: one second to a year.
    public static let secondsRange = 1...31_536_000

    public var isEmpty: Bool { seconds.isEmpty }
    public var count: Int { seconds.count }

    /// Parses "1m 10m", "1m,10m", "30s 1h 2d", bare numbers as minutes (as Anki's options do),
    /// or "none" for no steps.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "none" || trimmed.isEmpty {
            seconds = []
            return
        }
        var parsed: [Int] = []
        for token in trimmed.split(whereSeparator: { $0 == "," || $0 == " " }) {
            guard let secs = Self.parseDuration(String(token)) else { return nil }
            parsed.append(secs)
        }
        seconds = parsed
    }

    static func parseDuration(_ token: String) -> Int? {
        let units: [(Character, Double)] = [("s", 1), ("m", 60), ("h", 3600), ("d", 86_400)]
        var number = Substring(token)
        var scale = 60.0
        if let last = token.last, let unit = units.first(where: { $0.0 == last }) {
            number = token.dropLast()
            scale = unit.1
        }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        let secs = (value * scale).rounded()
        guard secs >= Double(Self.secondsRange.lowerBound), secs <= Double(Self.secondsRange.upperBound) else { return nil }
        return Int(secs)
    }

    public var description: String {
        isEmpty ? "none" : seconds.map { IntervalFormat.seconds($0, .exact) }.joined(separator: " ")
    }

    // MARK: Anki's step rules (steps.rs), by step index rather than Anki's "remaining steps".

    private func clampedIndex(_ step: Int) -> Int { min(max(step, 0), seconds.count - 1) }

    /// The delay of the step a card on `step` is on, as Anki logs it as the last interval of an
    /// answer that finds the card there: the step's own delay, not a hard answer's longer one.
    /// Nil without steps.
    public func currentDelay(atStep step: Int) -> Int? {
        seconds.isEmpty ? nil : seconds[clampedIndex(step)]
    }

    /// "Again" goes back to the first step.
    var againDelay: Int? { seconds.first }

    /// "Hard" repeats the current step. On the first step it is the mean of the first two
    /// steps, or with one step 1.5 × the step but at most a day more, so that hard differs
    /// from again and stays below good.
    func hardDelay(atStep step: Int) -> Int? {
        guard !seconds.isEmpty else { return nil }
        let index = clampedIndex(step)
        let current = seconds[index]
        guard index == 0 else { return current }
        if seconds.count > 1 {
            return Self.roundedToDaysIfOverADay((current + seconds[1]) / 2)
        }
        return Self.roundedToDaysIfOverADay(min(current * 3 / 2, current + 86_400))
    }

    /// "Good" moves to the next step; nil on the last step, where the card graduates.
    func goodDelay(atStep step: Int) -> Int? {
        guard !seconds.isEmpty else { return nil }
        let next = clampedIndex(step) + 1
        return next < seconds.count ? seconds[next] : nil
    }

    func stepAfterGood(_ step: Int) -> Int { clampedIndex(step) + 1 }

    /// A delay over a day becomes whole days, so answering early or late in the day gives
    /// the same result.
    static func roundedToDaysIfOverADay(_ secs: Int) -> Int {
        guard secs > 86_400 else { return secs }
        return Int((Float(secs) / 86_400).rounded(.toNearestOrAwayFromZero)) * 86_400
    }
}
