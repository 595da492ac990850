import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL

struct ScheduleCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "schedule",
        abstract: "Replay one new card through a list of answers and show what each does.",
        discussion: """
            Each answer is given when the card falls due: a step at its due second, a card due on a day \
            at noon of that study day (UTC); an answer given in review that many days later when --late \
            says so. Fuzz is off unless a seed is given. The preset is the scheduler's defaults, or a \
            deck's with --deck; --set changes any setting of it that changes a card's schedule, named as \
            in `deck NAME set` (starting_ease=2.3, leech_threshold=4, rollover_hour=6, …).

            Example: maeil schedule --scheduler anki-sm2 --ratings again,good,good,hard,easy --late 0,0,2,0,5
            """)

    @OptionGroup var collection: CollectionOptions
    @Option(help: "Start from this deck's preset.", completion: Completions.decks) var deck: String?
    @Option(help: "sm2, anki-sm2 (the default) or fsrs.") var scheduler: SchedulerKind?

    @Option(help: "Comma-separated answers: again, hard, good, easy (or a, h, g, e, or 1–4).", transform: { try listed(ScheduleReplay.ratings(parsing: $0)) })
    var ratings: [Rating]

    @Option(help: "Comma-separated days late for each answer given in review.", transform: { try listed(ScheduleReplay.lateDays(parsing: $0)) })
    var late: [Int]?

    @Option(name: .customLong("set"), help: ArgumentHelp("A preset setting, such as easy_bonus=1.5 (repeatable).", valueName: "KEY=VALUE"))
    var assignments: [String] = []
    @Option(name: .customLong("learning-steps"), help: "Learning steps such as 1m,10m, or none.") var learningSteps: String?
    @Option(name: .customLong("relearning-steps"), help: "Relearning steps such as 10m, or none.") var relearningSteps: String?
    @Option(name: .customLong("desired-retention"), help: "FSRS desired retention, 0.70–0.99.") var desiredRetention: String?
    @Option(name: .customLong("parameters"), help: "FSRS parameters, 21 (or 19 for FSRS-5) comma-separated numbers.") var fsrsParameters: String?
    @Option(name: .customLong("maximum-interval"), help: "Maximum interval in days.") var maximumInterval: String?

    @Option(help: "off, or a seed that makes the fuzz reproducible.") var fuzz: FuzzArgument = .off

    @Flag(help: "Print a JSON array instead of a table.") var json = false

    func validate() throws {
        if let late, late.count > ratings.count {
            throw ValidationError("--late has \(late.count) values for \(ratings.count) answers")
        }
        if deck == nil { _ = try preset(deck: nil) }
    }

    /// The preset replayed: each option checked where its limits live (`PresetKey`), as a deck file's is.
    func preset(deck: Preset?) throws -> Preset {
        do {
            return try ScheduleSetup.preset(deck: deck, scheduler: scheduler, named: [
                (.learningSteps, "learning-steps", learningSteps), (.relearningSteps, "relearning-steps", relearningSteps),
                (.desiredRetention, "desired-retention", desiredRetention), (.fsrsParameters, "parameters", fsrsParameters),
                (.maximumInterval, "maximum-interval", maximumInterval),
            ], assignments: assignments, fuzz: fuzz.seed != nil)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run(in context: CommandContext) throws {
        let deckPreset = try deck.map { name in
            let collection = try context.collection(self.collection, readOnly: true)
            return try collection.preset(id: try DeckNames.resolve([name], in: collection)[0].presetID)
        }
        let preset = try preset(deck: deckPreset)
        let replay = ScheduleReplay(scheduler: preset.scheduler.makeScheduler(), clock: .utc(rolloverHour: preset.rolloverHour), fuzzSeed: fuzz.seed)
        let rows = replay.run(ratings: ratings, late: late ?? []).map { ScheduleRow(step: $0, settings: preset.scheduler) }
        if json { return context.verbatim(try JSONOutput.string(rows)) }
        context.line(ScheduleRow.table(rows, kind: preset.scheduler.kind))
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
