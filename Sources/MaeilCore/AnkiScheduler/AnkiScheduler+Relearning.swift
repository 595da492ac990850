/// Relearning cards (Anki's relearning.rs): a lapsed review card working through its
/// relearning steps. `intervalDays` holds the interval it will return to review with.
extension AnkiScheduler {
    func relearningOutcome(_ card: CardState, _ rating: Rating, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        stepsOutcome(card, rating, phase: .relearning, steps: settings.relearningSteps, step: card.step, answer, context)
    }

    /// Returning: SM-2 with the stored lapse interval (easy a day more), FSRS with its own.
    func returningDays(_ card: CardState, _ rating: Rating, _ answer: AnswerContext) -> Int {
        if rating == .easy { return answer.fsrs.map(answer.fsrsEasyInterval) ?? card.intervalDays + 1 }
        return answer.fsrs.map { answer.reviewInterval(Float($0[rating].interval)) } ?? card.intervalDays
    }

    /// Again restarts the relearning steps; ease and lapses were charged when the card lapsed,
    /// but the interval it returns with is worked out again.
    func relearningAgainInterval(_ card: CardState, _ answer: AnswerContext) -> Int {
        max(Int(failingInterval(intervalDays: card.intervalDays, answer).rounded(.toNearestOrAwayFromZero)), 1)
    }
}
