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
        /// Both parameter sets on every review, weighted by recency (fsrs-rs's `evaluate`):
        /// what Anki decides by.
        package let current: Evaluation
        package let fit: Evaluation
        /// Both on reviews the fits did not see, when asked for (Anki's Evaluate).
        package let heldOut: Evaluation.HeldOut?
        /// The current parameters predict the reviews as well or better.
        package var keepCurrent: Bool { fit.logLoss >= current.logLoss }
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

    /// Fits all reviews, scores both parameter sets on them and saves a better fit to the
    /// target deck's preset, as Anki's Optimize does; `heldOut` first scores both on reviews
    /// five fits did not see (Anki's Evaluate: five more fits, so the first half of `progress`).
    package func run(heldOut: Bool, now: Date, timeZone: TimeZone, progress: (Double) -> Void = { _ in }) throws -> Outcome {
        let share = heldOut ? 0.5 : 0
        let scores = heldOut ? try Evaluation.heldOut(items, current: current, optimizer: optimizer) { progress($0 * share) } : nil
        // The reviews are made ready for scoring, and the current parameters scored, on another
        // core while this one fits (the fit runs on one).
        nonisolated(unsafe) var everyReview: ScoringSet?, currentScore: Evaluation?
        let scoring = DispatchGroup()
        DispatchQueue.global().async(group: scoring) { [items, current] in
            everyReview = ScoringSet(items[...], recency: true)
            currentScore = everyReview!.evaluate(current)
        }
        let started = Date()
        let fitted = try { defer { scoring.wait() }; return try optimizer.fit(items) { progress(share + $0 * (1 - share)) } }()
        let fitSeconds = Date().timeIntervalSince(started)
        let fitScore = everyReview!.evaluate(fitted)
        let save = target != nil && fitScore.logLoss < currentScore!.logLoss
        if let target, save {
            let text = fitted.map { String(format: "%.4f", $0) }.joined(separator: ", ")
            _ = try PresetChange(collection: target.collection).set(.fsrsParameters, .text(text), deck: target.deck, now: now, timeZone: timeZone)
        }
        return Outcome(fitted: fitted, current: currentScore!, fit: fitScore, heldOut: scores, saved: save, fitSeconds: fitSeconds)
    }
}
