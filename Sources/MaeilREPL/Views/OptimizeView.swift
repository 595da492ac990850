import Foundation
import MaeilCore
import MaeilOptimizer
import MaeilSession

/// What `maeil optimize` fitted, and whether it was kept.
package enum OptimizeView {
    package static func json(_ fitting: FSRSFitting, _ outcome: FSRSFitting.Outcome, splits: Bool) -> JSONObject {
        func metrics(_ evaluation: Evaluation) -> JSONObject {
            JSONObject([("log_loss", evaluation.logLoss), ("rmse_bins", evaluation.rmseBins), ("reviews", evaluation.reviews)])
        }
        let heldOut = outcome.heldOut.map { JSONObject([("current", metrics($0.current)), ("fitted", metrics($0.fitted))]) }
        return JSONObject([
            ("items", fitting.items.count), ("parameters", outcome.fitted.map { ($0 * 10_000).rounded() / 10_000 }),
            ("current_parameters", fitting.current), ("current", metrics(outcome.current)), ("fitted", metrics(outcome.fit)),
            ("held_out", heldOut), ("saved", outcome.saved), ("better_than_current", !outcome.keepCurrent),
            ("fit_seconds", (outcome.fitSeconds * 1000).rounded() / 1000),
        ] + (splits ? [("splits", outcome.heldOut?.splits ?? [])] : []))
    }

    /// `saveHint` names the deck `--save` would store the fit in, when one deck was fitted.
    package static func lines(_ fitting: FSRSFitting, _ outcome: FSRSFitting.Outcome, saveHint: String?, style: Style) -> [String] {
        let count = fitting.items.count
        var lines = ["\(count) reviews to learn from" + (count < 64 ? " (too few to fit more than the first stabilities: fsrs-rs needs 64)." : ".")]
        func rows(_ current: Evaluation, _ fitted: Evaluation) -> [[String]] {
            [("current parameters", current), ("fitted parameters", fitted)].map {
                [$0.0, String(format: "%.4f", $0.1.logLoss), String(format: "%.2f%%", $0.1.rmseBins * 100)]
            }
        }
        lines.append(TextTable.render(header: ["all reviews", "log loss", "RMSE (bins)"], rows: rows(outcome.current, outcome.fit)))
        if let heldOut = outcome.heldOut {
            lines.append(TextTable.render(header: ["held-out reviews", "log loss", "RMSE (bins)"], rows: rows(heldOut.current, heldOut.fitted)))
        }
        lines.append("Fitted: " + outcome.fitted.map { String(format: "%.4f", $0) }.joined(separator: ", "))
        if outcome.keepCurrent {
            lines.append("The current parameters predict these reviews as well or better; " + (fitting.target == nil ? "keep them." : "they were kept."))
        } else if let target = fitting.target {
            lines.append("Saved to \(TerminalText.sanitize(target.deck.name))'s preset.")
        } else if let saveHint {
            lines.append(style.dim("optimize \(saveHint) --save stores them."))
        }
        return lines
    }
}
