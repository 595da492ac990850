import Foundation
import MaeilStore
import Testing
import MaeilTestSupport

/// `maeil read` from a shell and the greeting at a real terminal, with M'Cheyne's plan.
@Suite("Reading plan, end to end")
struct ReadingPlanEndToEndTests {
    static let decks = TerminalTests.decks

    static func collection(_ names: [String]) throws -> String {
        let path = Fixture.temporaryDirectory().appendingPathComponent("collection.sqlite").path
        let imported = try Binary.run(["import", "--create", "--collection", path] + names.map { decks.appendingPathComponent($0).path })
        #expect(imported.status == 0, "\(imported.stderr)")
        return path
    }

    @Test func aDayIsReadAndMarkedFromTheShell() throws {
        let path = try Self.collection(["hangul-jamo"])
        func read(_ arguments: String...) throws -> Binary.Result { try Binary.run(["read"] + arguments + ["--collection", path]) }
        let none = try read()
        #expect(none.status == 1)
        #expect(none.stderr.contains("there is no reading plan yet; `maeil import ") && none.stderr.contains("mcheyne-reading-plan` adds M'Cheyne's"))

        let imported = try Binary.run(["import", Self.decks.appendingPathComponent("mcheyne-reading-plan").path, "--collection", path])
        #expect(imported.stdout == "M'Cheyne Reading Plan (new reading plan): 365 days; `maeil read` shows the next\n")
        #expect(try read().stdout == """
            M'Cheyne Reading Plan — day 1, January 1
              1 · family 1  Genesis 1
              2 · family 2  Matthew 1
              3 · secret 1  Ezra 1
              4 · secret 2  Acts 1
            0 of 365 days read. read done marks them all; read done 2 marks one.

            """)
        #expect(try read("done", "2").stdout.contains("  2 ✓ family 2  Matthew 1\n"))
        let done = try read("done")
        #expect(done.stdout == """
            M'Cheyne Reading Plan — day 1, January 1
              1 ✓ family 1  Genesis 1
              2 ✓ family 2  Matthew 1
              3 ✓ secret 1  Ezra 1
              4 ✓ secret 2  Acts 1
            1 of 365 days read. The next day's readings come tomorrow; read --day 2 shows them now.

            """)
        #expect(try read("done").stdout == "Day 1 is already read today. read --day 2 shows the next; read done --day 2 marks it.\n")
        let json = try JSONSerialization.jsonObject(with: Data(try read("--json", "--day", "173").stdout.utf8)) as! [String: Any]
        #expect(json["day"] as? Int == 173 && json["date"] as? String == "June 22" && json["days_read"] as? Int == 1)
        #expect((json["readings"] as? [[String: Any]])?.map { $0["reference"] as? String } == ["Deuteronomy 27:1–28:19", "Psalm 119:1–24", "Isaiah 54", "Matthew 2"])
        #expect(try read("undo", "4").stdout == "1 reading of day 1 marked unread.\n")
        #expect(try read().stdout.contains("  4 · secret 2  Acts 1\n"))
        let beyond = try read("--day", "400")
        #expect(beyond.status == 1 && beyond.stderr == "maeil: M'Cheyne Reading Plan has 365 days\n")
        let badPart = try read("done", "5")
        #expect(badPart.status == 1 && badPart.stderr == "maeil: there is no reading 5; day 1 has 4\n")
        // The focus list's JSON carries the day.
        let focus = try Binary.run(["focus", "--format", "json", "--collection", path])
        #expect(focus.stdout.contains("\"plan_id\" : \"mcheyne\""))
    }

    @Test func aVerseYouLoveJoinsTheMemoryVerses() throws {
        let path = try Self.collection(["memory-verses"])
        let own = try Binary.run(["read", "verse", "Psalm", "1:1", "--text", "Blessed is the man…", "--collection", path])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(own.stdout.hasPrefix("Added Psalm 1:1 to Memory Verses (note 61, 2 cards):\n"))
        let again = try Binary.run(["read", "verse", "Psalm 1:1", "--text", "Blessed is the man…", "--collection", path])
        #expect(again.stdout == "Psalm 1:1 is already in Memory Verses (note 61).\n")
        let collection = try Collection(path: path)
        let note = try #require(try collection.note(guid: "memory-verses/psalm-1-1"))
        #expect(note.fields.map(\.value) == ["Psalm 1:1", "Blessed is the man…"] && note.kind == .verse)
    }

    /// The text comes from the World English Bible as the bundled verses' does, and a verse the
    /// bundled deck holds is not added twice.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/diatheke"), "needs diatheke and sword-text-web (scripts/setup)"))
    func aVerseIsLookedUpInTheWorldEnglishBible() throws {
        let path = try Self.collection(["memory-verses"])
        let added = try Binary.run(["read", "verse", "Psalm 23:1-3", "--collection", path])
        #expect(added.stdout == """
            Added Psalm 23:1–3 to Memory Verses (note 61, 2 cards):
            Yahweh is my shepherd; I shall lack nothing. He makes me lie down in green pastures. He leads me beside still waters. \
            He restores my soul. He guides me in the paths of righteousness for his name’s sake.

            """)
        #expect(try Binary.run(["read", "verse", "John", "3:16", "--collection", path]).stdout == "John 3:16 is already in Memory Verses (note 1).\n")
        let missing = try Binary.run(["read", "verse", "Genesis 51:1", "--collection", path])
        #expect(missing.status == 1 && missing.stderr.contains("the World English Bible has no verse Genesis 51:1"))
    }

    /// A long day's readings wrap between readings, never inside a reference, at 60 columns.
    @Test func theGreetingShowsTheDayToRead() throws {
        let path = try Self.collection(["hangul-jamo", "mcheyne-reading-plan"])
        let collection = try Collection(path: path)
        let plan = try #require(try collection.readingPlans().first)
        for day in 1...172 { try collection.markRead(planID: plan.id, day: day, parts: [0, 1, 2, 3], studyDay: 100, at: Date()) }
        let tmux = Tmux(home: Fixture.temporaryDirectory())
        try tmux.start(["--collection", path], colour: true, width: 60, height: 20)
        // The greeting, then the prompt after it.
        let screen = try tmux.wait(until: "the greeting and the prompt") { $0.contains("review to start") && $0.contains("매일 ›") }
        #expect(TerminalTests.remnants(in: screen).isEmpty && TerminalTests.overfull(screen, width: 60).isEmpty, "\(screen)")
        // The spaces that must not break are no-break spaces on screen; they look like any other.
        let lines = screen.replacingOccurrences(of: "\u{00A0}", with: " ").split(separator: "\n").map(String.init)
        #expect(Array(lines.prefix(5)) == [
            "매일 Maeil · 0 due · 0 learning · 10 new · Hangul Jamo",
            "Reading · day 173: Deuteronomy 27:1–28:19 · Psalm 119:1–24",
            "Isaiah 54 · Matthew 2",
            "review to start · help for the commands · quit to leave",
            "매일 ›",
        ])
    }
}
