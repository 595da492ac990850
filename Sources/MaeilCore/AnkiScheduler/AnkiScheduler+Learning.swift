/// New and learning cards (Anki's learning.rs; a new card is a learning card on step 0).
extension AnkiScheduler {
    func learningOutcome(_ card: CardState, _ rating: Rating, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        stepsOutcome(card, rating, phase: .learning, steps: settings.learningSteps, step: card.phase == .new ? 0 : card.step, answer, context)
    }

    /// Graduating: SM-2 with the graduating or easy interval, FSRS with its own interval for that answer.
    func graduatingDays(_ rating: Rating, _ answer: AnswerContext) -> Int {
        if rating == .easy { return answer.fsrs.map(answer.fsrsEasyInterval) ?? answer.reviewInterval(Float(settings.easyInterval)) }
        return answer.reviewInterval(answer.fsrs.map { Float($0[rating].interval) } ?? Float(settings.graduatingInterval))
    }
}
