import ArgumentParser
import Foundation
import MaeilCore
import MaeilDecks
import MaeilREPL
import MaeilSimulator
import MaeilStore

struct SimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sim",
        abstract: "Simulate a study schedule on simulated learners: what it costs, what it gives.",
        discussion: """
            SCENARIO is a file, or the name of one in Sim/ (hangul-30-days, jlpt-3000-by-day, verses-year, \
            stress-100k-10y, fsrs-rs-reference). Flags override the scenario. The learner model follows the \
            fsrs-rs simulator; every interval comes from the scheduler Maeil reviews with.
            """)

    @Argument(help: "A scenario file or name (default: 10,000 items, 365 days, 20 new and 200 reviews a day, FSRS).")
    var scenario: String?

    @Option(help: "Number of items.") var items: Int?
    @Option(help: "Days to simulate.") var days: Int?
    @Option(name: .customLong("new-per-day"), help: "New cards a day.") var newPerDay: Int?
    @Option(name: .customLong("reviews-per-day"), help: "Reviews a day.") var reviewsPerDay: Int?
    @Option(name: .customLong("minutes-per-day"), help: "Study time budget a day.") var minutesPerDay: Double?
    @Option(help: "sm2, anki-sm2 or fsrs.") var scheduler: SchedulerKind?
    @Option(name: .customLong("desired-retention"), help: "FSRS desired retention.") var desiredRetention: Double?
    @Option(help: "Random seed; runs use seed, seed+1, …") var seed: UInt64?
    @Option(help: "Runs to average (they use every core).") var runs: Int?
    @Flag(help: "Print the summary as one JSON object.") var json = false
    @Option(help: ArgumentHelp("Write the per-day series as CSV.", valueName: "path")) var csv: String?
    @Option(name: .customLong("series-json"), help: ArgumentHelp("Write the per-day series as JSON.", valueName: "path")) var seriesJSON: String?
    @Option(help: ArgumentHelp("Write an SVG chart of retention, memorized items and workload.", valueName: "path")) var svg: String?
    @Option(help: ArgumentHelp("Try a range of values: desired_retention, new_per_day, reviews_per_day, minutes_per_day, starting_ease, interval_modifier, maximum_interval.",
                               valueName: "KEY=FROM:TO:STEP"))
    var sweep: String?
    @Option(help: ArgumentHelp("Run several schedulers on the same learners, e.g. sm2,anki-sm2,fsrs.", valueName: "list")) var compare: String?

    func validate() throws {
        if let items, items < 0 { throw ValidationError("--items must be at least 0") }
        if let days, !(1...36_500).contains(days) { throw ValidationError("--days must be from 1 to 36500") }
        if let runs, runs < 1 { throw ValidationError("--runs must be at least 1") }
        if let desiredRetention, !(0.5...0.99).contains(desiredRetention) { throw ValidationError("--desired-retention must be from 0.5 to 0.99") }
        if sweep != nil, compare != nil { throw ValidationError("--sweep and --compare do not go together") }
        if let sweep { _ = try Sweep(sweep) }
        if let compare { _ = try Self.schedulers(compare) }
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
        } else if let folder = RepositoryFolder.find("Sim", containing: "\(name).yaml") {
            path = folder.appendingPathComponent("\(name).yaml").path
        } else {
            throw UserError("no scenario '\(name)': give a file, or one of the names in Sim/")
        }
        do {
            return try Scenario.load(path: path)
        } catch {
            throw UserError("\(error)")
        }
    }

    func configuration() throws -> (Scenario, SimulationConfig) {
        let scenario = try loadScenario()
        var config = scenario.config
        if let deck = scenario.deck, items == nil { config.items = try Self.cardCount(deck: deck) }
        if let items { config.items = items }
        if let days { config.days = days }
        if let newPerDay { config.newPerDay = newPerDay }
        if let reviewsPerDay { config.reviewsPerDay = reviewsPerDay }
        if let minutesPerDay { config.secondsPerDay = minutesPerDay * 60 }
        if let scheduler { config.scheduler.kind = scheduler }
        if let desiredRetention { config.scheduler.desiredRetention = desiredRetention }
        if let seed { config.seed = seed }
        if let runs { config.runs = runs }
        return (scenario, config)
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

    func run() throws {
        let (scenario, config) = try configuration()
        if let sweep {
            try runSweep(try Sweep(sweep), config: config, scenario: scenario)
        } else if let compare {
            try runComparison(try Self.schedulers(compare), config: config, scenario: scenario)
        } else {
            let summary = SimulationSummary(Simulator(config: config).runAll())
            try write(summary)
            if json {
                print(try JSONOutput.string(SimJSON(scenario: scenario.name, config: config, summary: summary)))
            } else {
                print(SimReport.render(summary, scenario: scenario, config: config, style: Style.forStandardOutput()))
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

    func runSweep(_ sweep: Sweep, config: SimulationConfig, scenario: Scenario) throws {
        let values = sweep.values
        let rows = SimulationSlots(count: values.count)
        DispatchQueue.concurrentPerform(iterations: values.count) { index in
            var variant = config
            sweep.apply(values[index], to: &variant)
            rows.set(index, SimulationSummary(Simulator(config: variant).runAllSequentially()))
        }
        let summaries = rows.values
        if json {
            print(try JSONOutput.string(summaries.enumerated().map { SweepJSON(key: sweep.key, value: values[$0.offset], summary: $0.element) }))
            return
        }
        var table: [[String]] = []
        for (index, summary) in summaries.enumerated() {
            let minutes = summary.studySecondsTotal / 60
            table.append([sweep.format(values[index]), String(format: "%.1f", summary.memorizedEnd), String(format: "%.0f", summary.reviewsTotal),
                          String(format: "%.0f", minutes), String(format: "%.2f", minutes > 0 ? summary.memorizedEnd / minutes : 0)])
        }
        print("\(scenario.name) · sweep \(sweep.key) · \(config.items) items · \(config.days) days · \(config.runs) run\(config.runs == 1 ? "" : "s") each")
        print(TextTable.render(header: [sweep.key, "memorized", "reviews", "minutes", "memorized/min"], rows: table))
        let best = summaries.indices.max { a, b in
            let ma = summaries[a].memorizedEnd / max(summaries[a].studySecondsTotal / 60, 1e-9)
            let mb = summaries[b].memorizedEnd / max(summaries[b].studySecondsTotal / 60, 1e-9)
            return ma < mb
        }
        if let best { print("Recommended: \(sweep.key) = \(sweep.format(values[best])) — the most knowledge per minute of study.") }
    }

    func runComparison(_ kinds: [SchedulerKind], config: SimulationConfig, scenario: Scenario) throws {
        let rows = SimulationSlots(count: kinds.count)
        DispatchQueue.concurrentPerform(iterations: kinds.count) { index in
            var variant = config
            variant.scheduler.kind = kinds[index]
            rows.set(index, SimulationSummary(Simulator(config: variant).runAllSequentially()))
        }
        let summaries = rows.values
        if json {
            print(try JSONOutput.string(summaries.enumerated().map { CompareJSON(scheduler: kinds[$0.offset].rawValue, summary: $0.element) }))
            return
        }
        print("\(scenario.name) · the same learners (seed \(config.seed)) · \(config.items) items · \(config.days) days")
        print(TextTable.render(header: ["scheduler", "memorized", "reviews", "hours", "retention", "memorized/min"], rows: summaries.enumerated().map { index, summary in
            let minutes = summary.studySecondsTotal / 60
            return [kinds[index].rawValue, String(format: "%.1f", summary.memorizedEnd), String(format: "%.0f", summary.reviewsTotal),
                    String(format: "%.1f", minutes / 60), summary.retention.map { String(format: "%.1f%%", $0 * 100) } ?? "–",
                    String(format: "%.2f", minutes > 0 ? summary.memorizedEnd / minutes : 0)]
        }))
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
        if key == "desired_retention", !values.allSatisfy({ (0.5...0.99).contains($0) }) {
            throw ValidationError("desired_retention must stay from 0.5 to 0.99")
        }
    }

    func apply(_ value: Double, to config: inout SimulationConfig) {
        switch key {
        case "desired_retention": config.scheduler.desiredRetention = value
        case "new_per_day": config.newPerDay = Int(value.rounded())
        case "reviews_per_day": config.reviewsPerDay = Int(value.rounded())
        case "minutes_per_day": config.secondsPerDay = value * 60
        case "starting_ease": config.scheduler.startingEasePermille = Int((value * 1000).rounded())
        case "interval_modifier": config.scheduler.intervalModifier = Float(value)
        default: config.scheduler.maximumInterval = max(1, Int(value.rounded()))
        }
    }

    func format(_ value: Double) -> String {
        value == value.rounded() && key != "desired_retention" ? String(Int(value)) : String(format: "%.3g", value)
    }
}

struct SimJSON: Encodable {
    let scenario: String
    let scheduler: String
    let items: Int
    let days: Int
    let summary: SimulationSummary

    init(scenario: String, config: SimulationConfig, summary: SimulationSummary) {
        self.scenario = scenario
        scheduler = config.scheduler.kind.rawValue
        items = config.items
        days = config.days
        self.summary = summary
    }

    enum CodingKeys: String, CodingKey {
        case scenario, scheduler, items, days, runs, retention
        case memorizedEnd = "memorized_end", memorizedEndSD = "memorized_end_sd", reviewsTotal = "reviews_total"
        case reviewsTotalSD = "reviews_total_sd", newTotal = "new_total", studySecondsTotal = "study_seconds_total"
        case elapsedMilliseconds = "elapsed_ms", peakMemory = "peak_memory_mb"
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scenario, forKey: .scenario)
        try container.encode(scheduler, forKey: .scheduler)
        try container.encode(items, forKey: .items)
        try container.encode(days, forKey: .days)
        try container.encode(summary.runs, forKey: .runs)
        try container.encode(summary.memorizedEnd, forKey: .memorizedEnd)
        try container.encode(summary.memorizedEndSD, forKey: .memorizedEndSD)
        try container.encode(summary.reviewsTotal, forKey: .reviewsTotal)
        try container.encode(summary.reviewsTotalSD, forKey: .reviewsTotalSD)
        try container.encode(summary.newTotal, forKey: .newTotal)
        try container.encode(summary.studySecondsTotal, forKey: .studySecondsTotal)
        try container.encode(summary.retention, forKey: .retention)
        try container.encode(summary.elapsedMilliseconds, forKey: .elapsedMilliseconds)
        if let megabytes = PeakMemory.megabytes() { try container.encode(megabytes, forKey: .peakMemory) }
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
}

struct SweepJSON: Encodable {
    let key: String
    let value: Double
    let summary: SimulationSummary
    enum CodingKeys: String, CodingKey { case key, value, memorizedEnd = "memorized_end", reviewsTotal = "reviews_total", studySecondsTotal = "study_seconds_total" }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(key, forKey: .key)
        try container.encode(value, forKey: .value)
        try container.encode(summary.memorizedEnd, forKey: .memorizedEnd)
        try container.encode(summary.reviewsTotal, forKey: .reviewsTotal)
        try container.encode(summary.studySecondsTotal, forKey: .studySecondsTotal)
    }
}

struct CompareJSON: Encodable {
    let scheduler: String
    let summary: SimulationSummary
    enum CodingKeys: String, CodingKey { case scheduler, memorizedEnd = "memorized_end", reviewsTotal = "reviews_total", studySecondsTotal = "study_seconds_total", retention }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(scheduler, forKey: .scheduler)
        try container.encode(summary.memorizedEnd, forKey: .memorizedEnd)
        try container.encode(summary.reviewsTotal, forKey: .reviewsTotal)
        try container.encode(summary.studySecondsTotal, forKey: .studySecondsTotal)
        try container.encode(summary.retention, forKey: .retention)
    }
}

/// Summaries computed on several threads, each into its own slot.
final class SimulationSlots: @unchecked Sendable {
    private var slots: [SimulationSummary?]
    private let lock = NSLock()
    init(count: Int) { slots = Array(repeating: nil, count: count) }
    func set(_ index: Int, _ summary: SimulationSummary) { lock.withLock { slots[index] = summary } }
    var values: [SimulationSummary] { lock.withLock { slots.map { $0! } } }
}

/// A folder of the repository (Decks/, Sim/), found the way the bundled decks are.
enum RepositoryFolder {
    static func find(_ name: String, containing file: String) -> URL? {
        let starts = [URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent(),
                      URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
        for start in starts {
            var folder = start
            for _ in 0..<6 {
                let candidate = folder.appendingPathComponent(name)
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(file).path) { return candidate }
                folder.deleteLastPathComponent()
            }
        }
        return nil
    }
}
