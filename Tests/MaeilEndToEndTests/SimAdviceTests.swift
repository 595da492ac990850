import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import MaeilTestSupport

/// `sim --sweep --budget` and `sim --compare --svg` from a shell: what they recommend and write.
@Suite("Simulation advice, from a shell")
struct SimAdviceTests {
    @Test func aSweepRecommendsWithinTheBudgetAndWritesItsChart() throws {
        let folder = Fixture.temporaryDirectory()
        let svg = folder.appendingPathComponent("sweep.svg").path
        let result = try Binary.run(["sim", "--items", "1500", "--days", "120", "--sweep", "desired_retention=0.80:0.95:0.05",
                                     "--budget", "12", "--svg", svg, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let rows = try #require(object["rows"] as? [[String: Any]])
        #expect(rows.compactMap { $0["value"] as? Double } == [0.8, 0.85, 0.9, 0.95], "no binary noise in the values")
        let minutes = rows.compactMap { $0["minutes_per_day"] as? Double }
        let memorized = rows.compactMap { $0["memorized_end"] as? Double }
        // The recommendation is the most memorized among the values within 12 minutes a day.
        let within = minutes.indices.filter { minutes[$0] <= 12 }
        let expected = within.max { memorized[$0] < memorized[$1] }.map { [0.8, 0.85, 0.9, 0.95][$0] }
        #expect(object["recommended"] as? Double == expected)
        let chart = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(chart.hasPrefix("<svg") && chart.hasSuffix("</svg>\n") && chart.contains("budget"))
        _ = try XMLDocument(xmlString: chart)
    }

    @Test func aComparisonExplainsAndWritesItsChart() throws {
        let folder = Fixture.temporaryDirectory()
        let svg = folder.appendingPathComponent("compare.svg").path
        let result = try Binary.run(["sim", "--items", "1000", "--days", "60", "--compare", "sm2,fsrs", "--svg", svg])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("sm2: classic SM-2 has no learning steps"))
        #expect(result.stdout.contains("recalled against a desired 0.90"))
        let chart = try String(contentsOfFile: svg, encoding: .utf8)
        _ = try XMLDocument(xmlString: chart)
        #expect(chart.contains(">sm2<") && chart.contains(">fsrs<"))
    }

    @Test func aBudgetWithoutASweepIsRefused() throws {
        let result = try Binary.run(["sim", "--budget", "20"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--budget goes with --sweep"))
    }

    /// `sim --deck` takes the deck's cards and limits: here 40 new cards, 5 new a day.
    @Test func aSimulationStartsFromADeck() throws {
        let path = try Fixture.wordCollection(count: 40, newPerDay: 5)
        let result = try Binary.run(["sim", "--deck", "Words", "--collection", path, "--days", "6", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["items"] as? Int == 40)
        #expect(object["new_total"] as? Double == 30, "five new cards a day for six days")
        #expect(object["scenario"] as? String == "Words")
    }
}
