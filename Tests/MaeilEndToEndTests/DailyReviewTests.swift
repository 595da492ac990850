import Foundation
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// A day of study at tmux as a person's keys make it: edits that keep, answers that are never
/// taken as keys, one key per action.
@Suite("Every day at the prompt", .serialized)
struct DailyReviewTests {
    /// Fields no line can show as they are: HTML, a line break, a tab, NFD Hangul, an escape.
    static let awkwardFields = [
        NoteField(name: "word", value: "김치<b>볶음</b>밥", language: "ko"),
        NoteField(name: "meaning", value: "kimchi\nfried rice", language: "en"),
        NoteField(name: "note", value: "\u{1100}\u{1175}\u{11B7}\u{110E}\u{1175}\tNFD"),
        NoteField(name: "source", value: "\u{1B}[31mred\u{1B}[0m 赤"),
    ]

    static func awkwardCollection() throws -> (path: String, noteID: Int64) {
        let path = Fixture.temporaryDirectory().appendingPathComponent("collection.sqlite").path
        let collection = try Collection(path: path)
        var noteID: Int64 = 0
        try collection.batch(now: Date()) { writer in
            let deck = try writer.createDeck(name: "Awkward", kind: .word, templates: [
                CardTemplate(name: "recognize", front: ["word"], back: ["meaning", "note", "source"]),
            ], preset: Preset(name: "Awkward", burySiblings: false))
            noteID = try writer.addNote(NoteDraft(guid: "awkward", kind: .word, fields: awkwardFields, position: 0), deck: deck).id
        }
        return (path, noteID)
    }

    /// The note's row as stored: every field's bytes, its tags and when it last changed.
    static func row(_ path: String, note: Int64) throws -> [String] {
        try Collection(path: path).read {
            try String.fetchAll($0, sql: "SELECT field_names || x'1e' || field_values || x'1e' || field_languages || x'1e' || tags || x'1e' || modified_at FROM note WHERE id = ?", arguments: [note])
        }
    }

    /// ⏎ through every field, by `maeil edit`, `edit` at the prompt and `e` in a review: the
    /// note comes back byte for byte, and each line showed the field's text to edit.
    @Test(arguments: ["shell", "prompt", "review"])
    func enterThroughTheEditorKeepsTheNote(_ way: String) throws {
        let (path, noteID) = try Self.awkwardCollection()
        let before = try Self.row(path, note: noteID)
        #expect(before.first?.contains("\u{1B}[31m") == true && before.first?.contains("\n") == true)
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        switch way {
        case "shell":
            try tmux.start(["edit", "--collection", path, "\(noteID)"], colour: true, width: 120)
        case "prompt":
            try tmux.start(["--collection", path], colour: true, width: 120)
            try tmux.wait(for: "review to start")
            try tmux.type("edit \(noteID)")
            try tmux.press("Enter")
        default:
            try tmux.start(["--collection", path], colour: true, width: 120)
            try tmux.wait(for: "review to start")
            try tmux.type("review")
            try tmux.press("Enter")
            try tmux.waitForLastLines(1, containing: "⏎ show ›")
            try tmux.type("e")
        }
        // Each field's line holds its text, as it can be shown on one line.
        for shown in ["word: 김치<b>볶음</b>밥", "meaning: kimchi fried rice", "note: 김치 NFD", "source: red 赤"] {
            try tmux.waitForLastLines(1, containing: shown)
            try tmux.press("Enter")
        }
        if way == "shell" {
            try tmux.wait(for: "Nothing changed.")
        } else if way == "review" {
            try tmux.waitForLastLines(3, containing: "⏎ show ›")
        } else {
            try tmux.waitForLastLines(2, containing: "Nothing changed.")
        }
        #expect(try Self.row(path, note: noteID) == before)
    }

    /// What is typed into a field replaces it; the other fields keep theirs.
    @Test func anEditedFieldIsSavedAndTheOthersKept() throws {
        let (path, noteID) = try Self.awkwardCollection()
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["edit", "--collection", path, "\(noteID)"], width: 120)
        try tmux.waitForLastLines(1, containing: "word: 김치<b>볶음</b>밥")
        try tmux.press("Enter")
        try tmux.waitForLastLines(1, containing: "meaning: kimchi fried rice")
        try tmux.press("C-u")
        try tmux.type("fried kimchi rice")
        try tmux.press("Enter")
        try tmux.press("Enter")
        try tmux.press("Enter")
        try tmux.wait(for: "Saved note")
        let saved = try Collection(path: path).note(id: noteID).fields
        #expect(saved[1].value == "fried kimchi rice")
        #expect(saved[0] == Self.awkwardFields[0] && saved[3] == Self.awkwardFields[3])
    }

    /// Kana-like cards whose answers are u, e and o: each is judged as an answer; none runs
    /// undo, the editor or the picture viewer, and the notes stay as they were.
    @Test func typedAnswersAreNeverTakenAsKeys() throws {
        let path = Fixture.temporaryDirectory().appendingPathComponent("collection.sqlite").path
        let collection = try Collection(path: path)
        let kana = [("う", "u"), ("え", "e"), ("お", "o")]
        try collection.batch(now: Date()) { writer in
            let deck = try writer.createDeck(name: "Kana", kind: .word, templates: [
                CardTemplate(name: "read", front: ["kana"], back: ["romaji"], typed: "romaji"),
            ], preset: Preset(name: "Kana", burySiblings: false))
            for (index, pair) in kana.enumerated() {
                try writer.addNote(NoteDraft(guid: "kana\(index)", kind: .word, fields: [
                    NoteField(name: "kana", value: pair.0, language: "ja"), NoteField(name: "romaji", value: pair.1),
                ], position: index), deck: deck)
            }
        }
        let before = try collection.read { try String.fetchAll($0, sql: "SELECT field_values || modified_at FROM note ORDER BY id") }
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path], width: 120)
        try tmux.wait(for: "review to start")
        try tmux.type("review")
        try tmux.press("Enter")
        for (index, pair) in kana.enumerated() {
            try tmux.waitForLastLines(1, containing: "answer ›")
            try tmux.type(pair.1)
            try tmux.press("Enter")
            try tmux.wait(for: "✓ \(pair.1)")
            try tmux.waitForLastLines(1, containing: "1–4 ›")
            try tmux.type("4")
            if index < kana.count - 1 { try tmux.waitForLastLines(3, containing: "answer ›") }
        }
        let end = try tmux.wait(for: "Reviewed 3")
        #expect(end.contains("Reviewed 3 · 100% correct"), "\(end)")
        for never in ["↶ undone", "nothing to undo", "Edit each field", "no pictures"] {
            #expect(!end.contains(never), "\(never):\n\(end)")
        }
        let after = try collection.read { try String.fetchAll($0, sql: "SELECT field_values || modified_at FROM note ORDER BY id") }
        #expect(after == before)
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 3)
    }

    /// ⏎ after a wrong typed answer asks for a button instead of counting as "good".
    @Test func enterAfterAWrongTypedAnswerIsNotGood() throws {
        let path = try PromptTests.koreanCollection(count: 1)
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path], width: 120)
        try tmux.wait(for: "review to start")
        try tmux.type("review")
        try tmux.press("Enter")
        try tmux.waitForLastLines(1, containing: "answer ›")
        try tmux.type("김지")
        try tmux.press("Enter")
        try tmux.wait(for: "✗ 김[지](치)")
        try tmux.press("Enter")
        try tmux.waitForLastLines(3, containing: "The typed answer was not right")
        let answered = { try Collection(path: path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log") } }
        #expect(try answered() == 0)
        #expect(try !tmux.screen().split(separator: "\n").contains { $0.hasPrefix("good ·") })
        try tmux.type("1")
        // The hint above says "1 again · 2 hard…" too: the answer's own line is what shows it took.
        try tmux.wait(until: "the answer's line") { $0.split(separator: "\n").contains { $0.hasPrefix("again · 1m") } }
        #expect(try answered() == 1)
    }

    /// With speech on its own (the default, `auto`), a Hangul letter's example word is said
    /// once the answer shows it, not with the letter.
    @Test func speechBeforeTheRevealSaysOnlyTheFront() throws {
        let path = try TerminalTests.hangulCollection()
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path, "review", "hangul-jamo", "--fuzz", "off"], width: 120)
        let front = try tmux.waitForLastLines(1, containing: "⏎ show ›")
        let before = try tmux.screen()
        #expect(before.contains("🔊 ko: ㄱ") && !before.contains("가방"), "\(front)\n\(before)")
        try tmux.press("Enter")
        try tmux.waitForLastLines(1, containing: "1–4 ›")
        #expect(try tmux.screen().contains("🔊 ko: 가방"))
    }

    /// Counts as `decks` gives them: a buried or suspended new card frees its place in the
    /// day's limit, undoing a suspension keeps the card shown after it, leaving before any
    /// answer says what is still due, a buried card says so, and `unbury` brings it back.
    @Test func countsStayTrueThroughBuryingSuspendingAndLeaving() throws {
        let path = try Fixture.wordCollection(count: 20, newPerDay: 10)
        let buried = try Binary.run(["review", "--collection", path], input: "b\n!\nq\n")
        let headers = buried.stdout.split(separator: "\n").filter { $0.hasPrefix("── Words") }
        #expect(headers == ["── Words · 0 due · 0 learning · 10 new", "── Words · 0 due · 0 learning · 10 new",
                            "── Words · 0 due · 0 learning · 10 new"], "\(buried.stdout)")
        #expect(buried.stdout.contains("No cards reviewed; 10 still due today."), "\(buried.stdout)")
        #expect(!buried.stdout.contains("Nothing due right now"))
        let decks = try Binary.run(["decks", "--collection", path])
        #expect(decks.stdout.contains("Words  20     0    0         10"), "\(decks.stdout)")
        let info = try Binary.run(["info", "--collection", path, "1"])
        #expect(info.stdout.contains("new · buried until "), "\(info.stdout)")
        let unburied = try Binary.run(["unbury", "--collection", path, "1"])
        #expect(unburied.status == 0 && unburied.stdout.contains("unburied note 1"))
        #expect(try !Binary.run(["info", "--collection", path, "1"]).stdout.contains("buried"))

        // Suspend the first card, undo that, then answer everything: none drops out.
        let small = try Fixture.wordCollection(count: 3)
        let undone = try Binary.run(["review", "--collection", small], input: "!\nu\n" + String(repeating: "\n4\n", count: 3))
        #expect(undone.stdout.contains("Reviewed 3 · 100% correct"), "\(undone.stdout)")
    }

    /// Twenty cards that are only shown take two keys each: one to show, one to answer.
    @Test func aCardThatIsOnlyShownTakesTwoKeys() throws {
        let path = try Fixture.wordCollection(count: 20)
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path], width: 120)
        try tmux.wait(for: "review to start")
        try tmux.type("review")
        try tmux.press("Enter")
        var keys = 0
        for card in 0..<20 {
            try tmux.waitForLastLines(1, containing: "⏎ show ›")
            try tmux.press("Space")
            keys += 1
            try tmux.waitForLastLines(1, containing: "1–4 ›")
            try tmux.type("4")
            keys += 1
            if card < 19 { try tmux.waitForLastLines(4, containing: "easy · ") }
        }
        let end = try tmux.wait(for: "Reviewed 20")
        #expect(keys == 40)
        #expect(end.contains("Reviewed 20 · 100% correct"), "\(end)")
        let collection = try Collection(path: path)
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 20)
    }
}
