import Foundation
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilDecks

@Suite("Anki text files and CSV")
struct TextFormatTests {
    func ankiText(_ text: String, deck: String? = nil, skipInvalid: Bool = false) throws -> ([ImportedDeck], [ImportProblem]) {
        let folder = try DeckFiles.write(["notes.txt": text])
        return try AnkiTextFormat.read(path: folder + "/notes.txt", options: ImportOptions(deckName: deck, skipInvalid: skipInvalid))
    }

    func problems(_ body: () throws -> Any) -> [String] {
        do {
            _ = try body()
            return []
        } catch let failure as ImportFailure {
            return failure.problems.map { "\($0.line ?? 0):\($0.column ?? 0): \($0.message)" }
        } catch let problem as ImportProblem {
            return ["\(problem.line ?? 0):\(problem.column ?? 0): \(problem.message)"]
        } catch {
            return ["\(error)"]
        }
    }

    @Test func headerLinesQuotesAndTags() throws {
        let text = #"""
            #separator:Comma
            #html:true
            #tags:imported korean
            #notetype:Basic (and reversed card)
            #deck:Korean::Food
            # a comment
            김치,<b>kimchi</b>&nbsp;(spicy),food
            "비빔밥","mixed rice, with ""gochujang""",food
            "떡볶이","rice cakes<br>in sauce",food snack

            """#
        let (decks, _) = try ankiText(text)
        #expect(decks.count == 1)
        let deck = decks[0]
        #expect(deck.name == "Korean::Food")
        #expect(deck.templates.map(\.name) == ["card 1", "card 2"])
        #expect(deck.notes.count == 3)
        // #html:true: the HTML is kept as it is, and reads as text.
        #expect(deck.notes.allSatisfy { $0.html })
        #expect(deck.notes[0].fields == [NoteField(name: "Front", value: "김치"), NoteField(name: "Back", value: "<b>kimchi</b>&nbsp;(spicy)")])
        #expect(FieldText.plain(deck.notes[0].fields[1].value, html: true) == "kimchi\u{A0}(spicy)")
        #expect(deck.notes[0].tags == ["imported", "korean", "food"])
        #expect(deck.notes[1].fields[1].value == "mixed rice, with \"gochujang\"")
        #expect(FieldText.plain(deck.notes[2].fields[1].value, html: true) == "rice cakes\nin sauce")
        #expect(deck.notes[2].tags.contains("snack"))
        #expect(deck.notes[0].origin == "notes.txt:7")
    }

    @Test func columnsGuidDeckAndNotetypeColumns() throws {
        let text = "#separator:tab\n#html:false\n#guid column:1\n#notetype column:2\n#deck column:3\n#tags column:6\n"
            + "g1\tBasic\tKorean\t김치\t<b>kimchi</b>\tfood\n"
            + "g2\tCloze\tKorean\t{{c1::서울}} is a city\textra\tcity\n"
            + "g3\tBasic\tJapanese\t水\twater\t\n"
        let (decks, _) = try ankiText(text)
        #expect(decks.map(\.name) == ["Korean", "Japanese"])
        #expect(decks[0].notes.map(\.guid) == ["g1", "g2"])
        #expect(decks[0].notes[0].fields[1].value == "<b>kimchi</b>")  // html:false keeps markup as text
        #expect(decks[0].notes[1].kind == .cloze)
        #expect(decks[0].notes[1].fields.map(\.name) == ["Text", "Back Extra"])
        #expect(decks[0].templates.map(\.name) == ["card 1", "cloze"])
        #expect(decks[0].notes[1].tags == ["city"])
    }

    @Test func firstUnusedColumnAfterTheFieldsIsTags() throws {
        let (decks, _) = try ankiText("#separator:tab\n#notetype:Basic\n앞\t뒤\ttag1 tag2\n")
        #expect(decks[0].notes[0].tags == ["tag1", "tag2"])
        #expect(decks[0].notes[0].fields.count == 2)
    }

    @Test func withoutAGuidTheFirstFieldMatches() throws {
        let first = try ankiText("#separator:tab\n김치\tkimchi\n")
        let second = try ankiText("#separator:tab\n김치\tfermented cabbage\n")
        #expect(first.0[0].notes[0].guid == second.0[0].notes[0].guid)
        let keepBoth = try ankiText("#separator:tab\n#if matches:keep both\n김치\tkimchi\n")
        #expect(keepBoth.0[0].notes[0].guid != first.0[0].notes[0].guid)
    }

    @Test func ankiTextErrorsArePlaced() {
        #expect(problems { try ankiText("#separator:tab\n김치\tkimchi\n밥\trice\textra\n") } == ["3:8: expected 2 columns, like the first row, found 3"])
        #expect(problems { try ankiText("#separator:tab\n김치\t\"kimchi\n밥\trice\n") } == ["2:4: this quoted field never ends: a \" is missing"])
        #expect(problems { try ankiText("#separator:weird\n김치\tkimchi\n") }.first?.hasPrefix("1:12: unknown separator") == true)
        #expect(problems { try ankiText("#separator:tab\n#guid column:7\n김치\tkimchi\n") } == ["0:0: a #… column header names column 7, but the rows have 2 columns"])
    }

    @Test func skipInvalidSkipsBadRows() throws {
        let (decks, skipped) = try ankiText("#separator:tab\n김치\tkimchi\n밥\trice\textra\n물\twater\n", skipInvalid: true)
        #expect(decks[0].notes.count == 2)
        #expect(skipped.map { $0.line } == [3])
    }

    @Test func csvWithHeaderAndMap() throws {
        let folder = try DeckFiles.write(["foods.csv": "Korean,English,tags\n김치,kimchi,food spicy\n\"불고기\",\"grilled, marinated beef\",food\n"])
        var options = ImportOptions()
        options.columnMap = ["English": "meaning"]
        let (deck, _) = try DelimitedFormat.read(path: folder + "/foods.csv", options: options)
        #expect(deck.name == "foods")
        #expect(deck.notes.count == 2)
        #expect(deck.notes[1].fields == [NoteField(name: "Korean", value: "불고기"), NoteField(name: "meaning", value: "grilled, marinated beef")])
        #expect(deck.notes[0].tags == ["food", "spicy"])
        #expect(deck.templates[0].front == ["Korean"])
        #expect(deck.templates[0].back == ["meaning"])
    }

    @Test func tsvAndCSVErrors() throws {
        let folder = try DeckFiles.write(["words.tsv": "word\tmeaning\n김치\tkimchi\n밥\n", "empty.csv": ""])
        #expect(problems { try DelimitedFormat.read(path: folder + "/words.tsv", options: ImportOptions()) }
                == ["3:1: expected 2 columns (word, meaning), found 1"])
        #expect(problems { try DelimitedFormat.read(path: folder + "/empty.csv", options: ImportOptions()) }
                == ["1:1: the file is empty; its first row must name the columns"])
        var options = ImportOptions()
        options.columnMap = ["Nope": "x"]
        #expect(problems { try DelimitedFormat.read(path: folder + "/words.tsv", options: options) }
                == ["1:0: --map names column 'Nope', but the columns are: word, meaning"])
    }

    @Test func detectsFormats() throws {
        let folder = try DeckFiles.write([
            "a.txt": "#separator:tab\nx\ty\n", "b.csv": "a,b\n1,2\n", "c.tsv": "a\tb\n", "deck.yaml": wordsManifest,
            "words": "word\tmeaning\n밥\trice\n", "README.md": "| a | b |\n|---|---|\n| 1 | 2 |\n",
        ])
        #expect(try DeckReader.format(of: folder + "/a.txt") == .ankiText)
        #expect(try DeckReader.format(of: folder + "/b.csv") == .delimited)
        #expect(try DeckReader.format(of: folder + "/c.tsv") == .delimited)
        #expect(try DeckReader.format(of: folder) == .maeil)
        #expect(try DeckReader.format(of: DeckFiles.fixtures.appendingPathComponent("korean-latest.apkg").path) == .ankiPackage)
        #expect(throws: ImportProblem.self) { try DeckReader.format(of: folder + "/missing.txt") }
        // No extension: sniffed as a table. Another extension: not taken for a deck.
        #expect(try DeckReader.format(of: folder + "/words") == .delimited)
        #expect(throws: ImportProblem.self) { try DeckReader.format(of: folder + "/README.md") }
    }

    /// Anki's HTML as the terminal reads it: lines, emphasis, readings, sounds and pictures.
    @Test func htmlBecomesTextPieces() {
        #expect(FieldText.plain("<div>one</div><div>two &amp; three</div>", html: true) == "one\ntwo & three")
        #expect(FieldText.plain("photo <img src=\"cat.jpg\">", html: true) == "photo [image: cat.jpg]")
        #expect(FieldText.plain("&#54620;&#xAE00; &lt;b&gt;", html: true) == "한글 <b>")
        #expect(FieldText.pieces("a <b>bold <i>both</i></b> <u>u</u>", html: true) == [
            .text("a ", []), .text("bold ", .bold), .text("both", [.bold, .italic]), .text(" ", []), .text("u", .underline),
        ])
        #expect(FieldText.plain("<ruby>漢字<rt>かんじ</rt></ruby>です", html: true) == "漢字(かんじ)です")
        #expect(FieldText.plain("私は 猫[ねこ]が好き", html: true) == "私は猫(ねこ)が好き")
        #expect(FieldText.answer("私は 猫[ねこ]が好き", html: true) == "私は猫が好き")
        #expect(FieldText.sounds("hello [sound:hi.mp3] [sound:b.ogg]", html: true) == ["hi.mp3", "b.ogg"])
        #expect(FieldText.images("<img src='dot.png'> and <IMG SRC=\"x y.jpg\">", html: true) == ["dot.png", "x y.jpg"])
        #expect(FieldText.plain("a < b & c", html: false) == "a < b & c")
        #expect(FieldText.plainText(fromHTML: FieldText.html(fromPlain: "a < b & c\nd")) == "a < b & c\nd")
    }

    @Test func splittingOnAByteKeepsEmptyPieces() {
        #expect("a\u{1f}\u{1f}단어".utf8Split(0x1F) == ["a", "", "단어"])
        #expect("".utf8Split(0x1F) == [""])
        #expect("x\u{1f}".utf8Split(0x1F) == ["x", ""])
    }
}
