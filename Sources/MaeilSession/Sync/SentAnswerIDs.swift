import Foundation
import GRDB
import MaeilDecks
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
    /// keeps none. Written as the sync's own: a change the server already holds.
    func keepSentAnswerIDs(base: URL, notes: [Int64]?) throws {
        _ = try collection.writeAsSync(now: now) { writer in try Self.keepSentAnswerIDs(base: base, notes: notes, writer: writer) }
    }

    /// The same inside a transaction of the caller's: a sync that takes the server's changes in
    /// place gives its answers their ids before it exports the next base, so the base holds
    /// them under the server's ids too (a base exported first numbered them afresh).
    static func keepSentAnswerIDs(base: URL, notes: [Int64]?, writer: CollectionWriter) throws {
        let server = try DatabaseQueue(path: base.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? server.close() }
        for (cardID, ankiCardID) in try writer.cardsWithAnswersWithoutAnkiIDs(notes: notes) {
            let there = try server.read { db in
                try Row.fetchAll(db, sql: "SELECT id, ease, factor, type FROM revlog WHERE cid = ? ORDER BY id", arguments: [ankiCardID])
                    .map { (id: $0[0] as Int64, columns: [$0[1] as Int, $0[2] as Int, $0[3] as Int]) }
            }
            guard !there.isEmpty else { continue }
            var held = try writer.ankiLogIDs(cardID: cardID)
            for row in try writer.reviewLog(cardID: cardID, ownOnly: true) {
                guard let columns = AnkiPackageWriter.revlog(row.entry) else { continue }
                let time = Int64((row.entry.time.timeIntervalSince1970 * 1000).rounded(.down))
                guard let id = there.first(where: { !held.contains($0.id) && (time...(time + 300_000)).contains($0.id)
                                                     && $0.columns == [columns.ease, columns.factor, columns.type] })?.id else { continue }
                try writer.adoptLogID(row.id, ankiID: id)
                held.insert(id)
            }
        }
    }
}
