import Foundation
import GRDB
import MaeilCore

/// How an Anki collection counts days. A review card's due is a number of days after the
/// calendar date the collection was created on — the date of `col.crt` at the offset the
/// creator's clock had then (config `creationOffset`, minutes west of UTC; without it, the
/// offset here and now, as Anki does) — so a due day is a calendar date, the same date in
/// every time zone. The collection's `rollover` hour says when its days begin.
struct AnkiDays {
    /// The creation date as a day number (days since 1970-01-01).
    let createdDay: Int
    /// The collection's rollover hour, when the file carries its settings (a .colpkg does;
    /// Anki's .apkg leaves it out).
    let rolloverHour: Int?
    /// The clock due days become instants on: here, with the collection's rollover hour.
    let clock: DayClock

    init(created: Int64, config: [String: Any], timeZone: TimeZone, now: Date) {
        let minutesWest = (config["creationOffset"] as? NSNumber)?.intValue
            ?? -timeZone.secondsFromGMT(for: now) / 60
        let local = Double(created) - Double(minutesWest.clamped(to: -1440...1440)) * 60
        createdDay = Int((local.clamped(to: -1e15...1e15) / 86_400).rounded(.down))
        rolloverHour = (config["rollover"] as? NSNumber).map { $0.intValue.clamped(to: 0...23) }
        clock = DayClock(timeZone: timeZone, rolloverHour: rolloverHour ?? 4)
    }

    /// The instant due day `day` of the collection begins here.
    func start(ofDueDay day: Int64) -> Date {
        clock.start(ofDay: createdDay + Int(day.clamped(to: -3_000_000...3_000_000)))
    }

    /// Anki's collection-wide rules for daily limits, when the settings hold either of them.
    static func limitRules(_ config: [String: Any]) -> LimitRules? {
        let ignores = config["newCardsIgnoreReviewLimit"] as? Bool, parents = config["applyAllParentLimits"] as? Bool
        guard ignores != nil || parents != nil else { return nil }
        return LimitRules(newIgnoresReviewLimit: ignores ?? false, applyAllParentLimits: parents ?? false)
    }

    /// The collection's settings: the `config` table of schema 14 and later, else `col.conf`.
    static func config(_ db: Database) throws -> [String: Any] {
        func object(_ data: Data?) -> Any? { data.flatMap { try? JSONSerialization.jsonObject(with: $0, options: [.fragmentsAllowed]) } }
        let hasTable = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'config'") ?? false
        if hasTable {
            var config: [String: Any] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT key, CAST(val AS BLOB) FROM config") {
                guard let key = try? row.decode(String.self, atIndex: 0) else { continue }
                config[key] = object(try? row.decode(Data?.self, atIndex: 1))
            }
            if !config.isEmpty { return config }
        }
        let text = try String.fetchOne(db, sql: "SELECT conf FROM col") ?? ""
        return object(Data(text.utf8)) as? [String: Any] ?? [:]
    }
}
