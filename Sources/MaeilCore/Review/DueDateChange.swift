import Foundation

/// Anki's "Set Due Date": "0" today, "3" in three days, "1-7" a day picked at random in that
/// range, and "!" to make the interval the days given. The card becomes a review card due that
/// day; a review or relearning card keeps its interval (SM-2) or gets the days since its last
/// review plus the days given (FSRS), and a card without an ease gets its deck's starting
/// ease, as Anki 26.9.3 does it (SetDueAgainstAnkiTests holds the two side by side).
public struct DueDateChange: Hashable, Sendable {
    public let minimumDays: Int
    public let maximumDays: Int
    public let resetsInterval: Bool

    /// Parses Anki's text; nil when it is not "N", "N-M", with an optional "!".
    public init?(_ text: String) {
        var body = Substring(text.trimmingCharacters(in: .whitespaces))
        resetsInterval = body.hasSuffix("!")
        if resetsInterval { body = body.dropLast() }
        let parts = body.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) }),
              let first = Int(parts[0]), let last = Int(parts.last!), first >= 0, last >= 0, max(first, last) <= 36_500 else { return nil }
        (minimumDays, maximumDays) = (min(first, last), max(first, last))
    }

    /// The card's state once due `days` from today (`days` within the range; see `days(using:)`).
    /// `fsrs`: the deck schedules with FSRS.
    public func state(from card: CardState, days: Int, today: Int, clock: DayClock, startingEasePermille: Int, fsrs: Bool) -> CardState {
        let inReview = card.phase == .review || card.phase == .relearning
        let interval: Int
        if fsrs {
            // FSRS's interval is the time since the last review, so a card moved keeps that
            // meaning; one never out of learning has none. "!" changes nothing here. Anki counts
            // whole 86,400-second spans to the next day's start (a DST night can add one).
            let nextDay = clock.start(ofDay: today + 1)
            let elapsed = card.lastReview.map { Int(nextDay.timeIntervalSince($0) / 86_400) }
                ?? today - (card.due.map(clock.dayNumber(of:)) ?? today) + card.intervalDays
            interval = inReview ? max(0, elapsed + days) : 0
        } else if resetsInterval || !inReview {
            interval = max(days, 1)
        } else {
            interval = max(card.intervalDays, 1)
        }
        var next = card
        next.phase = .review
        next.step = 0
        next.scheduledSeconds = 0
        next.intervalDays = interval
        next.due = clock.start(ofDay: today + days)
        if card.phase == .new || card.phase == .learning { next.easePermille = startingEasePermille }
        return next
    }

    /// Days from today, picked within the range by `generator`.
    public func days(using generator: inout some RandomNumberGenerator) -> Int {
        Int.random(in: minimumDays...maximumDays, using: &generator)
    }
}
