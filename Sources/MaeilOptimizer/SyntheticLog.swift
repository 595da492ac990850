import Foundation
import MaeilCore

/// Review logs of a simulated learner whose memory follows FSRS with known parameters: each
/// card is learned on a random day of two years and reviewed at the interval for retention 0.9
/// (with some spread), recalled with FSRS's probability. For tests and `maeil bench`.
package enum SyntheticLog {
    package static func items(parameters: [Double], cards: Int, seed: UInt64) -> [FSRSItem] {
        ItemBuilder.items(histories(parameters: parameters, cards: cards, seed: seed), nextDayStart: nextDayStart)
    }

    /// The same reviews as a CSV in the FSRS optimizer's format, whose items (at UTC, rollover 4)
    /// are `items`'s.
    package static func csv(parameters: [Double], cards: Int, seed: UInt64) -> String {
        var text = "card_id,review_time,review_rating,review_state,review_duration\n"
        for (card, events) in histories(parameters: parameters, cards: cards, seed: seed) {
            for event in events {
                text += "\(card),\(Int64(event.time) * 1000),\(event.rating),\(event.kind == .learning ? 0 : 2),5000\n"
            }
        }
        return text
    }

    private static let start = 1_700_000_000.0 - Double(800 * 86_400)
    private static let nextDayStart = start + Double(731 * 86_400) + 4 * 3600

    static func histories(parameters: [Double], cards: Int, seed: UInt64) -> [(cardID: Int64, events: [ReviewEvent])] {
        let fsrs = FSRS(parameters: FSRSParameters(clamping: parameters) ?? .fsrs6Default)
        var generator = SeededGenerator(seed: seed)
        var histories: [(cardID: Int64, events: [ReviewEvent])] = []
        for card in 0..<cards {
            var day = Int.random(in: 0..<700, using: &generator)
            var memory: MemoryState?
            var elapsed = 0
            var events: [ReviewEvent] = []
            while day < 730 {
                let rating: Rating
                if let memory {
                    let recall = fsrs.retrievability(elapsedDays: Double(elapsed), stability: memory.stability)
                    rating = generator.nextUnit() < recall ? (generator.nextUnit() < 0.8 ? .good : .hard) : .again
                } else {
                    rating = [Rating.again, .hard, .good, .good, .good, .easy].randomElement(using: &generator)!
                }
                events.append(ReviewEvent(time: start + Double(day * 86_400 + 43_200), rating: rating.rawValue,
                                          kind: memory == nil ? .learning : .review))
                let next = fsrs.nextMemory(memory, elapsedDays: elapsed, rating: rating)
                memory = next
                let interval = fsrs.interval(stability: next.stability, desiredRetention: 0.9) * (0.8 + 0.5 * generator.nextUnit())
                elapsed = max(1, Int(interval.rounded()))
                day += elapsed
            }
            histories.append((Int64(card + 1), events))
        }
        return histories
    }
}
