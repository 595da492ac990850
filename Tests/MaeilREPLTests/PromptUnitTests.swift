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
    /// Two Ctrl-Cs that arrive before the first is reported (the program busy committing an
    /// answer) are two: the second leaves the review. A flag counted them as one.
    @Test func twoInterruptsBeforeTheFirstIsReportedAreTwo() {
        // The test process's own Ctrl-C handling comes back afterwards.
        var previous = sigaction(), previousResize = sigaction()
        sigaction(SIGINT, nil, &previous)
        sigaction(SIGWINCH, nil, &previousResize)
        defer {
            sigaction(SIGINT, &previous, nil)
            sigaction(SIGWINCH, &previousResize, nil)
        }
        SignalHandling.installInterruptHandler()
        while SignalHandling.interrupted { SignalHandling.takeInterrupt() }
        raise(SIGINT)
        raise(SIGINT)
        #expect(SignalHandling.interrupted)
        SignalHandling.takeInterrupt()
        #expect(SignalHandling.interrupted, "the second Ctrl-C was lost")
        SignalHandling.takeInterrupt()
        #expect(!SignalHandling.interrupted)
        SignalHandling.takeInterrupt()
        #expect(!SignalHandling.interrupted, "taking more than were pressed goes below none")
    }

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
        let decks = CommandTree.Value(completion: .custom, repeating: true, key: "positional@0")
        let tree = CommandTree(name: "maeil", subcommands: [
            CommandTree(name: "review", options: [.init(names: ["--missed"]), .init(names: ["--focus"]), .init(names: ["-h", "--help"])],
                        positionals: [decks]),
            CommandTree(name: "find", options: [.init(names: ["--deck"], value: .init(completion: .custom, key: "--deck"))],
                        positionals: [.init(completion: .custom, repeating: true, key: "positional@0")]),
            CommandTree(name: "repl", visible: false),
        ])
        // The commands' own completion functions, as the command line gives them.
        let completer = Completer(tree: { tree }, custom: { path, key, _, _, prefix in
            if path == ["find"], key == "positional@0" { return ["tag:food"].filter { $0.hasPrefix(prefix) } }
            return ["Korean Practice", "Hangul Jamo"].map(DeckNames.slug).filter { $0.hasPrefix(prefix) }
        })
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

    /// An Anki note type's card shows, on each side, what its template's sections show for the
    /// note; a question that shows nothing for it says so, as Anki does, and shows none of it.
    @Test func anAnkiCardShowsWhatItsSectionsShowForItsNote() throws {
        let type = AnkiNoteType(id: 1, name: "Hinted", isCloze: false, fields: ["Word", "Meaning", "Hint on", "Hint"], templates: [
            .init(name: "Card 1", question: "{{Word}}{{#Hint on}}<br>{{Hint}}{{/Hint on}}",
                  answer: "{{FrontSide}}<hr id=answer>{{Meaning}}{{^Hint on}}<br>{{Hint}}{{/Hint on}}"),
        ], modified: 0, legacyJSON: "{}")
        func view(_ word: String, _ switchValue: String) -> CardView {
            CardView(.sample(kind: .word, fields: [NoteField(name: "Word", value: word), NoteField(name: "Meaning", value: "tree"),
                                                   NoteField(name: "Hint on", value: switchValue), NoteField(name: "Hint", value: "namu")],
                             template: type.maeilTemplates[0]), style: .plain)
        }
        #expect((view("나무", "").front, view("나무", "").back) == ("나무", "Meaning: tree\nHint: namu"))
        #expect((view("나무", "y").front, view("나무", "y").back) == ("나무\nnamu", "tree"))
        #expect((view("", "").front, view("", "").back) == ("The front of this card is blank: no field it asks has text for this note.", ""))
    }

    /// A cloze shows its other fields where Anki's templates put them: a header above the
    /// deletions, a hint under them; on the answer, a note above them, an extra under them.
    @Test func aClozeShowsItsOtherFieldsWhereItsTemplatesPutThem() throws {
        let type = AnkiNoteType(id: 2, name: "Cloze hinted", isCloze: true, fields: ["Header", "Text", "Hint", "Note", "Extra"], templates: [
            .init(name: "Cloze", question: "{{Header}}<br>{{cloze:Text}}<br>{{Hint}}", answer: "{{Note}}<br>{{cloze:Text}}<br>{{Extra}}"),
        ], modified: 0, legacyJSON: "{}")
        let view = CardView(.sample(kind: .word, fields: [NoteField(name: "Header", value: "Food"), NoteField(name: "Text", value: "{{c1::김치}}는 맵다"),
                                                          NoteField(name: "Hint", value: "gimchi"), NoteField(name: "Note", value: "a side dish"),
                                                          NoteField(name: "Extra", value: "kimchi")],
                                    template: type.maeilTemplates[0], ordinal: 1), style: .plain)
        #expect((view.front, view.back) == ("Food\n[…]는 맵다\ngimchi", "Note: a side dish\n[김치]는 맵다\nExtra: kimchi"))
    }
}

extension PresentedCard {
    static func sample(kind: NoteKind, fields: [NoteField], template: CardTemplate, ordinal: Int = 0) -> PresentedCard {
        let state = CardState.new
        let outcome = Outcome(state: state)
        return PresentedCard(
            card: Card(id: 1, noteID: 1, deckID: 1, template: template.name, ordinal: ordinal, state: state, starred: false, suspended: false),
            note: Note(id: 1, guid: "g", deckID: 1, kind: kind, fields: fields, tags: [], position: 0),
            deck: Deck(id: 1, name: "Deck", description: "", presetID: 1, templates: [template]), template: template,
            nextStates: NextStates(current: state, again: outcome, hard: outcome, good: outcome, easy: outcome), siblings: [],
            shownAt: Date(timeIntervalSince1970: 0), intervals: [:])
    }
}

/// The review loop at a terminal (an interactive console), driven by scripted lines.
@Suite("The review loop at a terminal")
struct ReviewLoopTerminalTests {
    static func session(count: Int = 3, practice: Bool = false) throws -> (Collection, ReviewSession) {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: count, templates: [CardTemplate(name: "recognize", front: ["word"], back: ["meaning"])])
        let clock = TestClock(Fixture.noon)
        let environment = SessionEnvironment(now: { clock.now }, timeZone: Fixture.utc, fuzz: false)
        if practice {
            let cards = try collection.cards(deckID: try collection.decks()[0].id).map(\.id)
            return (collection, ReviewSession(collection: collection, practicing: cards, environment: environment))
        }
        return (collection, try ReviewSession(collection: collection, environment: environment))
    }

    /// Answers, edits and replies never reach the prompt's history: Up after a review gives
    /// the last command, not `q`.
    @Test func nothingTypedInAReviewIsRemembered() throws {
        let (_, session) = try Self.session()
        let input = ScriptedLineReader(["", "3", "e", "단어", "word", "", "1", "q"])
        try ReviewLoop(session: session, console: RecordingConsole(isInteractive: true), input: input).run()
        #expect(input.requests.count >= 8)
        #expect(input.requests.allSatisfy { !$0.remember })
    }

    /// The first Ctrl-C clears the line and says how to leave; only a second one leaves, and
    /// every answer given stays.
    @Test func ctrlCClearsThenLeaves() throws {
        let (collection, session) = try Self.session()
        let console = RecordingConsole(isInteractive: true)
        let summary = try ReviewLoop(session: session, console: console, input: ScriptedLineReader(["", "3", "^C", "", "4", "^C", "^C", "3"])).run()
        #expect(console.output.contains("Ctrl-C again to leave"))
        #expect(summary?.reviewed == 2)
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 2)
    }

    /// A card answered in another session is said to be skipped, on a pipe too: a script
    /// waiting for each answer's acknowledgement gets a line either way.
    @Test func aSkippedCardIsSaid() throws {
        let (collection, session) = try Self.session(count: 2)
        let other = try ReviewSession(collection: try collection.reopened(),
                                      environment: SessionEnvironment(now: { Fixture.noon }, timeZone: Fixture.utc, fuzz: false))
        try other.start()
        try other.send(.answer(.good))
        let console = RecordingConsole()
        try ReviewLoop(session: session, console: console, input: ScriptedLineReader(["3", "q"])).run()
        #expect(console.output.contains("card \(try collection.cards(deckID: try collection.decks()[0].id)[0].id): answered in another session, skipped"))
    }

    /// `e` offers each field with its text, to edit in place.
    @Test func editingStartsFromTheCurrentText() throws {
        let (collection, session) = try Self.session(count: 1)
        let input = ScriptedLineReader(["e", "단어0", "word zero", "q"])
        try ReviewLoop(session: session, console: RecordingConsole(isInteractive: true), input: input).run()
        #expect(input.requests.map(\.initialText).contains("word 0"))
        #expect(try collection.notes(deckID: try collection.decks()[0].id)[0].fields.value("meaning") == "word zero")
    }

    /// A practice round schedules nothing, so its buttons promise no intervals.
    @Test func practiceShowsNoIntervals() throws {
        let (_, session) = try Self.session(count: 1, practice: true)
        let console = RecordingConsole(isInteractive: true)
        try ReviewLoop(session: session, console: console, input: ScriptedLineReader(["", "q"])).run()
        #expect(console.output.contains("1 again · 2 hard · 3 good · 4 easy\n"))
        let (_, review) = try Self.session(count: 1)
        let scheduled = RecordingConsole(isInteractive: true)
        try ReviewLoop(session: review, console: scheduled, input: ScriptedLineReader(["", "q"])).run()
        #expect(scheduled.output.contains("1 again 1m · 2 hard 6m · 3 good 10m · 4 easy 4d\n"))
    }
}

@Suite("Text at a terminal")
struct TextWrapTests {
    @Test func linesBreakBetweenWordsAndColourTakesNoRoom() {
        let style = Style(enabled: true)
        let line = "mnemonic: " + style.bold("Seen") + " from the side it is the back of the tongue rising to the soft palate"
        let wrapped = TextWrap.wrap(line, width: 30)
        for row in wrapped.split(separator: "\n") {
            #expect(TextWrap.cells(String(row)) <= 30)
        }
        #expect(TextWrap.stripped(wrapped).replacingOccurrences(of: "\n", with: " ") == TextWrap.stripped(line))
        #expect(TextWrap.wrap("짧은 줄", width: 30) == "짧은 줄")
        // Wide characters take two cells; a run with no spaces is broken where it must be.
        #expect(TextWrap.wrap("猫が好きです猫が好きです", width: 10) == "猫が好きで\nす猫が好き\nです")
    }

    /// Groups joined by " · " break between groups, the separator left out at the break; a group
    /// longer than the line breaks between its words.
    @Test func groupsStayWhole() {
        let retention = "True retention: 7d 100.0% of 1 · 30d 100.0% of 1 · 365d 100.0% of 1"
        #expect(TextWrap.wrap(retention, width: 59) == "True retention: 7d 100.0% of 1 · 30d 100.0% of 1\n365d 100.0% of 1")
        let buttons = Style(enabled: true).bold("1") + " again 10m · 2 hard 1.1mo · 3 good 1.5y · 4 easy 3.6y"
        #expect(TextWrap.stripped(TextWrap.wrap(buttons, width: 30)) == "1 again 10m · 2 hard 1.1mo\n3 good 1.5y · 4 easy 3.6y")
        #expect(TextWrap.wrap("a long first group of words · b", width: 12) == "a long first\ngroup of\nwords\nb")
    }

    /// An indented line keeps its indent on each line it breaks into.
    @Test func anIndentedLineStaysIndented() {
        #expect(TextWrap.wrap("  The server's copy: 20000 notes, 20000 cards", width: 30)
                == "  The server's copy: 20000\n  notes, 20000 cards")
        #expect(TextWrap.wrap("    alpha · beta · gamma", width: 18) == "    alpha · beta\n    gamma")
        // Too deep an indent to keep room for words: the line breaks without it.
        #expect(TextWrap.wrap("          twelve words here", width: 12) == "twelve words\nhere")
    }

    /// A card's history names Anki's Forget and Set Due Date rows as it names Maeil's own.
    @Test func ankisManualRowsReadAsMaeilsOwn() {
        func row(rating: Rating?, _ anki: AnkiRevlogColumns) -> String {
            ReviewRow(ReviewLogEntry(time: Date(timeIntervalSince1970: 1_800_000_000), kind: .imported, rating: rating, scheduler: "anki",
                                     before: nil, after: nil, anki: anki), timeZone: TimeZone(identifier: "UTC")!).cells[1]
        }
        #expect(row(rating: nil, AnkiRevlogColumns(ease: 0, interval: 0, lastInterval: 12, factor: 0, type: 4)) == "forgotten")
        #expect(row(rating: nil, AnkiRevlogColumns(ease: 0, interval: 12, lastInterval: 12, factor: 2500, type: 4)) == "set")
        #expect(row(rating: nil, AnkiRevlogColumns(ease: 0, interval: 20, lastInterval: 12, factor: 2500, type: 5)) == "set")
        #expect(row(rating: .good, AnkiRevlogColumns(ease: 3, interval: 20, lastInterval: 12, factor: 2500, type: 1)) == "good")
        #expect(row(rating: nil, AnkiRevlogColumns(ease: 0, interval: 3, lastInterval: 0, factor: 2500, type: 3)) == "imported")
    }

    /// Every yes-or-no question reads an answer the same way.
    @Test func yesOrNoReadsOneWay() {
        for (answer, yesByDefault, expected) in [("", true, true), ("", false, false), (" Yes ", false, true), ("yep", false, true),
                                                 ("n", true, false), ("sync", true, false), ("  ", false, false)] {
            #expect(YesNo.reading(answer, default: yesByDefault) == expected, "\(answer) \(yesByDefault)")
        }
    }

    @Test func japaneseWithKanjiIsSpokenFromItsKana() {
        let card = PresentedCard.sample(kind: .vocabulary, fields: [
            NoteField(name: "word", value: "猫", language: "ja"), NoteField(name: "kana", value: "ねこ", language: "ja"),
            NoteField(name: "meaning", value: "cat", language: "en"),
        ], template: CardTemplate(name: "recognize", front: ["word"], back: ["kana", "meaning"]))
        #expect(CardView(card, style: .plain).spoken(answer: true)?.text == "ねこ")
        let kanaOnly = PresentedCard.sample(kind: .vocabulary, fields: [NoteField(name: "word", value: "すし", language: "ja")],
                                            template: CardTemplate(name: "recognize", front: ["word"], back: []))
        #expect(CardView(kanaOnly, style: .plain).spoken(answer: false)?.text == "すし")
    }
}

/// The environment is read once, where the program starts, and handed down: a context made
/// with other variables follows them, whatever the process has.
@Suite("One reading of the environment")
struct EnvironmentReadOnceTests {
    @Test func aContextFollowsTheVariablesItIsGiven() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("elsewhere-\(UUID().uuidString).sqlite").path
        let shell = CommandContext.shell(variables: ["MAEIL_COLLECTION": path, "MAEIL_SPEECH": "stub", "NO_COLOR": "1"])
        #expect(shell.defaultCollectionPath == path)
        #expect(shell.speechIsStubbed && shell.speaker.name == "stub")
        let real = CommandContext.shell(variables: ["PATH": "/nonexistent", "HOME": "/tmp"])
        #expect(!real.speechIsStubbed)
        #expect(real.speaker.name == "stub", "no espeak-ng on /nonexistent: the stub stands in")
        #expect(real.defaultCollectionPath == "/tmp/.local/share/maeil/collection.sqlite")
    }

    /// A session left with cards still due says so and names no later date: "199 cards still due
    /// today. Next due in 5 d." read as if nothing were due for five days.
    @Test func aSessionLeftEarlyNamesNoLaterDueDate() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        var summary = SessionSummary(reviewed: 1, correct: 1, seconds: 2, nextDue: now.addingTimeInterval(5 * 86_400), learningLaterToday: 0, stillDue: 199)
        #expect(ReviewLoop.describe(summary, style: .plain, now: now) == "Reviewed 1 · 100% correct · 0m 2s\n199 cards still due today.")
        summary.stillDue = 0
        #expect(ReviewLoop.describe(summary, style: .plain, now: now) == "Reviewed 1 · 100% correct · 0m 2s\nNext due in 5 d.")
    }
}
