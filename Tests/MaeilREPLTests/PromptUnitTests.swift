import Foundation
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilREPL
@testable import MaeilSession
@testable import MaeilStore

/// The prompt's pieces, each without a terminal: text that reaches the screen, the words a
/// line splits into, completion, and the review loop driven by lines.
@Suite("The prompt's parts")
struct PromptUnitTests {
    @Test func cardTextNeverReachesTheTerminalWithControlSequences() {
        let hostile = "김치\u{1B}[2J\u{1B}]52;c;aGk=\u{07}ok\u{9B}31m\u{202E}txt\u{8}\u{1B}P1;2|x\u{1B}\\!"
        let clean = TerminalText.sanitize(hostile)
        #expect(clean == "김치oktxt!")
        #expect(!clean.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) })
        #expect(TerminalText.sanitize("line one\n\tline two") == "line one\n line two")
    }

    @Test func linesSplitLikeAShell() {
        #expect(ShellWords.split(#"review "Korean Practice" hangul\ jamo 'a b'"#) == ["review", "Korean Practice", "hangul jamo", "a b"])
        #expect(ShellWords.split(#"say """#) == ["say", ""])
        #expect(ShellWords.split("   ") == [])
    }

    @Test func completionOffersCommandsOptionsAndDecks() {
        let completer = Completer(
            commands: [.init(name: "review", options: ["--missed", "--focus"], takesDecks: true), .init(name: "find", options: ["--deck"])],
            decks: { ["Korean Practice", "Hangul Jamo"] }, tags: { ["food"] })
        #expect(completer.candidates(before: "", word: "re") == ["review"])
        #expect(completer.candidates(before: "review ", word: "--") == ["--focus", "--missed"])
        #expect(completer.candidates(before: "review ", word: "ko") == ["korean-practice"])
        #expect(completer.candidates(before: "find ", word: "tag:f") == ["tag:food"])
        #expect(completer.candidates(before: "help ", word: "f") == ["find"])
    }

    @Test func aPipedReviewAcknowledgesEachAnswerOnceCommitted() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 2, templates: [CardTemplate(name: "recognize", front: ["word"], back: ["meaning"])])
        let clock = TestClock(Fixture.noon)
        let session = try ReviewSession(collection: collection,
                                        environment: SessionEnvironment(now: { clock.now }, timeZone: Fixture.utc, fuzz: false))
        let console = RecordingConsole()
        let input = ScriptedLineReader(["", "3", "4", "q"])
        let summary = try ReviewLoop(session: session, console: console, input: input).run()
        #expect(console.output.contains("단어0"))
        #expect(console.output.contains("good · 10m"))
        #expect(console.output.contains("easy · 4d"))
        #expect(summary?.reviewed == 2)
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 2)
        #expect(input.prompts.allSatisfy { $0.isEmpty })  // no prompts on a pipe
    }

    @Test func aJamoIsDrawnLargeAndAVerseWithBlanks() throws {
        let jamo = PresentedCard.sample(kind: .jamo, fields: [NoteField(name: "jamo", value: "ㄱ")],
                                        template: CardTemplate(name: "read", front: ["jamo"], back: []))
        #expect(CardView(jamo, style: .plain).front == """
            ┌────────────┐
            │            │
            │     ㄱ     │
            │            │
            └────────────┘
            """)
        let verse = PresentedCard.sample(kind: .verse, fields: [NoteField(name: "reference", value: "Ps 23:1"),
                                                                NoteField(name: "text", value: "The LORD is my shepherd")],
                                         template: CardTemplate(name: "blanks", front: ["reference"], back: [], blanks: "text"))
        let front = CardView(verse, style: .plain).front
        #expect(front.hasPrefix("Ps 23:1\n"))
        #expect(front.contains(Blanks.placeholder))
        #expect(CardView(verse, style: .plain).back.contains("[shepherd]"))
    }
}

extension PresentedCard {
    static func sample(kind: NoteKind, fields: [NoteField], template: CardTemplate) -> PresentedCard {
        let state = CardState.new
        let outcome = Outcome(state: state)
        return PresentedCard(
            card: Card(id: 1, noteID: 1, deckID: 1, template: template.name, ordinal: 0, state: state, starred: false, suspended: false),
            note: Note(id: 1, guid: "g", deckID: 1, kind: kind, fields: fields, tags: [], position: 0),
            deck: Deck(id: 1, name: "Deck", description: "", presetID: 1, templates: [template]), template: template,
            nextStates: NextStates(current: state, again: outcome, hard: outcome, good: outcome, easy: outcome), siblings: [],
            shownAt: Date(timeIntervalSince1970: 0), intervals: [:])
    }
}
