import Foundation
import MaeilCore
import MaeilREPL

/// Every JSON a command prints: keys in snake_case, sorted, so scripts see one style.
enum JSONOutput {
    static func string<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return TerminalText.escapingUnsafe(json: String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

/// A JSON object written from a list of keys and values, in that order: every key is always
/// there, null where its value does not apply, so a script can rely on the shape.
struct JSONObject: Encodable {
    var fields: [(String, (any Encodable)?)]

    init(_ fields: [(String, (any Encodable)?)]) { self.fields = fields }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in fields {
            if let value { try container.encode(value, forKey: Key(stringValue: key)) } else { try container.encodeNil(forKey: Key(stringValue: key)) }
        }
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

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
