/// What learning and relearning share (Anki's steps.rs): again goes back to the first step,
/// hard repeats the current one, good moves to the next, and a card with no step left for its
/// answer (or answered easy) leaves for review.
extension AnkiScheduler {
    @inline(__always)
    func stepsOutcome(_ card: CardState, _ rating: Rating, phase: CardPhase, steps: LearningSteps, step: Int,
                      _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        var delay: Int?, nextStep: Int
        switch rating {
        case .again: (delay, nextStep) = (steps.againDelay, 0)
        case .hard: (delay, nextStep) = (steps.hardDelay(atStep: step), step)
        case .good: (delay, nextStep) = (steps.goodDelay(atStep: step), steps.stepAfterGood(step))
        case .easy: (delay, nextStep) = (nil, 0)
        }
        if delay == nil, rating != .easy, let fsrs = answer.fsrs, usesShortTerm(with: steps) {
            // Anki's FSRS: with no step left, an interval under half a day is kept in steps.
            delay = Self.shortTermDelay(fsrs[rating].interval)
        }
        let memory = answer.fsrs?[rating].memory.stored
        let learning = phase == .learning
        if let delay {
            // The interval kept in steps: none while learning; in relearning the one the card returns
            // with, which only "again" works out anew (Anki's relearning.rs keeps it otherwise).
            let interval = learning ? 0 : (rating == .again
                ? (answer.fsrs.map { Self.wholeDays($0[.again].interval) } ?? relearningAgainInterval(card, answer))
                : card.intervalDays)
            return Transition(phase: phase, step: nextStep, delaySeconds: delay, intervalDays: interval, easePermille: card.easePermille,
                              memory: memory, lapses: card.lapses)
                .finish(from: card, passed: rating.isPass, context: context)
        }
        // Graduating takes the starting ease and starts counting lapses again (a card forgotten
        // keeps its count until then, as in Anki); returning keeps the card's.
        return Transition(phase: .review, intervalDays: learning ? graduatingDays(rating, answer) : returningDays(card, rating, answer),
                          easePermille: learning ? settings.startingEasePermille : card.easePermille, memory: memory,
                          lapses: learning ? 0 : card.lapses)
            .finish(from: card, passed: rating.isPass, context: context)
    }

    /// Whether Anki would keep a card whose FSRS interval is under half a day in its steps:
    /// when the parameters allow short-term scheduling, and the steps are empty or the preset
    /// asks for it with steps too.
    func usesShortTerm(with steps: LearningSteps) -> Bool {
        usesFSRS && fsrs.allowsShortTerm && (steps.isEmpty || settings.shortTermWithSteps)
    }

    /// The delay for a FSRS interval under half a day: whole seconds, rounded down (in 32 bits,
    /// as Anki), or nil for a longer interval.
    static func shortTermDelay(_ interval: Double) -> Int? {
        let days = Float(interval)
        guard days < 0.5 else { return nil }
        return Int((days * 86_400).rounded(.down))
    }

    /// An interval in whole days, rounded and at least one (Anki's `interval.round().max(1.0)`).
    static func wholeDays(_ interval: Double) -> Int {
        max(Int(Float(interval).rounded(.toNearestOrAwayFromZero)), 1)
    }
}
