/// What learning and relearning share (Anki's steps.rs): again goes back to the first step,
/// hard repeats the current one, good moves to the next, and a card with no step left for its
/// answer (or answered easy) leaves for review.
extension AnkiScheduler {
    @inline(__always)
    func stepsOutcome(_ card: CardState, _ rating: Rating, phase: CardPhase, steps: LearningSteps, step: Int,
                      _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        let delay: Int?, nextStep: Int
        switch rating {
        case .again: (delay, nextStep) = (steps.againDelay, 0)
        case .hard: (delay, nextStep) = (steps.hardDelay(atStep: step), step)
        case .good: (delay, nextStep) = (steps.goodDelay(atStep: step), steps.stepAfterGood(step))
        case .easy: (delay, nextStep) = (nil, 0)
        }
        let memory = answer.fsrs?[rating].memory
        let learning = phase == .learning
        if let delay {
            // The interval kept in steps: none while learning; in relearning the one the card returns with.
            let interval = learning ? 0 : (rating == .again ? relearningAgainInterval(card, answer) : card.intervalDays)
            return Transition(phase: phase, step: nextStep, delaySeconds: delay, intervalDays: interval, easePermille: card.easePermille,
                              memory: memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: context)
        }
        // Graduating takes the starting ease; returning keeps the card's.
        return Transition(phase: .review, intervalDays: learning ? graduatingDays(rating, answer) : returningDays(card, rating, answer),
                          easePermille: learning ? settings.startingEasePermille : card.easePermille, memory: memory, lapses: card.lapses)
            .finish(from: card, passed: rating.isPass, context: context)
    }
}
