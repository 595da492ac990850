import Dispatch
import MaeilCore
import Synchronization

/// What the collection importing a package holds of its Anki cards and their notes, for the
/// reader to skip what is here as the package has it. A card with the same id, guid and
/// modification time has not changed in Anki since it came, and merging it changes nothing
/// (see `DeckImport.mergeAnkiCard`): such a note comes without its cards, whose review logs
/// are never read. A note whose cards are all so, and whose fields, tags and note type are
/// here byte for byte, comes as a guid alone (`NoteDraft.asStored`): most of a package
/// imported again.
///
/// The importer answers once its write transaction has begun, so what it says holds until the
/// import commits; the reader, which starts before the collection is opened, waits for the
/// answer before its first note.
package final class KnownAnkiCards: Sendable {
    private let records = Mutex<StoredAnkiRecords?>(nil)
    private let answered = DispatchSemaphore(value: 0)

    package init() {}

    /// Called by the importer; a second answer (or `giveUp` after one) changes nothing.
    package func answer(_ known: StoredAnkiRecords) {
        let first = records.withLock { records in
            if case .some = records { return false }
            records = known
            return true
        }
        if first { answered.signal() }
    }

    /// Called by an importer that ends before it answered, so a waiting reader goes on: with
    /// nothing known, every card is read and merged.
    package func giveUp() { answer(StoredAnkiRecords()) }

    /// Called by the reader: waits for the importer's answer.
    func wait() -> StoredAnkiRecords {
        answered.wait()
        answered.signal()  // for another reader of the same import
        return records.withLock { $0 } ?? StoredAnkiRecords()
    }
}
