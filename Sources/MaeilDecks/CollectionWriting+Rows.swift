import Foundation
import MaeilPrograms
import GRDB
import MaeilCore

/// Each note, card and review-log row as Anki's columns hold it: the checksum, a card's queue,
/// due and interval on the collection's calendar, its data, and an answer's row.
extension CollectionWriting {
    /// Anki's note checksum: the first 8 hex digits of the SHA-1 of the first field's sort text.
    static func checksum(_ sortText: String) -> Int64 {
        let digest = SHA1.digest(Data(sortText.utf8))
        return Int64(digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// Maeil's state in Anki's card columns.
    static func scheduling(_ card: ExportCard, createdDay: Int, today: Int, clock: DayClock, learningSteps: Int, relearningSteps: Int)
        -> (type: Int, queue: Int, due: Int64, interval: Int, left: Int) {
        let state = card.state
        func queue(_ normal: Int) -> Int { card.suspended ? -1 : (card.buried ? (card.buriedByUser ? -3 : -2) : normal) }
        switch state.phase {
        case .new:
            return (0, queue(0), Int64(card.position), 0, 0)
        case .review:
            let dueDay = state.due.map(clock.dayNumber(of:)) ?? today
            return (2, queue(2), Int64(dueDay - createdDay), state.intervalDays, 0)
        case .learning, .relearning:
            let type = state.phase == .learning ? 1 : 3
            let steps = state.phase == .learning ? learningSteps : relearningSteps
            let left = max(1, steps - state.step)
            let interval = state.phase == .relearning ? state.intervalDays : 0
            // A step scheduled in seconds stays a second (Anki's learning queue), even one that ends
            // past midnight; one that ran past the day's end was given the start of a later day,
            // which Anki keeps as a day number (its day-learning queue) once that day has come too.
            guard let due = state.due, clock.start(ofDay: clock.dayNumber(of: due)) == due else {
                return (type, queue(1), Int64(state.due?.timeIntervalSince1970 ?? 0), interval, left)
            }
            return (type, queue(3), Int64(clock.dayNumber(of: due) - createdDay), interval, left)
        }
    }

    /// Anki's card data: the original position the card came with, FSRS's memory, the last
    /// review's time, which Anki keeps for every reviewed card (its Check Database adds it where
    /// it is missing), and the custom data the card came with, last as Anki puts it.
    static func data(_ card: ExportCard) -> String {
        // Keys in Anki's order, numbers as Swift prints them (the shortest that reads back the same).
        var members: [String] = []
        if let position = card.originalPosition { members.append("\"pos\":\(position)") }
        let memory = card.state.memory
        let kept = memory.map(AnkiPackageWriter.ankiMemory)
        if let kept { members.append("\"d\":\(kept.difficulty)") }
        // Anki keeps FSRS-6's decay as the parameter (w20, positive); the forgetting curve's
        // exponent is its negative.
        if let decay = card.decay { members.append("\"decay\":\((abs(decay) * 1000).rounded() / 1000)") }
        if let retention = card.desiredRetention { members.append("\"dr\":\(retention)") }
        // A card forgotten keeps its last review's time, as Anki keeps it. One whose log holds
        // changes alone (a due date set, never answered) has none: Anki's Check Database takes
        // it away there.
        let neverAnswered = card.state.phase == .new && card.state.reps == 0 || !card.history.isEmpty && !card.history.contains { $0.rating != nil }
        let answered = neverAnswered ? nil : card.state.lastReview ?? card.history.last { $0.rating != nil }?.time
        if let answered { members.append("\"lrt\":\(Int64(answered.timeIntervalSince1970))") }
        if let kept { members.append("\"s\":\(kept.stability)") }
        if let custom = card.customData { members.append("\"cd\":" + jsonString(custom)) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A JSON string literal, escaped as Anki's serde_json escapes one.
    static func jsonString(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{08}": out += "\\b"
            case "\u{0C}": out += "\\f"
            case _ where scalar.value < 0x20: out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// Anki's revlog columns for one answer.
    typealias Revlog = (ease: Int, interval: Int, lastInterval: Int, factor: Int, type: Int)

    /// A log entry as a revlog row; nil for Maeil's own bookkeeping (`AnkiRevlogColumns.init(_:clock:scheduler:)`).
    static func revlog(_ entry: ReviewLogEntry, clock: DayClock?, scheduler: SchedulerSettings?) -> Revlog? {
        AnkiRevlogColumns(entry, clock: clock, scheduler: scheduler).map {
            (Int($0.ease), Int($0.interval), Int($0.lastInterval), Int($0.factor), Int($0.type))
        }
    }

    /// A note type's legacy JSON with every key Anki requires: what it was kept with, and
    /// Anki's defaults for the rest (fields and templates from the type where it has none).
}
