import Foundation
import GRDB
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilDecks

/// Packages written by Anki 26.9's own backend (and genanki), made by scripts/fixtures/.
@Suite("Anki packages")
struct AnkiPackageTests {
    func read(_ name: String, options: ImportOptions = ImportOptions()) throws -> AnkiPackage.Contents {
        try AnkiPackage.read(path: DeckFiles.fixtures.appendingPathComponent(name).path, options: options)
    }

    func failure(_ path: String, options: ImportOptions = ImportOptions()) -> String {
        do {
            _ = try AnkiPackage.read(path: path, options: options)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: ["korean-latest.apkg", "korean-legacy.apkg"])
    func readsNotesCardsAndScheduling(_ name: String) throws {
        let contents = try read(name)
        // The parent deck holds no cards; it comes over as Anki has it, with its options.
        #expect(contents.decks.map(\.name) == ["Korean::Food", "Korean"])
        #expect(contents.decks[1].notes.isEmpty)
        let deck = contents.decks[0]
        #expect(deck.notes.count == 7)
        #expect(deck.notes.reduce(0) { $0 + $1.cards.count } == 10)
        let kimchi = try #require(deck.notes.first { $0.fields.first?.value == "김치" })
        #expect(kimchi.tags.sorted() == ["food", "spicy"])
        #expect(kimchi.noteType == "Basic")
        // Anki's HTML is kept as Anki wrote it, and reads as text.
        let bulgogi = try #require(deck.notes.first { $0.fields.first?.value.contains("불고기") == true })
        #expect(bulgogi.html)
        #expect(bulgogi.fields[0].value == "<b>불고기</b><br>bulgogi &amp; rice")
        #expect(FieldText.plain(bulgogi.fields[0].value, html: true) == "불고기\nbulgogi & rice")
        #expect(FieldText.pieces(bulgogi.fields[0].value, html: true).first == .text("불고기", .bold))
        let cloze = try #require(deck.notes.first { $0.kind == .cloze })
        #expect(cloze.cards.map(\.ordinal) == [1, 2])
        #expect(deck.templates.contains { $0.blanks == "Text" })
        let reversed = try #require(deck.notes.first { $0.noteType == "Basic (and reversed card)" })
        #expect(reversed.cards.map(\.template).count == 2)
        let states = deck.notes.flatMap(\.cards).map(\.state)
        #expect(states.filter { $0.phase == .new }.count == 3)
        #expect(states.filter { $0.phase == .learning }.count == 3)
        #expect(states.filter { $0.phase == .review }.count == 3)
        let relearning = try #require(states.first { $0.phase == .relearning })
        #expect(relearning.intervalDays == 1)
        #expect(relearning.easePermille == 2300)
        #expect(relearning.lapses == 1)
        #expect(deck.notes.flatMap(\.cards).filter(\.suspended).count == 1)
        // Review due dates are day numbers from the collection's creation (crt 1795233600).
        let reviewDue = states.filter { $0.phase == .review }.compactMap(\.due).map(\.timeIntervalSince1970)
        #expect(reviewDue.allSatisfy { (Int($0) - 1_795_233_600) % 86_400 == 0 })
        // The history came along: the relearning card has its easy answer and its lapse, and
        // between them the manual row Anki wrote (a due date set by hand), every column as it was.
        let history = deck.notes.flatMap(\.cards).first { $0.state.phase == .relearning }!.history
        #expect(history.map(\.rating) == [.easy, nil, .again])
        #expect(history.map(\.anki) == [AnkiRevlogColumns(ease: 4, interval: 5, lastInterval: 0, factor: 2500, type: 0),
                                        AnkiRevlogColumns(ease: 0, interval: 5, lastInterval: 5, factor: 2500, type: 4),
                                        AnkiRevlogColumns(ease: 1, interval: -600, lastInterval: 5, factor: 2300, type: 1)])
        #expect(contents.media.map(\.name) == ["hello.png"])
        #expect(contents.media[0].data.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func readsALegacyOnePackageFromGenanki() throws {
        let contents = try read("greetings-legacy1.apkg")
        #expect(contents.decks.map(\.name) == ["Japanese::Greetings"])
        #expect(contents.decks[0].notes.map { $0.fields[0].value } == ["こんにちは", "ありがとう", "さようなら"])
        #expect(contents.decks[0].templates.first?.front == ["Question"])
        #expect(contents.decks[0].templates.first?.back == ["Answer"])
    }

    @Test func legacyDeckOptionsBecomeAPreset() throws {
        let preset = try #require(try read("korean-legacy.apkg").decks[0].preset)
        #expect(preset.newPerDay == 20)
        #expect(preset.scheduler.learningSteps == [60, 600])
        #expect(preset.scheduler.relearningSteps == [600])
    }

    @Test func corruptAndHostilePackagesAreRefused() throws {
        let folder = DeckFiles.directory()
        let truncated = folder.appendingPathComponent("truncated.apkg")
        let bytes = try Data(contentsOf: DeckFiles.fixtures.appendingPathComponent("korean-latest.apkg"))
        try bytes.prefix(bytes.count / 2).write(to: truncated)
        #expect(failure(truncated.path).contains("not a readable zip archive"))

        let unknownVersion = try DeckFiles.zip([("meta", Data([0x08, 0x09])), ("collection.anki21b", Data())])
        #expect(failure(unknownVersion).contains("unknown Anki package version"))

        let escaping = try DeckFiles.zip([("../../etc/passwd", Data("x".utf8))])
        #expect(failure(escaping).contains("would escape its folder"))

        let bomb = try DeckFiles.zip([("collection.anki2", Data(count: 3 << 20))])
        var small = ImportOptions()
        small.maximumUnpackedBytes = 1 << 20
        #expect(failure(bomb, options: small).contains("the package may unpack to 1 MB"))
        // Past the first MiB, anything that expands over 200 to 1 is a bomb, whatever the limits.
        let dense = try DeckFiles.zip([("collection.anki2", Data(count: 64 << 20))])
        #expect(failure(dense).contains("expands to more than 200 times its packed size"))
        // A single entry over its own limit, under the package's.
        var entry = ImportOptions()
        entry.maximumEntryBytes = 1 << 20
        let random = Data((0..<(2 << 20)).map { _ in UInt8.random(in: 0...255) })
        #expect(failure(try DeckFiles.zip([("collection.anki2", random)]), options: entry).contains("one entry may unpack to 1 MB"))
        // Bytes changed after packing fail their checksum.
        var damaged = try Data(contentsOf: URL(fileURLWithPath: try DeckFiles.zip([("collection.anki2", Data(repeating: 65, count: 4096))])))
        if let range = damaged.range(of: Data("collection.anki2".utf8)) {
            // The local header's CRC-32 is not checked; the central directory's is. Change it there.
            let central = damaged.range(of: Data([0x50, 0x4B, 0x01, 0x02]), in: range.upperBound..<damaged.count)!.lowerBound
            damaged[central + 16] ^= 0xFF
        }
        let damagedPath = DeckFiles.directory().appendingPathComponent("damaged.apkg")
        try damaged.write(to: damagedPath)
        #expect(failure(damagedPath.path).contains("fails its checksum"))

        let notSQLite = try DeckFiles.zip([("collection.anki2", Data("hello".utf8))])
        #expect(failure(notSQLite).contains("not an SQLite database"))

        let noCollection = try DeckFiles.zip([("readme.txt", Data("hello".utf8))])
        #expect(failure(noCollection).contains("no collection.anki2 inside"))
    }

    /// Found by the fuzzer: a deflated entry whose data ends before its stream did made
    /// ZIPFoundation's reader loop for ever. Packages are now read by ZipReader, which says so.
    @Test func aTruncatedDeflateStreamFailsAtOnce() throws {
        let message = failure(DeckFiles.fixtures.appendingPathComponent("fuzz-truncated-deflate.apkg").path)
        #expect(message.contains("collection.anki21"))
        #expect(message.contains("ends early") || message.contains("damaged"))
    }

    /// A real legacy package whose collection was changed by `tamper` first.
    func tamperedPackage(_ tamper: (Database) throws -> Void) throws -> String {
        let archive = try ZipReading.entries(DeckFiles.fixtures.appendingPathComponent("korean-legacy.apkg"))
        // Anki 2.1.50+ writes the real collection as collection.anki21 and a stub as collection.anki2.
        let database = DeckFiles.directory().appendingPathComponent("collection.anki21")
        try archive["collection.anki21"]!.write(to: database)
        let queue = try DatabaseQueue(path: database.path)
        try queue.write(tamper)
        try queue.close()
        return try DeckFiles.zip([("collection.anki21", try Data(contentsOf: database)), ("media", Data("{}".utf8))])
    }

    /// Found by the fuzzer: a NULL where Anki always writes a number trapped inside GRDB's row
    /// subscript. Every column is now decoded with errors, so a damaged package is refused.
    @Test func nullsAndWrongTypesInTheCollectionAreRefused() throws {
        let wrongType = try tamperedPackage { try $0.execute(sql: "UPDATE notes SET mid = 'abc'") }
        #expect(failure(wrongType).contains("notes table holds a value that is not Int64 in column mid"))
        let tooLarge = try tamperedPackage { try $0.execute(sql: "UPDATE cards SET ivl = 1e300") }
        #expect(failure(tooLarge).contains("cards table holds a value that is not Int64 in column ivl"))
        let null = try tamperedPackage { db in
            try db.execute(sql: "CREATE TABLE r AS SELECT * FROM revlog; DROP TABLE revlog; ALTER TABLE r RENAME TO revlog")
            try db.execute(sql: "UPDATE revlog SET ease = NULL")
        }
        #expect(failure(null).contains("revlog table holds a value that is not Int64 in column ease (NULL)"))
    }

    /// A NULL card data or flags column (Anki writes neither) reads as none, on the straight path
    /// and on the checked one that a mistyped value elsewhere in the rows sends the reading down.
    @Test func nullCardDataAndFlagsReadAsNone() throws {
        func cards(_ tamper: String) throws -> [CardDraft] {
            let package = try tamperedPackage { db in
                // Columns without a type, so a value keeps the type it is given.
                let columns = try String.fetchAll(db, sql: "SELECT name FROM pragma_table_info('cards')").joined(separator: ", ")
                try db.execute(sql: "CREATE TABLE c (\(columns)); INSERT INTO c SELECT * FROM cards; DROP TABLE cards; ALTER TABLE c RENAME TO cards")
                try db.execute(sql: "UPDATE cards SET data = NULL, flags = NULL")
                try db.execute(sql: tamper)
            }
            return try AnkiPackage.read(path: package, options: ImportOptions()).decks.flatMap(\.notes).flatMap(\.cards)
        }
        let straight = try cards("SELECT 1")
        let checked = try cards("UPDATE cards SET left = left + 0.0")  // a whole REAL: GRDB reads it as Int64, the straight path does not
        #expect(!straight.isEmpty)
        #expect(straight.allSatisfy { $0.flags == 0 && $0.ankiCustomData == nil })
        #expect(straight == checked)
    }

    /// A deck whose counters are of another day counted none of today's answers: one the log
    /// puts there today is a card moved there since, counted where it was answered (found by
    /// DisplayOrderAgainstAnkiTests over 90 seeds: it counted in both decks, and the deck above
    /// showed one new card fewer than Anki). A deck with no counters says nothing.
    @Test func aDeckCountedOnAnotherDayCountedNothingToday() {
        let now = Date(timeIntervalSince1970: 1_794_322_800)
        let days = AnkiDays(created: 1_791_360_000, config: ["rollover": 4, "creationOffset": 240],
                            timeZone: TimeZone(identifier: "America/New_York")!, now: now)
        let today = days.clock.dayNumber(of: now) - days.createdDay
        var korean = CollectionReading.AnkiDeckRecord(name: "Korean"), food = CollectionReading.AnkiDeckRecord(name: "Korean::Food")
        korean.counted = .init(day: today, new: 1, reviews: 2, milliseconds: 9000)
        food.counted = .init(day: today - 5, new: 3, reviews: 2, milliseconds: 100)
        let answered = CollectionReading.AnkiDeckRecord.answeredToday([1: korean, 2: food, 3: .init(name: "Korean::Unseen")], days: days, now: now)
        #expect(answered[1].map { [$0.day, $0.new, $0.reviews, $0.milliseconds] } == [today + days.createdDay, 1, 2, 9000])
        #expect(answered[2].map { [$0.day, $0.new, $0.reviews, $0.milliseconds] } == [today + days.createdDay, 0, 0, 0])
        #expect(answered[3] == nil)
    }

    /// A card Anki keeps in another deck than its note's first card counts its learning step in
    /// that deck's steps, as Anki counts it (the steps left, from the end). Counted in the note's
    /// deck's single step (seeded collection 2631), a card one step from graduating there was
    /// sent back to its first step, and Good kept it in relearning where Anki graduated it.
    @Test func aCardInAnotherDeckCountsItsStepInThatDecksSteps() throws {
        let package = try tamperedPackage { db in
            var options = try JSONSerialization.jsonObject(with: Data(try String.fetchOne(db, sql: "SELECT dconf FROM col")!.utf8)) as! [String: Any]
            var other = options["1"] as! [String: Any]
            var lapse = other["lapse"] as! [String: Any]
            lapse["delays"] = [5, 20]
            (other["id"], other["name"], other["lapse"]) = (2, "Other", lapse)
            options["2"] = other
            var decks = try JSONSerialization.jsonObject(with: Data(try String.fetchOne(db, sql: "SELECT decks FROM col")!.utf8)) as! [String: Any]
            var deck = decks["1795316170930"] as! [String: Any]
            (deck["id"], deck["name"], deck["conf"]) = (77, "Other steps", 2)
            decks["77"] = deck
            func text(_ object: Any) throws -> String { String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) }
            try db.execute(sql: "UPDATE col SET dconf = ?, decks = ?", arguments: [try text(options), try text(decks)])
            // The second card of a note whose first is in the deck of one relearning step (10m):
            // relearning there, one step left of two (on 20m).
            try db.execute(sql: "UPDATE cards SET did = 77, type = 3, queue = 1, due = 1795316770, left = 1, ivl = 2, factor = 2500 WHERE id = 1795316170933")
        }
        let cards = try AnkiPackage.read(path: package, options: ImportOptions()).decks.flatMap(\.notes).flatMap(\.cards)
        let card = try #require(cards.first { $0.ankiID == 1795316170933 })
        #expect(card.ankiDeckID == 77)
        #expect(card.state.phase == .relearning && card.state.step == 1 && card.state.scheduledSeconds == 1200, "\(card.state)")
    }

    /// Deck options are JSON that anyone can write: out-of-range numbers are clamped into the
    /// ranges a Maeil deck file allows rather than reaching the scheduler.
    @Test func hostileDeckOptionsAreClamped() throws {
        let package = try tamperedPackage { db in
            let options = try String.fetchOne(db, sql: "SELECT dconf FROM col")!
            var json = try JSONSerialization.jsonObject(with: Data(options.utf8)) as! [String: Any]
            for (key, value) in json {
                guard var config = value as? [String: Any] else { continue }
                config["new"] = ["delays": [1e300, -5, 1], "perDay": 1e12, "ints": [100_000, -3], "initialFactor": 1e9]
                config["rev"] = ["perDay": -1, "ease4": 1e308, "hardFactor": 0, "ivlFct": 1e9, "maxIvl": 1e20]
                config["lapse"] = ["delays": [], "mult": 7, "minInt": 0, "leechFails": 1e9]
                json[key] = config
            }
            let text = String(decoding: try JSONSerialization.data(withJSONObject: json), as: UTF8.self)
            try db.execute(sql: "UPDATE col SET dconf = ?", arguments: [text])
        }
        let preset = try #require(try AnkiPackage.read(path: package, options: ImportOptions()).decks[0].preset)
        #expect(preset.scheduler.learningSteps == [31_536_000, 60])
        #expect(preset.scheduler.relearningSteps == [])
        #expect(preset.newPerDay == 9999)
        #expect(preset.reviewsPerDay == 0)
        #expect(preset.scheduler.graduatingInterval == 365)
        #expect(preset.scheduler.easyInterval == 1)
        #expect(preset.scheduler.startingEasePermille == 5000)
        #expect(preset.scheduler.easyBonus == 5)
        #expect(preset.scheduler.hardInterval == 0.5)
        #expect(preset.scheduler.intervalModifier == 2)
        #expect(preset.scheduler.maximumInterval == 36_500)
        #expect(preset.scheduler.lapseNewInterval == 1)
        #expect(preset.scheduler.minimumLapseInterval == 1)
        #expect(preset.scheduler.leechThreshold == 99)
    }

    @Test func aMediaNameThatEscapesIsRefused() throws {
        // A real legacy collection with a hostile media list.
        let original = DeckFiles.directory()
        let archive = try ZipReading.entries(DeckFiles.fixtures.appendingPathComponent("greetings-legacy1.apkg"))
        let hostile = try DeckFiles.zip([
            ("collection.anki2", archive["collection.anki2"]!),
            ("media", Data(#"{"0": "../../.bashrc"}"#.utf8)),
            ("0", Data("echo owned".utf8)),
        ])
        _ = original
        #expect(failure(hostile).contains("is not a plain file name"))
        #expect(!AnkiPackage.isSafeMediaName("bell\u{07}.png"))
        #expect(!AnkiPackage.isSafeMediaName("gnp.\u{202E}exe"))
        #expect(!AnkiPackage.isSafeMediaName("c1\u{9B}31m.png"))
        #expect(AnkiPackage.isSafeMediaName("사과 🍎.png"))
        #expect(!AnkiPackage.isSafeMediaName(".."))
        #expect(!AnkiPackage.isSafeMediaName("a/b.png"))
        #expect(!AnkiPackage.isSafeMediaName(".hidden"))
        #expect(AnkiPackage.isSafeMediaName("고양이.jpg"))
    }
}

