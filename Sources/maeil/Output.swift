import Foundation
import MaeilREPL

enum JSONOutput {
    static func string<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

/// Plain aligned columns; width counts terminal cells so Hangul and kana line up.
enum TextTable {
    static func render(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { TerminalWidth.of($0[column]) }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                cell + String(repeating: " ", count: widths[column] - TerminalWidth.of(cell))
            }.joined(separator: "  ").trimmingTrailingSpaces()
        }.joined(separator: "\n")
    }
}

enum IntervalText {
    /// 45s, 10m, 5.5m, 2h, 3d — short, as on answer buttons.
    static func seconds(_ secs: Int) -> String {
        switch secs {
        case ..<60: return "\(secs)s"
        case ..<3600: return secs % 60 == 0 ? "\(secs / 60)m" : String(format: "%.1fm", Double(secs) / 60)
        case ..<86_400: return secs % 3600 == 0 ? "\(secs / 3600)h" : String(format: "%.1fh", Double(secs) / 3600)
        default: return secs % 86_400 == 0 ? "\(secs / 86_400)d" : String(format: "%.1fd", Double(secs) / 86_400)
        }
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
