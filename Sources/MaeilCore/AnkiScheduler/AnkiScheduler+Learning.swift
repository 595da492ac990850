/// New and learning cards (Anki's learning.rs; a new card is a learning card on step 0).
extension AnkiScheduler {
    func learningOutcome(_ card: CardState, _ rating: Rating, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        // Graduating: SM-2 with the graduating or easy interval and the starting ease, FSRS with
        // its own interval for that answer.
        func graduatingDays(_ rating: Rating) -> Int {
            if rating == .easy { return answer.fsrs.map(answer.fsrsEasyInterval) ?? answer.reviewInterval(Float(settings.easyInterval)) }
            return answer.reviewInterval(answer.fsrs.map { Float($0[rating].interval) } ?? Float(settings.graduatingInterval))
        }
        return stepsOutcome(card, rating, phase: .learning, steps: settings.learningSteps, step: card.phase == .new ? 0 : card.step,
                            intervalInSteps: 0, reviewEase: settings.startingEasePermille, reviewDays: graduatingDays, answer, context)
    }
}
