import Foundation
import MaeilCore

/// A card's state in 64 bytes instead of `CardState`'s 128, for a deck's starting cards, held
/// for the whole run beside the run's own cards: counts and intervals in 32 bits (clamped
/// there: a schedule never comes near), dates and memory as they are. The run's own cards keep
/// `CardState` unpacked: packing at every answer cost the simulator a tenth of its speed.
struct PackedCardState: Hashable, Sendable {
    private var stability: Double, difficulty: Double
    private var due: Double, lastReview: Double
    private var step: Int32, scheduledSeconds: Int32, intervalDays: Int32, easePermille: Int32
    private var reps: Int32, lapses: Int32, streak: Int32
    private var phase: UInt8
    /// Which of stability, difficulty, due and last review are there.
    private var present: UInt8

    init(_ state: CardState) {
        stability = state.stability ?? 0
        difficulty = state.difficulty ?? 0
        due = state.due?.timeIntervalSinceReferenceDate ?? 0
        lastReview = state.lastReview?.timeIntervalSinceReferenceDate ?? 0
        step = Int32(clamping: state.step)
        scheduledSeconds = Int32(clamping: state.scheduledSeconds)
        intervalDays = Int32(clamping: state.intervalDays)
        easePermille = Int32(clamping: state.easePermille)
        reps = Int32(clamping: state.reps)
        lapses = Int32(clamping: state.lapses)
        streak = Int32(clamping: state.streak)
        phase = Self.number(of: state.phase)
        present = (state.stability != nil ? 1 : 0) | (state.difficulty != nil ? 2 : 0) | (state.due != nil ? 4 : 0)
            | (state.lastReview != nil ? 8 : 0)
    }

    var state: CardState {
        CardState(phase: cardPhase, step: Int(step), scheduledSeconds: Int(scheduledSeconds), intervalDays: Int(intervalDays),
                  easePermille: Int(easePermille), stability: present & 1 != 0 ? stability : nil,
                  difficulty: present & 2 != 0 ? difficulty : nil,
                  due: present & 4 != 0 ? Date(timeIntervalSinceReferenceDate: due) : nil, reps: Int(reps), lapses: Int(lapses),
                  streak: Int(streak), lastReview: present & 8 != 0 ? Date(timeIntervalSinceReferenceDate: lastReview) : nil)
    }

    var cardPhase: CardPhase {
        switch phase {
        case 0: .new
        case 1: .learning
        case 2: .review
        default: .relearning
        }
    }

    /// By a switch: `CardPhase.allCases` builds an array at every use, once per answer here.
    private static func number(of phase: CardPhase) -> UInt8 {
        switch phase {
        case .new: 0
        case .learning: 1
        case .review: 2
        case .relearning: 3
        }
    }
}
