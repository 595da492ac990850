import Foundation
import MaeilCore
import MaeilStore

/// The card on screen, with everything needed to render it and the four outcomes the
/// buttons will give.
public struct PresentedCard: Equatable, Sendable {
    public var card: Card
    public var note: Note
    public var deck: Deck
    public var template: CardTemplate
    public var nextStates: NextStates
    /// The note's other cards, for burying once this one is answered.
    public var siblings: [SiblingCard]
    public var shownAt: Date
    /// Whole days (or a step in seconds) each button gives, for the prompt: "3 good · 4d".
    public var intervals: [Rating: String]
}

/// What a review session is doing, as a value: a terminal renders it, a test inspects it.
public struct SessionState: Equatable, Sendable {
    public enum Mode: Equatable, Sendable {
        /// Real reviews: every answer is scheduled and logged.
        case review
        /// Going over some cards again (the ones just missed, the focus list) without
        /// touching their schedule.
        case practice
    }

    public var mode: Mode
    public var deckIDs: [Int64]?
    public var queue: StudyQueue
    public var current: PresentedCard?
    public var revealed = false
    public var typedAnswer: String?
    public var answers: [SessionAnswer] = []
    public var startedAt: Date
    public var finished = false
    /// Practice mode: the cards still to go over.
    public var practiceQueue: [Int64] = []

    public var remaining: (new: Int, learning: Int, review: Int) {
        (queue.new.count, queue.learning.count, queue.reviews.count)
    }

    public static func == (lhs: SessionState, rhs: SessionState) -> Bool {
        lhs.mode == rhs.mode && lhs.deckIDs == rhs.deckIDs && lhs.current == rhs.current && lhs.revealed == rhs.revealed
            && lhs.typedAnswer == rhs.typedAnswer && lhs.answers == rhs.answers && lhs.finished == rhs.finished
            && lhs.queue.new == rhs.queue.new && lhs.queue.learning == rhs.queue.learning && lhs.queue.reviews == rhs.queue.reviews
            && lhs.practiceQueue == rhs.practiceQueue
    }
}

/// One answer of this session.
public struct SessionAnswer: Equatable, Sendable {
    public var cardID: Int64
    public var rating: Rating
    public var phaseBefore: CardPhase
    /// Nil in practice mode, where nothing is logged.
    public var logID: Int64?
    public var durationMilliseconds: Int
}

/// Everything the learner can do during a session.
public enum SessionAction: Equatable, Sendable {
    case reveal
    /// A typed answer; it is kept (NFC-normalized) and the answer is revealed.
    case type(String)
    case answer(Rating)
    case undo
    case toggleStar
    case suspend
    case bury
    case edit([NoteField])
    case leave
}

/// What happened, for the interface to tell the learner.
public enum SessionEvent: Equatable, Sendable {
    case shown(cardID: Int64)
    case revealed(cardID: Int64, judgement: AnswerJudgement?)
    case answered(cardID: Int64, rating: Rating, interval: String)
    case leech(cardID: Int64, suspended: Bool)
    case undone(cardID: Int64)
    case starred(cardID: Int64, Bool)
    case suspended(cardID: Int64)
    case buried(cardID: Int64)
    case edited(noteID: Int64)
    case skipped(cardID: Int64, reason: String)
    case finished(SessionSummary)
}

public struct SessionSummary: Equatable, Sendable, Codable {
    public var reviewed: Int
    public var correct: Int
    public var seconds: Int
    public var nextDue: Date?
    public var learningLaterToday: Int

    public var correctPercent: Int { reviewed == 0 ? 0 : Int((Double(correct) * 100 / Double(reviewed)).rounded()) }
}
