import Foundation
import MaeilCore
import MaeilOptimizer
import MaeilStore

/// `maeil optimize`: FSRS fitted to a learner's reviews, the current and the fitted parameters
/// scored on reviews the fit did not see, and Anki's rule for keeping them — the fit replaces
/// the current parameters only if it predicts the reviews better.
package struct FSRSFitting {
    package var optimizer: Optimizer
    package var items: [FSRSItem]
    /// The parameters in use: the first deck's preset's, or the defaults.
    package var current: [Double]
    /// Where `--save` stores the fit.
    package var target: (collection: Collection, deck: Deck)?

    package struct Outcome {
        package let fitted: [Double]
        package let scores: Evaluation.HeldOut?
        /// The current parameters predict the reviews as well or better.
        package let keepCurrent: Bool
        package let saved: Bool
        package let fitSeconds: Double
    }

    /// The reviews of a CSV in the FSRS optimizer's format.
    package init(optimizer: Optimizer, csv text: String, timeZone: TimeZone, rolloverHour: Int) throws {
        self.optimizer = optimizer
        items = try ItemBuilder.items(csv: text, timeZone: timeZone, rolloverHour: rolloverHour)
        current = Optimizer.defaultParameters
    }

    /// The reviews of `decks`, fitted with the first deck's relearning steps; `save` keeps a
    /// better fit in that deck's preset.
    package init(optimizer: Optimizer, collection: Collection, decks: [Deck], save: Bool, now: Date, timeZone: TimeZone) throws {
        self.optimizer = optimizer
        current = Optimizer.defaultParameters
        if let deck = decks.first {
            let preset = try collection.preset(id: deck.presetID)
            current = preset.scheduler.fsrsParameters.weights
            self.optimizer.relearningSteps = FittingHistory.relearningSteps(preset)
            if save { target = (collection, deck) }
        }
        items = try FittingHistory.items(collection: collection, decks: decks, now: now, timeZone: timeZone)
    }

    /// Scores both parameter sets on held-out reviews (the first half of `progress`), fits all
    /// reviews (the second half), and saves a better fit to the target deck's preset.
    package func run(now: Date, timeZone: TimeZone, progress: (Double) -> Void = { _ in }) throws -> Outcome {
        // The held-out scores fit five times on growing shares; the parameters come from all reviews.
        let scores = try Evaluation.heldOut(items, current: current, optimizer: optimizer) { progress($0 / 2) }
        let started = Date()
        let fitted = try optimizer.fit(items) { progress(0.5 + $0 / 2) }
        let fitSeconds = Date().timeIntervalSince(started)
        let keepCurrent = Evaluation.evaluate(items, parameters: fitted).logLoss >= Evaluation.evaluate(items, parameters: current).logLoss
        if let target, !keepCurrent {
            let text = fitted.map { String(format: "%.4f", $0) }.joined(separator: ", ")
            _ = try PresetChange(collection: target.collection).set(.fsrsParameters, .text(text), deck: target.deck, now: now, timeZone: timeZone)
        }
        return Outcome(fitted: fitted, scores: scores, keepCurrent: keepCurrent, saved: target != nil && !keepCurrent, fitSeconds: fitSeconds)
    }
}
