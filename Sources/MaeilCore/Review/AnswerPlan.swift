import Foundation

/// Everything one answer changes, decided before anything is written (Anki's answer_card):
/// the card's next state, its log entry, what happens to a leech, and which siblings are
/// buried. The store applies a plan in one transaction and decides nothing.
public struct AnswerPlan: Hashable, Sendable {
    public var cardID: Int64
    public var noteID: Int64
    /// The state the answer was computed from. If the stored card is no longer in it, another
    /// session answered first, and the plan is refused.
    public var before: CardState
    /// The log entry, which carries the state after and what undo needs.
    public var entry: ReviewLogEntry
    /// True when this answer made the card a leech.
    public var leech: Bool
    /// When the siblings in `entry.buried` come back: the next study day.
    public var buryUntil: Date?
    /// The deck options the answer was planned under. If the card's deck has other options
    /// now (another process switched its scheduler, say), the plan is refused, so that no
    /// answer is scheduled by options that are gone.
    public var preset: Preset?

    public var after: CardState { entry.after ?? before }
}

/// The card an answer is given to, as far as the answer's rules need it.
public struct AnsweredCard: Hashable, Sendable {
    public var id: Int64, noteID: Int64
    public var state: CardState
    public var suspended: Bool
    /// Whether its note already carries the "leech" tag.
    public var noteTaggedLeech: Bool

    public init(id: Int64, noteID: Int64, state: CardState, suspended: Bool, noteTaggedLeech: Bool) {
        (self.id, self.noteID, self.state) = (id, noteID, state)
        (self.suspended, self.noteTaggedLeech) = (suspended, noteTaggedLeech)
    }
}

/// Another card of the same note, as burying needs it.
public struct SiblingCard: Hashable, Sendable {
    public var id: Int64
    public var phase: CardPhase
    public var suspended: Bool
    public var buriedUntil: Date?
    /// A learning card's due time and last answer: whether it is interday learning.
    public var due: Date?
    public var lastReview: Date?

    public init(id: Int64, phase: CardPhase, suspended: Bool, buriedUntil: Date?, due: Date? = nil, lastReview: Date? = nil) {
        (self.id, self.phase, self.suspended, self.buriedUntil) = (id, phase, suspended, buriedUntil)
        (self.due, self.lastReview) = (due, lastReview)
    }
}

extension CardState {
    /// Anki's interday learning: a learning or relearning card whose step ends on a later
    /// study day than the one it was answered on. It is due for the whole of that day, in line
    /// with the reviews, and buried with them by its own switch.
    public func isInterdayLearning(clock: DayClock) -> Bool {
        Self.isInterdayLearning(phase: phase, due: due, lastReview: lastReview, clock: clock)
    }

    public static func isInterdayLearning(phase: CardPhase, due: Date?, lastReview: Date?, clock: DayClock) -> Bool {
        guard phase.isInSteps, let due, let lastReview else { return false }
        return clock.dayNumber(of: lastReview) < clock.dayNumber(of: due)
    }
}

extension AnswerPlan {
    /// Plans `rating` given to `card` at `now`, with `outcome` from the deck's scheduler.
    ///
    /// A leech gets the "leech" tag (once) and, when the preset says so, is suspended. The
    /// note's other cards are hidden until the next study day as Anki's three switches say:
    /// new ones, reviews, learning cards from an earlier day. As in Anki, answering a card
    /// buries no kind that a day's queue takes before the card's own (a new card buries only
    /// new siblings, a review no learning ones), and a learning card due within the day stays.
    public init(answering card: AnsweredCard, siblings: [SiblingCard], rating: Rating, outcome: Outcome, at now: Date,
                durationMilliseconds: Int, scheduler: SchedulerKind, preset: Preset, clock: DayClock) {
        var leech: LeechEffect = []
        if outcome.leech {
            if !card.noteTaggedLeech { leech.insert(.tagged) }
            if preset.scheduler.leechAction == .suspend, !card.suspended { leech.insert(.suspended) }
        }
        let answered = card.state.phase
        let buryReviews = preset.buryReviews && answered != .new
        let buryInterday = preset.buryInterdayLearning && answered.isInSteps
        var buried: [SiblingBurial] = []
        let until = clock.nextRollover(after: now)
        for sibling in siblings where sibling.id != card.id && !sibling.suspended {
            let buries = switch sibling.phase {
            case .new: preset.buryNew
            case .review: buryReviews
            case .learning, .relearning:
                buryInterday && CardState.isInterdayLearning(phase: sibling.phase, due: sibling.due, lastReview: sibling.lastReview, clock: clock)
            }
            guard buries else { continue }
            if let current = sibling.buriedUntil, current >= until { continue }
            buried.append(SiblingBurial(cardID: sibling.id, previous: sibling.buriedUntil))
        }
        self.init(
            cardID: card.id, noteID: card.noteID, before: card.state,
            entry: ReviewLogEntry(time: now, kind: .answer, rating: rating, durationMilliseconds: durationMilliseconds,
                                  scheduler: scheduler.rawValue, before: card.state, after: outcome.state, leech: leech, buried: buried,
                                  stepSeconds: preset.scheduler.currentStepDelay(of: card.state)),
            leech: outcome.leech, buryUntil: buried.isEmpty ? nil : until, preset: preset)
    }
}
