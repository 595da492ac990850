import Foundation
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
        #expect(contents.decks.map(\.name) == ["Korean::Food"])
        let deck = contents.decks[0]
        #expect(deck.notes.count == 7)
        #expect(deck.notes.reduce(0) { $0 + $1.cards.count } == 10)
        let kimchi = try #require(deck.notes.first { $0.fields.first?.value == "김치" })
        #expect(kimchi.tags.sorted() == ["food", "spicy"])
        #expect(kimchi.noteType == "Basic")
        let bulgogi = try #require(deck.notes.first { $0.fields.first?.value.hasPrefix("불고기") == true })
        #expect(bulgogi.fields[0].value == "불고기\nbulgogi & rice")
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
        // The history came along: the relearning card has its easy answer and its lapse.
        let history = deck.notes.flatMap(\.cards).first { $0.state.phase == .relearning }!.reviews
        #expect(history.map(\.rating) == [.easy, .again])
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
        #expect(failure(bomb, options: small).contains("unpacks to more than 1 MB"))

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
        #expect(failure(hostile).contains("would escape the media folder"))
        #expect(!AnkiPackage.isSafeMediaName(".."))
        #expect(!AnkiPackage.isSafeMediaName("a/b.png"))
        #expect(!AnkiPackage.isSafeMediaName(".hidden"))
        #expect(AnkiPackage.isSafeMediaName("고양이.jpg"))
    }
}

import ZIPFoundation

enum ZipReading {
    static func entries(_ url: URL) throws -> [String: Data] {
        let archive = try Archive(url: url, accessMode: .read)
        var result: [String: Data] = [:]
        for entry in archive {
            var data = Data()
            _ = try archive.extract(entry) { data.append($0) }
            result[entry.path] = data
        }
        return result
    }
}
