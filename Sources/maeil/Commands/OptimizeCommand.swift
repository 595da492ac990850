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
            fsrs-rs's outliers, pre-trains the four initial stabilities and fits all 21 parameters, \
            then scores the current and the fitted parameters on all the reviews (log loss, RMSE by \
            bins); --save stores the fit in the deck's preset if it predicts them better, as Anki does. \
            --evaluate scores both on reviews no fit saw too, as Anki's Evaluate: five more fits, each \
            on the reviews up to a point, predicting the next sixth. --csv reads a review log in the \
            FSRS optimizer's format (card_id, review_time, review_rating, review_state, review_duration).
            """)

    @OptionGroup var collection: CollectionOptions

    @Argument(help: "Decks whose reviews to fit (default: all).", completion: Completions.decks) var decks: [String] = []

    @Option(help: ArgumentHelp("A review log in the FSRS optimizer's CSV format.", valueName: "file"), completion: .file()) var csv: String?

    @Flag(help: "Store the fitted parameters in the deck's preset (one deck).") var save = false
    @Flag(help: "Score both on reviews five more fits did not see (Anki's Evaluate).") var evaluate = false

    @Option(help: "Passes over the reviews: 8, as Anki has fsrs-rs make (fsrs-rs's own default is 5).") var epochs = 8

    @Option(help: ArgumentHelp("The hour a study day starts, for --csv.", valueName: "hour")) var rolloverHour = 4

    @Flag(help: "Print JSON.") var json = false

    @Flag(help: ArgumentHelp("With --json, the parameters each held-out split fitted.", visibility: .hidden)) var splits = false

    @Option(help: ArgumentHelp("The seed that orders the batches.", visibility: .hidden)) var seed: UInt64 = 2023

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
        let fitting: FSRSFitting
        if let csv {
            let text: String
            do { text = try String(contentsOfFile: csv, encoding: .utf8) } catch {
                throw UserError("\(csv): cannot be read (\(error.localizedDescription))")
            }
            do {
                fitting = try FSRSFitting(optimizer: optimizer, csv: text, timeZone: context.environment.timeZone, rolloverHour: rolloverHour)
            } catch let problem as ItemBuilder.CSVProblem {
                throw UserError("\(csv): \(problem)")
            }
        } else {
            let collection = try context.collection(self.collection, readOnly: !save)
            let chosen = decks.isEmpty ? try collection.decks() : try DeckNames.resolve(decks, in: collection)
            fitting = try FSRSFitting(optimizer: optimizer, collection: collection, decks: chosen, save: save, now: context.now,
                                      timeZone: context.environment.timeZone)
        }
        let bar = ProgressBar(enabled: isatty(STDERR_FILENO) == 1 && !json)
        let outcome: FSRSFitting.Outcome
        do {
            outcome = try fitting.run(heldOut: evaluate || splits, now: context.now, timeZone: context.environment.timeZone) { bar.update(Int($0 * 10_000), of: 10_000) }
        } catch let failure as Optimizer.Failure {
            bar.finish()
            throw UserError(failure.description)
        }
        bar.finish()
        if json {
            context.verbatim(try JSONOutput.string(OptimizeView.json(fitting, outcome, splits: splits)))
            return
        }
        let hint = csv == nil && decks.count == 1 ? DeckNames.slug(decks[0]) : nil
        OptimizeView.lines(fitting, outcome, saveHint: hint, style: context.style).forEach(context.line)
    }
}
