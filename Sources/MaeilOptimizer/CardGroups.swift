/// Items grouped by card without a dictionary of arrays: one array of item indices sorted by
/// card, then by the length of the item's history, then by index, each card's a contiguous run.
/// At a million cards the dictionary's half a million small arrays took a hundred megabytes.
struct CardGroups: Sequence {
    private let order: [Int]
    private let cardID: (Int) -> Int64

    init(count: Int, cardID: @escaping (Int) -> Int64, length: (Int) -> Int) {
        order = (0..<count).sorted { (cardID($0), length($0), $0) < (cardID($1), length($1), $1) }
        self.cardID = cardID
    }

    /// Each card's item indices, shortest history first, cards in id order.
    func makeIterator() -> AnyIterator<ArraySlice<Int>> {
        var start = 0
        return AnyIterator {
            guard start < order.count else { return nil }
            let card = cardID(order[start])
            var end = start + 1
            while end < order.count, cardID(order[end]) == card { end += 1 }
            defer { start = end }
            return order[start..<end]
        }
    }
}
