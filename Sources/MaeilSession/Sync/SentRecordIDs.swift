import Foundation
import GRDB
import MaeilStore

extension FullSync {
    /// `keepSentRecordIDs` for every note, as the sync's own write, before a whole export whose
    /// result is compared with `base`: a sync killed before its records kept their ids, or a
    /// collection synced before they kept them, would export them under other ids than the
    /// server's.
    func keepSentRecordIDs(base: URL) throws {
        _ = try collection.writeAsSync(now: now) { writer in
            try writer.unmarkingForSync { try Self.keepSentRecordIDs(base: base, notes: nil, writer: writer) }
        }
    }

    /// A note or card made here goes up under the id the export gives it: the one it proposes
    /// (its making's second and a count from its own id), or, where another record has that
    /// one (more than a thousand notes made in one second, as importing a deck makes them), a
    /// new id counted from the time of the export. From then on it keeps the id it went up
    /// under, as one from Anki keeps Anki's. Before, a later whole export counted those ids
    /// from its own time: of 1,782 notes imported together, the sync sent 782 notes and 2,001
    /// cards as deleted and made again (their answers left on cards that were gone).
    ///
    /// Each note made here of `notes` (nil: every note) whose guid `base` (the file the server
    /// now holds) has under another id than the one it proposes takes the base's. Its cards
    /// made here: one whose proposed id the base's note has keeps it; the others, in the order
    /// the export wrote them, take the base's other ids of that note in ascending order (the
    /// order the export counted them in), where there are as many; the ids of its cards from
    /// Anki are theirs. (A card whose proposed id an earlier card was counted to, in an export
    /// in its note's second, would take the wrong one: not seen.)
    static func keepSentRecordIDs(base: URL, notes: [Int64]?, writer: CollectionWriter) throws {
        let made = try writer.recordsMadeHere(notes: notes)
        guard !made.isEmpty else { return }
        func json<T: Encodable>(_ values: [T]) throws -> String { String(decoding: try JSONEncoder().encode(values), as: UTF8.self) }
        var there: [String: (note: Int64, cards: Set<Int64>)] = [:]
        try SyncBase.reading(base) { db in
            // Most records are under the ids they propose: looked up by id, and only the other
            // notes by guid, which no index of Anki's holds (every note read: 9 ms at 20,000).
            var notesAt: [Int64: String] = [:], cardsAt: [Int64: String] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT id, guid FROM notes WHERE id IN (SELECT value FROM json_each(?))",
                                        arguments: [try json(made.compactMap(\.noteProposed))]) { notesAt[row[0]] = row[1] }
            for row in try Row.fetchAll(db, sql: "SELECT c.id, n.guid FROM cards c JOIN notes n ON n.id = c.nid WHERE c.id IN (SELECT value FROM json_each(?))",
                                        arguments: [try json(made.compactMap(\.cardProposed))]) { cardsAt[row[0]] = row[1] }
            let elsewhere = Set(made.filter { record in
                (record.noteAnkiID == nil && record.noteProposed.flatMap { notesAt[$0] } != record.guid)
                    || (record.cardAnkiID == nil && record.cardProposed.flatMap { cardsAt[$0] } != record.guid)
            }.map(\.guid))
            guard !elsewhere.isEmpty else { return }
            for row in try Row.fetchAll(db, sql: """
                SELECT n.guid, n.id, c.id FROM notes n JOIN cards c ON c.nid = n.id WHERE n.guid IN (SELECT value FROM json_each(?))
                """, arguments: [try json(Array(elsewhere))]) {
                there[row[0], default: (row[1], [])].cards.insert(row[2])
            }
        }
        var start = made.startIndex
        while start < made.endIndex {
            let end = made[start...].firstIndex { $0.noteID != made[start].noteID } ?? made.endIndex
            if let sent = there[made[start].guid] { try keep(Array(made[start..<end]), sent: sent, writer: writer) }
            start = end
        }
    }

    /// One note's records (`made`, its cards in the export's order) given the ids `sent` holds.
    private static func keep(_ made: [CollectionWriter.RecordMadeHere], sent: (note: Int64, cards: Set<Int64>), writer: CollectionWriter) throws {
        let first = made[0]
        if first.noteAnkiID == nil, sent.note != first.noteProposed {
            try writer.adoptAnkiIDs(noteID: first.noteID, sent.note, cardID: first.cardID, nil)
        }
        var others = sent.cards.subtracting(made.compactMap(\.cardAnkiID))
        var counted: [CollectionWriter.RecordMadeHere] = []
        for card in made where card.cardAnkiID == nil {
            if let proposed = card.cardProposed, others.remove(proposed) != nil { continue }
            counted.append(card)
        }
        guard counted.count == others.count else { return }
        for (card, id) in zip(counted, others.sorted()) {
            try writer.adoptAnkiIDs(noteID: card.noteID, nil, cardID: card.cardID, id)
        }
    }
}
