import Foundation
import GRDB
import MaeilCore
import MaeilDecks

/// What a sync does to a whole collection file: its objects read, the ones the base has put
/// back, and a base moved to the server's calendar.
extension SyncMerge {
    /// The note types, decks, options and collection config a schema-11 collection file holds.
    package static func storedObjects(in file: URL) throws -> SyncObjects {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        return try queue.read { db in
            func values(_ column: String) throws -> [[String: Any]] { try objects(db, column).values.compactMap { $0 as? [String: Any] } }
            var stored = SyncObjects(models: try values("models"), decks: try values("decks"), deckConfigs: try values("dconf"))
            stored.config = try Self.config(db, schema: "main")
            return stored
        }
    }

    /// Adds to a schema-11 collection file the note types, decks and options it lacks (by id):
    /// what the server holds that Maeil does not (a note type no note uses, a filtered deck),
    /// so the base counts what the server counts. The file takes the server's collection config
    /// whole (a sync that sends this side's settings sends the rest as the server had it), but
    /// for the offset its own creation day is counted at.
    package static func addMissing(_ objects: SyncObjects, to file: URL) throws {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        try queue.write { db in
            if var config = objects.config {
                config["creationOffset"] = try Self.config(db, schema: "main")["creationOffset"]
                try save(db, "conf", config)
            }
            for (column, incoming) in [("models", objects.models), ("decks", objects.decks), ("dconf", objects.deckConfigs)] {
                var mine = try Self.objects(db, column)
                for object in incoming {
                    guard let id = int(object["id"]), mine["\(id)"] == nil else { continue }
                    mine["\(id)"] = object
                }
                try save(db, column, mine)
            }
        }
    }

    /// The collection file `file` (a base exported here) moved to the calendar of `server` (the
    /// server's copy, or a merge on its days): review due days, a deck's limits for one day and
    /// its counts of the day then count from the server's creation date. A sync sends its decks
    /// before the server's creation date comes down (`adopt`), so they go up on the base's days:
    /// an export's own (the day before its earliest date) named the wrong day there.
    /// `keepingDayCountsOf`: decks (Anki's ids) whose counts of the day the base takes from
    /// `server` as it has them: this side's count more, and go up at the next sync.
    package static func moveToCalendar(of server: URL, in file: URL, keepingDayCountsOf kept: Set<Int64> = []) throws {
        var readOnly = Configuration()
        readOnly.readonly = true
        let (created, offset, theirs) = try DatabaseQueue(path: server.path, configuration: readOnly).read { db in
            (try Int64.fetchOne(db, sql: "SELECT crt FROM col") ?? 0, try config(db, schema: "main")["creationOffset"], try objects(db, "decks"))
        }
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        try queue.write { db in
            var conf = try config(db, schema: "main")
            let own = createdDay(try Int64.fetchOne(db, sql: "SELECT crt FROM col") ?? created, conf)
            if let offset { conf["creationOffset"] = offset }
            try moveDays(db, schema: "main", by: own - createdDay(created, conf))
            if !kept.isEmpty {
                var decks = try objects(db, "decks")
                takeDayCounts(of: kept.map { "\($0)" }, from: theirs, into: &decks)
                try save(db, "decks", decks)
            }
            try db.execute(sql: "UPDATE col SET crt = ?, conf = ?", arguments: [created, try text(conf)])
        }
    }

    /// The day's counts (`dayCountKeys`) of the decks `keys` names, in `decks` as `kept` has them:
    /// both on the same days.
    static func takeDayCounts(of keys: some Sequence<String>, from kept: [String: Any], into decks: inout [String: Any]) {
        for key in keys {
            guard var deck = decks[key] as? [String: Any], let theirs = kept[key] as? [String: Any] else { continue }
            for name in dayCountKeys { deck[name] = theirs[name] }
            decks[key] = deck
        }
    }
}
