import Foundation
import MaeilTestSupport
import Testing

/// `maeil optimize` against fsrs-rs itself (fsrs-rs-python, installed beside Anki's library):
/// scripts/anki/optimizer-check.py has a simulated learner review under three parameter sets far
/// from the defaults, fits the logs with both, and scores both with fsrs-rs's memory states.
@Suite("The optimizer against fsrs-rs")
struct OptimizerAgainstFSRSRSTests {
    @Test(.enabled(if: AnkiLibrary.python != nil, AnkiLibrary.missing), .timeLimit(.minutes(40)))
    func fitsAsFSRSRSFits() throws {
        let script = AnkiLibrary.repository.appendingPathComponent("scripts/anki/optimizer-check.py").path
        let result = try Binary.runProgram(AnkiLibrary.python!, [script, Binary.url.path, "1500", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let sets = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]])
        #expect(sets.count == 3)
        for (name, set) in sets {
            let maeil = try #require(set["maeil"] as? [Double]), fsrsRS = try #require(set["fsrs_rs"] as? [Double])
            let generating = try #require(set["generating"] as? [Double])
            #expect(maeil[0] <= fsrsRS[0] * 1.01, "\(name): held-out log loss \(maeil[0]) vs fsrs-rs \(fsrsRS[0])")
            #expect(maeil[1] <= fsrsRS[1] * 1.05, "\(name): RMSE (bins) \(maeil[1]) vs fsrs-rs \(fsrsRS[1])")
            #expect(maeil[0] <= generating[0] * 1.01 + 0.002, "\(name): \(maeil[0]) vs the generating parameters' \(generating[0])")
            let ours = try #require(set["maeil_parameters"] as? [Double]), theirs = try #require(set["fsrs_rs_parameters"] as? [Double])
            #expect(zip(ours, theirs).allSatisfy { abs($0 - $1) <= 0.002 }, "\(name): \(ours) vs \(theirs)")
        }
    }

    /// On a deck Anki studied (scripts/anki/optimizer-anki.py: a simulated learner answers in
    /// Anki for 100 days, Anki fits FSRS as its deck options do and exports the deck), `maeil
    /// optimize` with no options gives Anki's parameters, to the 4th decimal.
    @Test(.enabled(if: AnkiLibrary.python != nil, AnkiLibrary.missing), .timeLimit(.minutes(40)), arguments: [1, 2])
    func fitsAnAnkiDeckAsAnkiDoes(seed: Int) throws {
        let folder = Fixture.temporaryDirectory()
        let made = try AnkiPython.script("scripts/anki/optimizer-anki.py", [folder.path, "\(seed)"])
        try #require(made.status == 0, "\(made.errors)")
        let anki = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("anki.json"))) as? [String: Any])
        let collection = folder.appendingPathComponent("maeil.sqlite").path
        // In the zone Anki fitted in (the script's clock is UTC): a review's day, and so the days
        // between reviews, are the learner's local days. In the tests' own zone, which follows the
        // hour, the fits parted from 20:00 UTC on (4,074 items against Anki's 4,075).
        let utc = ["TZ": "UTC"]
        let imported = try Binary.run(["import", folder.appendingPathComponent("fit.apkg").path, "--create", "--collection", collection], environment: utc)
        try #require(imported.status == 0, "\(imported.stderr)")
        let fitted = try Binary.run(["optimize", "Fit", "--json", "--collection", collection], environment: utc)
        try #require(fitted.status == 0, "\(fitted.stderr)")
        let maeil = try #require(try JSONSerialization.jsonObject(with: Data(fitted.stdout.utf8)) as? [String: Any])
        #expect(maeil["items"] as? Int == anki["fsrs_items"] as? Int, "the same reviews to learn from")
        let ours = try #require(maeil["parameters"] as? [Double]), theirs = try #require(anki["params"] as? [Double])
        // Maeil prints four decimals; Anki's value unrounded. Two fits a few millionths apart
        // can round either side of a half (0.12625), so each is Anki's within half a unit of
        // the 4th decimal and a few millionths.
        #expect(ours.count == 21 && zip(ours, theirs).allSatisfy { abs($0 - $1) <= 0.000_05 + 0.000_005 },
                "Maeil \(ours)\nAnki  \(theirs.map { ($0 * 10_000).rounded() / 10_000 })")
    }
}
