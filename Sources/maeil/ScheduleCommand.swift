import ArgumentParser
import Foundation
import MaeilCore

struct ScheduleCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Replay one new card through a list of answers and show what each does.",
        discussion: """
            Each answer is given when the card falls due. An answer given in the review state \
            is given that many days late when --late says so. Fuzz is off unless a seed is given.

            Example: maeil schedule --scheduler anki-sm2 --ratings again,good,good,hard,easy --late 0,0,2,0,5
            """)

    @Option(help: "sm2, anki-sm2 or fsrs.")
    var scheduler: SchedulerKind = .ankiSM2

    @Option(help: "Comma-separated answers: again, hard, good, easy (or a, h, g, e, or 1–4).")
    var ratings: RatingList

    @Option(help: "Comma-separated days late for each answer given in review.")
    var late: DayList?

    @Option(name: .customLong("learning-steps"), help: "Learning steps such as 1m,10m, or none.")
    var learningSteps: StepsArgument?

    @Option(name: .customLong("relearning-steps"), help: "Relearning steps such as 10m, or none.")
    var relearningSteps: StepsArgument?

    @Option(name: .customLong("desired-retention"), help: "FSRS desired retention, 0.70–0.99.")
    var desiredRetention: Double?

    @Option(name: .customLong("parameters"), help: "FSRS parameters, 21 (or 19 for FSRS-5) comma-separated numbers.")
    var fsrsParameters: String?

    @Option(name: .customLong("maximum-interval"), help: "Maximum interval in days.")
    var maximumInterval: Int?

    @Option(help: "off, or a seed that makes the fuzz reproducible.")
    var fuzz: FuzzArgument = .off

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func validate() throws {
        if scheduler == .sm2, learningSteps != nil || relearningSteps != nil {
            throw ValidationError("sm2 has no learning steps; use --scheduler anki-sm2 or fsrs")
        }
        if let retention = desiredRetention {
            guard scheduler == .fsrs else { throw ValidationError("--desired-retention applies to --scheduler fsrs only") }
            guard (0.7...0.99).contains(retention) else { throw ValidationError("--desired-retention must be between 0.70 and 0.99") }
        }
        if fsrsParameters != nil, scheduler != .fsrs {
            throw ValidationError("--parameters applies to --scheduler fsrs only")
        }
        if let maximumInterval, maximumInterval < 1 {
            throw ValidationError("--maximum-interval must be at least 1")
        }
        if let late, late.days.count > ratings.ratings.count {
            throw ValidationError("--late has \(late.days.count) values for \(ratings.ratings.count) answers")
        }
    }

    func settings() throws -> SchedulerSettings {
        var settings = SchedulerSettings(kind: scheduler)
        if let learningSteps { settings.learningSteps = learningSteps.steps }
        if let relearningSteps { settings.relearningSteps = relearningSteps.steps }
        if let desiredRetention { settings.desiredRetention = desiredRetention }
        if let maximumInterval { settings.maximumInterval = maximumInterval }
        if let fsrsParameters {
            let numbers = fsrsParameters.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
            guard numbers.allSatisfy({ $0 != nil }) else { throw ValidationError("--parameters must be numbers separated by commas") }
            do {
                settings.fsrsParameters = try FSRSParameters(weights: numbers.map { $0! })
            } catch {
                throw ValidationError(error.description)
            }
        }
        return settings
    }

    func run() throws {
        let settings: SchedulerSettings
        do {
            settings = try self.settings()
        } catch let error as ValidationError {
            throw error
        }
        let replay = ScheduleReplay(scheduler: settings.makeScheduler(), fuzzSeed: fuzz.seed)
        let steps = replay.run(ratings: ratings.ratings, late: late?.days ?? [])
        let rows = steps.map { ScheduleRow(step: $0, kind: scheduler) }
        if json {
            print(try JSONOutput.string(rows))
        } else {
            print(ScheduleRow.table(rows, kind: scheduler))
        }
    }
}

/// One answer of a replay, as `maeil schedule` prints it.
struct ScheduleRow: Encodable {
    let rating: String
    let state: String
    let intervalDays: Int
    let intervalSeconds: Int
    let ease: Double?
    let stability: Double?
    let difficulty: Double?
    let reps: Int
    let lapses: Int
    let leech: Bool

    init(step: ScheduleReplay.Step, kind: SchedulerKind) {
        let state = step.state
        rating = step.rating.name
        self.state = state.phase.rawValue
        if state.phase.isInSteps {
            intervalSeconds = state.scheduledSeconds
            intervalDays = state.scheduledSeconds / 86_400
        } else {
            intervalDays = state.intervalDays
            intervalSeconds = state.intervalDays * 86_400
        }
        ease = kind == .fsrs ? nil : state.ease
        stability = kind == .fsrs ? state.stability : nil
        difficulty = kind == .fsrs ? state.difficulty : nil
        reps = state.reps
        lapses = state.lapses
        leech = step.outcome.leech
    }

    enum CodingKeys: String, CodingKey {
        case rating, state, ease, stability, difficulty, reps, lapses, leech
        case intervalDays = "interval_days"
        case intervalSeconds = "interval_seconds"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(rating, forKey: .rating)
        try container.encode(state, forKey: .state)
        try container.encode(intervalDays, forKey: .intervalDays)
        try container.encode(intervalSeconds, forKey: .intervalSeconds)
        // Keys are always present; a value that does not apply to the scheduler is null.
        try container.encode(ease, forKey: .ease)
        try container.encode(stability, forKey: .stability)
        try container.encode(difficulty, forKey: .difficulty)
        try container.encode(reps, forKey: .reps)
        try container.encode(lapses, forKey: .lapses)
        try container.encode(leech, forKey: .leech)
    }

    var intervalText: String {
        state == "review" ? "\(intervalDays)d" : IntervalText.seconds(intervalSeconds)
    }

    static func table(_ rows: [ScheduleRow], kind: SchedulerKind) -> String {
        let memoryHeaders = kind == .fsrs ? ["stability", "difficulty"] : ["ease"]
        let header = ["#", "rating", "state", "interval"] + memoryHeaders + ["reps", "lapses", "leech"]
        let body = rows.enumerated().map { index, row -> [String] in
            let memory = kind == .fsrs
                ? [String(format: "%.4f", row.stability ?? 0), String(format: "%.4f", row.difficulty ?? 0)]
                : [String(format: "%.2f", row.ease ?? 0)]
            return ["\(index + 1)", row.rating, row.state, row.intervalText] + memory
                + ["\(row.reps)", "\(row.lapses)", row.leech ? "leech" : ""]
        }
        return TextTable.render(header: header, rows: body)
    }
}

struct RatingList: ExpressibleByArgument {
    let ratings: [Rating]
    init?(argument: String) {
        let parsed = argument.split(separator: ",").map { Rating(parsing: $0.trimmingCharacters(in: .whitespaces)) }
        guard !parsed.isEmpty, parsed.allSatisfy({ $0 != nil }) else { return nil }
        ratings = parsed.map { $0! }
    }
}

struct DayList: ExpressibleByArgument {
    let days: [Int]
    init?(argument: String) {
        let parsed = argument.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard parsed.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
        days = parsed.map { $0! }
    }
}

struct StepsArgument: ExpressibleByArgument {
    let steps: LearningSteps
    init?(argument: String) {
        guard let steps = LearningSteps(parsing: argument) else { return nil }
        self.steps = steps
    }
}

enum FuzzArgument: ExpressibleByArgument {
    case off
    case seed(UInt64)

    init?(argument: String) {
        if argument.lowercased() == "off" {
            self = .off
        } else if let seed = UInt64(argument) {
            self = .seed(seed)
        } else {
            return nil
        }
    }

    var seed: UInt64? {
        if case .seed(let seed) = self { return seed }
        return nil
    }
}

extension SchedulerKind: ExpressibleByArgument {
    public init?(argument: String) { self.init(rawValue: argument.lowercased()) }
    public static var allValueStrings: [String] { allCases.map(\.rawValue) }
}
