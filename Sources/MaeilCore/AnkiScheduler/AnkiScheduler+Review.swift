/// Review cards (Anki's review.rs).
extension AnkiScheduler {
    static let minimumEasePermille = 1300

    func reviewOutcome(_ card: CardState, _ rating: Rating, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        guard rating != .again else { return lapse(card, answer, context) }
        let days = passingInterval(rating, card, elapsedDays: Self.elapsedDays(card, context), answer)
        // Additive ease changes: hard −0.15 (not below 1.30), good none, easy +0.15.
        let ease: Int
        switch rating {
        case .hard: ease = max(card.easePermille - 150, Self.minimumEasePermille)
        case .easy: ease = card.easePermille + 150
        default: ease = card.easePermille
        }
        return Transition(phase: .review, intervalDays: days, easePermille: ease, memory: answer.fsrs?[rating].memory.stored, lapses: card.lapses)
            .finish(from: card, passed: true, context: context)
    }

    /// Days since the last review as Anki counts them for a review card: from its due day, the
    /// interval less the days still to go (rslib `normal_study_state`), so a card made due on
    /// another day by hand, or last answered in another time zone, counts as Anki counts it.
    /// From the last review only where the card has no due day.
    static func elapsedDays(_ card: CardState, _ context: SchedulingContext) -> Int {
        if let due = card.due { return max(0, card.intervalDays - (context.clock.dayNumber(of: due) - context.today)) }
        return card.lastReview.map { context.elapsedDays(since: $0) } ?? card.intervalDays
    }

    /// "Again" on a review: a lapse. The ease drops by 0.20 (never below 1.30), the card gets its
    /// lapse interval and enters relearning, or stays in review when there are no relearning steps.
    private func lapse(_ card: CardState, _ answer: AnswerContext, _ context: SchedulingContext) -> Outcome {
        let lapses = card.lapses + 1
        let days = max(Int(failingInterval(intervalDays: card.intervalDays, answer).rounded(.toNearestOrAwayFromZero)), 1)
        var transition = Transition(
            phase: .review, intervalDays: days,
            easePermille: max(card.easePermille - 200, Self.minimumEasePermille),
            memory: answer.fsrs?.again.memory.stored, lapses: lapses,
            leech: Leech.thresholdMet(lapses: lapses, threshold: settings.leechThreshold))
        var delay = settings.relearningSteps.againDelay
        if delay == nil, let fsrs = answer.fsrs, usesShortTerm(with: settings.relearningSteps) {
            // Anki's FSRS: a lapse whose interval is under half a day relearns it that day.
            delay = Self.shortTermDelay(fsrs.again.interval)
        }
        if let delay {
            transition.phase = .relearning
            transition.step = 0
            transition.delaySeconds = delay
        }
        return transition.finish(from: card, passed: false, context: context)
    }

    /// The interval a failed card returns with. SM-2: the old interval × the new-interval
    /// multiplier (the interval modifier does not apply), at least the minimum lapse interval,
    /// fuzzed. FSRS: its own interval for "again", fuzzed only when the card leaves relearning.
    func failingInterval(intervalDays: Int, _ answer: AnswerContext) -> Float {
        if let fsrs = answer.fsrs { return Float(fsrs.again.interval) }
        let (minimum, maximum) = settings.reviewIntervalBounds(minimum: settings.minimumLapseInterval)
        return Float(answer.fuzzed(Float(max(intervalDays, 1)) * settings.lapseNewInterval, minimum: minimum, maximum: maximum))
    }

    /// The interval of a passing answer. Hard, good and easy each beat the one before by a day,
    /// so an answer's interval is computed after the ones below it.
    private func passingInterval(_ rating: Rating, _ card: CardState, elapsedDays: Int, _ answer: AnswerContext) -> Int {
        if let fsrs = answer.fsrs {
            return fsrsPassingInterval(rating, card, fsrs, answer)
        }
        let daysLate = elapsedDays - card.intervalDays
        let (hard, good, easy) = daysLate < 0
            ? earlyPassingIntervals(card, elapsedDays: elapsedDays, answer)
            : onTimePassingIntervals(card, daysLate: daysLate, answer)
        return rating == .hard ? hard : (rating == .good ? good : easy)
    }

    /// FSRS intervals with Anki's minimums: each beats the one before by a day, and fuzz never
    /// takes a pass back below the interval the card had (`ReviewFuzz.floor`).
    private func fsrsPassingInterval(_ rating: Rating, _ card: CardState, _ fsrs: FSRSNextStates, _ answer: AnswerContext) -> Int {
        let maximum = max(settings.maximumInterval, 1)
        func floor(_ interval: Double) -> Int { ReviewFuzz.floor(interval: Float(interval), previous: card.intervalDays, maximum: maximum) }
        let hard = answer.passingInterval(Float(fsrs.hard.interval), minimum: max(floor(fsrs.hard.interval), 1))
        guard rating != .hard else { return hard }
        let good = answer.passingInterval(Float(fsrs.good.interval), minimum: max(floor(fsrs.good.interval), hard + 1))
        guard rating != .good else { return good }
        return answer.passingInterval(Float(fsrs.easy.interval), minimum: max(floor(fsrs.easy.interval), good + 1))
    }

    /// SM-2 on or after the due day, in 32-bit arithmetic left to right as Anki does it:
    /// hard = cur × 1.2, good = (cur + late/2) × ease, easy = (cur + late) × ease × 1.3.
    private func onTimePassingIntervals(_ card: CardState, daysLate: Int, _ answer: AnswerContext) -> (Int, Int, Int) {
        let current = Float(max(card.intervalDays, 1))
        let late = Float(max(daysLate, 0))
        let ease = Float(card.easePermille) / 1000
        let hardFactor = settings.hardInterval
        let hardMinimum = hardFactor <= 1 ? 0 : card.intervalDays + 1
        let hard = answer.passingInterval(current * hardFactor, minimum: hardMinimum)
        let goodMinimum = hardFactor <= 1 ? card.intervalDays + 1 : hard + 1
        let good = answer.passingInterval((current + late / 2) * ease, minimum: goodMinimum)
        let easy = answer.passingInterval((current + late) * ease * settings.easyBonus, minimum: good + 1)
        return (hard, good, easy)
    }

    /// SM-2 before the due day (reviewing ahead): Anki's early-review formulas, unfuzzed.
    private func earlyPassingIntervals(_ card: CardState, elapsedDays: Int, _ answer: AnswerContext) -> (Int, Int, Int) {
        let scheduled = Float(max(card.intervalDays, 1))
        let elapsed = Float(elapsedDays)
        let ease = Float(card.easePermille) / 1000
        let hardFactor = settings.hardInterval
        let hard = answer.passingInterval(max(elapsed * hardFactor, scheduled * (hardFactor / 2)), minimum: 0, fuzz: false)
        let good = answer.passingInterval(max(elapsed * ease, scheduled), minimum: 0, fuzz: false)
        let reducedBonus = settings.easyBonus - (settings.easyBonus - 1) / 2
        let easy = answer.passingInterval(max(elapsed * ease, scheduled) * reducedBonus, minimum: 0, fuzz: false)
        return (hard, good, easy)
    }
}
