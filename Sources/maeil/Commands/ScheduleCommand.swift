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

    @Option(help: "Comma-separated answers: again, hard, good, easy (or a, h, g, e, or 1–4).", transform: { try listed(ScheduleReplay.ratings(parsing: $0)) })
    var ratings: [Rating]

    @Option(help: "Comma-separated days late for each answer given in review.", transform: { try listed(ScheduleReplay.lateDays(parsing: $0)) })
    var late: [Int]?

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
        if let late, late.count > ratings.count {
            throw ValidationError("--late has \(late.count) values for \(ratings.count) answers")
        }
        _ = try settings()
    }

    /// The scheduler's settings: each option checked where its limits live (`PresetKey`), as a
    /// deck file's preset is.
    func settings() throws -> SchedulerSettings {
        var preset = Preset(name: "schedule", scheduler: SchedulerSettings(kind: scheduler))
        do {
            try preset.set(options: [
                (.learningSteps, "learning-steps", learningSteps), (.relearningSteps, "relearning-steps", relearningSteps),
                (.desiredRetention, "desired-retention", desiredRetention), (.fsrsParameters, "parameters", fsrsParameters),
                (.maximumInterval, "maximum-interval", maximumInterval),
            ])
        } catch {
            throw ValidationError(error.description)
        }
        return preset.scheduler
    }

    func run(in context: CommandContext) throws {
        let replay = ScheduleReplay(scheduler: try settings().makeScheduler(), fuzzSeed: fuzz.seed)
        let steps = replay.run(ratings: ratings, late: late ?? [])
        let rows = steps.map { ScheduleRow(step: $0, kind: scheduler) }
        if json { return context.verbatim(try JSONOutput.string(rows)) }
        context.line(ScheduleRow.table(rows, kind: scheduler))
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

/// A list the replay refused, as the parser reports a bad value.
private func listed<T>(_ parse: @autoclosure () throws(ScheduleReplay.ListProblem) -> T) throws -> T {
    do { return try parse() } catch { throw ValidationError(error.description) }
}
