import ArgumentParser
import Foundation
import MaeilCore
import MaeilPrograms
import MaeilREPL
import MaeilSession
import MaeilSimulator
import MaeilStore

struct SimCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Simulate a study schedule on simulated learners: what it costs, what it gives.",
        discussion: """
            SCENARIO is a file, or the name of one in Sim/: \(DataFolders.scenarioNames().joined(separator: ", ")). \
            Flags override the scenario. The learner model follows the fsrs-rs simulator; every interval comes \
            from the scheduler Maeil reviews with.
            """)

    @Argument(help: "A scenario file or name (default: 10,000 items, 365 days, 20 new and 200 reviews a day, FSRS).") var scenario: String?

    @OptionGroup var collection: CollectionOptions

    @Option(help: ArgumentHelp(
        "Start from a deck of the collection: its cards as they are, its preset and limits, its FSRS parameters as the learner's memory.",
        valueName: "deck"), completion: Completions.decks)
    var deck: String?

    // Numbers are taken as they come, so that `--items -5` is refused for what it is rather
    // than read as an option.
    @Option(parsing: .unconditional, help: "Number of items.") var items: Int?
    @Option(parsing: .unconditional, help: "Days to simulate.") var days: Int?
    @Option(name: .customLong("new-per-day"), parsing: .unconditional, help: "New cards a day, or none.") var newPerDay: String?
    @Option(name: .customLong("reviews-per-day"), parsing: .unconditional, help: "Reviews a day, or none.") var reviewsPerDay: String?
    @Option(name: .customLong("minutes-per-day"), parsing: .unconditional, help: "Study time budget a day.") var minutesPerDay: Double?
    @Option(help: "sm2, anki-sm2 or fsrs.") var scheduler: SchedulerKind?
    @Option(name: .customLong("desired-retention"), parsing: .unconditional, help: "FSRS desired retention.") var desiredRetention: Double?
    @Option(parsing: .unconditional, help: "Random seed; runs use seed, seed+1, …") var seed: UInt64?
    @Flag(name: .customLong("load-balancing"), help: "Balance reviews over the fuzz range's days (Anki's load balancer); the report shows the spread without it too.")
    var loadBalancing = false
    @Option(name: .customLong("easy-days"), help: ArgumentHelp("Seven loads, Monday first: 1 normal, 0.5 reduced, 0 off.", valueName: "loads"))
    var easyDays: String?
    @Option(parsing: .unconditional, help: "Runs to average (they use every core).") var runs: Int?
    @Option(help: "Where intervals come from: scheduler (Maeil's, Anki's rules and all; the default) or fsrs-rs (the learner's stability at the desired retention, as fsrs-rs and Anki's own simulator schedule).", completion: .list(["scheduler", "fsrs-rs"])) var intervals: String?
    @Flag(help: "Print the summary as one JSON object.") var json = false
    @Option(help: ArgumentHelp("Write the per-day series as CSV.", valueName: "path")) var csv: String?
    @Option(name: .customLong("series-json"), help: ArgumentHelp("Write the per-day series as JSON.", valueName: "path")) var seriesJSON: String?
    @Option(help: ArgumentHelp("Write an SVG chart of retention, memorized items and workload.", valueName: "path")) var svg: String?
    @Option(help: ArgumentHelp("Try a range of values: desired_retention, new_per_day, reviews_per_day, minutes_per_day, starting_ease, interval_modifier, maximum_interval.",
                               valueName: "KEY=FROM:TO:STEP"))
    var sweep: String?
    @Option(help: ArgumentHelp("Run several schedulers on the same learners, e.g. sm2,anki-sm2,fsrs.", valueName: "list")) var compare: String?
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "With --sweep: the minutes a day you can study; the value that memorizes the most by the last day within it is recommended.",
        valueName: "minutes"))
    var budget: Double?
    @Option(name: .customLong("max-memory"), parsing: .unconditional, help: ArgumentHelp(
        "Memory the simulation may take, in MB (default: half of this machine's).", valueName: "MB"))
    var maximumMemory: Int?

    func validate() throws {
        _ = try applyFlags(to: SimulationConfig())
        if let maximumMemory, maximumMemory < 1 { throw ValidationError("--max-memory takes a number of MB, 1 or more") }
        _ = try plan()
    }

    func plan() throws -> SimulationPlan {
        do {
            return try .from(sweep: sweep, compare: compare, budget: budget, deckGiven: deck != nil, itemsGiven: items != nil)
        } catch let problem as Sweep.Problem {
            throw ValidationError(problem.description)
        }
    }

    /// The flags that override a scenario, each checked where its limits live
    /// (`SimulationConfig.set`), as a scenario file's settings are.
    func applyFlags(to config: SimulationConfig) throws -> SimulationConfig {
        var config = config
        do {
            try config.set(flags: [
                ("items", items.map(String.init)), ("days", days.map(String.init)), ("new_per_day", newPerDay),
                ("reviews_per_day", reviewsPerDay), ("minutes_per_day", minutesPerDay.map { "\($0)" }),
                ("scheduler", scheduler?.rawValue), ("desired_retention", desiredRetention.map { "\($0)" }), ("seed", seed.map(String.init)),
                ("load_balancing", loadBalancing ? "true" : nil), ("easy_days", easyDays), ("runs", runs.map(String.init)), ("intervals", intervals),
            ])
        } catch {
            throw ValidationError(error.description)
        }
        return config
    }

    func run(in context: CommandContext) throws {
        let collection = { try context.collection(self.collection, readOnly: true) }
        var (scenario, config) = try SimulationOutput.start(scenario, deck: deck, itemsGiven: items != nil, collection: collection,
                                                            now: context.now, timeZone: context.environment.timeZone)
        config = try applyFlags(to: config)
        let plan = try plan()
        let limit = maximumMemory.map { $0 << 20 } ?? Int(ProcessInfo.processInfo.physicalMemory / 2)
        if let problem = plan.problem(config, cores: ProcessInfo.processInfo.activeProcessorCount, limit: limit) {
            throw UserError(problem)
        }
        let report = plan.run(config)
        try SimulationOutput(csv: csv, seriesJSON: seriesJSON, svg: svg).write(report, scenario: scenario)
        if json { return context.verbatim(try SimulationOutput.json(report, scenario: scenario, config: config)) }
        SimulationView.lines(report, scenario: scenario, config: config, style: context.style).forEach(context.line)
    }
}
