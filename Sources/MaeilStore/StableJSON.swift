import Foundation

/// JSON columns written with sorted keys, so the same value is always the same bytes: writing
/// back what was read changes nothing in the file.
enum StableJSON {
    static func string<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
