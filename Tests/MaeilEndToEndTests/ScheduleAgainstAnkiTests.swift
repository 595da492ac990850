import Foundation
import MaeilTestSupport
import Testing

/// `maeil schedule` with every setting that changes a card's schedule, against Anki's own
/// scheduler (scripts/anki/schedule-presets.py: random presets and answers, Anki answering at the
/// moments `maeil schedule` answers, its clock frozen there), and a deck's preset through --deck.
@Suite("maeil schedule")
struct ScheduleAgainstAnkiTests {
    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func everySettingSchedulesAsAnkiDoes() throws {
        let result = try AnkiPython.script("scripts/anki/schedule-presets.py", [Binary.url.path, "150", "11"])
        try #require(result.status == 0, "\(result.errors)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(report["cases"] as? Int == 150)
        #expect(report["answers"] as? Int ?? 0 > 1000, "answers compared: \(report["answers"] ?? 0)")
        #expect(report["different_cases"] as? Int == 0, "\(result.output)")
    }

    /// A deck's preset, given with --deck, replays as the same settings given with --set; --set
    /// goes on top of it.
    @Test func aDecksPresetIsTheSettingsItHolds() throws {
        let collection = try Fixture.wordCollection(count: 1)
        let settings = ["starting_ease=2.1", "easy_bonus=1.6", "hard_interval=1.1", "learning_steps=5m", "rollover_hour=7"]
        for setting in settings {
            let parts = setting.split(separator: "=").map(String.init)
            let set = try Binary.run(["deck", "Words", "set", parts[0], parts[1], "--collection", collection])
            try #require(set.status == 0, "\(set.stderr)")
        }
        let answers = ["--ratings", "good,good,hard,easy,again,good", "--late", "0,0,1,0,2"]
        let fromDeck = try Binary.run(["schedule", "--deck", "Words", "--collection", collection] + answers)
        let fromSettings = try Binary.run(["schedule"] + settings.flatMap { ["--set", $0] } + answers)
        #expect(fromDeck.status == 0 && fromDeck.stdout == fromSettings.stdout && !fromDeck.stdout.isEmpty, "\(fromDeck.stdout)\(fromDeck.stderr)\n\(fromSettings.stdout)")
        let onTop = try Binary.run(["schedule", "--deck", "Words", "--collection", collection, "--set", "easy_bonus=1.3"] + answers)
        let plain = try Binary.run(["schedule"] + settings.dropFirst(2).flatMap { ["--set", $0] } + ["--set", "starting_ease=2.1", "--set", "easy_bonus=1.3"] + answers)
        #expect(onTop.stdout == plain.stdout, "\(onTop.stdout)\n\(plain.stdout)")
        let missing = try Binary.run(["schedule", "--deck", "Nope", "--collection", collection] + answers)
        #expect(missing.status != 0 && missing.stderr.contains("Nope"), "\(missing.stderr)")
    }
}
