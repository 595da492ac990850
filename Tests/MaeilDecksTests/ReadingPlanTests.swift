import Foundation
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilDecks
@testable import MaeilSession
@testable import MaeilStore

@Suite("Reading plans")
struct ReadingPlanTests {
    static let bundled = BundledDecksTests.decks.appendingPathComponent("mcheyne-reading-plan").path

    @Test func mcheynesCalendarIsBundledWhole() throws {
        let plan = try ReadingPlanFormat.read(path: Self.bundled, options: ImportOptions())
        #expect(plan.key == "mcheyne" && plan.parts == ["family 1", "family 2", "secret 1", "secret 2"])
        #expect(plan.days.count == 365)
        #expect(plan.days.allSatisfy { $0.readings.count == 4 && $0.readings.allSatisfy { !$0.isEmpty } })
        #expect(plan.days[0].readings == ["Genesis 1", "Matthew 1", "Ezra 1", "Acts 1"] && plan.days[0].label == "January 1")
        #expect(plan.days[45].readings == ["Genesis 48", "Luke 1:39–80", "Job 14", "1 Corinthians 2"] && plan.days[45].label == "February 15")
        #expect(plan.days[364].readings == ["2 Chronicles 36", "Revelation 22", "Malachi 4", "John 21"] && plan.days[364].label == "December 31")
        // Issue 26, point 1: M'Cheyne's own divisions and order (the plan had drifted from his in 163 days).
        #expect(plan.days[172].readings == ["Deuteronomy 27:1–28:19", "Psalm 119:1–24", "Isaiah 54", "Matthew 2"])
        #expect(plan.days[219].readings[2] == "Jeremiah 36, 45" && plan.days[240].readings[3] == "Psalm 37")
        #expect(plan.days[344].readings[3] == "John 1")
    }

    /// The plan is the kept transcription (willswire/mcheyne's, which speric/mcheyne-api's
    /// agrees with on every reading: scripts/decks/generate-reading-plan.py compares them), in
    /// the plan's notation: en dashes, "Psalm" for one psalm, ", " between parts.
    @Test func thePlanIsTheTranscription() throws {
        let plan = try ReadingPlanFormat.read(path: Self.bundled, options: ImportOptions())
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/mcheyne/willswire.tsv")
        let rows = try String(contentsOf: fixture, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.map { $0.split(separator: "\t").map(String.init) }
        #expect(rows.count == 365)
        func shown(_ reading: String) -> String {
            var text = reading.replacingOccurrences(of: ",", with: ", ").replacingOccurrences(of: "-", with: "–")
            if text.hasPrefix("Psalms "), !text.contains("–") || text.contains(":") { text = "Psalm " + text.dropFirst("Psalms ".count) }
            return text
        }
        for (index, row) in rows.enumerated() where index < plan.days.count {
            #expect(plan.days[index].readings == row.dropFirst().map(shown), "day \(row[0])")
        }
    }

    /// scripts/decks/check-reading-plan.py holds the plan against the World English Bible's
    /// own chapters and verses: every column reads on from where it stopped, the Old Testament
    /// once, the New Testament and the Psalms twice.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/diatheke"), "needs diatheke and sword-text-web (scripts/setup)"))
    func theCalendarReadsTheWholeBibleAsPlanned() throws {
        let (status, output) = try BundledDecksTests.deckScript("check-reading-plan.py")
        #expect(status == 0, "\(output)")
        #expect(output.contains("365 days × 4 readings"))
    }

    @Test func badPlanFilesAreReportedWithTheirPlace() throws {
        let manifest = "format: 1\nid: p\nname: P\nreadings: [morning, evening]\ndays: days.tsv\n"
        let wrongColumns = try DeckFiles.write(["plan.yaml": manifest, "days.tsv": "day\tdate\tmorning\n1\tJan 1\tGenesis 1\n"])
        #expect(throws: ImportProblem.self) { try ReadingPlanFormat.read(path: wrongColumns, options: ImportOptions()) }
        do {
            _ = try ReadingPlanFormat.read(path: try DeckFiles.write(["plan.yaml": manifest, "days.tsv": "day\tdate\tmorning\tevening\n1\t\tGenesis 1\tMatthew 1\n3\t\tGenesis 2\tMatthew 2\n"]),
                                           options: ImportOptions())
            Issue.record("a skipped day number was accepted")
        } catch let problem as ImportProblem {
            #expect(problem.description.hasSuffix("days.tsv:3:1: day '3' should be 2: days are numbered in order from 1"))
        }
        do {
            _ = try ReadingPlanFormat.read(path: try DeckFiles.write(["plan.yaml": manifest.replacingOccurrences(of: "name: P\n", with: "name: P\ncolour: red\n"),
                                                                      "days.tsv": ""]), options: ImportOptions())
            Issue.record("an unknown key was accepted")
        } catch let problem as ImportProblem {
            #expect(problem.line == 4 && problem.column == 1 && problem.message.hasPrefix("unknown key 'colour'"))
        }
    }

    @Test func aSecondImportUpdatesThePlanAndKeepsWhatWasRead() throws {
        let collection = try DeckFiles.collection()
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let first = try Importer(collection: collection, now: now).apply(try DeckReader.read([Self.bundled], options: ImportOptions()))
        #expect(first.readingPlans.map(\.created) == [true] && first.readingPlans.first?.days == 365 && first.added == 0)
        let stored = try #require(try collection.readingPlans().first)
        #expect(try collection.markRead(planID: stored.id, day: 1, parts: [0, 1, 2, 3], studyDay: 10, at: now) == 4)
        #expect(try collection.markRead(planID: stored.id, day: 1, parts: [1], studyDay: 11, at: now) == 0)
        let second = try Importer(collection: collection, now: now).apply(try DeckReader.read([Self.bundled], options: ImportOptions()))
        #expect(second.readingPlans.map(\.created) == [false])
        #expect(try collection.readingPlans().count == 1)
        #expect(Set(try collection.readingMarks(planID: stored.id)) == Set((0..<4).map { ReadingMark(day: 1, part: $0, studyDay: 10) }))
        #expect(try collection.unmarkRead(planID: stored.id, day: 1, parts: [3]) == 1)
        #expect(try collection.readingMarks(planID: stored.id).count == 3)
    }

    @Test func aPlanAndDecksImportTogetherOrNotAtAll() throws {
        let collection = try DeckFiles.collection()
        let broken = try DeckFiles.write(["deck.yaml": "format: 1\nid: x\nname: X\nfields: [a]\ntemplates: [{name: t, front: a, back: a}]\nitems: [{id: one, b: 1}]\n"])
        #expect(throws: (any Error).self) {
            try Importer(collection: collection, now: Date()).apply(try DeckReader.read([Self.bundled, broken], options: ImportOptions()))
        }
        #expect(try collection.readingPlans().isEmpty)
    }
}
