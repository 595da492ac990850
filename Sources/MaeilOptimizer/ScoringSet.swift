/// Items ready to be scored under several parameter sets: each one's bin, label and weight
/// worked out once, and the items grouped by card. A card's items are prefixes of one history
/// (as `ItemBuilder` makes them, and as the fit takes them), so one pass over its longest
/// history predicts them all, where scoring each item alone went over the history again for
/// every review in it.
package struct ScoringSet {
    private let keys: [Evaluation.Accumulator.BinKey]
    private let recalled: [Bool]
    private let weights: [Double]
    /// Per card: its longest history, and its items' offsets (in `keys`' order) with the
    /// positions they predict, ascending: slices of two arrays all cards share, not two
    /// arrays each (a million allocations at half a million cards).
    private let cards: [(reviews: ArraySlice<FSRSReview>, offsets: ArraySlice<Int>, positions: ArraySlice<Int>)]

    /// `recency`: weighted by recency (fsrs-rs's `evaluate`), else all alike (its time-series evaluation).
    package init(_ items: ArraySlice<FSRSItem>, recency: Bool) {
        var binKeys = Evaluation.Accumulator.BinKeys()
        keys = items.map { binKeys.key($0) }
        recalled = items.map { $0.recalled }
        weights = recency ? Preparation.recencyWeights(count: items.count) : Array(repeating: 1, count: items.count)
        var offsets: [Int] = [], positions: [Int] = []
        offsets.reserveCapacity(items.count)
        positions.reserveCapacity(items.count)
        var spans: [(reviews: ArraySlice<FSRSReview>, targets: Range<Int>)] = []
        func add(_ reviews: ArraySlice<FSRSReview>, _ itemOffsets: some Sequence<Int>, _ itemPositions: some Sequence<Int>) {
            let start = offsets.count
            offsets += itemOffsets
            positions += itemPositions
            spans.append((reviews, start..<offsets.count))
        }
        let base = items.startIndex
        for group in CardGroups(count: items.count, cardID: { items[base + $0].cardID }, length: { items[base + $0].reviews.count }) {
            let ordered = Array(group)
            let longest = items[items.startIndex + ordered.last!].reviews
            let lengths = ordered.map { items[items.startIndex + $0].reviews.count }
            let start = longest.withUnsafeBufferPointer { $0.baseAddress }
            let prefixes = zip(lengths, lengths.dropFirst()).allSatisfy { $0 < $1 } && ordered.dropLast().allSatisfy { offset in
                let reviews = items[items.startIndex + offset].reviews
                // Prefixes of one history share its storage; others are compared.
                return reviews.withUnsafeBufferPointer { $0.baseAddress } == start || reviews.elementsEqual(longest.prefix(reviews.count))
            }
            if prefixes {
                add(longest, ordered, lengths.map { $0 - 1 })
            } else {
                // Not one history (items made by hand): each on its own.
                for offset in ordered { add(items[items.startIndex + offset].reviews, [offset], [items[items.startIndex + offset].reviews.count - 1]) }
            }
        }
        cards = spans.map { ($0.reviews, offsets[$0.targets], positions[$0.targets]) }
    }

    package func evaluate(_ parameters: [Double]) -> Evaluation {
        var accumulator = Evaluation.Accumulator()
        score(parameters, into: &accumulator)
        return accumulator.result
    }

    /// Adds each item's prediction under `parameters` to `accumulator`, in the items' order.
    func score(_ parameters: [Double], into accumulator: inout Evaluation.Accumulator) {
        let model = TrainingModel(parameters)
        var predictions = [Double](repeating: 0, count: keys.count)
        for card in cards {
            var next = card.offsets.startIndex
            model.predict(card.reviews, at: card.positions) { _, r in
                predictions[card.offsets[next]] = r
                next += 1
            }
        }
        for offset in predictions.indices {
            accumulator.add(keys[offset], recalled: recalled[offset], prediction: predictions[offset], weight: weights[offset])
        }
    }
}
