import Foundation
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// The real binary at a terminal (tmux) and on a pipe.
@Suite("The prompt, end to end", .serialized)
struct PromptTests {
    /// A collection with a small Korean deck whose recall card is typed.
    static func koreanCollection(count: Int = 3) throws -> String {
        let path = Fixture.temporaryDirectory().appendingPathComponent("collection.sqlite").path
        let collection = try Collection(path: path)
        let words = [("김치", "kimchi"), ("물", "water"), ("밥", "rice"), ("집", "house"), ("책", "book")]
        try collection.batch(now: Date()) { writer in
            let deck = try writer.createDeck(name: "Korean Words", kind: .word, templates: [
                CardTemplate(name: "recall", front: ["english"], back: ["korean"], typed: "korean"),
            ], preset: Preset(name: "Korean Words", burySiblings: false))
            for (index, word) in words.prefix(count).enumerated() {
                try writer.addNote(NoteDraft(guid: "k\(index)", kind: .word, fields: [
                    NoteField(name: "korean", value: word.0, language: "ko"), NoteField(name: "english", value: word.1, language: "en"),
                ], position: index), deck: deck)
            }
        }
        return path
    }

    @Test func tabCompletesCommandsOptionsAndDecks() throws {
        let path = try Self.koreanCollection()
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path])
        try tmux.wait(for: "review to start")
        try tmux.type("rev")
        try tmux.press("Tab")
        try tmux.wait(for: "› review")
        try tmux.type("kor")
        try tmux.press("Tab")
        #expect(try tmux.wait(for: "review korean-words").contains("review korean-words"))
        try tmux.press("C-u")
        try tmux.type("import --dry")
        try tmux.press("Tab")
        #expect(try tmux.wait(for: "import --dry-run").contains("import --dry-run"))
    }

    @Test func historyIsKeptAcrossRuns() throws {
        let path = try Self.koreanCollection()
        let home = Fixture.temporaryDirectory()
        let first = Tmux(home: home)
        try first.start(["--collection", path])
        try first.wait(for: "review to start")
        try first.type("stats")
        try first.press("Enter")
        try first.wait(for: "True retention")
        try first.press("C-d")
        let history = home.appendingPathComponent("state/maeil/history")
        #expect(Fixture.eventually { FileManager.default.fileExists(atPath: history.path) })
        let second = Tmux(home: home)
        try second.start(["--collection", path])
        try second.wait(for: "review to start")
        try second.press("Up")
        #expect(try second.wait(for: "› stats").contains("› stats"))
        // What is typed during a review stays out of the history: Up after it gives the
        // command that started it, not `q` or an answer.
        try second.press("C-u")
        try second.type("review")
        try second.press("Enter")
        try second.wait(for: "kimchi")
        try second.type("김치")
        try second.press("Enter")
        try second.wait(for: "✓ 김치")
        try second.type("q")
        try second.press("Enter")
        #expect(try second.waitForLastLines(1, containing: "매일 ›").joined().hasSuffix("매일 ›"))
        try second.press("Up")
        #expect(try second.waitForLastLines(1, containing: "› review").joined().hasSuffix("› review"))
        try second.press("Up")
        #expect(try second.waitForLastLines(1, containing: "› stats").joined().hasSuffix("› stats"))
    }

    @Test func aKoreanAnswerIsTypedAndJudged() throws {
        let path = try Self.koreanCollection(count: 1)
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path])
        try tmux.wait(for: "review to start")
        try tmux.type("review")
        try tmux.press("Enter")
        try tmux.wait(for: "kimchi")
        try tmux.type("김치")
        try tmux.press("Enter")
        let judged = try tmux.wait(for: "✓ 김치")
        #expect(judged.contains("✓ 김치"))
        try tmux.type("3")  // acts at once, no ⏎
        #expect(try tmux.wait(for: "good · ").contains("good · 10m"))
        // And a wrong answer shows what differs.
        try tmux.type("김지")
        try tmux.press("Enter")
        let wrong = try tmux.wait(for: "expected")
        #expect(wrong.contains("✗ 김[지](치)"))
    }

    @Test func aSessionReviewedToTheEndWithUndo() throws {
        let path = try Self.koreanCollection(count: 2)
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path])
        try tmux.wait(for: "review to start")
        try tmux.type("review")
        try tmux.press("Enter")
        try tmux.wait(for: "kimchi")
        try tmux.press("Enter")       // show the answer
        try tmux.wait(for: "1 again")
        try tmux.type("4")
        try tmux.wait(for: "water")
        // water asks for its answer, so u would be typed into it: ⏎ on nothing shows it first.
        try tmux.press("Enter")
        try tmux.waitForLastLines(1, containing: "1–4 ›")
        try tmux.type("u")
        #expect(try tmux.wait(for: "↶ undone").contains("↶ undone"))
        #expect(try tmux.waitForLastLines(6, containing: "kimchi").joined().contains("kimchi"))  // the same card is back
        for next in ["water", "Reviewed 2"] {
            try tmux.press("Enter")
            try tmux.waitForLastLines(1, containing: "1–4 ›")
            try tmux.type("4")
            try tmux.waitForLastLines(8, containing: next)
        }
        let end = try tmux.wait(for: "Reviewed 2")
        #expect(end.contains("Reviewed 2 · 100% correct"))
        let collection = try Collection(path: path)
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 2)
    }

    @Test func ctrlCCancelsALineAndLeavesAReviewKeepingAnswers() throws {
        let path = try Self.koreanCollection(count: 3)
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path])
        try tmux.wait(for: "review to start")
        try tmux.type("some half-typed line")
        try tmux.press("C-c")
        try tmux.wait(until: "an empty prompt") { screen in
            screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.trimmingCharacters(in: .whitespaces) == "매일 ›"
        }
        try tmux.type("decks")
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "Korean Words  3").contains("Korean Words"))
        try tmux.type("review")
        try tmux.press("Enter")
        try tmux.wait(for: "kimchi")
        try tmux.press("Enter")
        try tmux.waitForLastLines(1, containing: "1–4 ›")
        try tmux.type("3")
        try tmux.wait(for: "good · ")
        // The first Ctrl-C clears the line; only a second one leaves.
        try tmux.type("half an answer")
        try tmux.press("C-c")
        #expect(try tmux.wait(for: "Ctrl-C again to leave").contains("Ctrl-C again to leave"))
        #expect(try !tmux.screen().contains("Reviewed 1"))
        try tmux.press("C-c")
        let left = try tmux.wait(for: "Reviewed 1")
        #expect(left.contains("Reviewed 1"), "\(left)")
        try tmux.type("decks")
        try tmux.press("Enter")
        try tmux.waitForLastLines(3, containing: "Korean Words")
        let collection = try Collection(path: path)
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 1)
    }

    /// One Ctrl-C is one SIGINT for every process at the terminal: libedit's own handler sent
    /// it to the whole process group a second time, and that late copy could end the next line
    /// at its first key (`매일 › d`, then `매일 › ecks` on a new prompt).
    @Test func oneCtrlCIsOneInterrupt() throws {
        let path = try Self.koreanCollection(count: 3)
        let home = Fixture.temporaryDirectory()
        let count = home.appendingPathComponent("interrupts").path
        // A neighbour in maeil's process group counts the interrupts it is sent.
        let wrapper = home.appendingPathComponent("with-neighbour").path
        try writeExecutableScript("""
        #!/bin/sh
        python3 -c 'import signal, sys, time
        seen = 0
        def count(*_):
            global seen
            seen += 1
            open(sys.argv[1], "w").write(str(seen))
        signal.signal(signal.SIGINT, count)
        open(sys.argv[1], "w").write("0")
        while True: time.sleep(1)' '\(count)' &
        exec '\(Binary.url.path)' "$@"

        """, to: wrapper)
        let tmux = Tmux(home: home)
        try tmux.start(["--collection", path], binary: wrapper)
        try tmux.wait(for: "review to start")
        try tmux.wait(until: "the neighbour started") { _ in FileManager.default.fileExists(atPath: count) }
        for round in 1...2 {
            try tmux.type("half a line")
            try tmux.press("C-c")
            try tmux.wait(until: "an empty prompt") { screen in
                screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.trimmingCharacters(in: .whitespaces) == "매일 ›"
            }
            // The neighbour counts the interrupt (a busy machine can take a moment), then a late
            // copy has 300 ms to arrive and count again.
            try tmux.wait(until: "the neighbour counted \(round)") { _ in (try? String(contentsOfFile: count, encoding: .utf8)).flatMap(Int.init) ?? 0 >= round }
            usleep(300_000)
            #expect(try String(contentsOfFile: count, encoding: .utf8) == "\(round)")
        }
        try tmux.type("decks")
        try tmux.press("Enter")
        // The list, then the next prompt: a busy machine can draw them a moment apart.
        try tmux.wait(until: "the list and the next prompt") { screen in
            screen.contains("Korean Words")
                && screen.split(separator: "\n").last { !$0.trimmingCharacters(in: .whitespaces).isEmpty }?.trimmingCharacters(in: .whitespaces) == "매일 ›"
        }
        let lines = try tmux.waitForLastLines(3, containing: "Korean Words")
        #expect(lines.map { $0.trimmingCharacters(in: .whitespaces) } == ["deck          cards  due  learning  new", "Korean Words  3      0    0         3", "매일 ›"], "\(lines)")
    }

    /// A terminal made wider while a line is being typed lays the line out again for its width.
    @Test func aResizedTerminalKeepsTheLine() throws {
        let path = try Self.koreanCollection(count: 3)
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path], colour: true, width: 60)
        try tmux.wait(for: "review to start")
        let line = "find a line long enough to wrap at sixty columns of terminal"
        try tmux.type(line)
        try tmux.waitForLastLines(2, containing: "terminal")
        try tmux.resize(width: 120)
        usleep(200_000)  // the resize reaches maeil as a signal
        // Moving to the start of the line is where a width libedit did not learn shows.
        try tmux.type(" and more")
        try tmux.press("C-a")
        try tmux.type("x")
        // libedit draws the line once more below the one tmux reflowed; the cursor is in the first.
        let screen = try tmux.wait(for: "매일 › x" + line + " and more")
        #expect(screen.contains("매일 › x" + line + " and more\n"), "\(screen)")
    }

    /// A first run lets the learner pick decks and a daily load, shows what the simulator
    /// expects that load to cost before anything is added, and shares the load among the decks.
    @Test func aFirstRunOffersTheBundledDecks() throws {
        let path = Fixture.temporaryDirectory().appendingPathComponent("new.sqlite").path
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path, "--create"], width: 120)
        let offer = try tmux.wait(for: "Which decks?")
        #expect(offer.contains("  1  Hangul Jamo         107 cards, 10 new a day"), "\(offer)")
        #expect(offer.contains("  4  Kana                ") && offer.contains("15 new a day"))
        try tmux.type("1 4")
        try tmux.press("Enter")
        try tmux.waitForLastLines(1, containing: "New cards a day, all together [25]:")
        try tmux.press("Enter")
        let first = try tmux.waitForLastLines(3, containing: "Go with 25 a day?")
        #expect(first.joined().contains("In four weeks a day holds about"), "\(first)")
        // Nothing is added while the learner decides.
        #expect(try Collection(path: path, readOnly: true).decks().isEmpty)
        try tmux.type("n")
        try tmux.press("Enter")
        try tmux.waitForLastLines(1, containing: "New cards a day, all together [25]:")
        try tmux.type("12")
        try tmux.press("Enter")
        let second = try tmux.waitForLastLines(3, containing: "Go with 12 a day?")
        func cards(_ lines: [String]) -> Int? {
            let text = lines.joined(separator: " ")
            guard let range = text.range(of: #"about \d+ cards"#, options: .regularExpression) else { return nil }
            return Int(text[range].dropFirst(6).dropLast(6))
        }
        let (more, fewer) = (try #require(cards(first)), try #require(cards(second)))
        #expect(fewer < more, "25 a day: \(more) cards; 12 a day: \(fewer)")
        try tmux.press("Enter")
        try tmux.wait(for: "Start with Hangul now?")
        let collection = try Collection(path: path, readOnly: true)
        let decks = try collection.decks()
        #expect(decks.map(\.name) == ["Hangul Jamo", "Kana"])
        // 12 shared as 10 : 15, the largest remainder first: 4.8 and 7.2 make 5 and 7.
        #expect(try decks.map { try collection.preset(id: $0.presetID).newPerDay } == [5, 7])
        try tmux.press("Enter")
        #expect(try tmux.wait(for: "ㄱ").contains("Hangul Jamo"))
    }

    @Test func pipedSessionsNeedNoTerminal() throws {
        let path = try Self.koreanCollection(count: 3)
        let result = try Binary.run(["--collection", path], input: "decks\nreview\n김치\n3\n\n4\n\nq\nfind 물\nquit\n",
                                    environment: ["MAEIL_SPEECH": "stub"])
        #expect(result.status == 0)
        #expect(!result.stdout.contains("\u{1B}["))  // no colour on a pipe
        #expect(result.stdout.contains("✓ 김치"))
        #expect(result.stdout.contains("good · 10m"))
        #expect(result.stdout.contains("Reviewed 2"))
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.contains("물 · water") })
        // The same actions as subcommands.
        let star = try Binary.run(["star", "--collection", path, "1"])
        #expect(star.stdout.contains("★ starred note 1"))
        let shown = try Binary.run(["show", "--collection", path, "1"])
        #expect(shown.stdout.contains("★"))
        let focus = try Binary.run(["focus", "--collection", path, "--format", "json"])
        #expect(focus.stdout.contains("\"schema\" : 2"))
    }

    /// A command copied from a hint or the README, `maeil` and all, runs at the prompt as it does
    /// in a shell; `maeil` alone says the prompt is open already.
    @Test func aCommandWrittenForTheShellRunsAtThePrompt() throws {
        let path = try Self.koreanCollection(count: 3)
        let shell = try Binary.run(["decks", "--collection", path])
        let prompt = try Binary.run(["--collection", path], input: "maeil decks\nmaeil\ndecks\nquit\n")
        #expect(prompt.status == 0, "\(prompt.stderr)")
        #expect(prompt.stdout == shell.stdout + "maeil: this is the prompt already\n" + shell.stdout, "\(prompt.stdout)")
    }

    @Test func badCommandsExitWithStatusTwo() throws {
        let result = try Binary.run(["schedule", "--ratings", "nope"])
        #expect(result.status == 2)
        #expect(result.stderr.split(separator: "\n").count == 1)
        let missing = try Binary.run(["review", "--collection", try Self.koreanCollection(count: 1), "no-such-deck"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no deck named “no-such-deck”"))
    }

    /// `maeil import` reads a file while it writes the collection; a bad file still exits with
    /// its line and column, a status that is not 0, and nothing imported. A missing file is
    /// refused before a collection is even made.
    @Test func aBadImportExitsWithTheLineAndChangesNothing() throws {
        let folder = Fixture.temporaryDirectory()
        let path = folder.appendingPathComponent("c.sqlite").path
        let missing = try Binary.run(["import", "--collection", path, folder.appendingPathComponent("nope.txt").path])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("nothing was imported"))
        #expect(!FileManager.default.fileExists(atPath: path))
        let file = folder.appendingPathComponent("words.txt")
        try Data(("#separator:tab\n#deck:Words\n" + (0..<3000).map { "단어 \($0)\tword \($0)\n" }.joined() + "three\tcolumns\there\n").utf8)
            .write(to: file)
        let bad = try Binary.run(["import", "--create", "--collection", path, file.path])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("words.txt:3003:"), "\(bad.stderr)")
        let collection = try Collection(path: path)
        #expect(try collection.counts() == (decks: 0, notes: 0, cards: 0))
        let good = try Binary.run(["import", "--create", "--collection", path, "--skip-invalid", file.path, "--json"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(try collection.counts().notes == 3000)
    }

    /// Every command answers --help with its usage, including those that pass their words on
    /// to the prompt's command of the same name.
    @Test(arguments: ["review", "find", "edit", "config", "focus", "sim", "import"])
    func everyCommandHasHelp(_ command: String) throws {
        let result = try Binary.run([command, "--help"])
        #expect(result.status == 0)
        #expect(result.stdout.contains("USAGE: maeil \(command)"))
    }

    /// A deck name with a space works unquoted, quoted or as its slug.
    @Test func deckNamesNeedNoQuotes() throws {
        let path = try Self.koreanCollection(count: 2)
        for words in [["Korean", "Words"], ["Korean Words"], ["korean-words"]] {
            let result = try Binary.run(["stats", "--collection", path] + words)
            #expect(result.status == 0, "\(words): \(result.stderr)")
            #expect(result.stdout.contains("2 new"), "\(words)")
        }
        let wrong = try Binary.run(["stats", "--collection", path, "Korean", "Nope"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("no deck named “Korean Nope”"))
    }
}
