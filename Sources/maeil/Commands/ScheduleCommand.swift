import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL

struct ScheduleCommand: MaeilCommand {
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

    @Option(help: "Comma-separated answers: again, hard, good, easy (or a, h, g, e, or 1–4).", transform: RatingList.parse)
    var ratings: RatingList

    @Option(help: "Comma-separated days late for each answer given in review.", transform: DayList.parse)
    var late: DayList?

    @Option(name: .customLong("learning-steps"), help: "Learning steps such as 1m,10m, or none.")
    var learningSteps: String?

    @Option(name: .customLong("relearning-steps"), help: "Relearning steps such as 10m, or none.")
    var relearningSteps: String?

    @Option(name: .customLong("desired-retention"), help: "FSRS desired retention, 0.70–0.99.")
    var desiredRetention: String?

    @Option(name: .customLong("parameters"), help: "FSRS parameters, 21 (or 19 for FSRS-5) comma-separated numbers.")
    var fsrsParameters: String?

    @Option(name: .customLong("maximum-interval"), help: "Maximum interval in days.")
    var maximumInterval: String?

    @Option(help: "off, or a seed that makes the fuzz reproducible.")
    var fuzz: FuzzArgument = .off

    @Flag(help: "Print a JSON array instead of a table.")
    var json = false

    func validate() throws {
        if scheduler == .sm2, learningSteps != nil || relearningSteps != nil {
            throw ValidationError("sm2 has no learning steps; use --scheduler anki-sm2 or fsrs")
        }
        if desiredRetention != nil, scheduler != .fsrs {
            throw ValidationError("--desired-retention applies to --scheduler fsrs only")
        }
        if fsrsParameters != nil, scheduler != .fsrs {
            throw ValidationError("--parameters applies to --scheduler fsrs only")
        }
        if let late, late.days.count > ratings.ratings.count {
            throw ValidationError("--late has \(late.days.count) values for \(ratings.ratings.count) answers")
        }
        _ = try settings()
    }

    /// The scheduler's settings: each option checked where its limits live (`PresetKey`), as a
    /// deck file's preset is.
    func settings() throws -> SchedulerSettings {
        var preset = Preset(name: "schedule", scheduler: SchedulerSettings(kind: scheduler))
        let options: [(PresetKey, String, String?)] = [
            (.learningSteps, "learning-steps", learningSteps), (.relearningSteps, "relearning-steps", relearningSteps),
            (.desiredRetention, "desired-retention", desiredRetention), (.fsrsParameters, "parameters", fsrsParameters),
            (.maximumInterval, "maximum-interval", maximumInterval),
        ]
        for case let (key, flag, value?) in options {
            do {
                try key.set(.text(value), on: &preset)
            } catch {
                throw ValidationError("--\(flag): \(error.description)")
            }
        }
        return preset.scheduler
    }

    func run(in context: CommandContext) throws {
        let replay = ScheduleReplay(scheduler: try settings().makeScheduler(), fuzzSeed: fuzz.seed)
        let steps = replay.run(ratings: ratings.ratings, late: late?.days ?? [])
        let rows = steps.map { ScheduleRow(step: $0, kind: scheduler) }
        if json {
            context.verbatim(try JSONOutput.string(rows))
        } else {
            context.line(ScheduleRow.table(rows, kind: scheduler))
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

    func encode(to encoder: any Encoder) throws {
        // Keys are always present; a value that does not apply to the scheduler is null.
        try JSONObject([
            ("rating", rating), ("state", state), ("interval_days", intervalDays), ("interval_seconds", intervalSeconds), ("ease", ease),
            ("stability", stability), ("difficulty", difficulty), ("reps", reps), ("lapses", lapses), ("leech", leech),
        ]).encode(to: encoder)
    }

    var intervalText: String {
        state == "review" ? "\(intervalDays)d" : IntervalFormat.seconds(intervalSeconds, .exact)
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

struct RatingList {
    let ratings: [Rating]

    /// "again,good,easy"; a word that is no answer is named with the ones that are.
    static func parse(_ argument: String) throws -> RatingList {
        let words = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        guard !words.isEmpty else { throw ValidationError("give at least one answer: again, hard, good or easy") }
        return RatingList(ratings: try words.map { word in
            guard let rating = Rating(parsing: word) else {
                throw ValidationError("'\(word)' is not an answer; the answers are again, hard, good, easy (or a, h, g, e, or 1–4)")
            }
            return rating
        })
    }
}

struct DayList {
    let days: [Int]

    static func parse(_ argument: String) throws -> DayList {
        DayList(days: try argument.split(separator: ",").map { word in
            guard let days = Int(word.trimmingCharacters(in: .whitespaces)), days >= 0 else {
                throw ValidationError("'\(word)' is not a number of days (0 or more)")
            }
            return days
        })
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
