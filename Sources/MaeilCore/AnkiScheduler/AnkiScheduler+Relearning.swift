/// Relearning cards (Anki's relearning.rs): a lapsed review card working through its
/// relearning steps. `intervalDays` holds the interval it will return to review with.
extension AnkiScheduler {
    func relearningOutcome(_ card: CardState, _ rating: Rating, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        let steps = settings.relearningSteps
        let fsrs = answer.fsrs

        func stay(_ rating: Rating, step: Int, delay: Int, intervalDays: Int? = nil) -> Outcome {
            Transition(phase: .relearning, step: step, delaySeconds: delay,
                       intervalDays: intervalDays ?? card.intervalDays, easePermille: card.easePermille,
                       memory: fsrs?[rating].memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: context)
        }

        func returnToReview(_ rating: Rating, days: Int) -> Outcome {
            Transition(phase: .review, intervalDays: days, easePermille: card.easePermille,
                       memory: fsrs?[rating].memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: context)
        }

        /// Without a step left: SM-2 returns with the stored lapse interval, FSRS with its own.
        func returningDays(_ rating: Rating) -> Int {
            fsrs.map { answer.reviewInterval(Float($0[rating].interval)) } ?? card.intervalDays
        }

        switch rating {
        case .again:
            // Again restarts the steps; ease and lapses were already charged when the card lapsed.
            guard let delay = steps.againDelay else { return returnToReview(.again, days: returningDays(.again)) }
            let againDays = max(Int(failingInterval(intervalDays: card.intervalDays, answer).rounded(.toNearestOrAwayFromZero)), 1)
            return stay(.again, step: 0, delay: delay, intervalDays: againDays)
        case .hard:
            return steps.hardDelay(atStep: card.step).map { stay(.hard, step: card.step, delay: $0) }
                ?? returnToReview(.hard, days: returningDays(.hard))
        case .good:
            return steps.goodDelay(atStep: card.step).map { stay(.good, step: steps.stepAfterGood(card.step), delay: $0) }
                ?? returnToReview(.good, days: returningDays(.good))
        case .easy:
            return returnToReview(.easy, days: fsrs.map(answer.fsrsEasyInterval) ?? card.intervalDays + 1)
        }
    }
}
