import ArgumentParser
import Foundation
import MaeilCore
import MaeilDecks
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

    @Argument(help: "A scenario file or name (default: 10,000 items, 365 days, 20 new and 200 reviews a day, FSRS).")
    var scenario: String?

    @OptionGroup var collection: CollectionOptions

    @Option(help: ArgumentHelp(
        "Start from a deck of the collection: its cards as they are, its preset and limits, its FSRS parameters as the learner's memory.",
        valueName: "deck"))
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
        if sweep != nil, compare != nil { throw ValidationError("--sweep and --compare do not go together") }
        if let sweep { _ = try Sweep(sweep) }
        if let compare { _ = try Self.schedulers(compare) }
        if let budget, !(budget > 0 && budget <= 1440) { throw ValidationError("--budget takes minutes a day, more than 0 and at most 1440") }
        if budget != nil, sweep == nil { throw ValidationError("--budget goes with --sweep: it picks the best value of a range") }
        if deck != nil, items != nil { throw ValidationError("--deck takes its items from the deck; --items does not go with it") }
    }

    /// The flags that override a scenario, each checked where its limits live
    /// (`SimulationConfig.set`), as a scenario file's settings are.
    func applyFlags(to config: SimulationConfig) throws -> SimulationConfig {
        var config = config
        let flags: [(String, String?)] = [
            ("items", items.map(String.init)), ("days", days.map(String.init)), ("new_per_day", newPerDay),
            ("reviews_per_day", reviewsPerDay), ("minutes_per_day", minutesPerDay.map { "\($0)" }),
            ("scheduler", scheduler?.rawValue), ("desired_retention", desiredRetention.map { "\($0)" }), ("seed", seed.map(String.init)),
            ("load_balancing", loadBalancing ? "true" : nil), ("easy_days", easyDays),
            ("runs", runs.map(String.init)),
        ]
        for case let (key, value?) in flags {
            do {
                try config.set(key, .text(value))
            } catch {
                throw ValidationError("--" + key.replacingOccurrences(of: "_", with: "-") + error.description.dropFirst(key.count))
            }
        }
        return config
    }

    static func schedulers(_ list: String) throws -> [SchedulerKind] {
        try list.split(separator: ",").map { name in
            guard let kind = SchedulerKind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw ValidationError("--compare takes sm2, anki-sm2 and fsrs, not '\(name)'")
            }
            return kind
        }
    }

    func loadScenario() throws -> Scenario {
        guard let name = scenario else { return Scenario(name: "default") }
        let path: String
        if FileManager.default.fileExists(atPath: name) {
            path = name
        } else if let file = DataFolders.scenarios()?.appendingPathComponent("\(name).yaml"),
                  FileManager.default.fileExists(atPath: file.path) {
            path = file.path
        } else {
            let names = DataFolders.scenarioNames()
            throw UserError("no scenario '\(name)': give a file, or one of " + (names.isEmpty ? "the names in Sim/ (set MAEIL_SIM to its folder)" : names.joined(separator: ", ")))
        }
        do {
            return try Scenario.load(path: path)
        } catch {
            throw UserError("\(error)")
        }
    }

    func configuration(_ context: CommandContext? = nil) throws -> (Scenario, SimulationConfig) {
        var scenario = try loadScenario()
        var config = scenario.config
        if let deck = scenario.deck, items == nil { config.items = try Self.cardCount(deck: deck) }
        if let deck, let context {
            let collection = try context.collection(self.collection, readOnly: true)
            let chosen = try DeckNames.resolve([deck], in: collection)
            try SimulationStart.configure(&config, collection: collection, decks: chosen, now: context.now, timeZone: context.environment.timeZone)
            scenario.name = chosen.map(\.name).joined(separator: ", ")
        }
        config = try applyFlags(to: config)
        return (scenario, config)
    }

    /// A simulation that would not fit is refused before it starts, with the figures: it
    /// would otherwise grow until the machine swaps or kills it.
    func checkMemory(_ config: SimulationConfig) throws {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let concurrent: Int
        if let sweep { concurrent = min(cores, try Sweep(sweep).values.count) } else if let compare {
            concurrent = min(cores, try Self.schedulers(compare).count)
        } else {
            concurrent = min(cores, max(1, config.runs))
        }
        let needed = config.estimatedPeakBytes(concurrent: concurrent)
        let limit = maximumMemory.map { $0 << 20 } ?? Int(ProcessInfo.processInfo.physicalMemory / 2)
        guard needed <= limit else {
            let megabytes = { (bytes: Int) in "\(bytes >> 20) MB" }
            throw UserError("this simulation needs about \(megabytes(needed)) of memory (\(config.items) items × \(config.days) days, "
                            + "\(concurrent) at once) and may take \(megabytes(limit)); give fewer items or runs, "
                            + "or raise the limit with --max-memory MB")
        }
    }

    /// A scenario can take its items from a bundled deck: as many as the deck has cards.
    static func cardCount(deck name: String) throws -> Int {
        guard let decks = BundledDecks.directory() else { throw UserError("the scenario names deck \(name), but Decks/ was not found; set MAEIL_DECKS") }
        let folder = decks.appendingPathComponent(name)
        do {
            let (deck, _) = try MaeilDeckFormat.read(path: folder.path, options: ImportOptions())
            return deck.notes.reduce(0) { total, note in
                total + deck.templates.reduce(0) { $0 + $1.ordinals(for: note.fields, noteType: note.noteType).count }
            }
        } catch {
            throw UserError("the scenario's deck \(name): \(error)")
        }
    }

    func run(in context: CommandContext) throws {
        let (scenario, config) = try configuration(context)
        try checkMemory(config)
        if let sweep {
            try runSweep(try Sweep(sweep), config: config, scenario: scenario, context)
        } else if let compare {
            try runComparison(try Self.schedulers(compare), config: config, scenario: scenario, context)
        } else {
            let summary = SimulationSummary(Simulator(config: config).runAll())
            try write(summary)
            // With the balancer on, the same learners without it: how much it evens the days.
            var spread: (with: DailySpread, without: DailySpread)?
            if config.scheduler.loadBalancing {
                var plain = config
                plain.scheduler.loadBalancing = false
                spread = (DailySpread(summary), DailySpread(SimulationSummary(Simulator(config: plain).runAll())))
            }
            if json {
                var json = summary.json([("scenario", scenario.name), ("scheduler", config.scheduler.kind.rawValue), ("items", config.items),
                                         ("days", config.days)])
                if let megabytes = PeakMemory.megabytes() { json.fields.append(("peak_memory_mb", megabytes)) }
                if let spread {
                    json.fields.append(("daily_reviews_sd", spread.with.deviation))
                    json.fields.append(("daily_reviews_sd_without_load_balancing", spread.without.deviation))
                }
                context.verbatim(try JSONOutput.string(json))
            } else {
                context.line(SimReport.render(summary, scenario: scenario, config: config, style: context.style))
                if let spread {
                    context.line(String(format: "day to day: reviews stray %.1f from the week's average (sd), at most %.0f a day; without load balancing %.1f, at most %.0f",
                                        spread.with.deviation, spread.with.largest, spread.without.deviation, spread.without.largest))
                }
            }
        }
    }

    func write(_ summary: SimulationSummary) throws {
        do {
            if let csv { try Data(SimReport.csv(summary).utf8).write(to: URL(fileURLWithPath: csv), options: .atomic) }
            if let seriesJSON { try Data(JSONOutput.string(summary.days).utf8).write(to: URL(fileURLWithPath: seriesJSON), options: .atomic) }
            if let svg { try Data(SimChart.svg(summary).utf8).write(to: URL(fileURLWithPath: svg), options: .atomic) }
        } catch {
            throw UserError("cannot write the output: \(error.localizedDescription)")
        }
    }

    func runSweep(_ sweep: Sweep, config: SimulationConfig, scenario: Scenario, _ context: CommandContext) throws {
        let values = sweep.values
        let summaries = Parallel.map(values) { value in
            var variant = config
            sweep.apply(value, to: &variant)
            return SimulationSummary(Simulator(config: variant).runAllSequentially())
        }
        let advice = SweepAdvice(points: summaries.enumerated().map { index, summary in
            SweepAdvice.Point(value: Sweep.rounded(values[index]), memorized: summary.memorizedEnd,
                              minutesPerDay: summary.studySecondsTotal / 60 / Double(max(config.days, 1)))
        }, budgetMinutesPerDay: budget)
        if let svg {
            try writeChart(PointChart.svg(title: "\(scenario.name): \(sweep.key) by day \(config.days)", labels: values.map(sweep.format),
                                          series: PointChart.workload(advice.points.map(\.memorized), advice.points.map(\.minutesPerDay)),
                                          budget: budget), to: svg)
        }
        if json {
            context.verbatim(try JSONOutput.string(JSONObject([
                ("key", sweep.key), ("days", config.days), ("budget_minutes_per_day", budget),
                ("recommended", advice.best.map { advice.points[$0].value }), ("edge", advice.best == nil ? nil : "\(advice.edge)"),
                ("rows", summaries.enumerated().map { index, summary in
                    summary.json([("value", advice.points[index].value), ("minutes_per_day", advice.points[index].minutesPerDay)])
                }),
            ])))
            return
        }
        var table: [[String]] = []
        for (index, summary) in summaries.enumerated() {
            table.append([sweep.format(values[index]), String(format: "%.0f", summary.memorizedEnd), String(format: "%.0f", summary.reviewsTotal),
                          String(format: "%.1f", advice.points[index].minutesPerDay)])
        }
        context.line("\(scenario.name) · sweep \(sweep.key) · \(config.items) items · \(config.days) days · \(config.runs) run\(config.runs == 1 ? "" : "s") each")
        context.line(TextTable.render(header: [sweep.key, "memorized", "reviews", "min/day"], rows: table))
        context.line("memorized    " + Sparkline.render(advice.points.map(\.memorized), fromMinimum: true))
        context.line("minutes/day  " + Sparkline.render(advice.points.map(\.minutesPerDay), fromMinimum: true))
        for step in advice.steps {
            context.line(String(format: "%@ → %@: %+.1f min a day for %+.0f items", sweep.format(step.from), sweep.format(step.to), step.minutes, step.items))
        }
        guard let budget else {
            context.line(context.style.dim("--budget MINUTES (a day) picks the value that memorizes the most within what you can study."))
            return
        }
        if let best = advice.best {
            let point = advice.points[best]
            context.line("Recommended within \(Self.minutes(budget)) a day: \(sweep.key) = \(sweep.format(values[best])) — "
                         + String(format: "%.0f items memorized by day %d, %.1f min a day.", point.memorized, config.days, point.minutesPerDay))
            if advice.edge != .none, let wider = sweep.wider(around: values[best], toward: advice.edge) {
                context.line("That is the \(advice.edge == .high ? "top" : "bottom") of the range: a wider one may do better, e.g. --sweep \(wider)")
            }
        } else if let lightest = advice.lightestOverBudget {
            context.line("No value keeps within \(Self.minutes(budget)) a day: the lightest, \(sweep.key) = \(sweep.format(values[lightest])), "
                         + String(format: "takes %.1f. Study fewer new cards a day, or give more time.", advice.points[lightest].minutesPerDay))
        }
    }

    static func minutes(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) min" : String(format: "%.1f min", value)
    }

    func writeChart(_ text: String, to path: String) throws {
        do {
            try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw UserError("cannot write \(path): \(error.localizedDescription)")
        }
    }

    func runComparison(_ kinds: [SchedulerKind], config: SimulationConfig, scenario: Scenario, _ context: CommandContext) throws {
        let summaries = Parallel.map(kinds) { kind in
            var variant = config
            variant.scheduler.kind = kind
            return SimulationSummary(Simulator(config: variant).runAllSequentially())
        }
        if let svg {
            try writeChart(PointChart.svg(title: "\(scenario.name): schedulers by day \(config.days)", labels: kinds.map(\.rawValue),
                                          series: PointChart.workload(summaries.map(\.memorizedEnd),
                                                                      summaries.map { $0.studySecondsTotal / 60 / Double(max(config.days, 1)) }),
                                          budget: nil), to: svg)
        }
        if json {
            context.verbatim(try JSONOutput.string(summaries.enumerated().map { $0.element.json([("scheduler", kinds[$0.offset].rawValue)]) }))
            return
        }
        context.line("\(scenario.name) · the same learners (seed \(config.seed)) · \(config.items) items · \(config.days) days")
        context.line(TextTable.render(header: ["scheduler", "memorized", "reviews", "hours", "retention", "memorized/min"], rows: summaries.enumerated().map { index, summary in
            let minutes = summary.studySecondsTotal / 60
            return [kinds[index].rawValue, String(format: "%.1f", summary.memorizedEnd), String(format: "%.0f", summary.reviewsTotal),
                    String(format: "%.1f", minutes / 60), summary.retention.map { String(format: "%.1f%%", $0 * 100) } ?? "–",
                    String(format: "%.2f", minutes > 0 ? summary.memorizedEnd / minutes : 0)]
        }))
        // What differs, so that the table is read for what it is.
        for (index, kind) in kinds.enumerated() {
            var variant = config
            variant.scheduler.kind = kind
            context.line("\(kind.rawValue): " + Self.explanation(variant, summaries[index]))
        }
    }

    static func explanation(_ config: SimulationConfig, _ summary: SimulationSummary) -> String {
        let steps = config.scheduler.learningSteps.description
        let retention = summary.retention.map { String(format: "%.1f %%", $0 * 100) } ?? "–"
        switch config.scheduler.kind {
        case .sm2:
            return "classic SM-2 has no learning steps (a new card's first interval is a day) and no target retention: "
                + "cheaper per new card, and \(retention) of its reviews recalled."
        case .ankiSM2:
            return "learning steps \(steps); intervals grow by ease, with no target: \(retention) of reviews recalled."
        case .fsrs:
            let desired = String(format: "%.2f", config.scheduler.desiredRetention)
            var text = "learning steps \(steps); \(retention) of reviews recalled against a desired \(desired)"
            if let limit = config.reviewsPerDay { text += " (the limit of \(limit) reviews a day postpones some, and late reviews recall less)" }
            return text + "."
        }
    }
}

/// --sweep KEY=FROM:TO:STEP.
struct Sweep {
    let key: String
    let values: [Double]

    static let keys = ["desired_retention", "new_per_day", "reviews_per_day", "minutes_per_day", "starting_ease", "interval_modifier", "maximum_interval"]

    init(_ text: String) throws {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, Self.keys.contains(parts[0]) else {
            throw ValidationError("--sweep takes KEY=FROM:TO:STEP with KEY one of \(Self.keys.joined(separator: ", "))")
        }
        let numbers = parts[1].split(separator: ":").map { Double($0) }
        guard numbers.count == 3, let from = numbers[0], let to = numbers[1], let step = numbers[2], step > 0, from <= to else {
            throw ValidationError("--sweep needs FROM:TO:STEP with FROM ≤ TO and STEP > 0, e.g. desired_retention=0.80:0.95:0.05")
        }
        let count = Int(((to - from) / step + 1e-9).rounded(.down)) + 1
        guard count <= 200 else { throw ValidationError("--sweep would run \(count) settings; 200 at most") }
        key = parts[0]
        values = (0..<count).map { from + Double($0) * step }
        var probe = SimulationConfig()
        for value in values {
            do {
                try probe.set(key, .text(Self.text(value)))
            } catch {
                throw ValidationError("--sweep: \(error.description)")
            }
        }
    }

    /// A range as wide as this one beyond `value`, toward `edge`, cut where the setting ends;
    /// nil when the value is already the setting's limit.
    func wider(around value: Double, toward edge: SweepAdvice.Edge) -> String? {
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
    static func rounded(_ value: Double) -> Double { Double(text(value)) ?? value }

    /// The value as a setting reads it: no binary noise (0.85, not 0.8500000000000001).
    static func text(_ value: Double) -> String {
        let rounded = (value * 1e9).rounded() / 1e9
        return rounded == rounded.rounded() ? String(Int(rounded)) : "\(rounded)"
    }

    func apply(_ value: Double, to config: inout SimulationConfig) {
        // Every value was checked when the sweep was parsed.
        try? config.set(key, .text(Self.text(value)))
    }

    func format(_ value: Double) -> String {
        value == value.rounded() && key != "desired_retention" ? String(Int(value)) : String(format: "%.3g", value)
    }
}

/// `sim --json`, a sweep's rows and a comparison's rows: the summary's totals, after what
/// names the run.
extension SimulationSummary {
    func json(_ leading: [(String, (any Encodable)?)]) -> JSONObject {
        JSONObject(leading + [
            ("runs", runs), ("memorized_end", memorizedEnd), ("memorized_end_sd", memorizedEndSD), ("reviews_total", reviewsTotal),
            ("reviews_total_sd", reviewsTotalSD), ("new_total", newTotal), ("study_seconds_total", studySecondsTotal),
            ("retention", retention), ("elapsed_ms", elapsedMilliseconds),
        ])
    }
}

/// This process's peak resident memory so far. Linux's VmHWM counts this program image only;
/// ru_maxrss would also count the parent's memory when the process was started by posix_spawn.
enum PeakMemory {
    static func megabytes() -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return nil }
        return kilobytes / 1024
    }

    /// Writes the figure to `path`, for a parent measuring this process.
    static func write(to path: String?) {
        guard let path, let megabytes = megabytes() else { return }
        try? Data("\(megabytes)\n".utf8).write(to: URL(fileURLWithPath: path))
    }
}

/// How much the reviews vary from one day to the next, after the first month's ramp: the
/// spread around the week's moving average (the long trend is not what balancing evens), and
/// the largest day.
struct DailySpread {
    let deviation: Double
    let largest: Double

    init(_ summary: SimulationSummary) {
        let reviews = Array(summary.days.dropFirst(min(30, summary.days.count / 4)).map(\.reviews))
        var squares = 0.0, count = 0.0
        if reviews.count >= 7 {
            for index in 3..<(reviews.count - 3) {
                let week = reviews[(index - 3)...(index + 3)].reduce(0, +) / 7
                squares += (reviews[index] - week) * (reviews[index] - week)
                count += 1
            }
        }
        deviation = count > 0 ? (squares / count).squareRoot() : 0
        largest = reviews.max() ?? 0
    }
}
