import Foundation
import GRDB

extension CollectionWriter {
    /// A card of a note that has a record made here (the note, or one of its cards, with no Anki
    /// id yet): the ids Anki knows them by where they have them, else what exports propose.
    package struct RecordMadeHere: Sendable {
        package let noteID: Int64, guid: String, noteAnkiID: Int64?, noteProposed: Int64?
        package let cardID: Int64, cardAnkiID: Int64?, cardProposed: Int64?
    }

    /// Every card of the notes of `notes` (nil: every note) that have a record made here, in the
    /// order an export writes them (a note's cards by place, template and ordinal).
    package func recordsMadeHere(notes: [Int64]?) throws -> [RecordMadeHere] {
        let noteFilter = notes == nil ? "1" : "n.id IN (SELECT value FROM json_each(?))"
        let arguments: StatementArguments = try notes.map { [String(decoding: try JSONEncoder().encode($0), as: UTF8.self)] } ?? []
        return try Row.fetchAll(db, sql: """
            SELECT n.id, n.guid, n.anki_id, \(Collection.proposedAnkiIDSQL(created: "n.created_at", id: "n.id")),
                   c.id, c.anki_id, \(Collection.proposedAnkiIDSQL(created: "n.created_at", id: "c.id"))
            FROM note n JOIN card c ON c.note_id = n.id
            WHERE \(noteFilter) AND (n.anki_id IS NULL OR EXISTS (SELECT 1 FROM card m WHERE m.note_id = n.id AND m.anki_id IS NULL))
            ORDER BY n.id, c.new_position, c.template, c.ordinal
            """, arguments: arguments).map {
                RecordMadeHere(noteID: $0[0], guid: $0[1], noteAnkiID: $0[2], noteProposed: $0[3], cardID: $0[4], cardAnkiID: $0[5], cardProposed: $0[6])
            }
    }
}
