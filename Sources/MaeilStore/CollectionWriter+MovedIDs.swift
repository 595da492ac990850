import Foundation
import GRDB

extension CollectionWriter {
    /// A note made here that went up under another id than exports propose for it (a phone's
    /// note held that one: `SyncMerge.moveRecordsInTheWay`) keeps the id it went up under, as
    /// Anki's: the next export then gives it that id, not the phone's note's.
    package func keepMovedNoteID(guid: String, proposed: Int64, ankiID: Int64) throws {
        try db.execute(sql: """
            UPDATE note SET anki_id = ? WHERE guid = ? AND anki_id IS NULL AND \(Collection.proposedAnkiIDSQL(created: "created_at", id: "id")) = ?
            """, arguments: [ankiID, guid, proposed])
    }

    /// The same for a card made here, found by its note's guid and the id exports propose for it.
    package func keepMovedCardID(noteGuid: String, proposed: Int64, ankiID: Int64) throws {
        try db.execute(sql: """
            UPDATE card SET anki_id = ? WHERE anki_id IS NULL AND id IN (
              SELECT c.id FROM card c JOIN note n ON n.id = c.note_id
              WHERE n.guid = ? AND \(Collection.proposedAnkiIDSQL(created: "n.created_at", id: "c.id")) = ?)
            """, arguments: [ankiID, noteGuid, proposed])
    }
}
