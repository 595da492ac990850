import Foundation
import MaeilStore

/// Today's work, counted one way everywhere (the greeting, `stats`, `decks`, a review's
/// header, the focus list): reviews due, learning cards due before the next study day, and
/// new cards within the day's limit. As in Anki's deck list, a sibling that burying will
/// leave out of the review still counts (the review's own header counts what it shows).
package struct TodayCounts: Equatable, Sendable {
    package let due: Int
    package let learning: Int
    package let new: Int

    package init(_ collection: Collection, deckIDs: [Int64]?, now: Date, timeZone: TimeZone) throws {
        let queue = try collection.studyQueue(deckIDs: deckIDs, now: now, timeZone: timeZone, countingSiblings: true)
        self.init(due: queue.reviewCount, learning: queue.learningCount, new: queue.newCount)
    }

    package init(due: Int, learning: Int, new: Int) {
        self.due = due
        self.learning = learning
        self.new = new
    }

    /// "3 due · 28 learning · 20 new".
    package func text(_ style: Style) -> String {
        "\(style.green("\(due) due")) · \(style.red("\(learning) learning")) · \(style.blue("\(new) new"))"
    }
}
