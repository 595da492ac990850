import Foundation

/// fsrs-rs's data rules before a fit (its training.rs and dataset.rs): the outlier filter,
/// recency weights and the longest history it trains on.
enum Preparation {
    static let maxSequenceLength = 256

    /// Drops the cards whose first long-term review is unusual for their first rating: per first
    /// rating, the rarest (first rating, days) groups up to max(20, total/20) items, and then any
    /// group with fewer than 6 items or more than 100 days (365 after "easy"). A first rating
    /// with fewer than 20 such items goes entirely. Returns the surviving items in their order
    /// and the pretraining set (survivors predicting a first long-term review).
    static func filterOutliers(_ items: [FSRSItem]) -> (kept: [FSRSItem], pretraining: [FSRSItem]) {
        struct Key: Hashable { var rating: Int; var days: Int }
        // Each item's (first rating, days to its first long-term review), worked out once.
        let keys: [Key?] = items.map { item in
            guard let review = item.reviews.first(where: { $0.deltaT > 0 }) else { return nil }
            return Key(rating: item.reviews[0].rating, days: review.deltaT)
        }
        let longTermCounts = items.map { $0.longTermReviewCount }
        var groups: [Key: Int] = [:]
        for index in items.indices where longTermCounts[index] == 1 {
            if let key = keys[index] { groups[key, default: 0] += 1 }
        }
        var removed = Set<Key>()
        for rating in 1...4 {
            let subgroups = groups.filter { $0.key.rating == rating }.sorted { ($0.value, $0.key.days) < ($1.value, $1.key.days) }
            let total = subgroups.reduce(0) { $0 + $1.value }
            let threshold = max(20, total / 20)
            var dropped = 0
            for (key, size) in subgroups {
                if dropped + size < threshold {
                    dropped += size
                    removed.insert(key)
                } else if size < 6 || key.days > (rating == 4 ? 365 : 100) {
                    removed.insert(key)
                }
            }
        }
        var kept: [FSRSItem] = [], pretraining: [FSRSItem] = []
        kept.reserveCapacity(items.count)
        for index in items.indices {
            guard let key = keys[index], !removed.contains(key) else { continue }
            kept.append(items[index])
            if longTermCounts[index] == 1 { pretraining.append(items[index]) }
        }
        return (kept, pretraining)
    }

    /// 0.25 + 0.75·(i/(n−1))³ by position: later reviews weigh more (computed in 32 bits, as fsrs-rs).
    static func recencyWeights(count: Int) -> [Double] {
        let last = Float(max(count - 1, 1))
        return (0..<count).map { index in
            let x = Float(index) / last
            return Double(Float(0.25) + Float(0.75) * x * x * x)
        }
    }
}
