import Foundation

/// One entry of a card's review log: an answer, a manual change or an answer from another
/// program's history, with the card's exact state before and after, so the log explains the
/// card's state and an answer can be undone exactly.
public struct ReviewLogEntry: Hashable, Sendable {
    public enum Kind: Int, Sendable {
        case answer = 0
        case manual = 1
        case imported = 2
    }

    public var time: Date
    public var kind: Kind
    /// Nil for manual changes.
    public var rating: Rating?
    public var durationMilliseconds: Int
    /// Who changed the card: a scheduler ("anki-sm2", "fsrs"), "manual", "anki" for imported history, "check",
    /// or a person's Set Due Date or Forget (`setDueDate`, `forget`).
    public var scheduler: String
    /// Nil where the log does not know it (a state recorded by `check`).
    public var before: CardState?
    public var after: CardState?
    /// What this answer did to a leech, for undo.
    public var leech: LeechEffect
    /// The siblings this answer buried, each with the burial it had before, for undo.
    public var buried: [SiblingBurial]
    /// The entry's id in Anki's review log, when it came from there: written back with the same
    /// id, Anki knows it has it.
    public var ankiID: Int64?
    /// Anki's own columns of the row, when it came from Anki: written back as they were, every
    /// kind (answers, resets, set due dates, filtered-deck rows), whatever Maeil makes of them.
    public var anki: AnkiRevlogColumns?
    /// For an answer that found its card in steps, the delay of that step by the preset's steps
    /// when it was given (`SchedulerSettings.currentStepDelay`), which Anki logs as the answer's
    /// last interval: kept, so a later change of the steps leaves the answer as it was logged.
    /// Nil otherwise, and for answers given before it was kept.
    public var stepSeconds: Int?

    /// The `scheduler` of the rows a person's Set Due Date and Forget write. Anki logs both as a
    /// manual row even where the card does not change (a due date set to the day it had, a new
    /// card forgotten), so an export writes those too; "manual" rows that keep the card's due
    /// date (a memory worked out again) are Maeil's own bookkeeping and are not exported.
    public static let setDueDate = "set-due", forget = "forget"

    public init(time: Date, kind: Kind, rating: Rating?, durationMilliseconds: Int = 0, scheduler: String, before: CardState?,
                after: CardState?, leech: LeechEffect = [], buried: [SiblingBurial] = [], ankiID: Int64? = nil,
                anki: AnkiRevlogColumns? = nil, stepSeconds: Int? = nil) {
        self.ankiID = ankiID
        self.stepSeconds = stepSeconds
        self.anki = anki
        self.time = time
        self.kind = kind
        self.rating = rating
        self.durationMilliseconds = durationMilliseconds
        self.scheduler = scheduler
        self.before = before
        self.after = after
        self.leech = leech
        self.buried = buried
    }
}

/// A row of Anki's review log, column by column (its id, card and time are kept beside them).
public struct AnkiRevlogColumns: Hashable, Sendable {
    /// The button, 1–4; 0 for a row that is no answer.
    public var ease: Int64
    /// Days, or negative seconds for a learning step.
    public var interval: Int64
    public var lastInterval: Int64
    /// Ease in permille under SM-2; under FSRS, difficulty scaled as Anki writes it.
    public var factor: Int64
    /// 0 learning, 1 review, 2 relearning, 3 filtered, 4 manual (reset, set due date), 5 rescheduled.
    public var type: Int64

    public init(ease: Int64, interval: Int64, lastInterval: Int64, factor: Int64, type: Int64) {
        (self.ease, self.interval, self.lastInterval, self.factor, self.type) = (ease, interval, lastInterval, factor, type)
    }

    /// Anki's "reset" (Forget): a manual row with no ease factor; it starts a card's history over.
    public var isReset: Bool { Self.isReset(type: type, factor: factor) }

    public static func isReset(type: Int64, factor: Int64) -> Bool { type == 4 && factor == 0 }
}

/// What an answer that made a card a leech did about it.
public struct LeechEffect: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The note got the "leech" tag.
    public static let tagged = LeechEffect(rawValue: 1)
    /// The card was suspended.
    public static let suspended = LeechEffect(rawValue: 2)
}

/// A sibling an answer buried, and the burial it had before (which undo gives back).
public struct SiblingBurial: Hashable, Sendable {
    public var cardID: Int64
    public var previous: Date?

    public init(cardID: Int64, previous: Date?) {
        self.cardID = cardID
        self.previous = previous
    }
}

/// What fitting FSRS reads of a log entry: when, the answer, the phases either side and Anki's
/// type and ease factor (a reset is told by them). Read alone from a million-row log, it costs
/// a fraction of whole entries.
public struct ReviewLogOutline: Hashable, Sendable {
    public var time: Date
    public var rating: Rating?
    public var beforePhase: CardPhase?
    public var afterPhase: CardPhase?
    public var isAnki: Bool
    public var isAnkiReset: Bool

    public init(time: Date, rating: Rating?, beforePhase: CardPhase?, afterPhase: CardPhase?, isAnki: Bool, isAnkiReset: Bool) {
        self.time = time
        self.rating = rating
        self.beforePhase = beforePhase
        self.afterPhase = afterPhase
        self.isAnki = isAnki
        self.isAnkiReset = isAnkiReset
    }
}
