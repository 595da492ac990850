import ArgumentParser
import Foundation
import MaeilCore
import MaeilOptimizer
import MaeilREPL
import MaeilSession
import MaeilStore

struct OptimizeCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimize",
        abstract: "Fit FSRS's parameters to your own review history, as Anki and fsrs-rs do.",
        discussion: """
            Builds training items from the decks' review log by Anki's rules (from the last learning \
            run after a reset on; one item per review on a later day; manual changes left out), drops \
            fsrs-rs's outliers, pre-trains the four initial stabilities and fits all 21 parameters. \
            The log loss and RMSE (bins) printed for the current and the fitted parameters are on \
            reviews the fit did not see: five times, the fit uses the reviews up to a point and \
            predicts the next sixth. --save stores the fitted parameters in the deck's preset. \
            --csv reads a review log in the FSRS optimizer's format (card_id, review_time, \
            review_rating, review_state, review_duration) instead of the collection.
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks whose reviews to fit (default: all).")
    var decks: [String] = []

    @Option(help: ArgumentHelp("A review log in the FSRS optimizer's CSV format.", valueName: "file"), completion: .file())
    var csv: String?

    @Flag(help: "Store the fitted parameters in the deck's preset (one deck).")
    var save = false

    @Option(help: "Passes over the reviews (fsrs-rs: 5; Anki: 8).")
    var epochs = 5

    @Option(help: ArgumentHelp("The hour a study day starts, for --csv.", valueName: "hour"))
    var rolloverHour = 4

    @Flag(help: "Print JSON.")
    var json = false

    @Flag(help: ArgumentHelp("With --json, the parameters each held-out split fitted.", visibility: .hidden))
    var splits = false

    @Option(help: ArgumentHelp("The seed that orders the batches.", visibility: .hidden))
    var seed: UInt64 = 2023

    func validate() throws {
        if save, csv != nil { throw ValidationError("--save stores a fit of a deck's reviews; it does not go with --csv") }
        if save, decks.count != 1 { throw ValidationError("--save needs one deck: optimize DECK --save") }
        guard (1...50).contains(epochs) else { throw ValidationError("--epochs takes 1 to 50") }
        guard (0...23).contains(rolloverHour) else { throw ValidationError("--rollover-hour takes 0 to 23") }
    }

    func run(in context: CommandContext) throws {
        var optimizer = Optimizer()
        optimizer.epochs = epochs
        optimizer.seed = seed
        let items: [FSRSItem]
        var current = Optimizer.defaultParameters
        var target: (collection: Collection, deck: Deck)?
        if let csv {
            let text: String
            do { text = try String(contentsOfFile: csv, encoding: .utf8) } catch {
                throw UserError("\(csv): cannot be read (\(error.localizedDescription))")
            }
            do {
                items = try ItemBuilder.items(csv: text, timeZone: context.environment.timeZone, rolloverHour: rolloverHour)
            } catch let problem as ItemBuilder.CSVProblem {
                throw UserError("\(csv): \(problem)")
            }
        } else {
            let collection = try context.collection(self.collection, readOnly: !save)
            let chosen = decks.isEmpty ? try collection.decks() : try DeckNames.resolve(decks, in: collection)
            if let deck = chosen.first {
                let preset = try collection.preset(id: deck.presetID)
                current = preset.scheduler.fsrsParameters.weights
                optimizer.relearningSteps = FittingHistory.relearningSteps(preset)
                if save { target = (collection, deck) }
            }
            items = try FittingHistory.items(collection: collection, decks: chosen, now: context.now, timeZone: context.environment.timeZone)
        }
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1 && !json)
        let fitted: [Double]
        let scores: Evaluation.HeldOut?
        var fitSeconds = 0.0
        do {
            // The held-out scores fit five times on growing shares; the parameters come from all reviews.
            scores = try Evaluation.heldOut(items, current: current, optimizer: optimizer) { bar.update(Int($0 * 5000), of: 10000) }
            let started = Date()
            fitted = try optimizer.fit(items) { bar.update(5000 + Int($0 * 5000), of: 10000) }
            fitSeconds = Date().timeIntervalSince(started)
        } catch let failure as Optimizer.Failure {
            bar.finish()
            throw UserError(failure.description)
        }
        bar.finish()
        // As Anki does: the fit replaces the current parameters only if it predicts the reviews better.
        let keepCurrent = Evaluation.evaluate(items, parameters: fitted).logLoss >= Evaluation.evaluate(items, parameters: current).logLoss
        if let target, !keepCurrent {
            let text = fitted.map { String(format: "%.4f", $0) }.joined(separator: ", ")
            _ = try PresetChange(collection: target.collection).set(.fsrsParameters, .text(text), deck: target.deck, now: context.now,
                                                                    timeZone: context.environment.timeZone)
        }
        if json {
            func metrics(_ evaluation: Evaluation?) -> JSONObject? {
                evaluation.map { JSONObject([("log_loss", $0.logLoss), ("rmse_bins", $0.rmseBins), ("reviews", $0.reviews)]) }
            }
            context.verbatim(try JSONOutput.string(JSONObject([
                ("items", items.count), ("parameters", fitted.map { ($0 * 10_000).rounded() / 10_000 }),
                ("current_parameters", current), ("current", metrics(scores?.current)), ("fitted", metrics(scores?.fitted)),
                ("saved", target != nil && !keepCurrent), ("better_than_current", !keepCurrent), ("fit_seconds", (fitSeconds * 1000).rounded() / 1000),
            ] + (splits ? [("splits", scores?.splits ?? [])] : []))))
            return
        }
        context.line("\(items.count) reviews to learn from" + (items.count < 64 ? " (too few to fit more than the first stabilities: fsrs-rs needs 64)." : "."))
        if let scores {
            context.line(TextTable.render(header: ["held-out reviews", "log loss", "RMSE (bins)"], rows: [
                ["current parameters", String(format: "%.4f", scores.current.logLoss), String(format: "%.2f%%", scores.current.rmseBins * 100)],
                ["fitted parameters", String(format: "%.4f", scores.fitted.logLoss), String(format: "%.2f%%", scores.fitted.rmseBins * 100)],
            ]))
        }
        context.line("Fitted: " + fitted.map { String(format: "%.4f", $0) }.joined(separator: ", "))
        if keepCurrent {
            context.line("The current parameters predict these reviews as well or better; " + (target == nil ? "keep them." : "they were kept."))
        } else if let target {
            context.line("Saved to \(TerminalText.sanitize(target.deck.name))'s preset.")
        } else if csv == nil, decks.count == 1 {
            context.line(context.style.dim("optimize \(DeckNames.slug(decks[0])) --save stores them."))
        }
    }
}
