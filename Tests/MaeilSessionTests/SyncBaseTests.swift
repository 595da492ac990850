import Foundation
import GRDB
@testable import MaeilSession
import MaeilStore
import MaeilTestSupport
import Testing

/// The base a normal sync compares with is found by the mark of the sync that left it.
@Suite struct SyncBaseTests {
    static func mark(_ modified: Int64, usn: Int) -> SyncMark {
        SyncMark(endpoint: "http://127.0.0.1:1/", serverModified: modified, schema: 7_000, usn: usn)
    }

    /// A sync that found nothing changed on either side moves the collection's mark to the
    /// server's new time: the base stands for both marks (a kill between the two writes leaves
    /// either recorded), so the next change here still merges instead of uploading the whole
    /// collection over the phone's.
    @Test func aBaseStandsForTheMarkOfASyncThatChangedNothing() throws {
        let folder = Fixture.temporaryDirectory()
        let base = SyncBase(collectionPath: folder.appendingPathComponent("c.sqlite").path)
        let export = folder.appendingPathComponent("export.anki2")
        try DatabaseQueue(path: export.path).write { try $0.execute(sql: "CREATE TABLE col (conf TEXT)") }
        let first = Self.mark(1_000, usn: 4), moved = Self.mark(2_000, usn: 5)
        try base.prepare(export, mark: first)
        base.settle()
        #expect(base.matching(first) != nil)
        #expect(base.matching(moved) == nil)
        #expect(base.alsoStands(for: moved, holding: first))
        #expect(base.matching(first) != nil && base.matching(moved) != nil)
        // Moved again: the oldest mark goes, the base holds the two latest.
        let again = Self.mark(3_000, usn: 6)
        #expect(base.alsoStands(for: again, holding: moved))
        #expect(base.matching(first) == nil && base.matching(moved) != nil && base.matching(again) != nil)
        // Not the base of the sync given: nothing is tagged.
        #expect(!base.alsoStands(for: Self.mark(4_000, usn: 7), holding: first))
        #expect(base.matching(Self.mark(4_000, usn: 7)) == nil)
    }
}
