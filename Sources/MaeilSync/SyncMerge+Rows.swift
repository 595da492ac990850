import Foundation
import GRDB
import MaeilCore
import MaeilDecks

/// Cards, notes and review-log rows across a normal sync: this side's pending rows found
/// against the base and sent in chunks, the server's merged by Anki's rules (newer row wins,
/// both sides' answers kept).
extension SyncMerge {
    /// Marks what changed here since the base, among the rows that may have (usn −1): cards and
    /// notes that differ in anything but their modification time (made newer than the base's,
    /// so a change here is never older than what it changed), and answers the base does not
    /// have. The others are not pending (usn 0).
    /// A row changed here is newer than the base's, as Anki's own change would be: where it was
    /// changed in the second the base's was made, a second later, but never later than `now`.
    /// (A time a second ahead tied with a change a phone made in that second: the server and
    /// the phone each kept their own, and the sides differed from then on.)
    package func markPendingRows(now: Date) throws {
        guard changedHere else { return }
        try queue.write { db in
            let cardColumns = ["nid", "did", "ord", "type", "queue", "due", "ivl", "factor", "reps", "lapses", "left", "odue", "odid", "flags", "data"]
            let noteColumns = ["guid", "mid", "tags", "flds", "flags", "data"]
            for (table, columns) in [("cards", cardColumns), ("notes", noteColumns)] {
                let same = columns.map { "b.\($0) IS \(table).\($0)" }.joined(separator: " AND ")
                try db.execute(sql: """
                    UPDATE \(table) SET usn = 0 WHERE usn = -1 AND EXISTS (SELECT 1 FROM base.\(table) b WHERE b.id = \(table).id AND \(same));
                    UPDATE \(table) SET mod = max(mod, min(coalesce((SELECT b.mod + 1 FROM base.\(table) b WHERE b.id = \(table).id), mod), ?1)) WHERE usn = -1
                    """, arguments: [Int64(now.timeIntervalSince1970.rounded(.down))])
            }
            // Each looked up by its id: `id IN (SELECT id FROM base.revlog)` read every answer of the base (14 ms at 100,000).
            try db.execute(sql: "UPDATE revlog SET usn = 0 WHERE usn = -1 AND EXISTS (SELECT 1 FROM base.revlog b WHERE b.id = revlog.id)")
        }
    }

    /// What one chunk from the server held: how many rows of each table, and whether it was the last.
    package struct ChunkCounts: Sendable, Equatable {
        package var done = true
        package var revlog = 0, cards = 0, notes = 0

        package var total: Int { revlog + cards + notes }
    }

    /// One chunk of the server's rows, as Anki's client takes it: answers added (both sides'
    /// survive); a card or note replaces this side's unless this side's is pending and not
    /// older; a record made here moves off an id the server's holds (`moveRecordsInTheWay`).
    /// Set by set, each table's rows read from the chunk's JSON by SQLite (a row shorter than
    /// Anki's is left out, as Anki's client refuses it).
    @discardableResult
    package func apply(serverChunk chunk: SyncChunk) throws -> ChunkCounts {
        try queue.write { db in
            guard try Bool.fetchOne(db, sql: "SELECT CASE WHEN json_valid(?) THEN json_type(?) = 'object' ELSE 0 END", arguments: [chunk.json, chunk.json]) == true else {
                throw SyncError(.server, "the sync server's chunk of changes is not Anki's")
            }
            var counts = ChunkCounts()
            counts.done = try Bool.fetchOne(db, sql: "SELECT coalesce(json_extract(?, '$.done'), 1)", arguments: [chunk.json]) ?? true
            func columns(_ range: Range<Int>) -> String { range.map { "json_extract(value, '$[\($0)]')" }.joined(separator: ", ") }
            func rows(_ table: String, _ width: Int) -> String { "json_each(?, '$.\(table)') WHERE json_array_length(value) >= \(width)" }
            let revlog = rows("revlog", 9)
            try moveRecordsInTheWay(db, of: chunk.json)
            try db.execute(sql: "INSERT OR IGNORE INTO revlog SELECT \(columns(0..<9)) FROM \(revlog)", arguments: [chunk.json])
            let answered = try Int64?.fetchAll(db, sql: "SELECT json_extract(value, '$[1]') FROM \(revlog)", arguments: [chunk.json])
            counts.revlog = answered.count
            receivedCards.formUnion(answered.compactMap { $0 })
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS incoming (id INTEGER, mod INTEGER, kept INTEGER, value TEXT)")
            for (table, width, modified) in [("cards", 18, 4), ("notes", 11, 3)] {
                try db.execute(sql: "DELETE FROM temp.incoming")
                try db.execute(sql: """
                    INSERT INTO temp.incoming (id, mod, value)
                    SELECT coalesce(json_extract(value, '$[0]'), 0), coalesce(json_extract(value, '$[\(modified)]'), 0), value FROM \(rows(table, width))
                    """, arguments: [chunk.json])
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.incoming") ?? 0
                if table == "cards" {
                    counts.cards = count
                    receivedCards.formUnion(try Int64.fetchAll(db, sql: "SELECT id FROM temp.incoming"))
                    changedOnBothSides.formUnion(try Int64.fetchAll(db, sql: """
                        SELECT i.id FROM temp.incoming i JOIN main.cards c ON c.id = i.id WHERE c.usn = -1
                        """))
                } else {
                    counts.notes = count
                }
                guard count > 0 else { continue }
                // This side's row stays where it is pending and not older; where it is as old,
                // it is made a second newer: Anki's server takes a row only when it is newer than
                // its own, and one changed here in the same second as there would stay as it was
                // on the server, and the sides would differ.
                try db.execute(sql: """
                    UPDATE temp.incoming SET kept = EXISTS (SELECT 1 FROM main.\(table) m WHERE m.id = incoming.id AND m.usn = -1 AND m.mod >= incoming.mod);
                    UPDATE main.\(table) SET mod = (SELECT max(i.mod) + 1 FROM temp.incoming i WHERE i.id = \(table).id AND i.kept)
                      WHERE id IN (SELECT id FROM temp.incoming WHERE kept)
                        AND mod <= (SELECT max(i.mod) FROM temp.incoming i WHERE i.id = \(table).id AND i.kept)
                    """)
                let taken = try Int64.fetchAll(db, sql: "SELECT id FROM temp.incoming WHERE NOT kept")
                if table == "cards" { takenCards.formUnion(taken) } else { takenNotes.formUnion(taken) }
                // Anki sends a note no sort field or checksum: the reader needs neither.
                let values = table == "cards" ? columns(0..<width) : columns(0..<7) + ", '', 0, " + columns(9..<width)
                try db.execute(sql: "INSERT OR REPLACE INTO main.\(table) SELECT \(values) FROM temp.incoming WHERE NOT kept ORDER BY rowid")
            }
            return counts
        }
    }

    /// What is still pending once the server's rows are in, in chunks of at most `size` rows,
    /// with the server's usn: the last chunk says it is the last. Each row is Anki's JSON array,
    /// its numbers whole (a missing one 0), as Anki's client sends it.
    package func pendingChunks(usn: Int, size: Int = 250) throws -> [OutgoingChunk] {
        try queue.read { db in
            var chunks: [OutgoingChunk] = []
            var current = OutgoingChunk()
            func add(_ row: String, to keyPath: WritableKeyPath<OutgoingChunk, [String]>) {
                current[keyPath: keyPath].append(row)
                if current.count >= size {
                    chunks.append(current)
                    current = OutgoingChunk()
                }
            }
            func whole(_ columns: [String]) -> String { columns.map { $0 == "?" ? $0 : "coalesce(CAST(\($0) AS INTEGER), 0)" }.joined(separator: ", ") }
            let revlog = whole(["id", "cid", "?", "ease", "ivl", "lastIvl", "factor", "time", "type"])
            for row in try String.fetchAll(db, sql: "SELECT json_array(\(revlog)) FROM revlog WHERE usn = -1 ORDER BY id", arguments: [usn]) {
                add(row, to: \.revlog)
            }
            sentCards = Set(try Int64.fetchAll(db, sql: "SELECT id FROM cards WHERE usn = -1"))
            let cards = whole(["id", "nid", "did", "ord", "mod", "?", "type", "queue", "due", "ivl", "factor", "reps", "lapses", "left", "odue", "odid", "flags"])
            for row in try String.fetchAll(db, sql: "SELECT json_array(\(cards), coalesce(data, '')) FROM cards WHERE usn = -1 ORDER BY id", arguments: [usn]) {
                add(row, to: \.cards)
            }
            for row in try String.fetchAll(db, sql: """
                SELECT json_array(id, guid, mid, mod, ?, tags, flds, '', '', coalesce(flags, 0), coalesce(data, '')) FROM notes WHERE usn = -1 ORDER BY id
                """, arguments: [usn]) {
                add(row, to: \.notes)
            }
            current.done = true
            chunks.append(current)
            return chunks
        }
    }

    /// The counts the server checks once both sides' changes are in.
    package func counts() throws -> (cards: Int, notes: Int, revlog: Int, models: Int, decks: Int, deckConfigs: Int) {
        try queue.read { db in
            func count(_ table: String) throws -> Int { try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
            return (try count("cards"), try count("notes"), try count("revlog"), try Self.objects(db, "models").count,
                    try Self.objects(db, "decks").count, try Self.objects(db, "dconf").count)
        }
    }

    /// After `finish`: nothing pending, the server's usn and time on everything sent.
    package func settle(usn: Int, modified: Int64, schema: Int64) throws {
        try queue.write { db in
            for table in ["cards", "notes", "revlog"] { try db.execute(sql: "UPDATE \(table) SET usn = ? WHERE usn = -1", arguments: [usn]) }
            for column in ["models", "decks", "dconf"] {
                var objects = try Self.objects(db, column)
                var sent = false
                for (key, value) in objects {
                    guard var object = value as? [String: Any], Self.int(object["usn"]) == -1 else { continue }
                    object["usn"] = usn
                    objects[key] = object
                    sent = true
                }
                if sent { try Self.save(db, column, objects) }
            }
            try db.execute(sql: "DELETE FROM graves")
            try db.execute(sql: "UPDATE col SET usn = ?, mod = ?, ls = ?, scm = ?", arguments: [usn + 1, modified, modified, schema])
        }
    }
}
