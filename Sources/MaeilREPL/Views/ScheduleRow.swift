import Foundation
import MaeilCore

/// One answer of a replay, as `maeil schedule` prints it.
package struct ScheduleRow: Encodable {
    let rating: String
    let state: String
    let intervalDays: Int
    let intervalSeconds: Int
    let ease: Double?
    let stability: Double?
    let difficulty: Double?
    let reps: Int
    let lapses: Int
    let leech: Bool
    /// A leech under a preset that suspends leeches.
    let suspended: Bool
    /// When it is next due: a step's second, or the start of a study day.
    let due: Date?

    package init(step: ScheduleReplay.Step, settings: SchedulerSettings) {
        let kind = settings.kind
        let state = step.state
        rating = step.rating.name
        self.state = state.phase.rawValue
        if state.phase.isInSteps {
            intervalSeconds = state.scheduledSeconds
            intervalDays = state.scheduledSeconds / 86_400
        } else {
            intervalDays = state.intervalDays
            intervalSeconds = state.intervalDays * 86_400
        }
        ease = kind == .fsrs ? nil : state.ease
        stability = kind == .fsrs ? state.stability : nil
        difficulty = kind == .fsrs ? state.difficulty : nil
        reps = state.reps
        lapses = state.lapses
        leech = step.outcome.leech
        suspended = leech && settings.leechAction == .suspend
        due = state.due
    }

    package func encode(to encoder: any Encoder) throws {
        // Keys are always present; a value that does not apply to the scheduler is null.
        try JSONObject([
            ("rating", rating), ("state", state), ("interval_days", intervalDays), ("interval_seconds", intervalSeconds), ("ease", ease),
            ("stability", stability), ("difficulty", difficulty), ("reps", reps), ("lapses", lapses), ("leech", leech),
            ("suspended", suspended), ("due", due.map { $0.formatted(.iso8601) }),
        ]).encode(to: encoder)
    }

    var intervalText: String {
        state == "review" ? "\(intervalDays)d" : IntervalFormat.seconds(intervalSeconds, .exact)
    }

    package static func table(_ rows: [ScheduleRow], kind: SchedulerKind) -> String {
        let memoryHeaders = kind == .fsrs ? ["stability", "difficulty"] : ["ease"]
        let header = ["#", "rating", "state", "interval"] + memoryHeaders + ["reps", "lapses", "leech"]
        let body = rows.enumerated().map { index, row -> [String] in
            let memory = kind == .fsrs
                ? [String(format: "%.4f", row.stability ?? 0), String(format: "%.4f", row.difficulty ?? 0)]
                : [String(format: "%.2f", row.ease ?? 0)]
            return ["\(index + 1)", row.rating, row.state, row.intervalText] + memory
                + ["\(row.reps)", "\(row.lapses)", row.suspended ? "suspended" : (row.leech ? "leech" : "")]
        }
        return TextTable.render(header: header, rows: body)
    }
}
