import Foundation
import GRDB
import MaeilCore
import MaeilDecks

/// The JSON columns of Anki's `col` table, read, written and compared as Anki reads them.
extension SyncMerge {
    static func objects(_ db: Database, _ column: String, schema: String = "main") throws -> [String: Any] {
        let text = try String.fetchOne(db, sql: "SELECT \(column) FROM \(schema).col") ?? "{}"
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    static func config(_ db: Database, schema: String) throws -> [String: Any] {
        try objects(db, "conf", schema: schema)
    }

    static func save(_ db: Database, _ column: String, _ objects: [String: Any]) throws {
        try db.execute(sql: "UPDATE col SET \(column) = ?", arguments: [try text(objects)])
    }

    static func text(_ object: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    /// Whether `incoming` differs from `local` in what Maeil reads of it: a deck's name, options,
    /// description and limits; the options as the preset they make; a note type's name, kind,
    /// style, fields and templates. Each side writes the rest its own way.
    static func changesWhatMaeilUses(_ column: String, _ local: [String: Any], _ incoming: [String: Any]) -> Bool {
        switch column {
        case "decks":
            return ["name", "conf", "desc", "dyn", "reviewLimit", "newLimit", "reviewLimitToday", "newLimitToday"].contains {
                normalized(local[$0]) != normalized(incoming[$0])
            }
        case "dconf":
            func settings(_ object: [String: Any]) -> Preset? {
                guard let text = try? Self.text(object), var preset = AnkiPackage.preset(ankiConfig: text, fsrs: false) else { return nil }
                (preset.id, preset.ankiConfig) = (nil, nil)
                return preset
            }
            return settings(local) != settings(incoming)
        default:
            func shape(_ object: [String: Any]) -> String {
                let fields = (object["flds"] as? [[String: Any]] ?? []).map { normalized($0["name"]) }
                let templates = (object["tmpls"] as? [[String: Any]] ?? []).map { template in ["name", "qfmt", "afmt"].map { normalized(template[$0]) } }
                return normalized([object["name"], object["type"], object["css"]]) + "\(fields)\(templates)"
            }
            return shape(local) != shape(incoming)
        }
    }

    /// A JSON value as text that is the same for the same value however it was written: a
    /// flag and the number it stands for alike, a missing key and null alike.
    static func normalized(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "null"
        case let number as NSNumber: return number.doubleValue == number.doubleValue.rounded() ? "\(number.int64Value)" : "\(number.doubleValue)"
        case let text as String: return "\"" + text + "\""
        case let list as [Any?]: return "[" + list.map(normalized).joined(separator: ",") + "]"
        case let object as [String: Any]: return "{" + object.keys.sorted().map { "\($0):" + normalized(object[$0]) }.joined(separator: ",") + "}"
        default: return "\(value!)"
        }
    }

    /// Whether two objects say the same but for what changes by itself, read as `normalized`
    /// reads values: a flag written true or 1, a key left out or null, is no change. Compared
    /// as written (Anki's server and Maeil's exporter write some values differently), every deck,
    /// note type and option group went up at every sync that carried a change from here, and
    /// so a deck the server had deleted (a phone's finished custom study) came back there.
    static func same(_ a: [String: Any], _ b: [String: Any], ignoring volatile: Set<String>) -> Bool {
        Set(a.keys).union(b.keys).allSatisfy { volatile.contains($0) || normalized(a[$0]) == normalized(b[$0]) }
    }

    static func tags(_ db: Database, _ schema: String) throws -> Set<String> {
        var tags = Set<String>()
        for line in try String.fetchAll(db, sql: "SELECT DISTINCT tags FROM \(schema).notes") {
            for tag in line.split(separator: " ") { tags.insert(String(tag)) }
        }
        return tags
    }

    package static func int(_ value: Any?) -> Int64? { (value as? NSNumber)?.int64Value }

    /// Whether a deck is a filtered one (Anki's `dyn`, written as a flag or a number).
    package static func isFiltered(_ deck: [String: Any]) -> Bool { normalized(deck["dyn"]) == "1" }
}
