/// New and learning cards (Anki's learning.rs; a new card is a learning card on step 0).
extension AnkiScheduler {
    func learningNextStates(_ card: CardState, _ answer: AnswerContext) -> NextStates {
        let step = card.phase == .new ? 0 : card.step
        let steps = settings.learningSteps
        let fsrs = answer.fsrs

        func stay(_ rating: Rating, step: Int, delay: Int) -> Outcome {
            Transition(phase: .learning, step: step, delaySeconds: delay, intervalDays: 0,
                       easePermille: card.easePermille, memory: fsrs?[rating].memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: answer.context)
        }

        func graduate(_ rating: Rating, days: Int) -> Outcome {
            Transition(phase: .review, intervalDays: days, easePermille: settings.startingEasePermille,
                       memory: fsrs?[rating].memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: answer.context)
        }

        /// With no step left, again, hard and good graduate: SM-2 with the graduating interval,
        /// FSRS with its own interval for that answer.
        func graduatingDays(_ rating: Rating) -> Int {
            answer.reviewInterval(fsrs.map { Float($0[rating].interval) } ?? Float(settings.graduatingInterval))
        }

        let again = steps.againDelay.map { stay(.again, step: 0, delay: $0) }
            ?? graduate(.again, days: graduatingDays(.again))
        let hard = steps.hardDelay(atStep: step).map { stay(.hard, step: step, delay: $0) }
            ?? graduate(.hard, days: graduatingDays(.hard))
        let good = steps.goodDelay(atStep: step).map { stay(.good, step: steps.stepAfterGood(step), delay: $0) }
            ?? graduate(.good, days: graduatingDays(.good))
        let easyDays = fsrs.map(answer.fsrsEasyInterval)
            ?? answer.reviewInterval(Float(settings.easyInterval))
        return NextStates(current: card, again: again, hard: hard, good: good, easy: graduate(.easy, days: easyDays))
    }
}
