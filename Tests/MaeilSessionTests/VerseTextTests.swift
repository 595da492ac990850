import Testing
@testable import MaeilSession

/// Diatheke's output as the World English Bible module gives it, parsed as the bundled verses'
/// generator (scripts/decks/generate-verses.py) cleans it.
@Suite("Verse text")
struct VerseTextTests {
    @Test func aPassageLosesItsHeadingsFootnotesAndLineBreaks() throws {
        let output = """
            A Psalm by David.
              Psalms 23:1: Yahweh is my shepherd;
            I shall lack nothing. \n\nA Psalm by David.
              Psalms 23:2: He makes me lie down in green pastures.
            He leads me beside still waters. \n\n(engWEB2015eb)
            """
        let passage = try VerseText.parse(output, asked: "Psalm 23:1-2")
        #expect(passage == VerseText.Passage(reference: "Psalm 23:1–2", key: "psalms-23-1-2",
                                             text: "Yahweh is my shepherd; I shall lack nothing. He makes me lie down in green pastures. He leads me beside still waters."))
        let john = try VerseText.parse("""
            I John 4:8: He who doesn’t love doesn’t know God, [4:8 a note] for God is love .
            (engWEB2015eb)
            """, asked: "1 John 4:8")
        #expect(john == VerseText.Passage(reference: "1 John 4:8", key: "1-john-4-8", text: "He who doesn’t love doesn’t know God, for God is love."))
    }

    /// SWORD reads a verse past a chapter's end as the next one: that is no such verse.
    @Test func aVersePastTheEndIsNotTheNextOne() {
        #expect(throws: VerseText.LookupError.noSuchPassage("Genesis 51:1")) {
            try VerseText.parse("Exodus 1:1: Now these are the names…\n(engWEB2015eb)", asked: "Genesis 51:1")
        }
        #expect(throws: VerseText.LookupError.noSuchPassage("Luke 1:81")) {
            try VerseText.parse("Luke 2:1: Now in those days…\n(engWEB2015eb)", asked: "Luke 1:81")
        }
    }

    @Test func givenTextKeepsTheReferenceAsTyped() {
        #expect(VerseText.given(reference: "  Psalm   1:1 ", text: "Blessed\nis the man") ==
                VerseText.Passage(reference: "Psalm 1:1", key: "psalm-1-1", text: "Blessed is the man"))
    }
}
