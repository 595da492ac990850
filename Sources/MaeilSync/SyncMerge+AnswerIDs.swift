import Foundation
import GRDB

extension SyncMerge {
    /// An answer given here, not yet sent, whose id a row from the server holds for another
    /// answer, moves to the next free id, as Anki's client moves an answer of its own off a
    /// taken millisecond. Else both sides kept their own under one id (Anki's server and client
    /// ignore an answer whose id they hold): the server's check then refused the sync, or, with
    /// the counts equal, each side lost the other's answer. Answers here take the milliseconds
    /// at the start of the second they were given in (Maeil keeps an answer's card in whole
    /// seconds), so a phone's answer in that second can hold one.
    ///
    /// Free is free of this file's log and of the chunk's rows; a later chunk that takes it
    /// moves the answer again. The same answer under its id on both sides (one a sync cut short
    /// sent) stays. An answer the sync gives its id to here later finds it in the merge by its
    /// card and content (`FullSync.keepSentAnswerIDs`), so Maeil keeps it under the moved id.
    func moveAnswersInTheWay(_ db: Database, of chunk: String) throws {
        let incoming = "json_each(?, '$.revlog') WHERE json_array_length(value) >= 9"
        let inTheWay = try Int64.fetchAll(db, sql: """
            SELECT r.id FROM (SELECT value FROM \(incoming)) j JOIN main.revlog r ON r.id = json_extract(j.value, '$[0]')
            WHERE r.usn = -1 AND (r.cid, r.ease, r.ivl, r.lastIvl, r.factor, r.time, r.type) IS NOT (
              json_extract(j.value, '$[1]'), json_extract(j.value, '$[3]'), json_extract(j.value, '$[4]'), json_extract(j.value, '$[5]'),
              json_extract(j.value, '$[6]'), json_extract(j.value, '$[7]'), json_extract(j.value, '$[8]'))
            ORDER BY r.id
            """, arguments: [chunk])
        guard !inTheWay.isEmpty else { return }
        let ankis = try answersUnderAnkiIDs(inTheWay)
        let moving = inTheWay.filter { !ankis.contains($0) }
        guard let lowest = moving.first else { return }
        var taken = Set(try Int64.fetchAll(db, sql: "SELECT id FROM main.revlog WHERE id >= ?", arguments: [lowest]))
        taken.formUnion(try Int64.fetchAll(db, sql: "SELECT json_extract(value, '$[0]') FROM \(incoming)", arguments: [chunk]))
        let move = try db.makeStatement(sql: "UPDATE main.revlog SET id = ? WHERE id = ?")
        for id in moving {
            var free = id + 1
            while taken.contains(free) { free += 1 }
            taken.insert(free)
            try move.execute(arguments: [free, id])
        }
    }
}
