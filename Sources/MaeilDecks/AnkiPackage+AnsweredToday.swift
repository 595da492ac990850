import Foundation
import GRDB
import MaeilCore
import MaeilPrograms

extension AnkiPackage {
    /// What Anki counted of today's answers in each deck of a collection file (schema 11, as
    /// a sync's merge is), by Anki's deck id: each deck's own, as an import of the whole file
    /// keeps them (`ImportedDeck.ankiAnsweredToday`).
    package static func answeredToday(ofCollectionFile url: URL, timeZone: TimeZone, now: Date) throws -> [Int64: AnkiAnsweredToday] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            guard let created = try Int64.fetchOne(db, sql: "SELECT crt FROM col") else { return [:] }
            let days = AnkiDays(created: created, config: try AnkiDays.config(db), timeZone: timeZone, now: now)
            let text = try String.fetchOne(db, sql: "SELECT decks FROM col") ?? "{}"
            let all = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            var records: [Int64: CollectionReading.AnkiDeckRecord] = [:]
            for (key, value) in all {
                guard let id = Int64(key), let deck = value as? [String: Any], let name = deck["name"] as? String else { continue }
                records[id] = CollectionReading.AnkiDeckRecord(name: name, counted: CollectionReading.AnkiDeckRecord.counted(legacy: deck),
                                                               filtered: (deck["dyn"] as? NSNumber)?.intValue ?? 0 != 0)
            }
            return CollectionReading.AnkiDeckRecord.answeredToday(records, days: days, now: now)
        }
    }

    /// What a schema-11 collection file (a sync's merge) holds beside what Maeil uses: its config
    /// and the rest of each deck (Anki's legacy JSON, by Anki's deck id), as an import keeps them.
    package static func keptObjects(ofCollectionFile url: URL) throws -> KeptObjects {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            func objects(_ column: String) throws -> [Int64: [String: Any]] {
                let text = try String.fetchOne(db, sql: "SELECT \(column) FROM col") ?? "{}"
                let all = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                return Dictionary(uniqueKeysWithValues: all.compactMap { key, value in
                    guard let id = Int64(key), let object = value as? [String: Any] else { return nil }
                    return (id, object)
                })
            }
            func text(_ object: Any) -> String? {
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
            }
            var kept = KeptObjects(config: text(try AnkiDays.config(db)))
            for (id, deck) in try objects("decks") {
                var record = CollectionReading.AnkiDeckRecord(name: "")
                record.kept = CollectionReading.AnkiDeckRecord.kept(legacy: deck)
                kept.decks[id] = record.keptJSON
            }
            // As an import keeps a preset's options (`deckOptions`): the legacy JSON whole.
            kept.deckOptions = try objects("dconf").compactMapValues(text)
            return kept
        }
    }

    /// What `keptObjects` reads, each by Anki's id.
    package struct KeptObjects {
        package var config: String?
        package var decks: [Int64: String] = [:]
        package var deckOptions: [Int64: String] = [:]

        /// The collection's rules for daily limits, where its config holds them.
        package var limitRules: LimitRules? {
            guard let config, let object = (try? JSONSerialization.jsonObject(with: Data(config.utf8))) as? [String: Any] else { return nil }
            return AnkiDays.limitRules(object)
        }
    }
}
