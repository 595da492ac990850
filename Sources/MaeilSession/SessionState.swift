import Foundation
import MaeilCore
import MaeilStore

/// The card on screen, with everything needed to render it and the four outcomes the
/// buttons will give.
package struct PresentedCard: Equatable, Sendable {
    package var card: Card
    package var note: Note
    package var deck: Deck
    package var template: CardTemplate
    package var nextStates: NextStates
    /// The note's other cards, for burying once this one is answered.
    package var siblings: [SiblingCard]
    package var shownAt: Date
    /// Whole days (or a step in seconds) each button gives, for the prompt: "3 good · 4d".
    package var intervals: [Rating: String]
}

/// What a review session is doing, as a value: a terminal renders it, a test inspects it.
package struct SessionState: Equatable, Sendable {
    package enum Mode: Equatable, Sendable {
        /// Real reviews: every answer is scheduled and logged.
        case review
        /// Going over some cards again (the ones just missed, the focus list) without
        /// touching their schedule.
        case practice
    }

    package var mode: Mode
    package var deckIDs: [Int64]?
    package var queue: StudyQueue
    package var current: PresentedCard?
    package var revealed = false
    package var typedAnswer: String?
    package var answers: [SessionAnswer] = []
    package var startedAt: Date
    package var finished = false
    /// Practice mode: the cards still to go over.
    package var practiceQueue: [Int64] = []

    package var remaining: (new: Int, learning: Int, review: Int) {
        (queue.newCount, queue.learningCount, queue.reviewCount)
    }

    package static func == (lhs: SessionState, rhs: SessionState) -> Bool {
        lhs.mode == rhs.mode && lhs.deckIDs == rhs.deckIDs && lhs.current == rhs.current && lhs.revealed == rhs.revealed
            && lhs.typedAnswer == rhs.typedAnswer && lhs.answers == rhs.answers && lhs.finished == rhs.finished
            && lhs.queue == rhs.queue
            && lhs.practiceQueue == rhs.practiceQueue
    }
}

/// One answer of this session.
package struct SessionAnswer: Equatable, Sendable {
    package var cardID: Int64
    package var rating: Rating
    package var phaseBefore: CardPhase
    /// Nil in practice mode, where nothing is logged.
    package var logID: Int64?
    package var durationMilliseconds: Int
}

/// Everything the learner can do during a session.
package enum SessionAction: Equatable, Sendable {
    case reveal
    /// A typed answer; it is kept (NFC-normalized) and the answer is revealed.
    case type(String)
    case answer(Rating)
    case undo
    case toggleStar
    /// Anki's flag 0–7 on the card shown.
    case flag(Int)
    case suspend
    case bury
    case edit([NoteField])
    case leave
}

/// What happened, for the interface to tell the learner.
package enum SessionEvent: Equatable, Sendable {
    case shown(cardID: Int64)
    case revealed(cardID: Int64, judgement: AnswerJudgement?)
    case answered(cardID: Int64, rating: Rating, interval: String)
    case leech(cardID: Int64, suspended: Bool)
    case undone(cardID: Int64)
    case starred(cardID: Int64, Bool)
    case flagged(cardID: Int64, Int)
    case suspended(cardID: Int64)
    case buried(cardID: Int64)
    case edited(noteID: Int64)
    case skipped(cardID: Int64, reason: String)
    case finished(SessionSummary)
}

package struct SessionSummary: Equatable, Sendable, Codable {
    package var reviewed: Int
    package var correct: Int
    package var seconds: Int
    package var nextDue: Date?
    package var learningLaterToday: Int
    /// New cards and reviews still due today (a learner who left before the end).
    package var stillDue: Int = 0

    package var correctPercent: Int { reviewed == 0 ? 0 : Int((Double(correct) * 100 / Double(reviewed)).rounded()) }
}
