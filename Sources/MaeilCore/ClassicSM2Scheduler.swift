/// SuperMemo SM-2 as Wozniak published it in 1990.
///
/// The text leaves two points open; this follows the common reading:
/// - the E-Factor is updated on every answer, failures included, and
/// - I(n) = I(n−1) · EF uses the E-Factor just updated by this answer.
/// A failure (q < 3) restarts the repetitions: the item comes back in 1 day, and the next
/// passes give 1 and 6 days again. There are no learning steps. SM-2's suggestion to repeat
/// items scoring below 4 on the same day is left to the review session.
public struct ClassicSM2Scheduler: Scheduler {
    public let settings: SchedulerSettings
    public var kind: SchedulerKind { .sm2 }

    static let minimumEasePermille = 1300

    public init(settings: SchedulerSettings = SchedulerSettings(kind: .sm2)) {
        self.settings = settings
    }

    public func nextStates(for card: CardState, context: SchedulingContext) -> NextStates {
        NextStates(
            current: card,
            again: answer(card, quality: Quality(.again), context: context),
            hard: answer(card, quality: Quality(.hard), context: context),
            good: answer(card, quality: Quality(.good), context: context),
            easy: answer(card, quality: Quality(.easy), context: context))
    }

    public func answer(_ card: CardState, _ rating: Rating, context: SchedulingContext) -> Outcome {
        answer(card, quality: Quality(rating), context: context)
    }

    /// EF' = EF + (0.1 − (5 − q)(0.08 + (5 − q)·0.02)), in thousandths so it stays exact:
    /// q = 5 → +100, 4 → 0, 3 → −140, 2 → −320, 1 → −540, 0 → −800.
    static func easeChange(_ quality: Quality) -> Int {
        let miss = 5 - quality.rawValue
        return 100 - miss * (80 + miss * 20)
    }

    public func answer(_ card: CardState, quality: Quality, context: SchedulingContext) -> Outcome {
        let ease = max(card.easePermille + Self.easeChange(quality), Self.minimumEasePermille)
        var lapses = card.lapses
        var leech = false
        let days: Int
        if quality.isPass {
            switch card.streak {
            case 0: days = 1
            case 1: days = 6
            // I(n) = I(n−1) · EF, fractions rounded up: exact integer ceiling in thousandths.
            default: days = (card.intervalDays * ease + 999) / 1000
            }
        } else {
            days = 1
            if card.phase == .review {
                lapses += 1
                leech = Leech.thresholdMet(lapses: lapses, threshold: settings.leechThreshold)
            }
        }
        let interval = min(max(days, 1), max(settings.maximumInterval, 1))
        return Transition(phase: .review, intervalDays: interval, easePermille: ease, memory: nil,
                          lapses: lapses, leech: leech)
            .finish(from: card, passed: quality.isPass, context: context)
    }
}
