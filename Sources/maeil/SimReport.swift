import Foundation
import MaeilCore
import MaeilREPL
import MaeilSimulator

enum SimReport {
    static func render(_ summary: SimulationSummary, scenario: Scenario, config: SimulationConfig, style: Style) -> String {
        let days = Double(max(summary.days.count, 1))
        let minutes = summary.studySecondsTotal / 60
        var settings = [config.scheduler.kind.rawValue]
        if config.scheduler.kind == .fsrs { settings.append(String(format: "retention %.2f", config.scheduler.desiredRetention)) }
        settings.append("\(config.items) items")
        settings.append("\(config.days) days")
        settings.append(config.newPerDay.map { "\($0) new/day" } ?? "no new limit")
        settings.append(config.reviewsPerDay.map { "\($0) reviews/day" } ?? "no review limit")
        if let budget = config.secondsPerDay { settings.append(String(format: "%.0f min/day", budget / 60)) }
        var lines = [style.bold(scenario.name) + " — " + settings.joined(separator: " · ")
                     + " · \(summary.runs) run\(summary.runs == 1 ? "" : "s")"]
        if !scenario.description.isEmpty { lines.append(style.dim(scenario.description)) }
        let learned = summary.newTotal
        func row(_ label: String, _ value: String) -> String { label.padding(toLength: 22, withPad: " ", startingAt: 0) + value }
        lines.append(row("memorized at the end", String(format: "%.1f items", summary.memorizedEnd)
                         + (learned > 0 ? String(format: " (%.0f%% of %.0f learned)", summary.memorizedEnd / learned * 100, learned) : "")
                         + (summary.runs > 1 ? String(format: " ± %.1f", summary.memorizedEndSD) : "")))
        lines.append(row("reviews", String(format: "%.0f (%.1f a day)", summary.reviewsTotal, summary.reviewsTotal / days)
                         + (summary.runs > 1 ? String(format: " ± %.0f", summary.reviewsTotalSD) : "")))
        lines.append(row("new cards learned", String(format: "%.0f", learned)))
        lines.append(row("study time", String(format: "%.1f h (%.1f min a day)", minutes / 60, minutes / days)))
        lines.append(row("true retention", summary.retention.map { String(format: "%.1f %%", $0 * 100) } ?? "–"))
        lines.append(row("knowledge per minute", String(format: "%.2f items", minutes > 0 ? summary.memorizedEnd / minutes : 0)))
        lines.append(row("compute", String(format: "%.0f ms", summary.elapsedMilliseconds)))
        lines.append(row("reviews a day", Sparkline.render(sample(summary.days.map(\.reviews)))))
        let retention = sample(summary.days.compactMap(\.retention))
        lines.append(row("retention", Sparkline.render(retention, fromMinimum: true)
                         + String(format: "  (%.0f–%.0f %%)", (retention.min() ?? 0) * 100, (retention.max() ?? 0) * 100)))
        lines.append(row("memorized", Sparkline.render(sample(summary.days.map(\.memorized)))))
        return lines.joined(separator: "\n")
    }

    /// At most `width` values: each the mean of a stretch of days.
    static func sample(_ values: [Double], width: Int = 60) -> [Double] {
        guard values.count > width else { return values }
        return (0..<width).map { column in
            let start = column * values.count / width, end = max(start + 1, (column + 1) * values.count / width)
            return values[start..<end].reduce(0, +) / Double(end - start)
        }
    }

    static func csv(_ summary: SimulationSummary) -> String {
        var lines = ["day,reviews,new,minutes,retention,memorized"]
        for day in summary.days {
            lines.append([String(day.day), String(format: "%.3f", day.reviews), String(format: "%.3f", day.new), String(format: "%.3f", day.seconds / 60),
                          day.retention.map { String(format: "%.4f", $0) } ?? "", String(format: "%.3f", day.memorized)].joined(separator: ","))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Retention, memorized items and workload over time, as three stacked SVG panels.
enum SimChart {
    static func svg(_ summary: SimulationSummary) -> String {
        let width = 900.0, panel = 190.0, left = 70.0, right = 20.0, top = 30.0, gap = 40.0
        let days = summary.days
        let count = Double(max(days.count - 1, 1))
        struct Series { let title: String; let values: [Double]; let color: String; let format: (Double) -> String }
        let series = [
            Series(title: "True retention", values: days.map { $0.retention ?? .nan }, color: "#2a7ab9", format: { String(format: "%.0f%%", $0 * 100) }),
            Series(title: "Memorized items (sum of recall)", values: days.map(\.memorized), color: "#2e9e5b", format: { String(format: "%.0f", $0) }),
            Series(title: "Workload (minutes a day)", values: days.map { $0.seconds / 60 }, color: "#c2572b", format: { String(format: "%.0f", $0) }),
        ]
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(top + 3 * (panel + gap)))" font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>

            """
        for (index, item) in series.enumerated() {
            let y0 = top + Double(index) * (panel + gap)
            let finite = item.values.filter { $0.isFinite }
            let low = index == 0 ? max(0, (finite.min() ?? 0) - 0.02) : 0
            let high = max((finite.max() ?? 1) * (index == 0 ? 1 : 1.05), low + 1e-9)
            func x(_ day: Int) -> Double { left + Double(day) / count * (width - left - right) }
            func y(_ value: Double) -> Double { y0 + panel - (value - low) / (high - low) * panel }
            svg += "<text x=\"\(left)\" y=\"\(y0 - 8)\" font-weight=\"bold\">\(item.title)</text>\n"
            svg += "<rect x=\"\(left)\" y=\"\(y0)\" width=\"\(width - left - right)\" height=\"\(panel)\" fill=\"none\" stroke=\"#ccc\"/>\n"
            for tick in 0...4 {
                let value = low + (high - low) * Double(tick) / 4
                svg += "<text x=\"\(left - 6)\" y=\"\(y(value) + 4)\" text-anchor=\"end\" fill=\"#555\">\(item.format(value))</text>\n"
            }
            var path = ""
            for (day, value) in item.values.enumerated() where value.isFinite {
                path += (path.isEmpty ? "M" : " L") + String(format: "%.1f %.1f", x(day), y(value))
            }
            svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"1.5\"/>\n"
            if index == 2 {
                for tick in 0...4 {
                    let day = Int(Double(tick) / 4 * count)
                    // The last label ends at the panel's edge instead of spilling over it.
                    let anchor = tick == 4 ? "end" : "middle"
                    svg += "<text x=\"\(x(day))\" y=\"\(y0 + panel + 16)\" text-anchor=\"\(anchor)\" fill=\"#555\">day \(day)</text>\n"
                }
            }
        }
        return svg + "</svg>\n"
    }
}

/// A chart of a few points (a sweep's values, or schedulers side by side): memorized items and
/// minutes a day, each in a panel of its own, with the budget as a line.
enum PointChart {
    struct Series {
        let title: String
        let values: [Double]
        let color: String
        let format: (Double) -> String
    }

    static func workload(_ memorized: [Double], _ minutes: [Double]) -> [Series] {
        [Series(title: "Memorized items", values: memorized, color: "#2e9e5b", format: { String(format: "%.0f", $0) }),
         Series(title: "Minutes a day", values: minutes, color: "#c2572b", format: { String(format: "%.1f", $0) })]
    }

    static func svg(title: String, labels: [String], series: [Series], budget: Double?) -> String {
        let width = 720.0, panel = 180.0, left = 70.0, right = 40.0, top = 50.0, gap = 60.0
        let count = Double(max(labels.count - 1, 1))
        func x(_ index: Int) -> Double { labels.count == 1 ? (left + width - right) / 2 : left + Double(index) / count * (width - left - right) }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(top + Double(series.count) * (panel + gap)))" \
            font-family="sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="20" font-size="14" font-weight="bold">\(escape(title))</text>

            """
        for (index, item) in series.enumerated() {
            let y0 = top + Double(index) * (panel + gap)
            let limit = index == 1 ? budget : nil
            let high = max((item.values + (limit.map { [$0] } ?? [])).max() ?? 1, 1e-9) * 1.1
            func y(_ value: Double) -> Double { y0 + panel - value / high * panel }
            svg += "<text x=\"\(left)\" y=\"\(y0 - 8)\" font-weight=\"bold\">\(item.title)</text>\n"
            svg += "<rect x=\"\(left)\" y=\"\(y0)\" width=\"\(width - left - right)\" height=\"\(panel)\" fill=\"none\" stroke=\"#ccc\"/>\n"
            for tick in 0...4 {
                let value = high * Double(tick) / 4
                svg += "<text x=\"\(left - 6)\" y=\"\(y(value) + 4)\" text-anchor=\"end\" fill=\"#555\">\(item.format(value))</text>\n"
            }
            if let limit {
                svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y(limit))\" y2=\"\(y(limit))\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n"
                svg += "<text x=\"\(width - right)\" y=\"\(y(limit) - 4)\" text-anchor=\"end\" fill=\"#555\">budget</text>\n"
            }
            let path = item.values.enumerated().map { String(format: "%@%.1f %.1f", $0.offset == 0 ? "M" : " L", x($0.offset), y($0.element)) }.joined()
            svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"1.5\"/>\n"
            for (point, value) in item.values.enumerated() {
                svg += "<circle cx=\"\(x(point))\" cy=\"\(y(value))\" r=\"3\" fill=\"\(item.color)\"/>\n"
            }
            for (point, label) in labels.enumerated() {
                let anchor = labels.count > 1 && point == 0 ? "start" : (labels.count > 1 && point == labels.count - 1 ? "end" : "middle")
                svg += "<text x=\"\(x(point))\" y=\"\(y0 + panel + 16)\" text-anchor=\"\(anchor)\" fill=\"#555\">\(escape(label))</text>\n"
            }
        }
        return svg + "</svg>\n"
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }
}
