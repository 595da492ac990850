import Foundation
import Testing

/// `maeil optimize` against fsrs-rs itself (fsrs-rs-python, installed beside Anki's library):
/// scripts/anki/optimizer-check.py has a simulated learner review under three parameter sets far
/// from the defaults, fits the logs with both, and scores both with fsrs-rs's memory states.
@Suite("The optimizer against fsrs-rs")
struct OptimizerAgainstFSRSRSTests {
    @Test(.enabled(if: AnkiLibrary.python != nil, AnkiLibrary.missing), .timeLimit(.minutes(3)))
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
}
