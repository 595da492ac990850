import Foundation
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilDecks

@Suite("Maeil's deck format")
struct MaeilDeckFormatTests {
    func read(_ manifest: String, files: [String: String] = [:], skipInvalid: Bool = false) throws -> (ImportedDeck, [ImportProblem]) {
        let folder = try DeckFiles.write(files.merging(["deck.yaml": manifest]) { $1 })
        return try MaeilDeckFormat.read(path: folder, options: ImportOptions(skipInvalid: skipInvalid))
    }

    func problem(_ manifest: String, files: [String: String] = [:]) -> String? {
        do {
            _ = try read(manifest, files: files)
            return nil
        } catch let failure as ImportFailure {
            return failure.problems.map { "\(($0.file as NSString).lastPathComponent):\($0.line ?? 0):\($0.column ?? 0): \($0.message)" }.joined(separator: "\n")
        } catch let problem as ImportProblem {
            return "\((problem.file as NSString).lastPathComponent):\(problem.line ?? 0):\(problem.column ?? 0): \(problem.message)"
        } catch {
            return "\(error)"
        }
    }

    @Test func readsACompleteDeck() throws {
        let (deck, skipped) = try read(wordsManifest)
        #expect(skipped.isEmpty)
        #expect(deck.name == "Test Words")
        #expect(deck.kind == .word)
        #expect(deck.templates.map(\.name) == ["recognize", "recall"])
        #expect(deck.templates[1].typed == "word")
        #expect(deck.speak == "word")
        #expect(deck.units.map(\.key) == ["day-1", "day-2"])
        #expect(deck.notes.map(\.guid) == ["test-words/kimchi", "test-words/rice", "test-words/water"])
        #expect(deck.notes[0].fields == [NoteField(name: "word", value: "김치", language: "ko"),
                                         NoteField(name: "meaning", value: "kimchi", language: "en"), NoteField(name: "note", value: "")])
        #expect(deck.notes[0].tags == ["food"])
        #expect(deck.notes[2].unit == "day-2")
        #expect(deck.preset?.scheduler.kind == .fsrs)
        #expect(deck.preset?.scheduler.desiredRetention == 0.85)
        #expect(deck.preset?.newPerDay == 5)
        #expect(deck.preset?.curriculumGating == true)
    }

    @Test func itemsCanLiveInATSVFile() throws {
        let manifest = wordsManifest.replacingOccurrences(of: wordsManifest[wordsManifest.range(of: "items:")!.lowerBound...], with: "items: words.tsv\n")
        let tsv = "id\tunit\tword\tmeaning\ttags\n# a comment line\nkimchi\tday-1\t김치\tkimchi\\tspicy\tfood hot\n\nwater\tday-2\t물\twater\t\n"
        let (deck, _) = try read(manifest, files: ["words.tsv": tsv])
        #expect(deck.notes.count == 2)
        #expect(deck.notes[0].fields.value("meaning") == "kimchi\tspicy")
        #expect(deck.notes[0].tags == ["food", "hot"])
        #expect(deck.notes[1].origin == "words.tsv:5")
    }

    @Test func errorsNameTheLineAndColumn() {
        #expect(problem(wordsManifest.replacingOccurrences(of: "meaning: rice}", with: "meanng: rice}"))
                == "deck.yaml:29:38: no field named 'meanng'; the fields are: word, meaning, note")
        #expect(problem(wordsManifest.replacingOccurrences(of: "unit: day-2", with: "unit: day-3"))
                == "deck.yaml:30:23: no unit 'day-3'; the units are: day-1, day-2")
        #expect(problem(wordsManifest.replacingOccurrences(of: "{id: rice,", with: "{id: kimchi,"))
                == "deck.yaml:29:10: the id 'kimchi' was already used on line 28")
        #expect(problem(wordsManifest.replacingOccurrences(of: "back: [meaning, note]", with: "back: [meaning, nope]"))
                == "deck.yaml:13:11: back names 'nope', which is not a field; the fields are: word, meaning, note")
        #expect(problem(wordsManifest.replacingOccurrences(of: "name: Test Words", with: "nmae: Test Words"))?
                .hasPrefix("deck.yaml:3:1: unknown key 'nmae' in the deck") == true)
        #expect(problem(wordsManifest.replacingOccurrences(of: "desired_retention: 0.85", with: "desired_retention: 2"))
                == "deck.yaml:22:22: desired_retention must be a number from 0.7 to 0.99")
        #expect(problem(wordsManifest.replacingOccurrences(of: "  - {name: note}", with: "  - {name: note"))?
                .hasPrefix("deck.yaml:10:10: not valid YAML: while parsing a flow mapping") == true)
        #expect(problem("format: 2\nid: x\n") == "deck.yaml:1:9: format 2 is newer than this Maeil understands (1); upgrade Maeil")
    }

    @Test func tsvErrorsNameTheLineAndColumn() {
        let manifest = wordsManifest.replacingOccurrences(of: wordsManifest[wordsManifest.range(of: "items:")!.lowerBound...], with: "items: words.tsv\n")
        #expect(problem(manifest, files: ["words.tsv": "id\tword\tmeanin\n"]) == "words.tsv:1:9: column 'meanin' is not a field; the fields are: word, meaning, note")
        #expect(problem(manifest, files: ["words.tsv": "id\tword\tmeaning\na\t김치\tkimchi\textra\n"])
                == "words.tsv:2:13: expected 3 columns (id, word, meaning), found 4")
        #expect(problem(manifest, files: ["words.tsv": "id\tunit\tword\na\tday-9\t김치\n"])
                == "words.tsv:2:3: no unit 'day-9'; the units are: day-1, day-2")
    }

    @Test func skipInvalidKeepsTheGoodItems() throws {
        let broken = wordsManifest.replacingOccurrences(of: "meaning: rice}", with: "meanng: rice}")
        let (deck, skipped) = try read(broken, skipInvalid: true)
        #expect(deck.notes.map(\.guid) == ["test-words/kimchi", "test-words/water"])
        #expect(skipped.count == 1)
    }

    @Test func textIsNormalizedToNFC() throws {
        let decomposed = "\u{1100}\u{1175}\u{11B7}\u{110E}\u{1175}"
        let (deck, _) = try read(wordsManifest.replacingOccurrences(of: "word: 김치", with: "word: \(decomposed)"))
        #expect(deck.notes[0].fields.value("word") == "김치")
        #expect(deck.notes[0].fields.value("word")!.unicodeScalars.count == 2)
    }
}

@Suite("Deck files from Windows")
struct WindowsLineEndingsTests {
    /// An items.tsv saved with Windows line endings reads as the same table.
    @Test func itemsWithCRLFReadAsWithLF() throws {
        let manifest = "format: 1\nid: crlf\nname: CRLF\nfields: [front, back]\ntemplates: [{name: t, front: front, back: back}]\nitems: items.tsv\n"
        let rows = ["id\tfront\tback", "one\t김치\tkimchi", "two\t물\twater"]
        var decks: [ImportedDeck] = []
        for ending in ["\n", "\r\n"] {
            let folder = try DeckFiles.write(["deck.yaml": manifest, "items.tsv": rows.joined(separator: ending) + ending])
            decks.append(try MaeilDeckFormat.read(path: folder, options: ImportOptions()).0)
        }
        #expect(decks[1].notes.map(\.fields) == decks[0].notes.map(\.fields))
        #expect(decks[1].notes.map { $0.fields[1].value } == ["kimchi", "water"])
    }
}
