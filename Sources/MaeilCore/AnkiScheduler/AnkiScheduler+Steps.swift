/// What learning and relearning share (Anki's steps.rs): again goes back to the first step,
/// hard repeats the current one, good moves to the next, and a card with no step left for its
/// answer (or answered easy) leaves for review.
extension AnkiScheduler {
    /// - Parameters:
    ///   - intervalInSteps: the interval kept while in steps (relearning: the one the card returns with).
    ///   - reviewEase: the ease the card has in review.
    ///   - reviewDays: the interval a card leaving for review gets for an answer.
    func stepsOutcome(_ card: CardState, _ rating: Rating, phase: CardPhase, steps: LearningSteps, step: Int, intervalInSteps: Int,
                      reviewEase: Int, reviewDays: (Rating) -> Int, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        let delay: Int?, nextStep: Int
        switch rating {
        case .again: (delay, nextStep) = (steps.againDelay, 0)
        case .hard: (delay, nextStep) = (steps.hardDelay(atStep: step), step)
        case .good: (delay, nextStep) = (steps.goodDelay(atStep: step), steps.stepAfterGood(step))
        case .easy: (delay, nextStep) = (nil, 0)
        }
        let memory = answer.fsrs?[rating].memory
        if let delay {
            return Transition(phase: phase, step: nextStep, delaySeconds: delay, intervalDays: intervalInSteps, easePermille: card.easePermille,
                              memory: memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: context)
        }
        return Transition(phase: .review, intervalDays: reviewDays(rating), easePermille: reviewEase, memory: memory, lapses: card.lapses)
            .finish(from: card, passed: rating.isPass, context: context)
    }
}
