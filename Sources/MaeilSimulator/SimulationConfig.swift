import MaeilCore

/// A simulated learner, as the fsrs-rs simulator models one (README, "Simulate before you commit"):
/// true memory follows FSRS-6, recall at a review is drawn from the true retrievability,
/// ratings and learning steps follow measured probabilities, and each answer costs seconds.
package struct LearnerModel: Sendable, Hashable, Codable {
    /// The learner's true memory model (FSRS-6 defaults unless a scenario says otherwise).
    package var parameters: FSRSParameters = .fsrs6Default
    /// P(again, hard, good, easy) for a new card's first answer.
    package var firstRatingWeights: [Double] = [0.24, 0.094, 0.495, 0.171]
    /// P(hard, good, easy) given a successful review.
    package var reviewRatingWeights: [Double] = [0.224, 0.631, 0.145]
    /// Learning steps: the next rating, given the previous (rows again, hard, good; columns again…easy).
    package var learningTransitions: [[Double]] = [
        [0.3686, 0.0628, 0.5108, 0.0577], [0.0442, 0.4553, 0.4457, 0.0549], [0.0519, 0.0470, 0.8462, 0.0550],
    ]
    package var relearningTransitions: [[Double]] = [
        [0.2157, 0.0643, 0.6595, 0.0604], [0.0500, 0.4638, 0.4475, 0.0387], [0.1057, 0.1434, 0.7266, 0.0244],
    ]
    /// Seconds per answer (columns again, hard, good, easy) when learning, reviewing, relearning.
    package var learningCosts: [Double] = [19.58, 18.79, 13.78, 10.71]
    package var reviewCosts: [Double] = [19.38, 17.59, 12.38, 8.94]
    package var relearningCosts: [Double] = [16.44, 15.25, 12.32, 8.03]
    /// A learner stops stepping after this many step answers and the card graduates anyway.
    package var maximumSteps = 5

    package init() {}
}

/// What to simulate.
package struct SimulationConfig: Sendable, Hashable {
    package var items = 10_000
    package var days = 365
    /// nil: no limit.
    package var newPerDay: Int? = 20
    package var reviewsPerDay: Int? = 200
    /// Seconds of study a day; nil: no limit. A day may overshoot by one card, as in fsrs-rs.
    package var secondsPerDay: Double?
    /// Whether new cards count against the review limit (fsrs-rs's new_cards_ignore_review_limit, inverted).
    package var newCardsCountAsReviews = false
    /// Cards with this many lapses leave the simulation (suspended), if set.
    package var suspendAfterLapses: Int?
    package var scheduler = SchedulerSettings(kind: .fsrs)
    package var learner = LearnerModel()
    package var seed: UInt64 = 42
    package var runs = 1
    /// Real cards to start from (`sim --deck`); empty: `items` new cards.
    package var startingCards: [StartingCard] = []
    package var intervals = IntervalSource.scheduler

    package init() {
        // The fsrs-rs simulator schedules without fuzz, with steps of 1m 10m and 10m.
        scheduler.maximumInterval = 36_500
    }
}

/// Where a simulated card's next interval comes from.
package enum IntervalSource: String, Sendable, Hashable, CaseIterable {
    /// The scheduler Maeil reviews with, Anki's rules and all: what the learner will live with.
    case scheduler
    /// The learner's own stability at the desired retention, rounded, as the fsrs-rs simulator
    /// (and so Anki's own simulator, which is fsrs-rs's) schedules every card. It leaves out
    /// three rules of Anki's scheduler that lengthen intervals: good a day beyond hard and easy
    /// beyond good, a same-day hard that never lowers stability (the simulator's learner loses
    /// some), and a pass never fuzzed below the last interval. docs/simulation.md has their measured cost.
    case fsrsRS = "fsrs-rs"
}

/// A card as a deck holds it today, for a simulation that starts from the collection. Held
/// packed: a million of them are in memory for the whole run.
package struct StartingCard: Sendable, Hashable {
    private var packed: PackedCardState
    private var days: (sinceReview: Int32, dueIn: Int32, lapses: Int32)

    /// What the scheduler knows: its phase, interval, ease or memory.
    package var state: CardState {
        get { packed.state }
        set { packed = PackedCardState(newValue) }
    }
    /// The learner's memory of it (from its FSRS state or its review log); nil for a new card.
    package var memory: MemoryState?
    /// Whole days since its last answer, and until it is due (0 or less: due today).
    package var daysSinceReview: Int { Int(days.sinceReview) }
    package var dueInDays: Int { Int(days.dueIn) }
    package var lapses: Int { Int(days.lapses) }
    package var phase: CardPhase { packed.cardPhase }

    package init(state: CardState, memory: MemoryState?, daysSinceReview: Int, dueInDays: Int, lapses: Int) {
        packed = PackedCardState(state)
        self.memory = memory
        days = (Int32(clamping: daysSinceReview), Int32(clamping: dueInDays), Int32(clamping: lapses))
    }

    package static func == (a: StartingCard, b: StartingCard) -> Bool {
        a.packed == b.packed && a.memory == b.memory && a.days == b.days
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(packed)
        hasher.combine(memory)
        hasher.combine(days.sinceReview)
        hasher.combine(days.dueIn)
        hasher.combine(days.lapses)
    }
}
