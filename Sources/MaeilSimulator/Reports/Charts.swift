import Foundation

/// Retention, memorized items and workload over time, as three stacked SVG panels.
package enum SimChart {
    package static func svg(_ summary: SimulationSummary) -> String {
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
package enum PointChart {
    package struct Series {
        let title: String
        let values: [Double]
        let color: String
        let format: (Double) -> String
    }

    package static func workload(_ memorized: [Double], _ minutes: [Double]) -> [Series] {
        [Series(title: "Memorized items", values: memorized, color: "#2e9e5b", format: { String(format: "%.0f", $0) }),
         Series(title: "Minutes a day", values: minutes, color: "#c2572b", format: { String(format: "%.1f", $0) })]
    }

    /// `connected` joins the points (a sweep's values, in order); schedulers side by side are
    /// separate things, and stand alone. Minutes start at zero; memorized items are scaled to
    /// their own range, or the few percent between the points would be a flat line.
    package static func svg(title: String, labels: [String], series: [Series], budget: Double?, connected: Bool = true) -> String {
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
            let shown = item.values + (limit.map { [$0] } ?? [])
            let (least, most) = (shown.min() ?? 0, max(shown.max() ?? 1, 1e-9))
            // Memorized: a tenth of the spread (or of the value, when the points are level) around it.
            let margin = max((most - least) * 0.1, most * 0.01)
            let low = index == 0 ? max(0, least - margin) : 0
            let high = index == 0 ? most + margin : most * 1.1
            func y(_ value: Double) -> Double { y0 + panel - (value - low) / (high - low) * panel }
            svg += "<text x=\"\(left)\" y=\"\(y0 - 8)\" font-weight=\"bold\">\(item.title)</text>\n"
            svg += "<rect x=\"\(left)\" y=\"\(y0)\" width=\"\(width - left - right)\" height=\"\(panel)\" fill=\"none\" stroke=\"#ccc\"/>\n"
            for tick in 0...4 {
                let value = low + (high - low) * Double(tick) / 4
                svg += "<text x=\"\(left - 6)\" y=\"\(y(value) + 4)\" text-anchor=\"end\" fill=\"#555\">\(item.format(value))</text>\n"
            }
            if let limit {
                svg += "<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y(limit))\" y2=\"\(y(limit))\" stroke=\"#888\" stroke-dasharray=\"4 3\"/>\n"
                svg += "<text x=\"\(width - right)\" y=\"\(y(limit) - 4)\" text-anchor=\"end\" fill=\"#555\">budget</text>\n"
            }
            if connected {
                let path = item.values.enumerated().map { String(format: "%@%.1f %.1f", $0.offset == 0 ? "M" : " L", x($0.offset), y($0.element)) }.joined()
                svg += "<path d=\"\(path)\" fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"1.5\"/>\n"
            }
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
