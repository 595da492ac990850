import Foundation
import MaeilCore
import MaeilSimulator

/// `maeil sim`'s report at a terminal: the same values its --json and charts give.
package enum SimulationView {
    package static func lines(_ report: SimulationReport, scenario: Scenario, config: SimulationConfig, style: Style) -> [String] {
        switch report {
        case .single(let run): single(run, scenario: scenario, config: config, style: style)
        case .sweep(let run): sweep(run, scenario: scenario, config: config, style: style)
        case .comparison(let run): comparison(run, scenario: scenario)
        }
    }

    static func single(_ run: SingleRun, scenario: Scenario, config: SimulationConfig, style: Style) -> [String] {
        var lines = [summary(run.summary, scenario: scenario, config: config, style: style)]
        if let spread = run.spread {
            lines.append(String(format: "day to day: reviews stray %.1f from the week's average (sd), at most %.0f a day; without load balancing %.1f, at most %.0f",
                                spread.with.deviation, spread.with.largest, spread.without.deviation, spread.without.largest))
        }
        return lines
    }

    static func summary(_ summary: SimulationSummary, scenario: Scenario, config: SimulationConfig, style: Style) -> String {
        let days = Double(max(summary.days.count, 1))
        let minutes = summary.studySecondsTotal / 60
        var settings = [config.scheduler.kind.rawValue]
        if config.scheduler.kind == .fsrs { settings.append(String(format: "retention %.2f", config.scheduler.desiredRetention)) }
        if config.intervals == .fsrsRS { settings.append("fsrs-rs intervals") }
        settings.append("\(config.items) items")
        settings.append("\(config.days) days")
        settings.append(config.newPerDay.map { "\($0) new/day" } ?? "no new limit")
        settings.append(config.reviewsPerDay.map { "\($0) reviews/day" } ?? "no review limit")
        if let budget = config.secondsPerDay { settings.append(String(format: "%.0f min/day", budget / 60)) }
        var lines = [style.bold(scenario.name) + " — " + settings.joined(separator: " · ")
                     + " · \(summary.runs) run\(summary.runs == 1 ? "" : "s")"]
        if !scenario.description.isEmpty { lines.append(style.dim(scenario.description)) }
        let learned = summary.newTotal
        // A run from a deck (sim --deck) starts with cards already studied: they are memorized
        // (or not) too, so the share is of every card studied, before the run and in it.
        let studied = learned + Double(config.startingCards.filter { $0.phase != .new }.count)
        func row(_ label: String, _ value: String) -> String { label.padding(toLength: 22, withPad: " ", startingAt: 0) + value }
        lines.append(row("memorized at the end", String(format: "%.1f items", summary.memorizedEnd)
                         + (studied > 0 ? String(format: " (%.0f%% of %.0f studied)", summary.memorizedEnd / studied * 100, studied) : "")
                         + (summary.runs > 1 ? String(format: " ± %.1f", summary.memorizedEndSD) : "")))
        lines.append(row("reviews", String(format: "%.0f (%.1f a day)", summary.reviewsTotal, summary.reviewsTotal / days)
                         + (summary.runs > 1 ? String(format: " ± %.0f", summary.reviewsTotalSD) : "")))
        lines.append(row("new cards learned", String(format: "%.0f", learned)))
        lines.append(row("study time", String(format: "%.1f h (%.1f min a day)", minutes / 60, minutes / days)))
        lines.append(row("true retention", summary.retention.map { String(format: "%.1f %%", $0 * 100) } ?? "–"))
        lines.append(row("knowledge per minute", String(format: "%.2f items", minutes > 0 ? summary.memorizedEnd / minutes : 0)))
        lines.append(row("compute", String(format: "%.0f ms", summary.elapsedMilliseconds)))
        lines.append(row("reviews a day", Sparkline.render(Sparkline.sample(summary.days.map(\.reviews)))))
        let retention = Sparkline.sample(summary.days.compactMap(\.retention))
        lines.append(row("retention", Sparkline.render(retention, fromMinimum: true)
                         + String(format: "  (%.0f–%.0f %%)", (retention.min() ?? 0) * 100, (retention.max() ?? 0) * 100)))
        lines.append(row("memorized", Sparkline.render(Sparkline.sample(summary.days.map(\.memorized)))))
        return lines.joined(separator: "\n")
    }

    static func sweep(_ run: SweepRun, scenario: Scenario, config: SimulationConfig, style: Style) -> [String] {
        let sweep = run.sweep, advice = run.advice
        var table: [[String]] = []
        for (index, summary) in run.summaries.enumerated() {
            table.append([sweep.format(sweep.values[index]), String(format: "%.0f", summary.memorizedEnd), String(format: "%.0f", summary.reviewsTotal),
                          String(format: "%.1f", advice.points[index].minutesPerDay)])
        }
        var lines = ["\(scenario.name) · sweep \(sweep.key) · \(config.items) items · \(config.days) days · \(config.runs) run\(config.runs == 1 ? "" : "s") each"]
        lines.append(TextTable.render(header: [sweep.key, "memorized", "reviews", "min/day"], rows: table))
        lines.append("memorized    " + Sparkline.render(advice.points.map(\.memorized), fromMinimum: true))
        lines.append("minutes/day  " + Sparkline.render(advice.points.map(\.minutesPerDay), fromMinimum: true))
        for step in advice.steps {
            lines.append(String(format: "%@ → %@: %+.1f min a day for %+.0f items", sweep.format(step.from), sweep.format(step.to), step.minutes, step.items))
        }
        guard let budget = run.budgetMinutesPerDay else {
            lines.append(style.dim("--budget MINUTES (a day) picks the value that memorizes the most within what you can study."))
            return lines
        }
        if let best = advice.best {
            let point = advice.points[best]
            lines.append("Recommended within \(minutes(budget)) a day: \(sweep.key) = \(sweep.format(sweep.values[best])) — "
                         + String(format: "%.0f items memorized by day %d, %.1f min a day.", point.memorized, config.days, point.minutesPerDay))
            if advice.edge != .none, let wider = sweep.wider(around: sweep.values[best], toward: advice.edge) {
                lines.append("That is the \(advice.edge == .high ? "top" : "bottom") of the range: a wider one may do better, e.g. --sweep \(wider)")
            }
        } else if let lightest = advice.lightestOverBudget {
            lines.append("No value keeps within \(minutes(budget)) a day: the lightest, \(sweep.key) = \(sweep.format(sweep.values[lightest])), "
                         + String(format: "takes %.1f. Study fewer new cards a day, or give more time.", advice.points[lightest].minutesPerDay))
        }
        return lines
    }

    static func minutes(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) min" : String(format: "%.1f min", value)
    }

    static func comparison(_ run: ComparisonRun, scenario: Scenario) -> [String] {
        let config = run.config
        var lines = ["\(scenario.name) · the same learners (seed \(config.seed)) · \(config.items) items · \(config.days) days"]
        lines.append(TextTable.render(header: ["scheduler", "memorized", "reviews", "hours", "retention", "memorized/min"],
                                      rows: run.summaries.enumerated().map { index, summary in
            let minutes = summary.studySecondsTotal / 60
            return [run.kinds[index].rawValue, String(format: "%.1f", summary.memorizedEnd), String(format: "%.0f", summary.reviewsTotal),
                    String(format: "%.1f", minutes / 60), summary.retention.map { String(format: "%.1f%%", $0 * 100) } ?? "–",
                    String(format: "%.2f", minutes > 0 ? summary.memorizedEnd / minutes : 0)]
        }))
        for (index, kind) in run.kinds.enumerated() {
            lines.append("\(kind.rawValue): " + run.explanation(index))
        }
        return lines
    }
}
