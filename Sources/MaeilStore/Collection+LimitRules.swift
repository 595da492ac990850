import GRDB
import MaeilCore

/// Anki's collection-wide rules for daily limits, kept in meta as Anki keeps them in its
/// collection's config: for every deck at once.
extension Collection {
    private static let ruleKeys = (newIgnoresReviewLimit: "new_cards_ignore_review_limit", applyAllParentLimits: "apply_all_parent_limits")

    package func limitRules() throws -> LimitRules {
        try read { db in try Self.limitRules(db) }
    }

    static func limitRules(_ db: Database) throws -> LimitRules {
        var rules = LimitRules()
        let rows = try Row.fetchCursor(db.cachedStatement(sql: "SELECT key, value FROM meta WHERE key IN (?, ?)"),
                                       arguments: [ruleKeys.newIgnoresReviewLimit, ruleKeys.applyAllParentLimits])
        while let row = try rows.next() {
            let on = (row["value"] as String?) == "1"
            switch row["key"] as String {
            case ruleKeys.newIgnoresReviewLimit: rules.newIgnoresReviewLimit = on
            default: rules.applyAllParentLimits = on
            }
        }
        return rules
    }

    /// Sets a deck's own limit, or one of the collection's rules, read and written in one
    /// write transaction; answers the deck and the rules as they are after.
    package func setLimit(_ key: DeckLimitKey, _ text: String, deckID: Int64, today: Int) throws -> (Deck, LimitRules) {
        try transaction { db in
            var deck = try Self.deck(db, id: deckID)
            var rules = try Self.limitRules(db)
            try key.set(text, limits: &deck.limits, rules: &rules, today: today)
            if key.isCollectionWide {
                try Self.setLimitRules(db, rules)
            } else {
                try Self.update(db, deck)
            }
            return (deck, rules)
        }
    }

    package func setLimitRules(_ rules: LimitRules) throws {
        try transaction { db in try Self.setLimitRules(db, rules) }
    }

    /// A change of the rules is one a sync carries (Anki keeps them in its collection's config):
    /// marked as the triggers on the synced tables mark a change (meta has none, it holds the mark).
    static func setLimitRules(_ db: Database, _ rules: LimitRules) throws {
        let changed = try limitRules(db) != rules
        for (key, on) in [(ruleKeys.newIgnoresReviewLimit, rules.newIgnoresReviewLimit), (ruleKeys.applyAllParentLimits, rules.applyAllParentLimits)] {
            try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", arguments: [key, on ? "1" : "0"])
        }
        if changed { try db.execute(sql: "UPDATE meta SET value = '1' WHERE key = 'sync_dirty'") }
    }
}

extension CollectionWriter {
    package func setLimitRules(_ rules: LimitRules) throws {
        try Collection.setLimitRules(db, rules)
    }
}
