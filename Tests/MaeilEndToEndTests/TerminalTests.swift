import Foundation
import MaeilREPL
import MaeilStore
import Testing
import MaeilTestSupport

/// The real binary at a real terminal with colour on (NO_COLOR unset, TERM=xterm-256color), at
/// 60 and 120 columns, read back as text the way a person sees it: `capture-pane` without
/// escapes, so a colour code that reached the screen as text shows up as `[0m`.
@Suite("At a terminal, in colour", .serialized)
struct TerminalTests {
    static let decks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Decks")

    /// A collection holding the bundled Hangul deck.
    static func hangulCollection() throws -> String {
        let path = Fixture.temporaryDirectory().appendingPathComponent("collection.sqlite").path
        let imported = try Binary.run(["import", decks.appendingPathComponent("hangul-jamo").path, "--collection", path, "--create"])
        #expect(imported.status == 0, "\(imported.stderr)")
        return path
    }

    /// What must never be on a screen: colour codes printed as text, or the escape itself.
    static func remnants(in screen: String) -> [String] {
        ["\u{1B}", "[0m", "[1m", "[2m", "[22m", "[31m", "[32m", "[33m", "[34m", "[36m", "^["].filter { screen.contains($0) }
    }

    /// Lines the terminal had to wrap itself: Maeil fits every line a cell short of the width,
    /// so a line that fills the row was too long for it, and may have split a word.
    static func overfull(_ screen: String, width: Int) -> [String] {
        screen.split(separator: "\n").map(String.init).filter { TerminalWidth.of($0) >= width }
    }

    /// The screen from the last line starting with `marker` to the end, without trailing blank lines.
    static func region(_ screen: String, from marker: String) -> [String] {
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map { String($0).trimmingTrailingSpaces() }
        while lines.last?.isEmpty == true { lines.removeLast() }
        guard let start = lines.lastIndex(where: { $0.hasPrefix(marker) }) else { return lines }
        return Array(lines[start...])
    }

    /// A review from the prompt to its summary, every screen checked.
    func review(width: Int) throws -> [String] {
        let path = try Self.hangulCollection()
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path], colour: true, width: width, height: 60)
        var screens: [String] = []
        func step(_ keys: [String], until text: String) throws {
            for key in keys {
                if ["Enter", "C-c"].contains(key) { try tmux.press(key) } else { try tmux.type(key) }
            }
            let screen = try tmux.wait(for: text)
            #expect(screen.contains(text), "waited for \(text):\n\(screen)")
            screens.append(screen)
        }
        try step([], until: "review to start")
        try step(["review hangul-jamo --fuzz off", "Enter"], until: "⏎ show")
        try step(["Enter"], until: "1–4 ›")
        let revealed = Self.region(screens.last!, from: "── Hangul Jamo")
        // A key acts at once: no ⏎ after it.
        try step(["3"], until: "good · 10m")
        try step(["Enter"], until: "easy")
        try step(["1"], until: "again · 1m")
        // Ctrl-C asks first; a second one leaves, keeping both answers.
        try step(["C-c"], until: "Ctrl-C again to leave")
        #expect(!screens.last!.contains("Reviewed"))
        try step(["C-c"], until: "Reviewed 2")
        try step(["stats", "Enter"], until: "True retention")
        for screen in screens {
            #expect(Self.remnants(in: screen).isEmpty, "escape remnants \(Self.remnants(in: screen)) at \(width) columns:\n\(screen)")
            #expect(Self.overfull(screen, width: width).isEmpty, "lines the terminal wrapped at \(width) columns:\n\(screen)")
        }
        let collection = try Collection(path: path)
        #expect(try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM review_log WHERE kind = 0") } == 2)
        return revealed
    }

    /// Issue 25, point 7: a flag with `f` and a colour key, an edit taken back with `u` during
    /// the review, and at the prompt `undo` taking back the last change whatever it was — a
    /// tag, then the flag — each said in one line, at 60 columns in colour.
    @Test func flagsAndUndoOfAnyChangeAt60Columns() throws {
        let path = try Self.hangulCollection()
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path], colour: true, width: 60, height: 60)
        _ = try tmux.wait(for: "review to start")
        try tmux.type("review hangul-jamo --fuzz off")
        try tmux.press("Enter")
        let shown = try tmux.wait(for: "⏎ show")
        let front = try #require(Self.region(shown, from: "── Hangul Jamo").dropFirst().first)
        try tmux.type("f")
        _ = try tmux.wait(for: "0\u{A0}none")
        try tmux.type("2")
        _ = try tmux.wait(for: "⚑ orange")
        try tmux.type("e")
        _ = try tmux.wait(for: "Ctrl-C cancels")
        try tmux.type("X")
        // ⏎ through every field, one at a time as a person does.
        for _ in 0..<20 {
            try tmux.press("Enter")
            Thread.sleep(forTimeInterval: 0.2)
            if try tmux.screen().contains("saved") { break }
        }
        _ = try tmux.wait(for: "saved")
        try tmux.type("u")
        // The card is shown again below its header: waited for as a whole (a busy machine drew
        // the header a moment before the front, and the screen read between the two).
        let undone = try tmux.wait(until: "the card shown again after the undo") { screen in
            screen.contains("↶ undone") && Self.region(screen, from: "── Hangul Jamo").contains("⏎ show ›")
        }
        #expect(Self.region(undone, from: "── Hangul Jamo").dropFirst().first == front, "the card shows its front as it was:\n\(undone)")
        try tmux.type("q")
        _ = try tmux.wait(until: "the prompt after the review") { screen in
            let lines = Self.region(screen, from: "No cards reviewed")
            return lines.first == "No cards reviewed; 10 still due today." && lines.last == "매일 ›"
        }
        let card = try Collection(path: path, readOnly: true).read { try Int64.fetchOne($0, sql: "SELECT id FROM card WHERE flags = 2") }
        let flagged = try #require(card, "the flag is on the card")
        let note = try Collection(path: path, readOnly: true).card(id: flagged).noteID
        let tags = try Collection(path: path, readOnly: true).note(id: note).tags
        // Each command typed once the prompt is back, as a person does.
        func run(_ command: String, until text: String) throws -> String {
            try tmux.type(command)
            try tmux.press("Enter")
            return try tmux.wait(until: "\(text), then the prompt") { screen in
                let lines = Self.region(screen, from: "매일 › \(command)")
                return lines.contains(text) && lines.last == "매일 ›"
            }
        }
        _ = try run("tag \(note) +tmux", until: "note \(note): " + (tags + ["tmux"]).joined(separator: " "))
        _ = try run("undo", until: "↶ undone: tag note \(note)")
        let screen = try run("undo", until: "↶ undone: flag orange on card \(flagged)")
        let region = Self.region(screen, from: "매일 › tag")
        #expect(region == ["매일 › tag \(note) +tmux", "note \(note): " + (tags + ["tmux"]).joined(separator: " "), "매일 › undo", "↶ undone: tag note \(note)",
                                                              "매일 › undo", "↶ undone: flag orange on card \(flagged)", "매일 ›"], "\(screen)")
        // The editor's own line wraps where the terminal ends it; what Maeil prints never does.
        #expect(Self.remnants(in: screen).isEmpty && Self.overfull(region.joined(separator: "\n"), width: 60).isEmpty, "\(screen)")
        let store = try Collection(path: path, readOnly: true)
        #expect(try store.card(id: flagged).flags == 0 && store.note(id: note).tags == tags)
        #expect(try store.note(id: note).fields.allSatisfy { !$0.value.hasSuffix("X") }, "the edit was taken back")
    }

    @Test func aReviewAt120Columns() throws {
        let revealed = try review(width: 120)
        #expect(revealed == [
            "── Hangul Jamo · 0 due · 0 learning · 10 new",
            "ㄱ",
            "initial · 초성",
            "🔊 ko: ㄱ",
            "⏎ show ›",
            "────────────────────────",
            "name: 기역",
            "romanization: g / k",
            "ipa: [k], [g] between voiced sounds",
            "mnemonic: Seen from the side it is the back of the tongue rising to the soft palate; learners also see a gun: g for",
            "gun.",
            "example: 가방",
            "example meaning: bag",
            "🔊 ko: 가방",
            "1 again 1m · 2 hard 6m · 3 good 10m · 4 easy 8d",
            "1–4 ›",
        ])
    }

    /// At 60 columns the mnemonic wraps between words, and the buttons fit on their own line.
    @Test func aReviewAt60Columns() throws {
        let revealed = try review(width: 60)
        #expect(revealed == [
            "── Hangul Jamo · 0 due · 0 learning · 10 new",
            "ㄱ",
            "initial · 초성",
            "🔊 ko: ㄱ",
            "⏎ show ›",
            "────────────────────────",
            "name: 기역",
            "romanization: g / k",
            "ipa: [k], [g] between voiced sounds",
            "mnemonic: Seen from the side it is the back of the tongue",
            "rising to the soft palate; learners also see a gun: g for",
            "gun.",
            "example: 가방",
            "example meaning: bag",
            "🔊 ko: 가방",
            "1 again 1m · 2 hard 6m · 3 good 10m · 4 easy 8d",
            "1–4 ›",
        ])
    }

    /// The greeting, help and a deck's options fit a narrow terminal too.
    @Test func helpAndDeckOptionsAt60Columns() throws {
        let path = try Self.hangulCollection()
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path], colour: true, width: 60, height: 80)
        try tmux.wait(for: "review to start")
        try tmux.type("help")
        try tmux.press("Enter")
        let help = try tmux.wait(for: "Tab completes")
        try tmux.type("deck hangul-jamo")
        try tmux.press("Enter")
        try tmux.waitForLastLines(3, containing: "maeil deck")
        let deck = try tmux.screen()
        for screen in [help, deck] {
            #expect(Self.remnants(in: screen).isEmpty, "\(screen)")
            #expect(Self.overfull(screen, width: 60).isEmpty, "\(screen)")
        }
        // Each description wraps under itself: a line of the list starts with a command or with
        // the description column's indent.
        let list = Self.region(help, from: "매일 › help").dropFirst().prefix { !$0.hasPrefix("help COMMAND") }
        let first = list.first ?? "", name = first.prefix { $0 != " " }
        let indent = String(repeating: " ", count: name.count + first.dropFirst(name.count).prefix { $0 == " " }.count)
        #expect(list.count > 30 && list.allSatisfy { $0.hasPrefix(indent) || $0.first?.isLetter == true } && list.contains { $0.hasPrefix(indent) },
                "\(list.joined(separator: "\n"))")
        #expect(Self.region(deck, from: "매일 › deck").prefix(4) == [
            "매일 › deck hangul-jamo",
            "Hangul Jamo · preset Hangul Jamo",
            "option                         value",
            "scheduler                      fsrs",
        ])
        // FSRS's 21 parameters under their name, each line of them indented as the first.
        let parameters = Self.region(deck, from: "fsrs_parameters").prefix { !$0.hasPrefix("deck ") }
        #expect(parameters.first == "fsrs_parameters", "\(deck)")
        #expect(parameters.count > 2 && parameters.dropFirst().allSatisfy { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }, "\(deck)")
        let weights = parameters.dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").components(separatedBy: ", ")
        #expect(weights.count == 21 && weights.allSatisfy { Double($0) != nil }, "\(weights)")
    }
}

extension String {
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }
}
