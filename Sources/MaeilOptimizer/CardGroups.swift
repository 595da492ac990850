/// Items grouped by card without a dictionary of arrays: one array of item indices sorted by
/// card, then by the length of the item's history, then by index, each card's a contiguous run.
/// At a million cards the dictionary's half a million small arrays took a hundred megabytes.
struct CardGroups: Sequence {
    private let order: [Int]
    private let cards: [Int64]

    init(count: Int, cardID: (Int) -> Int64, length: (Int) -> Int) {
        // The keys read once into arrays: a comparison through the closures cost three times as much.
        let cardOf = (0..<count).map(cardID), lengthOf = (0..<count).map { Int32(clamping: length($0)) }
        var order = Array(0..<count)
        order.sort { (cardOf[$0], lengthOf[$0], $0) < (cardOf[$1], lengthOf[$1], $1) }
        self.order = order
        cards = order.map { cardOf[$0] }
    }

    /// Each card's item indices, shortest history first, cards in id order.
    func makeIterator() -> AnyIterator<ArraySlice<Int>> {
        var start = 0
        return AnyIterator {
            guard start < order.count else { return nil }
            var end = start + 1
            while end < order.count, cards[end] == cards[start] { end += 1 }
            defer { start = end }
            return order[start..<end]
        }
    }
}
