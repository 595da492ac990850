import Foundation

extension AnkiRevlogColumns {
    /// The row Anki's review log holds for an entry: its own columns where it came from Anki,
    /// else the row an export writes for it; nil for Maeil's own bookkeeping, which Anki has no
    /// row for. One mapping for the exporter and for the FSRS history read from a log, so a
    /// log reads here as Anki reads the same rows there.
    ///
    /// `clock`: the study-day clock the answer was given by, which makes a step that ran past
    /// the day's end whole days, as Anki logs it; without it, steps stay in seconds.
    /// `scheduler`: the preset's, for the last interval of an answer given in steps before
    /// answers kept it (`stepSeconds`), which Anki logs as the current step's delay (not a hard
    /// answer's longer one).
    public init?(_ entry: ReviewLogEntry, clock: DayClock?, scheduler: SchedulerSettings?) {
        // A row that came from Anki goes back as it came.
        if let anki = entry.anki {
            self = anki
            return
        }
        // Anki's `maybe_as_days`: a step as long as what was left of the day is logged in days.
        // Worked out only for a step: most rows of an export came from Anki and go back as they came.
        func untilRollover() -> Int? {
            clock.map { clock in
                max(0, Int(clock.ankiDayEnd(after: entry.time).timeIntervalSince1970 - entry.time.timeIntervalSince1970.rounded(.down)))
            }
        }
        // A change by hand logs the card's interval column as it was: none in learning, the review
        // interval in relearning.
        func cardInterval(_ state: CardState?) -> Int64 {
            guard let state, state.phase == .review || state.phase == .relearning else { return 0 }
            return Int64(state.intervalDays)
        }
        // `stepSeconds`: for the state an answer found, the delay of its step as the answer logged
        // it; where the answer did not keep it (given before it was kept), by `steps` as they are.
        func interval(_ state: CardState?, stepSeconds: Int? = nil) -> Int64 {
            guard let state else { return 0 }
            switch state.phase {
            case .new: return 0
            case .review: return Int64(state.intervalDays)
            case .learning, .relearning:
                let seconds = stepSeconds ?? state.scheduledSeconds
                if let untilRollover = untilRollover(), seconds >= untilRollover { return Int64((seconds - untilRollover) / 86_400 + 1) }
                return Int64(-seconds)
            }
        }
        if let rating = entry.rating, entry.kind != .manual {
            let type: Int64
            switch entry.before?.phase ?? .new {
            case .new, .learning: type = 0
            case .review: type = 1
            case .relearning: type = 2
            }
            // FSRS answers log their difficulty in the factor column, as Anki writes them.
            let factor: Int64
            if let memory = entry.after?.memory, entry.scheduler == SchedulerKind.fsrs.rawValue {
                factor = Int64((((memory.difficulty - 1) / 9 + 0.1) * 1000).rounded())
            } else if entry.after?.phase == .learning {
                // A card learning for the first time has no ease yet in Anki.
                factor = 0
            } else {
                factor = Int64(entry.after?.easePermille ?? 2500)
            }
            let stepSeconds = entry.stepSeconds ?? entry.before.flatMap { before in scheduler.flatMap { $0.currentStepDelay(of: before) } }
            self.init(ease: Int64(rating.rawValue), interval: interval(entry.after), lastInterval: interval(entry.before, stepSeconds: stepSeconds),
                      factor: factor, type: type)
            return
        }
        // Forgetting a card is Anki's "reset": a manual entry with no ease (Anki writes it for a
        // new card too).
        if entry.kind == .manual, entry.after?.phase == .new,
           entry.scheduler == ReviewLogEntry.forget || entry.before.map({ $0.phase != .new }) == true {
            self.init(ease: 0, interval: 0, lastInterval: cardInterval(entry.before), factor: 0, type: 4)
            return
        }
        // A due date set by hand is the row Anki's own Set Due Date writes: manual, no button, the
        // new interval and the old, the card's ease (never 0, which Anki reads as a reset) or, for a
        // card with a memory, its difficulty as Anki logs it; written for the day the card already
        // had too. A row from before set due dates were told apart is one where the day changed.
        if entry.kind == .manual, let after = entry.after, after.phase == .review,
           entry.scheduler == ReviewLogEntry.setDueDate || after.due != entry.before?.due {
            let factor = after.memory.map(Self.manualRowFactor) ?? Int64(after.easePermille > 0 ? after.easePermille : 2500)
            self.init(ease: 0, interval: Int64(after.intervalDays), lastInterval: cardInterval(entry.before), factor: factor, type: 4)
            return
        }
        return nil
    }

    /// The factor column of the manual row Anki writes for a card with an FSRS memory: its
    /// difficulty as the card's data keeps it (three decimals), shifted to 0.1–1.1 and cut to
    /// thousandths in single precision, as Anki 26.9.3 computes it (`log_scheduled_review`; an
    /// answer's row rounds instead).
    public static func manualRowFactor(_ memory: MemoryState) -> Int64 {
        let difficulty = Float(memory.inCardData.difficulty)
        return Int64(((difficulty - 1) / 9 + 0.1) * 1000)
    }
}

extension MemoryState {
    /// The memory as Anki's card data keeps it: stability to four decimals, difficulty to three.
    public var inCardData: MemoryState {
        MemoryState(stability: (stability * 10_000).rounded() / 10_000, difficulty: (difficulty * 1000).rounded() / 1000)
    }
}
