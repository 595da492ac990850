/// New and learning cards (Anki's learning.rs; a new card is a learning card on step 0).
extension AnkiScheduler {
    func learningOutcome(_ card: CardState, _ rating: Rating, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        let step = card.phase == .new ? 0 : card.step
        let steps = settings.learningSteps
        let fsrs = answer.fsrs

        func stay(_ rating: Rating, step: Int, delay: Int) -> Outcome {
            Transition(phase: .learning, step: step, delaySeconds: delay, intervalDays: 0,
                       easePermille: card.easePermille, memory: fsrs?[rating].memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: context)
        }

        func graduate(_ rating: Rating, days: Int) -> Outcome {
            Transition(phase: .review, intervalDays: days, easePermille: settings.startingEasePermille,
                       memory: fsrs?[rating].memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: context)
        }

        /// With no step left, again, hard and good graduate: SM-2 with the graduating interval,
        /// FSRS with its own interval for that answer.
        func graduatingDays(_ rating: Rating) -> Int {
            answer.reviewInterval(fsrs.map { Float($0[rating].interval) } ?? Float(settings.graduatingInterval))
        }

        switch rating {
        case .again:
            return steps.againDelay.map { stay(.again, step: 0, delay: $0) } ?? graduate(.again, days: graduatingDays(.again))
        case .hard:
            return steps.hardDelay(atStep: step).map { stay(.hard, step: step, delay: $0) } ?? graduate(.hard, days: graduatingDays(.hard))
        case .good:
            return steps.goodDelay(atStep: step).map { stay(.good, step: steps.stepAfterGood(step), delay: $0) }
                ?? graduate(.good, days: graduatingDays(.good))
        case .easy:
            let days = fsrs.map(answer.fsrsEasyInterval) ?? answer.reviewInterval(Float(settings.easyInterval))
            return graduate(.easy, days: days)
        }
    }
}
