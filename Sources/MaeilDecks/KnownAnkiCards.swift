import Dispatch
import Synchronization

/// The Anki cards a collection already holds, as the import or sync that last wrote each left
/// it: by Anki's card id, its note's guid and the modification time it came with. A package's
/// card with the same id, guid and time has not changed in Anki since, and merging it changes
/// nothing (see `DeckImport.mergeAnkiCard`): a reader that is told these hands such a note on
/// without its cards and never reads their review logs, which is most of a package imported again.
///
/// The importer answers once its write transaction has begun, so what it says holds until the
/// import commits; the reader, which starts before the collection is opened, waits for the
/// answer before its first note.
package final class KnownAnkiCards: Sendable {
    package struct Stamp: Sendable, Hashable {
        package var guid: String
        package var modified: Int64

        package init(guid: String, modified: Int64) {
            self.guid = guid
            self.modified = modified
        }
    }

    private let stamps = Mutex<[Int64: Stamp]?>(nil)
    private let answered = DispatchSemaphore(value: 0)

    package init() {}

    /// Called by the importer; a second answer (or `giveUp` after one) changes nothing.
    package func answer(_ known: [Int64: Stamp]) {
        let first = stamps.withLock { stamps in
            guard stamps == nil else { return false }
            stamps = known
            return true
        }
        if first { answered.signal() }
    }

    /// Called by an importer that ends before it answered, so a waiting reader goes on: with
    /// nothing known, every card is read and merged.
    package func giveUp() { answer([:]) }

    /// Called by the reader: waits for the importer's answer.
    func wait() -> [Int64: Stamp] {
        answered.wait()
        answered.signal()  // for another reader of the same import
        return stamps.withLock { $0 } ?? [:]
    }
}
