import Foundation

/// Every JSON a command prints: keys in snake_case, sorted, so scripts see one style.
package enum JSONOutput {
    package static func string<T: Encodable>(_ value: T, pretty: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return TerminalText.escapingUnsafe(json: String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}

/// A JSON object written from a list of keys and values, in that order: every key is always
/// there, null where its value does not apply, so a script can rely on the shape.
package struct JSONObject: Encodable {
    package var fields: [(String, (any Encodable)?)]

    package init(_ fields: [(String, (any Encodable)?)]) { self.fields = fields }

    private struct Key: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in fields {
            if let value { try container.encode(value, forKey: Key(stringValue: key)) } else { try container.encodeNil(forKey: Key(stringValue: key)) }
        }
    }
}
