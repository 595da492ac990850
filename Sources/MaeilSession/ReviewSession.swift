import Foundation
import MaeilCore
import MaeilStore

/// The outside world a session needs, passed in so tests and scripts control time.
package struct SessionEnvironment: Sendable {
    package var now: @Sendable () -> Date
    package var timeZone: TimeZone
    /// Answer times are capped, as Anki does, so a learner who walked away does not count an hour.
    package var maximumAnswerSeconds: Int
    /// Review fuzz, on as in Anki; tests and `--fuzz off` turn it off to get exact days.
    package var fuzz: Bool

    package init(now: @escaping @Sendable () -> Date = { Date() }, timeZone: TimeZone = .current, maximumAnswerSeconds: Int = 60,
                fuzz: Bool = true) {
        self.now = now
        self.timeZone = timeZone
        self.maximumAnswerSeconds = maximumAnswerSeconds
        self.fuzz = fuzz
    }
}

/// A review session over a collection: a state machine driven by `send(_:)`. Every answer is
/// committed (state and log in one transaction) before the next card is chosen; undo walks
/// back any number of steps.
package final class ReviewSession {
    package private(set) var state: SessionState
    package let collection: Collection
    package let environment: SessionEnvironment
    private var decks: DeckContexts
    private var undoStack: [UndoEntry] = []

    enum UndoEntry {
        case answer(logID: Int64?, presented: PresentedCard, queueBefore: StudyQueue, practiceBefore: [Int64])
        /// Changes recorded by the store (`change` is its undo record).
        case star(cardID: Int64, previous: Bool, change: Int64)
        case suspend(presented: PresentedCard, queueBefore: StudyQueue, change: Int64)
        case bury(presented: PresentedCard, queueBefore: StudyQueue, change: Int64)
        case edit(noteID: Int64, change: Int64)
        case flag(cardID: Int64, previous: Int, change: Int64)
    }

    /// A session of real reviews over today's queue of the given decks (all when nil).
    package init(collection: Collection, deckIDs: [Int64]? = nil, environment: SessionEnvironment = SessionEnvironment()) throws {
        self.collection = collection
        self.environment = environment
        decks = DeckContexts(collection: collection, timeZone: environment.timeZone)
        let now = Self.wholeSeconds(environment.now())
        let queue = try collection.studyQueue(deckIDs: deckIDs, now: now, timeZone: environment.timeZone)
        state = SessionState(mode: .review, deckIDs: deckIDs, queue: queue, startedAt: now)
    }

    /// Goes over the given cards once more without changing their schedule.
    package init(collection: Collection, practicing cardIDs: [Int64], environment: SessionEnvironment = SessionEnvironment()) {
        self.collection = collection
        self.environment = environment
        decks = DeckContexts(collection: collection, timeZone: environment.timeZone)
        state = SessionState(mode: .practice, deckIDs: nil, queue: StudyQueue(), startedAt: Self.wholeSeconds(environment.now()),
                             practiceQueue: cardIDs)
    }

    /// The store keeps whole seconds; scheduling from whole seconds keeps the card's state in
    /// memory identical to the one written.
    static func wholeSeconds(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// Shows the first card. Call once before sending actions.
    @discardableResult
    package func start() throws -> [SessionEvent] {
        try advance(now: Self.wholeSeconds(environment.now()))
    }

    /// Applies one action. The clock is read once, so everything the action does happens at
    /// one moment.
    @discardableResult
    package func send(_ action: SessionAction) throws -> [SessionEvent] {
        guard !state.finished || action == .undo else { return [] }
        let now = Self.wholeSeconds(environment.now())
        switch action {
        case .reveal:
            guard let current = state.current else { return [] }
            state.revealed = true
            return [.revealed(cardID: current.card.id, judgement: judgement())]
        case .type(let text):
            guard let current = state.current else { return [] }
            state.typedAnswer = text.nfc
            state.revealed = true
            return [.revealed(cardID: current.card.id, judgement: judgement())]
        case .answer(let rating):
            return try answer(rating, now: now)
        case .undo:
            return try undo(now: now)
        case .toggleStar:
            guard var current = state.current else { return [] }
            let starred = !current.card.starred
            let change = try collection.setStarred(cardID: current.card.id, starred)
            undoStack.append(.star(cardID: current.card.id, previous: current.card.starred, change: change))
            current.card.starred = starred
            state.current = current
            return [.starred(cardID: current.card.id, starred)]
        case .flag(let flag):
            guard let current = state.current, (0...7).contains(flag) else { return [] }
            let change = try collection.apply(CardChanges.flag([current.card.id], flag))
            undoStack.append(.flag(cardID: current.card.id, previous: current.card.flags, change: change))
            state.current?.card.flags = flag
            return [.flagged(cardID: current.card.id, flag)]
        case .suspend:
            guard let current = state.current else { return [] }
            let change = try collection.setSuspended(cardID: current.card.id, true)
            undoStack.append(.suspend(presented: current, queueBefore: state.queue, change: change))
            try refillTheDaysLimits(now: now)
            return [.suspended(cardID: current.card.id)] + (try advance(now: now))
        case .bury:
            guard let current = state.current else { return [] }
            let tomorrow = try decks.context(for: current.deck.id).clock.nextRollover(after: now)
            let change = try collection.bury(cardID: current.card.id, until: tomorrow)
            undoStack.append(.bury(presented: current, queueBefore: state.queue, change: change))
            state.queue.learning.removeAll { $0.id == current.card.id }
            try refillTheDaysLimits(now: now)
            return [.buried(cardID: current.card.id)] + (try advance(now: now))
        case .edit(let fields):
            guard let current = state.current else { return [] }
            let normalized = fields.map { NoteField(name: $0.name, value: $0.value.nfc, language: $0.language) }
            let change = try collection.updateNote(id: current.note.id, fields: normalized, now: now)
            undoStack.append(.edit(noteID: current.note.id, change: change))
            state.current?.note = try collection.note(id: current.note.id)
            return [.edited(noteID: current.note.id)]
        case .leave:
            return finish(now: now)
        }
    }

    package func judgement() -> AnswerJudgement? {
        guard let current = state.current, let typed = state.typedAnswer, let field = current.template.typed,
              let expected = current.note.fields.value(field) else { return nil }
        return AnswerJudgement(typed: typed, expected: FieldText.answer(expected, html: current.note.html))
    }

    // MARK: Answering

    private func answer(_ rating: Rating, now: Date, replanned: Bool = false) throws -> [SessionEvent] {
        guard let current = state.current else { return [] }
        let duration = min(max(0, Int(now.timeIntervalSince(current.shownAt) * 1000)), environment.maximumAnswerSeconds * 1000)
        let queueBefore = state.queue
        let practiceBefore = state.practiceQueue
        var events: [SessionEvent] = []
        var logID: Int64?
        if state.mode == .review {
            let deck = try decks.context(for: current.deck.id)
            // Computed at the answer time, so a card shown before midnight and answered after is
            // scheduled from the moment of the answer.
            let outcome = deck.scheduler.answer(current.card.state, rating, context: schedulingContext(for: current.card, of: current.note, deck, at: now))
            let plan = AnswerPlan(
                answering: AnsweredCard(id: current.card.id, noteID: current.card.noteID, state: current.card.state,
                                        suspended: current.card.suspended, noteTaggedLeech: current.note.isTaggedLeech),
                siblings: current.siblings, rating: rating, outcome: outcome, at: now, durationMilliseconds: duration,
                scheduler: deck.scheduler.kind, preset: deck.preset, clock: deck.clock)
            let receipt: AnswerReceipt
            do {
                receipt = try collection.apply(plan)
            } catch StoreError.presetChanged where !replanned {
                // The deck's options changed since this session read them (another process
                // switched its scheduler, say): the answer is planned again under the new
                // ones, from the card as it now is.
                decks = DeckContexts(collection: collection, timeZone: decks.timeZone)
                state.current?.card = try collection.card(id: current.card.id)
                return try answer(rating, now: now, replanned: true)
            } catch StoreError.cardChanged(let id) {
                // Another process answered this card first; its answer stands and this one is dropped.
                return [.skipped(cardID: id, reason: Self.answeredElsewhere)] + (try advance(now: now))
            }
            logID = receipt.logID
            events.append(.answered(cardID: current.card.id, rating: rating, interval: current.intervals[rating] ?? ""))
            if receipt.leech { events.append(.leech(cardID: current.card.id, suspended: receipt.suspendedAsLeech)) }
            let next = receipt.card.state
            if next.phase.isInSteps, let due = next.due, due < deck.clock.ankiDayEnd(after: now), !receipt.suspendedAsLeech {
                state.queue.requeue(QueuedCard(id: current.card.id, noteID: current.card.noteID, deckID: current.card.deckID,
                                               phase: next.phase, due: Int64(due.timeIntervalSince1970)))
            }
        } else {
            events.append(.answered(cardID: current.card.id, rating: rating, interval: ""))
            // In practice a miss comes back at the end of the round.
            if rating == .again { state.practiceQueue.append(current.card.id) }
        }
        undoStack.append(.answer(logID: logID, presented: current, queueBefore: queueBefore, practiceBefore: practiceBefore))
        state.answers.append(SessionAnswer(cardID: current.card.id, rating: rating, phaseBefore: current.card.state.phase,
                                           logID: logID, durationMilliseconds: duration))
        return events + (try advance(now: now))
    }

    // MARK: Undo

    private func undo(now: Date) throws -> [SessionEvent] {
        guard let entry = undoStack.popLast() else { throw StoreError.nothingToUndo }
        state.finished = false
        switch entry {
        case .answer(let logID, let presented, let queueBefore, let practiceBefore):
            if let logID { try collection.undo(logID: logID) }
            if let last = state.answers.last, last.cardID == presented.card.id { state.answers.removeLast() }
            state.queue = queueBefore
            state.practiceQueue = practiceBefore
            try present(presented.card.id, shownAt: presented.shownAt, now: now)
            return [.undone(cardID: presented.card.id), .shown(cardID: presented.card.id)]
        case .star(let cardID, let previous, let change):
            try collection.undoChange(change)
            if state.current?.card.id == cardID { state.current?.card.starred = previous }
            return [.starred(cardID: cardID, previous)]
        case .flag(let cardID, let previous, let change):
            try collection.undoChange(change)
            if state.current?.card.id == cardID { state.current?.card.flags = previous }
            return [.flagged(cardID: cardID, previous)]
        case .edit(let noteID, let change):
            try collection.undoChange(change)
            guard let current = state.current, current.note.id == noteID else { return [] }
            // Shown again from its front, with the fields as they were.
            try present(current.card.id, shownAt: current.shownAt, now: now)
            return [.undone(cardID: current.card.id), .shown(cardID: current.card.id)]
        // The queue goes back to what it was: the card shown after the suspension or burial
        // waits its turn again instead of dropping out of the session.
        case .suspend(let presented, let queueBefore, let change):
            try collection.undoChange(change)
            state.queue = queueBefore
            try present(presented.card.id, shownAt: presented.shownAt, now: now)
            return [.undone(cardID: presented.card.id), .shown(cardID: presented.card.id)]
        case .bury(let presented, let queueBefore, let change):
            try collection.undoChange(change)
            state.queue = queueBefore
            try present(presented.card.id, shownAt: presented.shownAt, now: now)
            return [.undone(cardID: presented.card.id), .shown(cardID: presented.card.id)]
        }
    }

    package var canUndo: Bool { !undoStack.isEmpty }

    /// A new card or review buried or suspended frees its place in the day's limits, as in
    /// Anki: the next one takes it. The limits count answers, so the store's queue, built
    /// again, has it; the session's learning cards (due later today, in its order) stay.
    private func refillTheDaysLimits(now: Date) throws {
        guard state.mode == .review else { return }
        let fresh = try collection.studyQueue(deckIDs: state.deckIDs, now: now, timeZone: environment.timeZone)
        state.queue.main = fresh.main
    }

    // MARK: Choosing the next card

    private func advance(now: Date) throws -> [SessionEvent] {
        state.current = nil
        state.revealed = false
        state.typedAnswer = nil
        var events: [SessionEvent] = []
        while let next = nextCandidate(now: now) {
            if let reason = try present(next.id, expected: next.queued, shownAt: now, now: now) {
                events.append(.skipped(cardID: next.id, reason: reason))
                continue
            }
            events.append(.shown(cardID: next.id))
            return events
        }
        return events + finish(now: now)
    }

    /// Why a card is skipped when another Maeil answered it while this session ran.
    package static let answeredElsewhere = "answered in another session"

    private func nextCandidate(now: Date) -> (id: Int64, queued: QueuedCard?)? {
        if state.mode == .practice {
            return state.practiceQueue.isEmpty ? nil : (state.practiceQueue.removeFirst(), nil)
        }
        return state.queue.takeNext(now: Int64(now.timeIntervalSince1970)).map { ($0.id, $0) }
    }

    /// Loads a card and makes it current. Returns why it was skipped instead, if it was: a card
    /// suspended, buried, deleted or answered elsewhere since the queue was built.
    @discardableResult
    private func present(_ cardID: Int64, expected queued: QueuedCard? = nil, shownAt: Date, now: Date) throws -> String? {
        let card: Card, note: Note, siblings: [Card]
        do {
            (card, note, siblings) = try collection.cardWithNote(id: cardID)
        } catch StoreError.noSuchCard {
            return "deleted"
        }
        if state.mode == .review {
            if card.suspended { return "suspended" }
            if let buried = card.buriedUntil, buried > now { return "buried" }
            // The queue said new (or due at a time) and the card is no longer that: another
            // session answered it.
            if let queued, card.state.phase != queued.phase
                || (queued.phase != .new && Int64(card.state.due?.timeIntervalSince1970 ?? 0) != queued.due) {
                return Self.answeredElsewhere
            }
        }
        // Scheduled by its own deck's options, shown by its note's templates: a card Anki keeps
        // in another deck than its note's is studied there.
        let deck = try decks.context(for: card.deckID)
        let templates = note.deckID == card.deckID ? deck.deck.templates : try decks.context(for: note.deckID).deck.templates
        let template = templates.first { $0.name == card.template }
            ?? CardTemplate(name: card.template, front: note.fields.prefix(1).map(\.name), back: note.fields.dropFirst().map(\.name))
        let context = schedulingContext(for: card, of: note, deck, at: now)
        let next = deck.scheduler.nextStates(for: card.state, context: context)
        state.current = PresentedCard(card: card, note: note, deck: deck.deck, template: template, nextStates: next,
                                      siblings: siblings.map { SiblingCard(id: $0.id, phase: $0.state.phase, suspended: $0.suspended,
                                                                           buriedUntil: $0.buriedUntil, due: $0.state.due,
                                                                           lastReview: $0.state.lastReview) },
                                      shownAt: shownAt, intervals: Self.describe(next, context: context))
        state.revealed = false
        state.typedAnswer = nil
        return nil
    }

    /// Fuzz drawn as Anki draws it, from the card's id in Anki (the one its export proposes for
    /// a card made here) and its reps: the same answer fuzzes alike here and on the phone.
    private func schedulingContext(for card: Card, of note: Note, _ deck: DeckContext, at now: Date) -> SchedulingContext {
        let ankiID = card.ankiID ?? Collection.proposedAnkiID(created: note.created, id: card.id) ?? card.id
        let fuzz = environment.fuzz ? AnkiFuzzDraw(cardID: ankiID, reps: card.state.reps) : nil
        var context = SchedulingContext(now: now, clock: deck.clock, fuzz: fuzz)
        // The balancer only chooses where fuzz would: without fuzz it has nothing to do.
        if fuzz != nil, deck.preset.scheduler.loadBalancing, let presetID = deck.preset.id {
            // Siblings steer the balancer only where they are buried, as in Anki.
            context.loadBalance = try? collection.loadBalance(presetID: presetID, noteID: card.noteID, cardID: card.id,
                                                              siblings: deck.preset.buryReviews, clock: deck.clock, today: context.today,
                                                              days: LoadBalance.horizon, easyDays: deck.preset.scheduler.easyDays)
        }
        return context
    }

    /// "1m", "10m", "4d": what each button does, as on Anki's buttons.
    static func describe(_ next: NextStates, context: SchedulingContext) -> [Rating: String] {
        var result: [Rating: String] = [:]
        // Where the scheduler ends the day for a learning step (`DayClock.ankiDayEnd`).
        let rollover = context.clock.ankiDayEnd(after: context.now)
        for rating in Rating.allCases {
            let state = next[rating].state
            if state.phase.isInSteps, let due = state.due, due < rollover {
                result[rating] = IntervalFormat.seconds(state.scheduledSeconds)
            } else if let due = state.due {
                result[rating] = IntervalFormat.days(max(context.clock.dayNumber(of: due) - context.today, 1))
            }
        }
        return result
    }

    // MARK: Finishing

    private func finish(now: Date) -> [SessionEvent] {
        state.finished = true
        state.current = nil
        let counted = state.answers
        // What is left today, counted as `decks` and `stats` count it (a card left on screen is
        // still due; a practice round schedules nothing).
        let left = state.mode == .review ? try? collection.studyQueue(deckIDs: state.deckIDs, now: now, timeZone: environment.timeZone) : nil
        var summary = SessionSummary(
            reviewed: counted.count, correct: counted.filter { $0.rating != .again }.count,
            seconds: counted.reduce(0) { $0 + $1.durationMilliseconds } / 1000,
            nextDue: try? collection.nextDue(deckIDs: state.deckIDs, after: now),
            learningLaterToday: left?.learning.count ?? 0)
        summary.stillDue = (left?.newCount ?? 0) + (left?.reviewCount ?? 0)
        return [.finished(summary)]
    }

    /// The cards answered "again" in this session, for a round of practice on just those.
    package var missedCardIDs: [Int64] {
        var seen = Set<Int64>()
        return state.answers.filter { $0.rating == .again }.map(\.cardID).filter { seen.insert($0).inserted }
    }
}
