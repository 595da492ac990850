import Foundation
import GRDB

/// A record made here and not yet sent moves off an id a record of the server's holds, to the
/// next free one: it has gone nowhere under the old one yet. Maeil's ids for Anki are
/// made from a second and a count (an answer: the first milliseconds of the second it was
/// given in; a note or card: its making's second and its own id), so a phone's record made in
/// that second can hold one. Else each side kept its own under one id: Anki's server and
/// client ignore an answer whose id they hold, and a note or card replaced the other one, so
/// each side lost a record of the other's, while the counts the server checks agreed.
///
/// Free is free of this file and of the chunk's rows; a later chunk that takes it moves the
/// record again. The same record on both sides (one a sync cut short sent) stays. After the
/// sync, a record made here keeps the id it went up under (`FullSync.keepSentRecordIDs`, an
/// answer `keepSentAnswerIDs`, by its card and content).
extension SyncMerge {
    /// A moved record: the id the export gave it, and the one it goes up under.
    struct MovedID {
        let from: Int64, to: Int64
    }

    /// Every record made here in the way of one in `chunk`, moved: notes, then cards (with
    /// their answers), then answers.
    func moveRecordsInTheWay(_ db: Database, of chunk: String) throws {
        guard changedHere else { return }
        // A note or card the base holds went up before: the server's under its id is that one.
        let notes = try inTheWay(db, table: "notes", width: 11, of: chunk, differing: "m.guid IS NOT json_extract(j.value, '$[1]')",
                                 made: "NOT EXISTS (SELECT 1 FROM base.notes b WHERE b.id = m.id)")
        for move in try freeIDs(db, table: "notes", for: notes, of: chunk) {
            try db.execute(sql: "UPDATE main.notes SET id = ? WHERE id = ?", arguments: [move.to, move.from])
            try db.execute(sql: "UPDATE main.cards SET nid = ? WHERE nid = ?", arguments: [move.to, move.from])
        }
        let cards = try inTheWay(db, table: "cards", width: 18, of: chunk,
                                 differing: "(m.nid, m.ord) IS NOT (json_extract(j.value, '$[1]'), json_extract(j.value, '$[3]'))",
                                 made: "NOT EXISTS (SELECT 1 FROM base.cards b WHERE b.id = m.id)")
        for move in try freeIDs(db, table: "cards", for: cards, of: chunk) {
            try db.execute(sql: "UPDATE main.cards SET id = ? WHERE id = ?", arguments: [move.to, move.from])
            try db.execute(sql: "UPDATE main.revlog SET cid = ? WHERE cid = ? AND usn = -1", arguments: [move.to, move.from])
        }
        let answers = try inTheWay(db, table: "revlog", width: 9, of: chunk, differing: """
            (m.cid, m.ease, m.ivl, m.lastIvl, m.factor, m.time, m.type) IS NOT (
              json_extract(j.value, '$[1]'), json_extract(j.value, '$[3]'), json_extract(j.value, '$[4]'), json_extract(j.value, '$[5]'),
              json_extract(j.value, '$[6]'), json_extract(j.value, '$[7]'), json_extract(j.value, '$[8]'))
            """, made: "1")
        guard !answers.isEmpty else { return }
        // An answer Anki gave (imported with its id, which Maeil keeps) is not moved: Maeil would give it its old id again.
        let ankis = try answersUnderAnkiIDs(answers)
        for move in try freeIDs(db, table: "revlog", for: answers.filter { !ankis.contains($0) }, of: chunk) {
            try db.execute(sql: "UPDATE main.revlog SET id = ? WHERE id = ?", arguments: [move.to, move.from])
        }
    }

    /// The ids of this file's pending rows of `table` that a row of the chunk holds for another
    /// record (`differing`), among those `made` here since the base.
    private func inTheWay(_ db: Database, table: String, width: Int, of chunk: String, differing: String, made: String) throws -> [Int64] {
        try Int64.fetchAll(db, sql: """
            SELECT m.id FROM json_each(?, '$.\(table)') j JOIN main.\(table) m ON m.id = json_extract(j.value, '$[0]')
            WHERE json_array_length(j.value) >= \(width) AND m.usn = -1 AND \(differing) AND \(made)
            ORDER BY m.id
            """, arguments: [chunk])
    }

    /// Each of `ids` (ascending) with the next id after it free of `table` and of the chunk's rows of it.
    private func freeIDs(_ db: Database, table: String, for ids: [Int64], of chunk: String) throws -> [MovedID] {
        guard let lowest = ids.first else { return [] }
        var taken = Set(try Int64.fetchAll(db, sql: "SELECT id FROM main.\(table) WHERE id >= ?", arguments: [lowest]))
        taken.formUnion(try Int64.fetchAll(db, sql: "SELECT json_extract(value, '$[0]') FROM json_each(?, '$.\(table)')", arguments: [chunk]))
        return ids.map { id in
            var free = id + 1
            while taken.contains(free) { free += 1 }
            taken.insert(free)
            return MovedID(from: id, to: free)
        }
    }
}
