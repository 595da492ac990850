import MaeilCore

/// The settings a scenario file and `maeil sim`'s flags share, under one name each: the
/// simulation's own (items, days, limits, budget, runs) and every scheduler setting of a preset,
/// whose limits `PresetKey` owns.
extension SimulationConfig {
    package enum Key: String, CaseIterable, Sendable {
        case items, days
        case newPerDay = "new_per_day"
        case reviewsPerDay = "reviews_per_day"
        case minutesPerDay = "minutes_per_day"
        case newCardsCountAsReviews = "new_cards_count_as_reviews"
        case suspendAfterLapses = "suspend_after_lapses"
        case seed, runs, intervals
    }

    /// Every setting name a scenario may use besides `name`, `description`, `deck` and `learner`.
    package static var settingNames: [String] {
        Key.allCases.map(\.rawValue) + PresetKey.allCases.filter(\.appliesToSimulation).map(\.rawValue)
    }

    /// Sets one setting by name; refuses an unknown name or a value outside its limits.
    package mutating func set(_ name: String, _ input: PresetKey.Input) throws(PresetKey.Problem) {
        if let key = Key(rawValue: name) {
            try set(key, input)
        } else if let key = PresetKey(rawValue: name), key.appliesToSimulation {
            var preset = Preset(name: "", scheduler: scheduler)
            try key.set(input, on: &preset)
            scheduler = preset.scheduler
        } else {
            throw PresetKey.Problem(description: "unknown setting '\(name)'; the settings are: \(Self.settingNames.joined(separator: ", "))")
        }
    }

    /// Settings given as command-line flags, by setting name (`new_per_day` for
    /// `--new-per-day`), each checked as a scenario's is; a refusal names the flag.
    package mutating func set(flags: [(name: String, value: String?)]) throws(PresetKey.Problem) {
        for case let (name, value?) in flags {
            do {
                try set(name, .text(value))
            } catch {
                throw PresetKey.Problem(description: "--" + name.replacingOccurrences(of: "_", with: "-") + error.description.dropFirst(name.count))
            }
        }
    }

    private mutating func set(_ key: Key, _ input: PresetKey.Input) throws(PresetKey.Problem) {
        let text: String
        switch input {
        case .text(let value): text = value.trimmingCharacters(in: .whitespaces)
        case .list(let values): text = values.joined(separator: " ")
        }
        func whole(_ range: ClosedRange<Int>) throws(PresetKey.Problem) -> Int {
            guard let number = Int(text), range.contains(number) else {
                throw PresetKey.Problem(description: "\(key.rawValue) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return number
        }
        /// A daily limit: a number within the preset's limits, or none.
        func limit(_ presetKey: PresetKey) throws(PresetKey.Problem) -> Int? {
            if text.lowercased() == "none" || text.isEmpty || text == "~" || text.lowercased() == "null" { return nil }
            let range = presetKey.wholeRange
            guard let number = Int(text), range.contains(number) else {
                throw PresetKey.Problem(description: "\(key.rawValue) must be a whole number from \(range.lowerBound) to \(range.upperBound), or none")
            }
            return number
        }
        switch key {
        case .items: items = try whole(0...10_000_000)
        case .days: days = try whole(1...36_500)
        case .newPerDay: newPerDay = try limit(.newPerDay)
        case .reviewsPerDay: reviewsPerDay = try limit(.reviewsPerDay)
        case .minutesPerDay:
            guard let minutes = Double(text), (0...1440).contains(minutes) else {
                throw PresetKey.Problem(description: "minutes_per_day must be a number from 0 to 1440")
            }
            secondsPerDay = minutes * 60
        case .newCardsCountAsReviews:
            guard let flag = PresetKey.flag(text) else { throw PresetKey.Problem(description: "\(key.rawValue) must be true or false") }
            newCardsCountAsReviews = flag
        case .suspendAfterLapses: suspendAfterLapses = try whole(1...1000)
        case .seed:
            guard let value = UInt64(text) else { throw PresetKey.Problem(description: "seed must be a whole number from 0") }
            seed = value
        case .runs: runs = try whole(1...10_000)
        case .intervals:
            guard let source = IntervalSource(rawValue: text) else {
                throw PresetKey.Problem(description: "intervals must be " + IntervalSource.allCases.map(\.rawValue).joined(separator: " or "))
            }
            intervals = source
        }
    }
}

extension PresetKey {
    /// Whether a simulation uses the setting: the day's limits are simulated separately, and
    /// rollover, burying, gating, the display order and leeches do not change what a simulated
    /// learner remembers.
    package var appliesToSimulation: Bool {
        switch self {
        case .newPerDay, .reviewsPerDay, .rolloverHour, .burySiblings, .buryNew, .buryReviews, .buryInterdayLearning, .curriculumGating, .leechThreshold, .leechAction, .newMix,
             .interdayLearningMix, .reviewOrder, .newGatherOrder, .newSortOrder: false
        default: true
        }
    }
}
