import Foundation
import Testing
@testable import MaeilCore

@Suite("Blanks: cloze deletions and verses with missing words")
struct BlanksTests {
    @Test func clozeDeletions() {
        let text = "{{c1::서울}} is the capital of {{c2::Korea::country}}."
        let first = Blanks(text: text, ordinal: 1)
        #expect(first.question == "[…] is the capital of Korea.")
        #expect(first.answers == ["서울"])
        let second = Blanks(text: text, ordinal: 2)
        #expect(second.question == "서울 is the capital of [country].")
        #expect(second.answerText == "서울 is the capital of [Korea].")
        #expect(Cloze.numbers(in: text) == [1, 2])
    }

    /// Nested deletions as Anki 26.9.3 renders them (its question text, markup stripped:
    /// "[...] and third", "Nested [...] text and third", "Nested inner text and [hint]").
    @Test func nestedClozeDeletions() {
        let text = "{{c1::Nested {{c2::inner}} text}} and {{c3::third::hint}}"
        #expect(Cloze.numbers(in: text) == [1, 2, 3])
        let questions = (1...3).map { Blanks(text: text, ordinal: $0).question }
        #expect(questions == ["[…] and third", "Nested […] text and third", "Nested inner text and [hint]"])
        #expect(Blanks(text: text, ordinal: 1).answers == ["Nested inner text"])
        #expect(Blanks(text: text, ordinal: 1).answerText == "[Nested inner text] and third")
        #expect(Blanks(text: text, ordinal: 2).answers == ["inner"])
        // An opening never closed, and a stray closing, stay as text.
        #expect(Blanks(text: "{{c1::open and {{c2::shut}} x", ordinal: 2).question == "{{c1::open and […] x")
        #expect(Blanks(text: "{{c1::open and {{c2::shut}} x}} y}}", ordinal: 2).question == "open and […] x y}}")
        #expect(Cloze.numbers(in: "{{c1::never closed") == [])
    }

    @Test func automaticBlanksForAVerse() {
        let text = "For God so loved the world, that he gave his only born Son."
        let blanks = Blanks(text: text, ordinal: 0)
        // Thirteen words, so three blanks, spread over God, loved, world, gave, only, born, Son.
        #expect(blanks.answers == ["loved", "gave", "Son"])
        #expect(blanks.question == "For God so […] the world, that he […] his only born […].")
        // Filling the blanks back in gives the verse.
        var filled = blanks.question
        for answer in blanks.answers { filled = filled.replacingOccurrences(of: Blanks.placeholder, with: answer, options: [], range: filled.range(of: Blanks.placeholder)) }
        #expect(filled == text)
        #expect(Blanks(text: "Jesus wept.", ordinal: 0).answers == ["wept"])
    }

    /// Found by the fuzzer: a combining mark right after punctuation made the word's core start
    /// inside a grapheme, and looking it up by characters crashed.
    @Test func punctuationFollowedByACombiningMark() {
        let word = "\u{9A}{c is1::\u{EC}{::\u{EC}\u{84} {{c1:\u{A3}\u{EC}\u{84}\u{9C}\u{CC}\u{9A}} H"
        _ = Blanks(text: word, ordinal: 1)
        let tricky = Blanks(text: "\"\u{301}abcdef and more words here", ordinal: 0)
        #expect(!tricky.answers.isEmpty)
        #expect(Blanks.split("\"\u{301}abc\"!") == ("\"\u{301}", "abc", "\"!"))
    }

    @Test func visibleTextIsAnythingButWhitespace() {
        #expect("a".hasVisibleText)
        #expect(" 단어 ".hasVisibleText)
        #expect("\u{3000}가".hasVisibleText)
        #expect(!"".hasVisibleText)
        #expect(!" \t\n".hasVisibleText)
        #expect(!"\u{3000}\u{a0}".hasVisibleText)
    }
}

@Suite struct BlanksWordsTests {
    @Test func anEmDashSeparatesTwoWordsAndStaysInTheText() {
        let text = "But now faith, hope, and love remain—these three. The greatest of these is love."
        let blanks = Blanks(text: text, ordinal: 0)
        #expect(blanks.answers.allSatisfy { !$0.contains("—") })
        #expect(blanks.answerText.replacingOccurrences(of: "[", with: "").replacingOccurrences(of: "]", with: "") == text)
    }

    @Test func contractionsAndConnectivesAreNeverBlanked() {
        let blanks = Blanks(text: "Don’t worry toward tomorrow, whether or not, like the birds of heaven.", ordinal: 0)
        #expect(blanks.answers.allSatisfy { !["don’t", "toward", "whether", "like"].contains($0.lowercased()) })
        #expect(!blanks.answers.isEmpty)
    }
}

@Suite("Blanks worth recalling")
struct BlanksWorthRecallingTests {
    @Test func shortWordsAVerseTurnsOnCanBeBlankedAndFillersCannot() {
        // The only word worth recalling is short: it is the blank (before, no word was).
        #expect(Blanks(text: "Go, sin no more.", ordinal: 0).answers == ["sin"])
        #expect(Blanks(text: "Who is God?", ordinal: 0).answers == ["God"])
        let fillers = Blanks(text: "Anyone who will become great must turn away from everything else. Amen.", ordinal: 0).answers
        #expect(Set(fillers).isDisjoint(with: ["Anyone", "become", "away", "everything", "Amen"]), "\(fillers)")
    }

    /// Anki's image occlusion masks: which mask a card hides and where, in words; a mask of
    /// two shapes names both; a polygon is placed by its points; a note that gave pixels (no
    /// fractions) names the shape alone; a text mask's words are the answer.
    @Test func imageOcclusionMasks() {
        let text = "{{c1::image-occlusion:rect:left=.7:top=.75:width=.2:height=.1:oi=1}}\n"
            + "{{c2::image-occlusion:polygon:points=.1,.1 .3,.1 .2,.3:oi=1}}\n{{c2::image-occlusion:ellipse:left=.4:top=.4:width=.2:height=.2}}\n"
            + "{{c3::image-occlusion:rect:left=250:top=80:width=40:height=20}}\n{{c4::image-occlusion:text:left=.05:top=.5:text=Aorta:scale=1}}"
        let cards = (1...4).map { Blanks(text: text, ordinal: $0) }
        #expect(cards.map(\.question) == [
            "Mask 1 of 4 hidden: the rectangle at the lower right (o opens the picture)",
            "Mask 2 of 4 hidden: the polygon at the upper left, the ellipse in the middle (o opens the picture)",
            "Mask 3 of 4 hidden: the rectangle (o opens the picture)",
            "Mask 4 of 4 hidden: the text at the left (o opens the picture)",
        ])
        #expect(cards[3].answerText == "Mask 4 of 4, the text at the left: Aorta" && cards[3].answers == ["Aorta"])
        #expect(cards[0].answerText == "Mask 1 of 4, the rectangle at the lower right: on the picture (o opens it)" && cards[0].answers.isEmpty)
        // A cloze about image occlusion is a cloze.
        #expect(Blanks(text: "{{c1::image-occlusion}} is an Anki feature", ordinal: 1).question == "[…] is an Anki feature")
    }
}
