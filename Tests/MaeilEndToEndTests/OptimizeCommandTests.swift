import Foundation
import MaeilOptimizer
import MaeilTestSupport
import Testing

/// `maeil optimize` as Anki's two buttons: Optimize (fit, score both parameter sets on all the
/// reviews, keep the better) and, with --evaluate, Evaluate (both on reviews no fit saw).
@Suite("maeil optimize")
struct OptimizeCommandTests {
    static func log() throws -> URL {
        let file = Fixture.temporaryDirectory().appendingPathComponent("revlog.csv")
        let truth = [0.4, 1.8, 3.5, 10.0, 6.0, 0.7, 2.5, 0.02, 1.7, 0.15, 0.9, 1.6, 0.07, 0.25, 1.8, 0.55, 2.0, 0.5, 0.15, 0.08, 0.3]
        try SyntheticLog.csv(parameters: truth, cards: 400, seed: 3).write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func scoresAllReviewsAndHeldOutOnesWhenAsked() throws {
        let file = try Self.log()
        let plain = try Binary.run(["optimize", "--csv", file.path, "--epochs", "2"], environment: ["TZ": "UTC"])
        #expect(plain.status == 0, "\(plain.stderr)")
        let number = #"\d+\.\d{4}"#, percent = #"\d+\.\d{2}%"#
        let table = { (title: String) in [
            "^\(title) +log loss +RMSE \\(bins\\)$",
            "^current parameters +\(number) +\(percent)$",
            "^fitted parameters +\(number) +\(percent)$",
        ] }
        // The whole output, line by line; the fit beats FSRS's defaults here, so nothing follows it.
        let head = [#"^\d+ reviews to learn from\.$"#] + table("all reviews"), tail = ["^Fitted: (\(number), ){20}\(number)$"]
        func matches(_ output: String, _ patterns: [String]) -> Bool {
            let lines = output.split(separator: "\n").map(String.init)
            return lines.count == patterns.count && zip(lines, patterns).allSatisfy { $0.range(of: $1, options: .regularExpression) != nil }
        }
        #expect(matches(plain.stdout, head + tail), "\(plain.stdout)")
        let evaluated = try Binary.run(["optimize", "--csv", file.path, "--epochs", "2", "--evaluate"], environment: ["TZ": "UTC"])
        #expect(matches(evaluated.stdout, head + table("held-out reviews") + tail), "\(evaluated.stdout)")

        let json = try #require(try JSONSerialization.jsonObject(with: Data(Binary.run(["optimize", "--csv", file.path, "--json", "--epochs", "2"]).stdout.utf8)) as? [String: Any])
        #expect(json["held_out"] is NSNull)
        let current = try #require(json["current"] as? [String: Any]), fitted = try #require(json["fitted"] as? [String: Any])
        #expect(current["reviews"] as? Int == json["items"] as? Int)
        #expect((fitted["log_loss"] as? Double ?? 1) < (current["log_loss"] as? Double ?? 0), "a fit predicts the reviews it saw better than FSRS's defaults")
        #expect(json["better_than_current"] as? Bool == true)
        let withHeldOut = try #require(try JSONSerialization.jsonObject(
            with: Data(Binary.run(["optimize", "--csv", file.path, "--json", "--epochs", "2", "--evaluate"]).stdout.utf8)) as? [String: Any])
        let heldOut = try #require(withHeldOut["held_out"] as? [String: Any])
        #expect((heldOut["current"] as? [String: Any])?["reviews"] as? Int ?? 0 > 0)
        #expect(withHeldOut["parameters"] as? [Double] == json["parameters"] as? [Double], "scoring held-out reviews leaves the fit alone")
    }
}
