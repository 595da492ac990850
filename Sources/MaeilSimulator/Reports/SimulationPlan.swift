import Foundation
import MaeilCore

/// What `maeil sim` runs: one configuration (and, with the load balancer on, the same learners
/// without it), a sweep of one setting, or several schedulers on the same learners.
package enum SimulationPlan: Sendable {
    case single
    case sweep(Sweep, budgetMinutesPerDay: Double?)
    case comparison([SchedulerKind])

    /// The plan `sim`'s flags ask for, with every rule on how they combine; a `Sweep.Problem`
    /// says what is wrong in the flags' words.
    package static func from(sweep: String?, compare: String?, budget: Double?, deckGiven: Bool, itemsGiven: Bool) throws -> SimulationPlan {
        func problem(_ text: String) -> Sweep.Problem { Sweep.Problem(description: text) }
        if sweep != nil, compare != nil { throw problem("--sweep and --compare do not go together") }
        if let budget, !(budget > 0 && budget <= 1440) { throw problem("--budget takes minutes a day, more than 0 and at most 1440") }
        if budget != nil, sweep == nil { throw problem("--budget goes with --sweep: it picks the best value of a range") }
        if deckGiven, itemsGiven { throw problem("--deck takes its items from the deck; --items does not go with it") }
        if let sweep { return .sweep(try Sweep(sweep), budgetMinutesPerDay: budget) }
        if let compare { return .comparison(try schedulers(compare)) }
        return .single
    }

    /// "sm2,anki-sm2,fsrs".
    package static func schedulers(_ list: String) throws -> [SchedulerKind] {
        try list.split(separator: ",").map { name in
            guard let kind = SchedulerKind(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                throw Sweep.Problem(description: "--compare takes sm2, anki-sm2 and fsrs, not '\(name)'")
            }
            return kind
        }
    }

    /// How many runs go at once on `cores` cores: the settings of a sweep or comparison side by
    /// side, or a configuration's several runs.
    package func concurrentRuns(_ config: SimulationConfig, cores: Int) -> Int {
        switch self {
        case .single: min(cores, max(1, config.runs))
        case .sweep(let sweep, _): min(cores, sweep.values.count)
        case .comparison(let kinds): min(cores, kinds.count)
        }
    }

    /// Why the plan cannot run: intervals from fsrs-rs with what they leave out, or more memory
    /// than `limit` bytes, with the figures; nil when it can. A run that would not fit is
    /// refused before it starts: it would otherwise grow until the machine swaps or kills it.
    package func problem(_ config: SimulationConfig, cores: Int, limit: Int) -> String? {
        if config.intervals == .fsrsRS {
            var scheduled = [config.scheduler.kind]
            if case .comparison(let kinds) = self { scheduled = kinds }
            if scheduled != [.fsrs] { return "intervals: fsrs-rs schedules by FSRS memory, so it goes with the fsrs scheduler alone" }
            if config.scheduler.loadBalancing { return "intervals: fsrs-rs schedules without fuzz, so it does not go with load balancing" }
        }
        return memoryProblem(config, cores: cores, limit: limit)
    }

    private func memoryProblem(_ config: SimulationConfig, cores: Int, limit: Int) -> String? {
        let concurrent = concurrentRuns(config, cores: cores)
        let needed = config.estimatedPeakBytes(concurrent: concurrent)
        guard needed > limit else { return nil }
        let megabytes = { (bytes: Int) in "\(bytes >> 20) MB" }
        return "this simulation needs about \(megabytes(needed)) of memory (\(config.items) items × \(config.days) days, "
            + "\(concurrent) at once) and may take \(megabytes(limit)); give fewer items or runs, "
            + "or raise the limit with --max-memory MB"
    }

    package func run(_ config: SimulationConfig) -> SimulationReport {
        switch self {
        case .single:
            let summary = SimulationSummary(Simulator(config: config).runAll())
            // With the balancer on, the same learners without it: how much it evens the days.
            guard config.scheduler.loadBalancing else { return .single(SingleRun(summary: summary, spread: nil)) }
            var plain = config
            plain.scheduler.loadBalancing = false
            let without = SimulationSummary(Simulator(config: plain).runAll())
            return .single(SingleRun(summary: summary, spread: (DailySpread(summary), DailySpread(without))))
        case .sweep(let sweep, let budget):
            let summaries = Parallel.map(sweep.values) { value in
                var variant = config
                sweep.apply(value, to: &variant)
                return SimulationSummary(Simulator(config: variant).runAllSequentially())
            }
            return .sweep(SweepRun(sweep: sweep, days: config.days, summaries: summaries, budgetMinutesPerDay: budget))
        case .comparison(let kinds):
            let summaries = Parallel.map(kinds) { kind in
                var variant = config
                variant.scheduler.kind = kind
                return SimulationSummary(Simulator(config: variant).runAllSequentially())
            }
            return .comparison(ComparisonRun(config: config, kinds: kinds, summaries: summaries))
        }
    }
}

/// What a plan gave.
package enum SimulationReport {
    case single(SingleRun)
    case sweep(SweepRun)
    case comparison(ComparisonRun)
}

/// One configuration's runs, and how evenly its reviews fall with and without load balancing.
package struct SingleRun {
    package let summary: SimulationSummary
    package let spread: (with: DailySpread, without: DailySpread)?

    /// `sim --json`: what names the run, the summary's totals, the spread.
    package func json(leading: [(String, (any Encodable)?)]) -> JSONObject {
        var json = summary.json(leading)
        if let spread {
            json.fields.append(("daily_reviews_sd", spread.with.deviation))
            json.fields.append(("daily_reviews_sd_without_load_balancing", spread.without.deviation))
        }
        return json
    }
}

/// A sweep's summaries, one per value, and what they recommend.
package struct SweepRun {
    package let sweep: Sweep
    package let days: Int
    package let summaries: [SimulationSummary]
    package let budgetMinutesPerDay: Double?
    package let advice: SweepAdvice

    package init(sweep: Sweep, days: Int, summaries: [SimulationSummary], budgetMinutesPerDay: Double?) {
        self.sweep = sweep
        self.days = days
        self.summaries = summaries
        self.budgetMinutesPerDay = budgetMinutesPerDay
        advice = SweepAdvice(points: summaries.enumerated().map { index, summary in
            SweepAdvice.Point(value: Sweep.rounded(sweep.values[index]), memorized: summary.memorizedEnd,
                              minutesPerDay: summary.studySecondsTotal / 60 / Double(max(days, 1)))
        }, budgetMinutesPerDay: budgetMinutesPerDay)
    }

    package var json: JSONObject {
        JSONObject([
            ("key", sweep.key), ("days", days), ("budget_minutes_per_day", budgetMinutesPerDay),
            ("recommended", advice.best.map { advice.points[$0].value }), ("edge", advice.best == nil ? nil : "\(advice.edge)"),
            ("rows", summaries.enumerated().map { index, summary in
                summary.json([("value", advice.points[index].value), ("minutes_per_day", advice.points[index].minutesPerDay)])
            }),
        ])
    }

    /// Memorized items and minutes a day at each value, with the budget as a line.
    package func chart(title: String) -> String {
        PointChart.svg(title: "\(title): \(sweep.key) by day \(days)", labels: sweep.values.map(sweep.format),
                       series: PointChart.workload(advice.points.map(\.memorized), advice.points.map(\.minutesPerDay)),
                       budget: budgetMinutesPerDay)
    }
}

/// Several schedulers on the same learners.
package struct ComparisonRun {
    package let config: SimulationConfig
    package let kinds: [SchedulerKind]
    package let summaries: [SimulationSummary]

    package func minutesPerDay(_ summary: SimulationSummary) -> Double {
        summary.studySecondsTotal / 60 / Double(max(config.days, 1))
    }

    package var json: [JSONObject] {
        summaries.enumerated().map { $0.element.json([("scheduler", kinds[$0.offset].rawValue)]) }
    }

    package func chart(title: String) -> String {
        PointChart.svg(title: "\(title): schedulers by day \(config.days)", labels: kinds.map(\.rawValue),
                       series: PointChart.workload(summaries.map(\.memorizedEnd), summaries.map(minutesPerDay)), budget: nil, connected: false)
    }

    /// What differs between the schedulers, so that the table is read for what it is.
    package func explanation(_ index: Int) -> String {
        var config = self.config
        config.scheduler.kind = kinds[index]
        let summary = summaries[index]
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

extension SimulationSummary {
    /// `sim --json`, a sweep's rows and a comparison's rows: the summary's totals, after what
    /// names the run.
    package func json(_ leading: [(String, (any Encodable)?)]) -> JSONObject {
        JSONObject(leading + [
            ("runs", runs), ("memorized_end", memorizedEnd), ("memorized_end_sd", memorizedEndSD), ("reviews_total", reviewsTotal),
            ("reviews_total_sd", reviewsTotalSD), ("new_total", newTotal), ("study_seconds_total", studySecondsTotal),
            ("retention", retention), ("elapsed_ms", elapsedMilliseconds),
        ])
    }

    /// The series day by day, as CSV.
    package var csv: String {
        var lines = ["day,reviews,new,minutes,retention,memorized"]
        for day in days {
            lines.append([String(day.day), String(format: "%.3f", day.reviews), String(format: "%.3f", day.new), String(format: "%.3f", day.seconds / 60),
                          day.retention.map { String(format: "%.4f", $0) } ?? "", String(format: "%.3f", day.memorized)].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// How much the reviews vary from one day to the next, after the first month's ramp: the
/// spread around the week's moving average (the long trend is not what balancing evens), and
/// the largest day.
package struct DailySpread: Sendable {
    package let deviation: Double
    package let largest: Double

    package init(_ summary: SimulationSummary) {
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
