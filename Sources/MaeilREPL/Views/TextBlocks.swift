import Foundation

/// Plain aligned columns; width counts terminal cells so Hangul and kana line up.
package enum TextTable {
    /// `rightAligned`: the columns whose cells end at the column's right edge (counts).
    package static func render(header: [String], rows: [[String]], rightAligned: Set<Int> = []) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { TerminalWidth.of($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - TerminalWidth.of(cell))
                return rightAligned.contains(column) ? padding + cell : cell + padding
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

/// A series as one line of bars.
package enum Sparkline {
    static let bars: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

    /// Bars from `floor` (0, or the smallest value when `fromMinimum`) to the largest value.
    package static func render(_ values: [Double], fromMinimum: Bool = false) -> String {
        let floor = fromMinimum ? (values.min() ?? 0) : 0
        guard let top = values.max(), top > floor else { return String(repeating: "▁", count: values.count) }
        return String(values.map { bars[min(bars.count - 1, max(0, Int(($0 - floor) / (top - floor) * Double(bars.count - 1) + 0.5)))] })
    }

    /// At most `width` values: each the mean of a stretch of the series.
    package static func sample(_ values: [Double], width: Int = 60) -> [Double] {
        guard values.count > width else { return values }
        return (0..<width).map { column in
            let start = column * values.count / width, end = max(start + 1, (column + 1) * values.count / width)
            return values[start..<end].reduce(0, +) / Double(end - start)
        }
    }
}

/// "1 review", "2 reviews".
package func counted(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

extension String {
    package func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    package func trimmingTrailingNewlines() -> String {
        var text = self
        while text.last == "\n" { text.removeLast() }
        return text
    }
}
