import Foundation
import Testing
@testable import MaeilSimulator

/// The charts `sim --chart` writes read as the data they show.
@Suite("Charts of a few points")
struct ChartTests {
    static func ticks(_ svg: String, panel: Int) -> [String] {
        // Each panel's five axis labels stand just left of the panel (x = 64), in order.
        let labels = svg.split(separator: "\n").filter { $0.hasPrefix("<text x=\"64.0\"") }
            .compactMap { $0.split(separator: ">").dropFirst().first?.split(separator: "<").first.map(String.init) }
        return Array(labels.dropFirst(panel * 5).prefix(5))
    }

    @Test func memorizedItemsAreScaledToTheirOwnRange() {
        let svg = PointChart.svg(title: "sweep", labels: ["0.80", "0.85", "0.90"],
                                 series: PointChart.workload([900, 950, 980], [10, 14, 20]), budget: nil)
        let memorized = Self.ticks(svg, panel: 0), minutes = Self.ticks(svg, panel: 1)
        #expect(memorized.first.flatMap(Double.init).map { $0 > 800 } == true, "\(memorized)")
        #expect(minutes.first == "0.0", "minutes start at zero: \(minutes)")
        #expect(svg.contains("<path"), "a sweep's values are joined in order")
    }

    @Test func schedulersSideBySideStandAlone() {
        let svg = PointChart.svg(title: "compare", labels: ["sm2", "anki-sm2", "fsrs"],
                                 series: PointChart.workload([900, 950, 980], [10, 14, 20]), budget: nil, connected: false)
        #expect(!svg.contains("<path"))
        #expect(svg.components(separatedBy: "<circle").count - 1 == 6)
    }
}
