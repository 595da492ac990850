import Foundation
import Testing
import MaeilTestSupport

/// The smaller things a user meets on the command line, each as the binary does it.
@Suite("Smaller things, as written")
struct SmallerThingsTests {
    @Test func exportIntoAMissingFolderSaysWhatToDo() throws {
        let path = try Fixture.wordCollection(count: 2)
        let folder = Fixture.temporaryDirectory().appendingPathComponent("not here").path
        let result = try Binary.run(["export", "--collection", path, "--out", folder + "/words.apkg"])
        #expect(result.status == 1)
        #expect(result.stderr == "maeil: there is no folder \(folder) to write words.apkg into; make it first (mkdir -p '\(folder)')\n", "\(result.stderr)")
    }

    @Test func onlyANearMissIsOffered() throws {
        #expect(try Binary.run(["clear"]).stderr == "maeil: no command 'clear'; `maeil --help` lists them\n")
        #expect(try Binary.run(["stast"]).stderr.contains("the nearest is 'stats'"))
    }

    @Test func helpKnowsThePromptsOwnWords() throws {
        let path = try Fixture.wordCollection(count: 2)
        let result = try Binary.run(["--collection", path], input: "help quit\nhelp q\nquit\n")
        #expect(result.stdout.components(separatedBy: "Leave (q, Ctrl-D). r is review, ? is help.").count == 3, "\(result.stdout)")
        #expect(!result.stdout.contains("no command") && result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test func jsonIsTypedAndEverywhereAScriptReads() throws {
        let path = try Fixture.wordCollection(count: 2)
        let focus = try Binary.run(["focus", "--json", "--collection", path])
        let list = try JSONSerialization.jsonObject(with: Data(focus.stdout.utf8)) as? [String: Any]
        #expect(focus.status == 0 && list?["counts"] != nil, "\(focus.stdout)")
        let deck = try Binary.run(["deck", "Words", "--json", "--collection", path])
        let options = try #require(try JSONSerialization.jsonObject(with: Data(deck.stdout.utf8)) as? [String: Any])
        #expect(options["new_per_day"] as? Int == 10_000)
        #expect(options["bury_siblings"] as? Bool == false)
        #expect(options["desired_retention"] as? Double == 0.9)
        #expect((options["fsrs_parameters"] as? [Double])?.count == 21)
        #expect((options["easy_days"] as? [Double]) == [1, 1, 1, 1, 1, 1, 1])
        #expect(options["learning_steps"] as? String == "1m 10m")
    }

    /// Raising a preset's daily limit under a deck's own limit says which one holds there, and
    /// how to clear it; the whole output, as a shell shows it.
    @Test func aPresetsLimitUnderADecksOwnSaysSo() throws {
        let path = try Fixture.wordCollection(count: 2)
        #expect(try Binary.run(["deck", "Words", "set", "deck_reviews_per_day", "11", "--collection", path]).stdout == "deck_reviews_per_day = 11\n")
        let raised = try Binary.run(["deck", "Words", "set", "reviews_per_day", "500", "--collection", path])
        #expect(raised.stdout == """
            reviews_per_day = 500
            Words keeps its own limit there, deck_reviews_per_day 11 (deck Words set deck_reviews_per_day preset takes it away).

            """, "\(raised.stderr)")
        _ = try Binary.run(["deck", "Words", "set", "deck_reviews_per_day", "preset", "--collection", path])
        #expect(try Binary.run(["deck", "Words", "set", "reviews_per_day", "400", "--collection", path]).stdout == "reviews_per_day = 400\n")
    }

    /// A deck comes with its subdecks, as in Anki, and a parent that exists only in its
    /// subdecks' names (as Anki packages leave it) names them all.
    @Test func aParentDeckTakesItsSubdecks() throws {
        let folder = Fixture.temporaryDirectory()
        let path = folder.appendingPathComponent("c.sqlite").path
        for (deck, note) in [("Korean::Food", "김치\tkimchi"), ("Korean::Places", "서울\tSeoul"), ("Korean Practice", "물\twater")] {
            let file = folder.appendingPathComponent("\(deck.count).txt")
            try Data("#separator:tab\n#deck:\(deck)\n\(note)\n".utf8).write(to: file)
            #expect(try Binary.run(["import", file.path, "--collection", path, "--create"]).status == 0)
        }
        let review = try Binary.run(["review", "Korean", "--collection", path, "--fuzz", "off"], input: "\n4\n\n4\n\n4\n")
        #expect(review.stdout.contains("Reviewed 2 · 100% correct"), "\(review.stdout)")
        #expect(review.stdout.contains("── Korean::Food") && review.stdout.contains("── Korean::Places") && !review.stdout.contains("Korean Practice"))
    }

    /// A simulation from a deck counts the cards studied before it began among those it can
    /// have memorized: never more than all of them.
    @Test func aDecksSimulationNeverMemorizesMoreThanItStudied() throws {
        let path = try Fixture.wordCollection(count: 40)
        #expect(try Binary.run(["review", "--collection", path], input: String(repeating: "\n4\n", count: 40)).stdout.contains("Reviewed 40"))
        let sim = try Binary.run(["sim", "--deck", "Words", "--days", "30", "--new-per-day", "0", "--collection", path])
        #expect(sim.status == 0, "\(sim.stderr)")
        let line = try #require(sim.stdout.split(separator: "\n").first { $0.hasPrefix("memorized at the end") }, "\(sim.stdout)")
        let share = try #require(line.range(of: #"\((\d+)% of (\d+) studied\)"#, options: .regularExpression).map { String(line[$0]) }, "\(line)")
        let numbers = share.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        #expect(numbers.count == 2 && numbers[0] <= 100 && numbers[1] == 40, "\(line)")
    }

    /// A review's end backs up the collection when none is newer than half an hour, as Anki
    /// backs up on its own; a second review right after makes none.
    @Test func aReviewEndsWithABackupWhenOneIsDue() throws {
        let path = try Fixture.wordCollection(count: 5)
        let backups = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent("backups")
        #expect(try Binary.run(["review", "--collection", path], input: "\n4\n").status == 0)
        let first = try FileManager.default.contentsOfDirectory(atPath: backups.path).filter { $0.hasSuffix(".sqlite") }
        #expect(first.count == 1, "\(first)")
        #expect(try Binary.run(["review", "--collection", path], input: "\n4\n").status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: backups.path).filter { $0.hasSuffix(".sqlite") } == first)
        let listed = try Binary.run(["backup", "--list", "--collection", path]).stdout
        #expect(listed.contains("1  ") && listed.contains("5      5      1 "), "\(listed)")
    }
}
