import Foundation
import GRDB
import MaeilDecks
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilSession
@testable import MaeilStore
@testable import MaeilSync

/// A `.colpkg` after the first is the file the last one was made of with the notes marked since
/// laid over it (ExportBase). Whatever was done in between, it must hold what writing every
/// note again would: the same rounds of answers, undo, edits, tags, flags, forgetting,
/// burying, deletions, additions, option changes and renames as a sync's part (SyncDeltaTests),
/// and a deck deleted.
@Suite("A .colpkg laid over the last one's file")
struct ExportBaseTests {
    let delta = SyncDeltaTests()

    @Test(arguments: Array(UInt64(1)...8))
    func aColpkgLaidOverTheLastOnesFileIsTheWholeCollection(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let collection = try Fixture.collection()
        // Half from Anki with decks of Maeil's own beside, half Maeil's own alone.
        if seed % 2 == 0 {
            let bundle = try DeckReader.read([PresetChangeTests.fixtures.appendingPathComponent("anki-sm2-history.apkg").path], options: ImportOptions())
            _ = try Importer(collection: collection, now: now).apply(bundle)
        }
        let words = try Fixture.wordDeck(collection, count: 12)
        let spare = try Fixture.wordDeck(collection, name: "Spare", count: 3)
        let folder = Fixture.temporaryDirectory()
        let base = ExportBase(collection: collection)
        try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("first.colpkg"), format: "colpkg",
                             now: now, timeZone: Fixture.utc)
        let kept = try #require(FileStamp(base.file))
        var clock = now
        for round in 0..<4 {
            clock = clock.addingTimeInterval(86_400 * Double(round + 1))
            try delta.change(collection, words: words, at: clock, options: round >= 1, random: &random)
            if round == 2 {
                for note in try collection.notes(deckID: spare.id) { _ = try collection.deleteNote(id: note.id) }
                #expect(try collection.batch(now: clock) { try $0.deleteEmptyDeck(id: spare.id) })
            }
            let laid = folder.appendingPathComponent("laid-\(round).colpkg"), whole = folder.appendingPathComponent("whole-\(round).colpkg")
            let decks = try collection.decks()
            let laidSummary = try ExportFile.write(decks, from: collection, to: laid, format: "colpkg", now: clock, timeZone: Fixture.utc)
            // Laid over in place: a whole export puts a new file there.
            #expect(FileStamp(base.file)?.inode == kept.inode, "seed \(seed) round \(round): written whole")
            let wholeSummary = try Exporter(collection: collection).streaming(decks, now: clock, timeZone: Fixture.utc) { source in
                try AnkiPackageWriter.write(&source, to: whole, now: clock, clock: ExportFile.clock(for: source.decks, timeZone: Fixture.utc))
            }
            // Cards studied are counted where the summary says something of them: FSRS and SM-2 decks together.
            let mixed = Set(wholeSummary.decks.map(\.scheduler)).count > 1
            #expect(laidSummary.decks.map { "\($0.name) \($0.notes) \(mixed ? $0.reviewedCards : 0)" }
                    == wholeSummary.decks.map { "\($0.name) \($0.notes) \(mixed ? $0.reviewedCards : 0)" })
            #expect(laidSummary.media == wholeSummary.media)
            let (laidFile, wholeFile) = (folder.appendingPathComponent("laid-\(round).anki2"), folder.appendingPathComponent("whole-\(round).anki2"))
            try DeckFiles.collectionFile(of: laid, to: laidFile)
            try DeckFiles.collectionFile(of: whole, to: wholeFile)
            var (expected, found) = (try delta.rows(wholeFile), try delta.rows(laidFile))
            // Answers to cards deleted since stay in the laid file, as Anki keeps them.
            let wholeAnswers = Set(expected["revlog"]!.map(SyncDeltaTests.answerID))
            expected["revlog"]!.formUnion(found["revlog"]!.filter { !wholeAnswers.contains(SyncDeltaTests.answerID($0)) })
            for table in expected.keys.sorted() {
                let missing = expected[table]!.subtracting(found[table]!), extra = found[table]!.subtracting(expected[table]!)
                #expect(missing.isEmpty && extra.isEmpty, "seed \(seed) round \(round) \(table): missing \(missing.sorted().prefix(3)), extra \(extra.sorted().prefix(3))")
            }
            #expect(try delta.objectNames(laidFile) == delta.objectNames(wholeFile), "seed \(seed) round \(round): decks, options or note types")
            let (laidObjects, wholeObjects) = (try Self.objects(laidFile), try Self.objects(wholeFile))
            for key in wholeObjects.keys.sorted() {
                #expect(laidObjects[key] == wholeObjects[key], "seed \(seed) round \(round) \(key): \(laidObjects[key] ?? "") against \(wholeObjects[key] ?? "")")
            }
        }
    }

    /// A new card with no place in Anki's new queue (made before Maeil gave each one) is placed
    /// by a whole export at its rank among every card written, which notes added or deleted
    /// before it move: with one, every note is written again.
    @Test func aNewCardWithoutAnkisPlaceIsWrittenWhole() throws {
        let collection = try Fixture.collection()
        let words = try Fixture.wordDeck(collection, count: 5)
        let folder = Fixture.temporaryDirectory()
        let base = ExportBase(collection: collection)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("a.colpkg"), format: "colpkg", now: now, timeZone: Fixture.utc)
        let first = try #require(FileStamp(base.file))
        let notes = try collection.notes(deckID: words.id)
        try collection.transaction { db in try db.execute(sql: "UPDATE card SET anki_position = NULL WHERE note_id = ?", arguments: [notes[4].id]) }
        _ = try collection.deleteNote(id: notes[0].id)
        try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("b.colpkg"), format: "colpkg", now: now, timeZone: Fixture.utc)
        #expect(FileStamp(base.file)?.inode != first.inode)
    }

    /// The pictures a laid file's notes name go into the package as a whole export's would:
    /// found in its notes, a picture added since among them.
    @Test func aLaidColpkgCarriesThePicturesItsNotesName() throws {
        let collection = try DeckFiles.collection()
        let now = Fixture.noon
        let importer = Importer(collection: collection, now: now)
        _ = try importer.apply(try DeckReader.read([PresetChangeTests.fixtures.appendingPathComponent("pictures-a.apkg").path], options: ImportOptions()))
        let folder = Fixture.temporaryDirectory()
        let base = ExportBase(collection: collection)
        let first = try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("a.colpkg"), format: "colpkg",
                                         now: now, timeZone: Fixture.utc)
        #expect(first.media == 1)
        let kept = try #require(FileStamp(base.file))
        _ = try importer.apply(try DeckReader.read([PresetChangeTests.fixtures.appendingPathComponent("pictures-b.apkg").path], options: ImportOptions()))
        let laid = try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("b.colpkg"), format: "colpkg",
                                        now: now, timeZone: Fixture.utc)
        #expect(FileStamp(base.file)?.inode == kept.inode, "written whole")
        let whole = try Exporter(collection: collection).streaming(try collection.decks(), now: now, timeZone: Fixture.utc) { source in
            try AnkiPackageWriter.write(&source, to: folder.appendingPathComponent("c.colpkg"), now: now,
                                        clock: ExportFile.clock(for: source.decks, timeZone: Fixture.utc))
        }
        #expect(laid.media == 2 && whole.media == 2)
        #expect(try DeckFiles.entryNames(of: folder.appendingPathComponent("b.colpkg")) == ["0", "1", "collection.anki21b", "media", "meta"])
    }

    /// A kept file changed since its export (or another in its place) is not laid over: every note
    /// is written again, and that file is kept.
    @Test func aFileChangedSinceIsWrittenAgain() throws {
        let collection = try Fixture.collection()
        _ = try Fixture.wordDeck(collection, count: 5)
        let folder = Fixture.temporaryDirectory()
        let base = ExportBase(collection: collection)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("a.colpkg"), format: "colpkg", now: now, timeZone: Fixture.utc)
        let first = try #require(FileStamp(base.file))
        try DatabaseQueue(path: base.file.path).write { db in try db.execute(sql: "DELETE FROM notes") }
        try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("b.colpkg"), format: "colpkg", now: now, timeZone: Fixture.utc)
        #expect(FileStamp(base.file)?.inode != first.inode)
        let file = folder.appendingPathComponent("b.anki2")
        try DeckFiles.collectionFile(of: folder.appendingPathComponent("b.colpkg"), to: file)
        #expect(try DatabaseQueue(path: file.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM notes") } == 5)
    }

    /// A sync that settles a base holding more marks than the kept export file clears marks that
    /// file needs: the file is given up. One holding fewer leaves it, and an export clears no mark
    /// the sync's base has not taken in.
    @Test func marksServeTheSyncsBaseAndTheExportsAlike() throws {
        let collection = try Fixture.collection()
        let words = try Fixture.wordDeck(collection, count: 5)
        let folder = Fixture.temporaryDirectory()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try collection.takeChangeFlag()
        let mark = SyncMark(endpoint: "test", serverModified: 1, schema: 1, usn: 1)
        let start = try #require(try collection.readingExport { try $0.syncDirty() })
        try collection.recordSync(mark, base: start.through, leavesBase: true)
        let notes = try collection.notes(deckID: words.id)
        _ = try collection.setTags(noteID: notes[0].id, add: ["one"])
        let syncRead = try #require(try collection.readingExport { try $0.syncDirty() })
        _ = try collection.setTags(noteID: notes[1].id, add: ["two"])
        // The export reads both marks; it may clear only what the sync's base holds (nothing yet).
        try ExportFile.write(try collection.decks(), from: collection, to: folder.appendingPathComponent("a.colpkg"), format: "colpkg", now: now, timeZone: Fixture.utc)
        #expect(try Set(#require(try collection.readingExport { try $0.syncDirty() }).notes) == [notes[0].id, notes[1].id])
        // The sync settles the first mark only: the export's file holds more, and stays.
        try collection.recordSync(mark, base: syncRead.through, leavesBase: true)
        #expect(try collection.exportBase() != nil)
        #expect(try #require(try collection.readingExport { try $0.syncDirty() }).notes == [notes[1].id])
        // A sync that holds a change the export's file does not gives the file up.
        _ = try collection.setTags(noteID: notes[2].id, add: ["three"])
        let later = try #require(try collection.readingExport { try $0.syncDirty() })
        try collection.recordSync(mark, base: later.through, leavesBase: true)
        #expect(try collection.exportBase() == nil)
        #expect(try #require(try collection.readingExport { try $0.syncDirty() }).notes.isEmpty)
    }

    /// What a `.colpkg` says of the collection beside its notes, each object whole: its settings
    /// (but which note type was last used; the day burials were last lifted on a calendar day),
    /// its decks with their day's counts on calendar days (the files' creation days differ), deck options and note types (but the deck a type was
    /// last used in: a whole export names its first note's).
    static func objects(_ file: URL) throws -> [String: String] {
        try DatabaseQueue(path: file.path).read { db in
            var config = try SyncMerge.config(db, schema: "main")
            config["curModel"] = nil
            let created = SyncMerge.createdDay(try Int64.fetchOne(db, sql: "SELECT crt FROM col") ?? 0, config)
            if let day = SyncMerge.int(config["lastUnburied"]) { config["lastUnburied"] = day + created }
            var models = try SyncMerge.objects(db, "models")
            for (key, value) in models { models[key] = (value as? [String: Any])?.filter { $0.key != "did" } }
            func text(_ object: Any) throws -> String {
                String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
            }
            return ["conf": try text(config), "decks": try text(SyncMerge.movingDays(try SyncMerge.objects(db, "decks"), by: created)),
                    "dconf": try text(try SyncMerge.objects(db, "dconf")), "models": try text(models)]
        }
    }
}
