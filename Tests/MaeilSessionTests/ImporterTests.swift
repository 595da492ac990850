import Foundation
import GRDB
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilDecks
@testable import MaeilSession
@testable import MaeilStore

@Suite("Importing into a collection")
struct ImporterTests {
    func bundle(_ paths: [String], options: ImportOptions = ImportOptions()) throws -> ImportBundle {
        try DeckReader.read(paths, options: options)
    }

    @Test func reimportUpdatesFieldsAndKeepsSchedules() throws {
        let collection = try DeckFiles.collection()
        let folder = try DeckFiles.write(["deck.yaml": wordsManifest])
        let first = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([folder]))
        #expect(first.decks.map(\.added) == [3])
        #expect(first.decks[0].created)
        let deck = try collection.requireDeck(named: "Test Words")
        #expect(try collection.cards(deckID: deck.id).count == 6)
        let preset = try collection.preset(id: deck.presetID)
        #expect(preset.scheduler.kind == .fsrs)
        #expect(preset.curriculumGating)
        // Schedule one card, then change the file: a field edited, an item removed, one added.
        let kimchi = try #require(try collection.note(guid: "test-words/kimchi"))
        let card = try collection.cards(noteID: kimchi.id)[0]
        let scheduled = CardState(phase: .review, intervalDays: 12, due: Date(timeIntervalSince1970: 1_800_000_000),
                                  reps: 3, lastReview: Date(timeIntervalSince1970: 1_799_000_000))
        try collection.setState(cardID: card.id, scheduled, at: Date())
        let changed = wordsManifest.replacingOccurrences(of: "meaning: kimchi,", with: "meaning: fermented cabbage,")
            .replacingOccurrences(of: "  - {id: rice, unit: day-1, word: 밥, meaning: rice}\n", with: "")
            + "\n  - {id: tea, unit: day-2, word: 차, meaning: tea}\n"
        try Data(changed.utf8).write(to: URL(fileURLWithPath: folder + "/deck.yaml"))
        let second = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([folder]))
        #expect(second.decks[0].added == 1)
        #expect(second.decks[0].updated >= 1)
        #expect(second.decks[0].gone == ["test-words/rice"])
        #expect(try collection.note(guid: "test-words/kimchi")?.fields.value("meaning") == "fermented cabbage")
        #expect(try collection.card(id: card.id).state == scheduled.storedForm)
        #expect(try collection.note(guid: "test-words/rice") != nil)  // kept until the learner removes it
        // A third import of the same file changes nothing.
        let third = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([folder]))
        #expect(third.decks[0].added == 0)
        #expect(third.decks[0].updated == 0)
        #expect(third.decks[0].unchanged == 3)
        #expect(third.decks[0].gone == ["test-words/rice"])
    }

    @Test func aProblemInAnyFileChangesNothing() throws {
        let collection = try DeckFiles.collection()
        let good = try DeckFiles.write(["deck.yaml": wordsManifest])
        let bad = try DeckFiles.write(["words.txt": "#separator:tab\n김치\tkimchi\n밥\trice\textra\n"])
        #expect(throws: ImportFailure.self) { _ = try bundle([good, bad + "/words.txt"]) }
        #expect(try collection.counts().notes == 0)
        // With --skip-invalid the good rows go in and the bad one is reported.
        let options = ImportOptions(skipInvalid: true)
        let summary = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([good, bad + "/words.txt"], options: options))
        #expect(summary.added == 4)
        #expect(summary.skipped.count == 1)
        #expect(summary.skipped[0].hasSuffix("words.txt:3:8: expected 2 columns, like the first row, found 3"))
    }

    /// A large import drops the secondary indexes and builds them again at the end; the
    /// collection must come out with exactly the indexes it had, and they must be used.
    @Test func aBulkImportRebuildsTheSameIndexes() throws {
        let collection = try DeckFiles.collection()
        func indexes() throws -> [String] {
            try collection.read { db in
                try String.fetchAll(db, sql: "SELECT name || ': ' || sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
            }
        }
        let before = try indexes()
        #expect(before.count >= 6)
        let rows = (0..<(Importer.bulkThreshold + 10)).map { "단어 \($0)\tword \($0)" }.joined(separator: "\n")
        let folder = try DeckFiles.write(["bulk.txt": "#separator:tab\n#deck:Bulk\n" + rows + "\n"])
        let summary = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([folder + "/bulk.txt"]))
        #expect(summary.added == Importer.bulkThreshold + 10)
        // New cards are written several to a statement: every note has its card, in file order.
        let deck = try collection.requireDeck(named: "Bulk")
        let cards = try collection.cards(deckID: deck.id)
        #expect(cards.count == Importer.bulkThreshold + 10)
        let notes = try collection.notes(deckID: deck.id)
        #expect(cards.map(\.noteID) == notes.map(\.id))
        #expect(cards.allSatisfy { $0.state == .new })
        #expect(try indexes() == before)
        #expect(try collection.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok")
        // Foreign keys are not checked row by row during a bulk import: every row must still
        // point at a row that exists, and the checks are back on afterwards.
        #expect(try collection.read { try Row.fetchAll($0, sql: "PRAGMA foreign_key_check") }.isEmpty)
        #expect(try collection.transaction { try Bool.fetchOne($0, sql: "PRAGMA foreign_keys") } == true)
        #expect(throws: (any Error).self) {
            try collection.transaction { try $0.execute(sql: "INSERT INTO card (note_id, deck_id, template, ordinal, new_position, phase, step, scheduled_seconds, interval_days, ease, reps, lapses, streak) VALUES (999999, 999999, 'x', 0, 0, 'new', 0, 0, 0, 2500, 0, 0, 0)") }
        }
        // A bulk import that is rolled back (a dry run ends in a rollback) leaves them too.
        let other = try DeckFiles.write(["bulk.txt": "#separator:tab\n#deck:Bulk2\n" + rows.replacingOccurrences(of: "단어", with: "낱말") + "\n"])
        let dryRun = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([other + "/bulk.txt"]), dryRun: true)
        #expect(dryRun.added == Importer.bulkThreshold + 10)
        #expect(try indexes() == before)
        #expect(try collection.counts().notes == Importer.bulkThreshold + 10)
    }

    /// Rebuilding the indexes sorts the whole collection: only a large import next to what
    /// is there does it.
    @Test func onlyALargeImportRebuildsTheIndexes() {
        #expect(Importer.rebuildsIndexes(expecting: 20_000, collectionNotes: 0))
        #expect(Importer.rebuildsIndexes(expecting: 20_000, collectionNotes: 50_000))
        #expect(!Importer.rebuildsIndexes(expecting: 1_999, collectionNotes: 0))
        #expect(!Importer.rebuildsIndexes(expecting: 2_000, collectionNotes: 100_000))
    }

    /// The importer writes while the file is still being read. A problem the reader finds
    /// only at the end must still leave the collection as it was, indexes and all.
    @Test func aProblemAtTheEndOfAStreamedFileUndoesEverything() throws {
        let collection = try DeckFiles.collection()
        _ = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([try DeckFiles.write(["deck.yaml": wordsManifest])]))
        let before = try collection.counts()
        let indexes = try collection.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name") }
        let rows = (0..<(Importer.bulkThreshold + 1500)).map { "단어 \($0)\tword \($0)" }.joined(separator: "\n")
        let folder = try DeckFiles.write(["late.txt": "#separator:tab\n#deck:Late\n" + rows + "\nonly one column\n"])
        var chunks = 0
        let importer = Importer(collection: collection, now: Fixture.noon, progress: { _, _ in chunks += 1 })
        #expect(throws: ImportFailure.self) {
            try importer.apply(reading: { emit in try DeckReader.stream([folder + "/late.txt"], options: ImportOptions(), emit: emit) })
        }
        #expect(chunks > 1)  // notes were written before the problem turned up
        #expect(try collection.counts() == before)
        #expect(try collection.deck(named: "Late") == nil)
        #expect(try collection.read { try String.fetchAll($0, sql: "SELECT name FROM sqlite_master WHERE type = 'index' ORDER BY name") } == indexes)
    }

    /// A note type first met past the first chunk brings its templates along before its notes.
    @Test func aNoteTypeFarDownAStreamedFileGetsItsCards() throws {
        let collection = try DeckFiles.collection()
        let basic = (0..<(NoteChunks.size + 100)).map { "Basic\t앞 \($0)\tfront \($0)" }
        let reversed = (0..<5).map { "Basic (and reversed card)\t뒤 \($0)\tback \($0)" }
        let folder = try DeckFiles.write(["types.txt": "#separator:tab\n#deck:Types\n#notetype column:1\n"
            + (basic + reversed).joined(separator: "\n") + "\n"])
        let summary = try Importer(collection: collection, now: Fixture.noon).apply(reading: { emit in
            try DeckReader.stream([folder + "/types.txt"], options: ImportOptions(), emit: emit)
        })
        #expect(summary.added == NoteChunks.size + 105)
        let deck = try collection.requireDeck(named: "Types")
        #expect(deck.templates.map(\.name) == ["card 1", "card 1 (Basic (and reversed card))", "card 2"])
        let reversedNote = try #require(try collection.findNotes("\"뒤 3\"", deckID: deck.id, now: Date(), timeZone: .current).first)
        #expect(try collection.cards(noteID: reversedNote.id).count == 2)
        #expect(try collection.counts().cards == NoteChunks.size + 100 + 10)
    }

    /// The same guid twice in one file: the later row updates the note the earlier one made.
    @Test func aGuidTwiceInOneFileMakesOneNote() throws {
        let collection = try DeckFiles.collection()
        let folder = try DeckFiles.write(["twice.txt": "#separator:tab\n#deck:Twice\n#guid column:1\nsame\t처음\tfirst\nsame\t다음\tsecond\n"])
        let summary = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([folder + "/twice.txt"]))
        #expect(summary.added == 1)
        #expect(summary.updated == 1)
        #expect(try collection.counts().cards == 1)
        let note = try #require(try collection.note(guid: "same"))
        #expect(note.fields.map(\.value) == ["다음", "second"])
    }

    /// Anki's "keep current": a note already in the collection is left exactly as it is, even
    /// when the file's row differs from it in its tags as well as its fields.
    @Test func keepCurrentLeavesAStoredNoteAlone() throws {
        let collection = try DeckFiles.collection()
        let first = try DeckFiles.write(["words.txt": "#separator:tab\n#deck:Keep\n#guid column:1\n#tags column:4\ng1\t김치\tkimchi\tfood\n"])
        _ = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([first + "/words.txt"]))
        let before = try #require(try collection.note(guid: "g1"))
        let second = try DeckFiles.write(["words.txt": """
            #separator:tab
            #deck:Keep
            #guid column:1
            #tags column:4
            #if matches:keep current
            g1\t김치\tfermented cabbage\tfood spicy

            """])
        let summary = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([second + "/words.txt"]))
        #expect(summary.updated == 0)
        #expect(summary.unchanged == 1)
        let after = try #require(try collection.note(guid: "g1"))
        #expect(after.fields == before.fields)
        #expect(after.tags == before.tags)
    }

    @Test func dryRunChangesNothing() throws {
        let collection = try DeckFiles.collection()
        let folder = try DeckFiles.write(["deck.yaml": wordsManifest])
        let summary = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([folder]), dryRun: true)
        #expect(summary.dryRun)
        #expect(summary.added == 3)
        #expect(try collection.counts() == (decks: 0, notes: 0, cards: 0))
        #expect(try collection.presets().isEmpty)
    }

    @Test(arguments: ["korean-latest.apkg", "korean-legacy.apkg"])
    func packagesBringSchedulingHistoryAndMedia(_ name: String) throws {
        let collection = try DeckFiles.collection()
        let path = DeckFiles.fixtures.appendingPathComponent(name).path
        let importer = Importer(collection: collection, now: Fixture.noon)
        let summary = try importer.apply(try bundle([path]))
        #expect(summary.added == 7)
        #expect(summary.decks[0].cardsWithHistory == 7)
        #expect(summary.media == 1)
        #expect(FileManager.default.fileExists(atPath: importer.mediaDirectory.appendingPathComponent("hello.png").path))
        let deck = try collection.requireDeck(named: "Korean::Food")
        let cards = try collection.cards(deckID: deck.id)
        #expect(cards.count == 10)
        #expect(cards.filter(\.suspended).count == 1)
        #expect(cards.filter { $0.state.phase == .relearning }.count == 1)
        // The collection is consistent: every scheduled card's state agrees with its log.
        #expect(try collection.check(repair: false, now: Fixture.noon).isHealthy)
        // Importing again leaves the schedules alone.
        let again = try importer.apply(try bundle([path]))
        #expect(again.unchanged == 7)
        #expect(try collection.cards(deckID: deck.id) == cards)
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    /// Two packages from Anki whose pictures are both called hello.png, with other bytes: the
    /// second never replaces the first; it gets a name of its own and its note points at it.
    /// The same package again shares its files.
    @Test func mediaOfTheSameNameNeverReplaceEachOther() throws {
        let collection = try DeckFiles.collection()
        let importer = Importer(collection: collection, now: Fixture.noon)
        _ = try importer.apply(try bundle([Self.fixtures.appendingPathComponent("pictures-a.apkg").path]))
        let media = importer.mediaDirectory
        let first = try Data(contentsOf: media.appendingPathComponent("hello.png"))
        _ = try importer.apply(try bundle([Self.fixtures.appendingPathComponent("pictures-b.apkg").path]))
        #expect(try Data(contentsOf: media.appendingPathComponent("hello.png")) == first, "the first package's picture was replaced")
        let names = try FileManager.default.contentsOfDirectory(atPath: media.path).sorted()
        #expect(names.count == 2, "\(names)")
        let renamed = try #require(names.first { $0 != "hello.png" })
        #expect(renamed.hasPrefix("hello-") && renamed.hasSuffix(".png"))
        #expect(try Data(contentsOf: media.appendingPathComponent(renamed)).count == first.count)
        let a = try #require(try collection.findNotes("\"picture a\"", now: Date(), timeZone: .current).first), b = try #require(try collection.findNotes("\"picture b\"", now: Date(), timeZone: .current).first)
        #expect(a.fields.value("Back") == #"look: <img src="hello.png">"#)
        #expect(b.fields.value("Back") == #"look: <img src="\#(renamed)">"#)
        // Again: the same bytes are already there under each name; nothing new, nothing changed.
        _ = try importer.apply(try bundle([Self.fixtures.appendingPathComponent("pictures-b.apkg").path]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: media.path).sorted() == names)
        #expect(try collection.findNotes("\"picture b\"", now: Date(), timeZone: .current).first?.fields.value("Back") == #"look: <img src="\#(renamed)">"#)
        #expect(try FileManager.default.contentsOfDirectory(atPath: media.deletingLastPathComponent().path)
            .filter { $0.hasPrefix(".media-import") }.isEmpty)
    }

    /// Issue 27, point 6: two pictures of one package whose names differ only in normalisation
    /// (é as one character, and as e with an accent) stay two pictures, each note showing its own
    /// (the first note showed the second picture). The same in a collection.anki2's media folder.
    @Test func picturesWhoseNamesDifferOnlyInNormalisationStayApart() throws {
        let archive = try ZipReading.entries(DeckFiles.fixtures.appendingPathComponent("korean-legacy.apkg"))
        let database = DeckFiles.directory().appendingPathComponent("collection.anki21")
        try archive["collection.anki21"]!.write(to: database)
        let composed = "caf\u{E9}.png", decomposed = "cafe\u{301}.png"
        let queue = try DatabaseQueue(path: database.path)
        let notes = try queue.write { db -> [Int64] in
            let ids = try Int64.fetchAll(db, sql: "SELECT id FROM notes ORDER BY id LIMIT 2")
            for (id, name) in zip(ids, [composed, decomposed]) {
                try db.execute(sql: "UPDATE notes SET flds = ? || substr(flds, instr(flds, char(31))) WHERE id = ?",
                               arguments: ["<img src=\"\(name)\">", id])
            }
            return ids
        }
        try queue.close()
        let mediaMap = try JSONSerialization.data(withJSONObject: ["0": composed, "1": decomposed])
        let package = try DeckFiles.zip([("collection.anki21", try Data(contentsOf: database)), ("media", mediaMap),
                                         ("0", Data("one picture".utf8)), ("1", Data("another picture".utf8))])
        let collection = try DeckFiles.collection()
        let importer = Importer(collection: collection, now: Fixture.noon)
        _ = try importer.apply(try bundle([package]))
        let files = (try? FileManager.default.contentsOfDirectory(atPath: importer.mediaDirectory.path)) ?? []
        var shown: [String] = []
        for ankiID in notes {
            let note = try #require(try collection.read { try Int64.fetchOne($0, sql: "SELECT id FROM note WHERE anki_id = ?", arguments: [ankiID]) })
            let field = try collection.note(id: note).fields[0].value
            let name = try #require(FieldText.images(field, html: true).first, "\(field)")
            #expect(name == name.precomposedStringWithCanonicalMapping, "a name Maeil keeps is NFC: \(name.unicodeScalars.map(\.value))")
            try #require(files.contains { Array($0.unicodeScalars) == Array(name.unicodeScalars) }, "\(name) among \(files.map { $0.unicodeScalars.map { $0.value } })")
            shown.append(String(decoding: try Data(contentsOf: importer.mediaDirectory.appendingPathComponent(name)), as: UTF8.self))
        }
        #expect(shown == ["one picture", "another picture"])
    }

    /// A package whose notes cannot be read imports nothing, media included, unless
    /// --skip-invalid says to skip those notes.
    @Test func aPackageWithBrokenNoteTypesImportsNothing() throws {
        let archive = try ZipReading.entries(DeckFiles.fixtures.appendingPathComponent("korean-legacy.apkg"))
        let database = DeckFiles.directory().appendingPathComponent("collection.anki21")
        try archive["collection.anki21"]!.write(to: database)
        let queue = try DatabaseQueue(path: database.path)
        try queue.write { try $0.execute(sql: "UPDATE col SET models = '{}'") }
        try queue.close()
        let package = try DeckFiles.zip([("collection.anki21", try Data(contentsOf: database)), ("media", Data(#"{"0": "x.png"}"#.utf8)),
                                         ("0", Data("picture".utf8))])
        let collection = try DeckFiles.collection()
        let importer = Importer(collection: collection, now: Fixture.noon)
        #expect(throws: ImportFailure.self) { try importer.apply(reading: { try DeckReader.stream([package], options: ImportOptions(), emit: $0) }) }
        #expect(try collection.counts() == (decks: 0, notes: 0, cards: 0))
        #expect(!FileManager.default.fileExists(atPath: importer.mediaDirectory.path))
        let skipping = try importer.apply(reading: {
            try DeckReader.stream([package], options: ImportOptions(skipInvalid: true), emit: $0)
        })
        #expect(skipping.skipped.count == 7)
        #expect(skipping.added == 0)
    }

    @Test func importedCardsCanBeReviewed() throws {
        let collection = try DeckFiles.collection()
        _ = try Importer(collection: collection, now: Fixture.noon).apply(try bundle([DeckFiles.fixtures.appendingPathComponent("korean-latest.apkg").path]))
        let later = Date(timeIntervalSince1970: 1_795_233_600 + 10 * 86_400 + 3600 * 8)
        let session = try ReviewSession(collection: collection, environment: SessionEnvironment(now: { later }, timeZone: TimeZone(identifier: "UTC")!))
        try session.start()
        var answered = 0
        while session.state.current != nil, answered < 50 {
            try session.send(.answer(.good))
            answered += 1
        }
        #expect(answered >= 5)
        #expect(try collection.check(repair: false, now: Fixture.noon).isHealthy)
    }
}
