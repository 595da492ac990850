/// Every preset setting a person or a file can change, under the one name deck files,
/// scenarios and `maeil deck … set` all use, with the values it may take. A limit lives here
/// and nowhere else: a deck file, a scenario and the command line refuse the same values with
/// the same words, and an untrusted Anki package is clamped into the same ranges.
public enum PresetKey: String, CaseIterable, Sendable {
    case scheduler
    case newPerDay = "new_per_day"
    case reviewsPerDay = "reviews_per_day"
    case learningSteps = "learning_steps"
    case relearningSteps = "relearning_steps"
    case desiredRetention = "desired_retention"
    case maximumInterval = "maximum_interval"
    case leechThreshold = "leech_threshold"
    case leechAction = "leech_action"
    case rolloverHour = "rollover_hour"
    case burySiblings = "bury_siblings"
    case buryNew = "bury_new"
    case buryReviews = "bury_reviews"
    case buryInterdayLearning = "bury_interday_learning"
    case curriculumGating = "curriculum_gating"
    case graduatingInterval = "graduating_interval"
    case easyInterval = "easy_interval"
    case startingEase = "starting_ease"
    case easyBonus = "easy_bonus"
    case hardInterval = "hard_interval"
    case intervalModifier = "interval_modifier"
    case lapseNewInterval = "lapse_new_interval"
    case minimumLapseInterval = "minimum_lapse_interval"
    case fsrsParameters = "fsrs_parameters"
    case shortTermWithSteps = "short_term_with_steps"
    case loadBalancing = "load_balancing"
    case easyDays = "easy_days"
    case newMix = "new_mix"
    case interdayLearningMix = "interday_learning_mix"
    case reviewOrder = "review_order"
    case newGatherOrder = "new_gather_order"
    case newSortOrder = "new_sort_order"

    /// What a setting holds.
    public enum Domain: Sendable, Equatable {
        case whole(ClosedRange<Int>)
        case number(ClosedRange<Double>)
        case flag
        case steps
        case choice([String])
        case parameters
        case easyDays
    }

    public var domain: Domain {
        switch self {
        case .scheduler: .choice(SchedulerKind.allCases.map(\.rawValue))
        case .newPerDay: .whole(0...9999)
        case .reviewsPerDay: .whole(0...99_999)
        case .learningSteps, .relearningSteps: .steps
        case .desiredRetention: .number(0.7...0.99)
        case .maximumInterval: .whole(1...36_500)
        case .leechThreshold: .whole(0...99)
        case .leechAction: .choice(LeechAction.allCases.map(\.rawValue))
        case .rolloverHour: .whole(0...23)
        case .burySiblings, .buryNew, .buryReviews, .buryInterdayLearning, .curriculumGating, .shortTermWithSteps, .loadBalancing: .flag
        case .easyDays: .easyDays
        case .graduatingInterval, .easyInterval, .minimumLapseInterval: .whole(1...365)
        case .startingEase: .number(1.31...5.0)
        case .easyBonus: .number(1.0...5.0)
        // Anki's own limits: it puts a hard interval above 1.3 back to 1.2.
        case .hardInterval: .number(0.5...1.3)
        case .intervalModifier: .number(0.5...2.0)
        case .lapseNewInterval: .number(0.0...1.0)
        case .fsrsParameters: .parameters
        case .newMix, .interdayLearningMix: .choice(StudyOrder.Mix.allCases.map(\.rawValue))
        case .reviewOrder: .choice(StudyOrder.ReviewOrder.allCases.map(\.rawValue))
        case .newGatherOrder: .choice(StudyOrder.NewGather.allCases.map(\.rawValue))
        case .newSortOrder: .choice(StudyOrder.NewSort.allCases.map(\.rawValue))
        }
    }

    /// The range of a whole-number setting (for clamping untrusted values).
    public var wholeRange: ClosedRange<Int> {
        guard case .whole(let range) = domain else { preconditionFailure("\(rawValue) is not a whole number") }
        return range
    }

    /// The range of a decimal setting (for clamping untrusted values).
    public var numberRange: ClosedRange<Double> {
        guard case .number(let range) = domain else { preconditionFailure("\(rawValue) is not a number") }
        return range
    }

    /// Whether the setting changes one card's schedule under `kind`: what `maeil schedule`
    /// replays. The day's limits, burying and gating shape a day's queue, not a card's schedule.
    public func changesSchedule(under kind: SchedulerKind) -> Bool {
        switch self {
        case .newPerDay, .reviewsPerDay, .burySiblings, .buryNew, .buryReviews, .buryInterdayLearning, .curriculumGating, .newMix, .interdayLearningMix, .reviewOrder, .newGatherOrder,
             .newSortOrder: false
        case .scheduler, .maximumInterval, .leechThreshold, .leechAction, .rolloverHour: true
        case .learningSteps, .relearningSteps, .loadBalancing, .easyDays: kind != .sm2
        case .desiredRetention, .fsrsParameters, .shortTermWithSteps: kind == .fsrs
        case .graduatingInterval, .easyInterval, .startingEase, .easyBonus, .hardInterval, .intervalModifier, .lapseNewInterval,
             .minimumLapseInterval: kind == .ankiSM2
        }
    }

    /// One line for `help` and `maeil deck`.
    public var summary: String {
        switch self {
        case .scheduler: "sm2, anki-sm2 or fsrs"
        case .newPerDay: "new cards a day"
        case .reviewsPerDay: "reviews a day"
        case .learningSteps: "steps of a new card, e.g. 1m 10m, or none"
        case .relearningSteps: "steps after a lapse, e.g. 10m, or none"
        case .desiredRetention: "FSRS: the recall to schedule for"
        case .maximumInterval: "longest interval, in days"
        case .leechThreshold: "lapses that make a card a leech (0: never)"
        case .leechAction: "what a leech gets: tag or suspend"
        case .rolloverHour: "the hour a new study day starts"
        case .burySiblings: "hide a note's other cards until tomorrow once one is answered (all three below)"
        case .buryNew: "once a card is answered, hide its note's new cards until tomorrow"
        case .buryReviews: "once a card is answered, hide its note's reviews until tomorrow"
        case .buryInterdayLearning: "once a card is answered, hide its note's learning cards from an earlier day until tomorrow"
        case .curriculumGating: "open a unit only once the one before has been learned"
        case .graduatingInterval: "SM-2: days after the last learning step"
        case .easyInterval: "SM-2: days after easy on a new card"
        case .startingEase: "SM-2: a new card's ease"
        case .easyBonus: "SM-2: extra growth for easy"
        case .hardInterval: "SM-2: growth for hard"
        case .intervalModifier: "SM-2: multiplies every review interval"
        case .lapseNewInterval: "SM-2: share of the old interval kept after a lapse"
        case .minimumLapseInterval: "SM-2: shortest interval after a lapse, in days"
        case .fsrsParameters: "FSRS: the 21 model parameters (or 19 for FSRS-5)"
        case .shortTermWithSteps: "FSRS: keep cards due within half a day in learning even with steps"
        case .loadBalancing: "within the fuzz range, send a review to a day with fewer cards due (Anki's load balancer)"
        case .easyDays: "seven loads, Monday first: 1 normal, 0.5 reduced, 0 a day off (Anki's easy days)"
        case .newMix: "where new cards go among the reviews"
        case .interdayLearningMix: "where learning cards from an earlier day go among the reviews"
        case .reviewOrder: "the order of the day's reviews (and which the limit takes)"
        case .newGatherOrder: "which new cards the day's limit takes"
        case .newSortOrder: "the order of the day's new cards"
        }
    }

    /// A value as it arrives: one word or line of text, or a list (a YAML sequence, several
    /// command-line words).
    public enum Input: Sendable, Equatable {
        case text(String)
        case list([String])

        var words: [String] {
            switch self {
            case .text(let text): text.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
            case .list(let items): items
            }
        }

        var joined: String {
            switch self {
            case .text(let text): text.trimmingCharacters(in: .whitespaces)
            case .list(let items): items.joined(separator: " ")
            }
        }
    }

    /// Why a value was refused, in words a person can act on.
    public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
        public init(description: String) { self.description = description }
    }

    /// Parses `input` and sets it on `preset`; refuses a value outside the setting's domain.
    public func set(_ input: Input, on preset: inout Preset) throws(Problem) {
        switch domain {
        case .whole(let range):
            guard let number = Int(input.joined), range.contains(number) else {
                throw Problem(description: "\(rawValue) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            setWhole(number, on: &preset)
        case .number(let range):
            guard let number = Double(input.joined), range.contains(number) else {
                throw Problem(description: "\(rawValue) must be a number from \(range.lowerBound) to \(range.upperBound)")
            }
            setNumber(number, on: &preset)
        case .flag:
            guard let flag = Self.flag(input.joined) else { throw Problem(description: "\(rawValue) must be true or false") }
            switch self {
            case .burySiblings: preset.burySiblings = flag
            case .buryNew: preset.buryNew = flag
            case .buryReviews: preset.buryReviews = flag
            case .buryInterdayLearning: preset.buryInterdayLearning = flag
            case .curriculumGating: preset.curriculumGating = flag
            case .loadBalancing: preset.scheduler.loadBalancing = flag
            default: preset.scheduler.shortTermWithSteps = flag
            }
        case .steps:
            guard let steps = LearningSteps(parsing: input.joined) else {
                throw Problem(description: "\(rawValue) must be steps such as \"1m 10m\" (s, m, h, d) or none")
            }
            if self == .learningSteps { preset.scheduler.learningSteps = steps } else { preset.scheduler.relearningSteps = steps }
        case .choice(let choices):
            let text = input.joined.lowercased()
            guard choices.contains(text) else {
                throw Problem(description: "\(rawValue) must be \(Self.alternatives(choices))")
            }
            switch self {
            case .scheduler: preset.scheduler.kind = SchedulerKind(rawValue: text)!
            case .newMix: preset.order.newMix = StudyOrder.Mix(rawValue: text)!
            case .interdayLearningMix: preset.order.interdayLearningMix = StudyOrder.Mix(rawValue: text)!
            case .reviewOrder: preset.order.reviews = StudyOrder.ReviewOrder(rawValue: text)!
            case .newGatherOrder: preset.order.newGather = StudyOrder.NewGather(rawValue: text)!
            case .newSortOrder: preset.order.newSort = StudyOrder.NewSort(rawValue: text)!
            default: preset.scheduler.leechAction = LeechAction(rawValue: text)!
            }
        case .parameters:
            let numbers = input.words.map { Double($0) }
            guard !numbers.isEmpty, numbers.allSatisfy({ $0 != nil }) else {
                throw Problem(description: "\(rawValue) must be a list of numbers")
            }
            do {
                preset.scheduler.fsrsParameters = try FSRSParameters(weights: numbers.map { $0! })
            } catch {
                throw Problem(description: error.description)
            }
        case .easyDays:
            let numbers = input.words.map { Double($0) }
            guard numbers.count == 7, numbers.allSatisfy({ $0.map { [0, 0.5, 1].contains($0) } ?? false }) else {
                throw Problem(description: "\(rawValue) must be seven of 1 (normal), 0.5 (reduced) and 0 (off), Monday first")
            }
            preset.scheduler.easyDays = numbers.map { $0! }
        }
    }

    /// The setting's value in `preset`, written the way `set` reads it.
    public func value(in preset: Preset) -> String {
        let settings = preset.scheduler
        switch self {
        case .scheduler: return settings.kind.rawValue
        case .newPerDay: return String(preset.newPerDay)
        case .reviewsPerDay: return String(preset.reviewsPerDay)
        case .learningSteps: return settings.learningSteps.description
        case .relearningSteps: return settings.relearningSteps.description
        case .desiredRetention: return Self.decimal(settings.desiredRetention)
        case .maximumInterval: return String(settings.maximumInterval)
        case .leechThreshold: return String(settings.leechThreshold)
        case .leechAction: return settings.leechAction.rawValue
        case .rolloverHour: return String(preset.rolloverHour)
        case .burySiblings: return String(preset.burySiblings)
        case .buryNew: return String(preset.buryNew)
        case .buryReviews: return String(preset.buryReviews)
        case .buryInterdayLearning: return String(preset.buryInterdayLearning)
        case .curriculumGating: return String(preset.curriculumGating)
        case .graduatingInterval: return String(settings.graduatingInterval)
        case .easyInterval: return String(settings.easyInterval)
        case .startingEase: return Self.decimal(Double(settings.startingEasePermille) / 1000)
        case .easyBonus: return Self.decimal(settings.easyBonus)
        case .hardInterval: return Self.decimal(settings.hardInterval)
        case .intervalModifier: return Self.decimal(settings.intervalModifier)
        case .lapseNewInterval: return Self.decimal(settings.lapseNewInterval)
        case .minimumLapseInterval: return String(settings.minimumLapseInterval)
        case .fsrsParameters: return settings.fsrsParameters.weights.map { Self.decimal($0) }.joined(separator: ", ")
        case .shortTermWithSteps: return String(settings.shortTermWithSteps)
        case .loadBalancing: return String(settings.loadBalancing)
        case .easyDays: return settings.easyDays.map { Self.decimal($0) }.joined(separator: " ")
        case .newMix: return preset.order.newMix.rawValue
        case .interdayLearningMix: return preset.order.interdayLearningMix.rawValue
        case .reviewOrder: return preset.order.reviews.rawValue
        case .newGatherOrder: return preset.order.newGather.rawValue
        case .newSortOrder: return preset.order.newSort.rawValue
        }
    }

    private func setWhole(_ number: Int, on preset: inout Preset) {
        switch self {
        case .newPerDay: preset.newPerDay = number
        case .reviewsPerDay: preset.reviewsPerDay = number
        case .maximumInterval: preset.scheduler.maximumInterval = number
        case .leechThreshold: preset.scheduler.leechThreshold = number
        case .rolloverHour: preset.rolloverHour = number
        case .graduatingInterval: preset.scheduler.graduatingInterval = number
        case .easyInterval: preset.scheduler.easyInterval = number
        case .minimumLapseInterval: preset.scheduler.minimumLapseInterval = number
        default: preconditionFailure("\(rawValue) is not a whole number")
        }
    }

    private func setNumber(_ number: Double, on preset: inout Preset) {
        switch self {
        case .desiredRetention: preset.scheduler.desiredRetention = number
        case .startingEase: preset.scheduler.startingEasePermille = Int((number * 1000).rounded())
        case .easyBonus: preset.scheduler.easyBonus = Float(number)
        case .hardInterval: preset.scheduler.hardInterval = Float(number)
        case .intervalModifier: preset.scheduler.intervalModifier = Float(number)
        case .lapseNewInterval: preset.scheduler.lapseNewInterval = Float(number)
        default: preconditionFailure("\(rawValue) is not a number")
        }
    }

    /// YAML's and a shell user's ways of saying yes and no.
    public static func flag(_ text: String) -> Bool? {
        switch text.lowercased() {
        case "true", "yes", "on": true
        case "false", "no", "off": false
        default: nil
        }
    }

    /// "a, b or c".
    static func alternatives(_ choices: [String]) -> String {
        guard let last = choices.last else { return "" }
        return choices.count == 1 ? last : choices.dropLast().joined(separator: ", ") + " or " + last
    }

    /// Shortest text that reads back as the same number: 0.9, not 0.9000000000000000222.
    static func decimal(_ value: Double) -> String {
        trimmed("\(value)")
    }

    /// The SM-2 multipliers are 32-bit, as in Anki: printed as such, 1.2 stays 1.2.
    static func decimal(_ value: Float) -> String {
        trimmed("\(value)")
    }

    private static func trimmed(_ text: String) -> String {
        text.hasSuffix(".0") ? String(text.dropLast(2)) : text
    }
}

extension Comparable {
    /// The value, moved into `range` if it lies outside.
    public func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}
