import Foundation
import GRDB
import Testing
@testable import MaeilSync

/// A chunk of the server's rows merged as Anki's client merges it, read from the chunk's JSON
/// by SQLite: answers added once; a card or note taken unless this side's is pending and not
/// older, one as old made a second newer; rows shorter than Anki's left out; the counts, the
/// last-chunk flag, and which cards came, changed on both sides, or were taken, as the rest of
/// the sync needs them.
@Suite("A sync's chunks from the server")
struct SyncChunkMergeTests {
    @Test func eachRowIsTakenOrKeptAsAnkisClientWould() throws {
        let (base, merged) = try SyncDeltaTests.baseAndCopy(words: 4, named: "merged.anki2")
        let (cards, notes) = try DatabaseQueue(path: merged.path).write { db in
            let cards = try Int64.fetchAll(db, sql: "SELECT id FROM cards ORDER BY id LIMIT 4")
            let notes = try Int64.fetchAll(db, sql: "SELECT id FROM notes ORDER BY id LIMIT 2")
            // Pending here: the first card as old as the server's (kept, a second newer), the second
            // older (taken), the third newer (kept as it is); the fourth not pending (taken).
            try db.execute(sql: "UPDATE cards SET usn = 0, mod = 100")
            try db.execute(sql: "UPDATE cards SET usn = -1, mod = 200 WHERE id = ?", arguments: [cards[0]])
            try db.execute(sql: "UPDATE cards SET usn = -1, mod = 150 WHERE id = ?", arguments: [cards[1]])
            try db.execute(sql: "UPDATE cards SET usn = -1, mod = 300, flags = 2 WHERE id = ?", arguments: [cards[2]])
            // The first note pending here and newer than the server's (kept); the second not pending (taken).
            try db.execute(sql: "UPDATE notes SET usn = 0")
            try db.execute(sql: "UPDATE notes SET usn = -1, mod = 500 WHERE id = ?", arguments: [notes[0]])
            try db.execute(sql: "INSERT INTO revlog VALUES (7, ?, 0, 3, 1, 0, 2500, 1000, 1)", arguments: [cards[0]])
            return (cards, notes)
        }
        func card(_ id: Int64, mod: Int64, flags: Int) -> String {
            "[\(id), 1, 1, 0, \(mod), 9, 2, 2, 40, 10, 2500, 3, 0, 0, 0, 0, \(flags), \"{\\\"s\\\":1.5}\"]"
        }
        let chunk = """
            {"done": false,
             "revlog": [[7, \(cards[0]), 9, 1, 1, 0, 2500, 900, 1], [8, \(cards[3]), 9, 4, 5, 1, 2600, 1200, 1], [9, 1]],
             "cards": [\(card(cards[0], mod: 200, flags: 1)), \(card(cards[1], mod: 180, flags: 1)), \(card(cards[2], mod: 250, flags: 1)),
                       \(card(cards[3], mod: 50, flags: 1)), [1, 2, 3]],
             "notes": [[\(notes[0]), "guid", 1, 400, 9, " tag ", "there\\u001fback", "sort", 123, 0, ""],
                       [\(notes[1]), "guid2", 1, 400, 9, "", "taken\\u001fback", "sort", 123, 0, ""]]}
            """
        let merge = try SyncMerge(merged: merged, base: base, changedHere: true)
        let counts = try merge.apply(serverChunk: SyncChunk(json: chunk))
        #expect(counts == SyncMerge.ChunkCounts(done: false, revlog: 2, cards: 4, notes: 2))
        #expect(cards.count == 4 && notes.count == 2)
        #expect(merge.receivedCards == Set(cards))
        #expect(merge.changedOnBothSides == Set(cards.prefix(3)))
        #expect(merge.takenCards == [cards[1], cards[3]])
        #expect(merge.takenNotes == [notes[1]])
        try merge.close()
        try DatabaseQueue(path: merged.path).read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT id, mod, flags, usn, data, due FROM cards ORDER BY id LIMIT 4")
            #expect(rows.map { $0[1] as Int64 } == [201, 180, 300, 50])
            #expect(rows.map { $0[2] as Int } == [0, 1, 2, 1])
            #expect(rows[1][4] as String == "{\"s\":1.5}" && rows[1][3] as Int == 9 && rows[1][5] as Int == 40)
            // The answer this side had stays as it was; the new one is added; the short one is left out.
            #expect(try Row.fetchAll(db, sql: "SELECT id, ease FROM revlog WHERE id IN (7, 8, 9) ORDER BY id").map { [$0[0] as Int64, $0[1] as Int64] } == [[7, 3], [8, 4]])
            let taken = try #require(try Row.fetchOne(db, sql: "SELECT flds, tags, sfld, csum, mod FROM notes WHERE id = ?", arguments: [notes[1]]))
            #expect(taken[0] as String == "taken\u{1F}back" && taken[1] as String == "")
            #expect(taken[2] as String == "" && taken[3] as Int == 0 && taken[4] as Int64 == 400)
            #expect(try Int64.fetchOne(db, sql: "SELECT mod FROM notes WHERE id = ?", arguments: [notes[0]]) == 500)
        }
    }

    /// A phone's answers under the ids of answers given here and not yet sent (Maeil's take the
    /// first milliseconds of their second): each given here moves to the next id free of the
    /// file and the chunk, and both go up; one that is Anki's own stays, and so does the same
    /// answer under its id on both sides. Before, the server's was left out here and this
    /// side's there.
    @Test func anAnswerGivenHereMovesOffAnIdAPhonesAnswerHolds() throws {
        let (base, merged) = try SyncDeltaTests.baseAndCopy(words: 3, named: "merged.anki2")
        let cards = try DatabaseQueue(path: merged.path).write { db in
            let cards = try Int64.fetchAll(db, sql: "SELECT id FROM cards ORDER BY id LIMIT 3")
            try db.execute(sql: "DELETE FROM revlog")
            // Given here: 5000 and 5001 (two answers in one second); 6000 came from Anki; 7000 went up before.
            for (id, card) in [(5000, cards[0]), (5001, cards[1]), (6000, cards[0]), (7000, cards[2])] {
                try db.execute(sql: "INSERT INTO revlog VALUES (?, ?, -1, 3, 1, 0, 2500, 1000, 1)", arguments: [id, card])
            }
            try db.execute(sql: "INSERT INTO revlog VALUES (5003, ?, 0, 3, 1, 0, 2500, 1000, 1)", arguments: [cards[2]])
            return cards
        }
        let chunk = """
            {"done": true, "revlog": [[5000, \(cards[2]), 9, 1, 1, 0, 2500, 900, 1], [5002, \(cards[2]), 9, 2, 1, 0, 2500, 900, 1],
                                      [6000, \(cards[1]), 9, 4, 1, 0, 2500, 900, 1], [7000, \(cards[2]), 9, 3, 1, 0, 2500, 1000, 1]]}
            """
        let merge = try SyncMerge(merged: merged, base: base, changedHere: true, fromBase: true)
        var asked: [[Int64]] = []
        merge.answersUnderAnkiIDs = { ids in asked.append(ids); return Set(ids).intersection([6000]) }
        #expect(try merge.apply(serverChunk: SyncChunk(json: chunk)).revlog == 4)
        #expect(asked == [[5000, 6000]])
        let sent = try merge.pendingChunks(usn: 9).flatMap(\.revlog)
        try merge.close()
        let rows = try DatabaseQueue(path: merged.path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, cid, ease, usn FROM revlog ORDER BY id").map { [$0[0] as Int64, $0[1] as Int64, $0[2] as Int64, $0[3] as Int64] }
        }
        // 5000 given here goes to 5004: 5001 and 5003 are this file's, 5002 the chunk's.
        #expect(rows == [[5000, cards[2], 1, 9], [5001, cards[1], 3, -1], [5002, cards[2], 2, 9], [5003, cards[2], 3, 0],
                         [5004, cards[0], 3, -1], [6000, cards[0], 3, -1], [7000, cards[2], 3, -1]])
        #expect(sent.map { $0.prefix(6) } == ["[5001,", "[5004,", "[6000,", "[7000,"])
    }

    /// Not Anki's chunk (a list, or text that is not JSON): an error, and nothing merged.
    @Test(arguments: ["[]", "not json"])
    func aChunkThatIsNotAnkisIsRefused(json: String) throws {
        let (base, merged) = try SyncDeltaTests.baseAndCopy(words: 1, named: "merged.anki2")
        let merge = try SyncMerge(merged: merged, base: base, changedHere: true)
        #expect(throws: SyncError.self) { try merge.apply(serverChunk: SyncChunk(json: json)) }
        try merge.close()
    }
}
