import Foundation
import GRDB
import MaeilStore

extension FullSync {
    /// An answer given here goes up under the id the export gives it (its time in milliseconds,
    /// or the next free one where answers share one); from then on it keeps that id, as an
    /// answer from Anki keeps Anki's. Before, a later export numbered such answers afresh, and
    /// by another count where it held other answers: a whole export, a .colpkg, or the answers
    /// of a card deleted here went out under other ids than the server's, and the server then
    /// held one answer twice (its check failed, and asked for a full sync).
    ///
    /// Each answer here of the cards of `notes` (nil: every card) and of cards that are gone,
    /// with no Anki id yet, takes the id of the earliest row of its card in `base` (the file
    /// the server now holds) with its button, kind and factor, at or up to five minutes after
    /// its time, that no other answer here holds: the one the export gave it. One found nowhere
    /// keeps none. Written as the sync's own: a change the server already holds. Called once the
    /// sync is recorded, with `base` the base it left: an answer then exports as the base holds
    /// it, so the notes it marks are marked for nothing, and the marks go (else the next sync
    /// exported and laid them all again: 1,000 notes after sending 1,000 answers, 0.3 s).
    /// The notes and cards sent keep theirs first (`keepSentRecordIDs`).
    func keepSentAnswerIDs(base: URL, notes: [Int64]?) throws {
        _ = try collection.writeAsSync(now: now) { writer in
            try writer.unmarkingForSync {
                // First the cards' ids: an answer is found in the base under its card's.
                try Self.keepSentRecordIDs(base: base, notes: notes, writer: writer)
                try Self.keepSentAnswerIDs(base: base, notes: notes, writer: writer)
            }
        }
    }

    /// The same inside a transaction of the caller's: a sync that takes the server's changes in
    /// place gives its answers their ids before it exports the next base, so the base holds
    /// them under the server's ids too (a base exported first numbered them afresh).
    static func keepSentAnswerIDs(base: URL, notes: [Int64]?, writer: CollectionWriter) throws {
        let cards = try writer.cardsWithAnswersWithoutAnkiIDs(notes: notes)
        guard !cards.isEmpty else { return }
        let ankiCardIDs = Dictionary(cards.map { ($0.cardID, $0.ankiCardID) }, uniquingKeysWith: { first, _ in first })
        let answers = try writer.answersWithoutAnkiIDs(cardIDs: Array(ankiCardIDs.keys))
        // An answer's row there is at or after its time (`DeckImport.isRow`): the server's rows
        // of those cards from the earliest such time on, one query for all, read from the
        // index by card and id (not every answer of those cards: 15,000 of 1,000 cards, 50 ms).
        guard let earliest = answers.own.map({ Int64(($0.entry.time.timeIntervalSince1970 * 1000).rounded(.down)) }).min() else { return }
        var there: [Int64: [(id: Int64, ease: Int, factor: Int, type: Int)]] = [:]
        let list = String(decoding: try JSONEncoder().encode(Array(ankiCardIDs.values)), as: UTF8.self)
        try SyncBase.reading(base) { db in
            for row in try Row.fetchAll(db, sql: """
                SELECT cid, id, ease, factor, type FROM revlog WHERE cid IN (SELECT value FROM json_each(?)) AND id >= ? ORDER BY id
                """, arguments: [list, earliest]) {
                there[row[0], default: []].append((row[1], row[2], row[3], row[4]))
            }
        }
        var held = answers.held
        for row in answers.own {
            guard let rows = ankiCardIDs[row.cardID].flatMap({ there[$0] }),
                  let id = rows.first(where: { held[row.cardID]?.contains($0.id) != true
                                               && DeckImport.isRow(id: $0.id, ease: $0.ease, factor: $0.factor, type: $0.type, of: row.entry) })?.id
            else { continue }
            try writer.adoptLogID(row.id, ankiID: id)
            held[row.cardID, default: []].insert(id)
        }
    }
}
