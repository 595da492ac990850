import Foundation
import GRDB
import MaeilStore
import MaeilTestSupport
import Testing

extension SyncTests {
    /// The hour a day starts, moved on the phone past the present (three hours earlier, an hour
    /// ago), so the phone is on the next study day; the sync takes the whole merge.
    /// - The card the phone buried on the day before (synced since) is back on both sides: the
    ///   phone's deck list unburied it, which Anki syncs no change for.
    /// - The card buried here on that day, which goes up with this sync, stays buried on both, as
    ///   Anki keeps a buried card that comes after its deck list unburied the day.
    /// - The card the phone buried on its new day stays buried on both.
    /// The test runs in a zone where it is two hours before the old hour. Before: the card of
    /// the day before stayed buried here until the next day (two sync tests failed every day
    /// from 20:00 to 21:00 UTC, when Seoul's day moved from 6 to 5 o'clock crossed the present).
    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func theDayMovedOnOnThePhoneUnburiesTheDayBefore() throws {
        let seed = "330", rollover = 6
        var there = self
        there.zone = Self.zone(whereItIs: rollover - 2)
        try there.dayMovedOnOnThePhone(seed, from: rollover, to: rollover - 3)
    }

    private func dayMovedOnOnThePhone(_ seed: String, from rollover: Int, to moved: Int) throws {
        let (server, collection, state, phonePath, login) = try sharedWithThePhone(seed)
        let config = try #require(try phone(["config", phonePath] + login)["config"] as? [String: Any])
        #expect(SyncTests.int(config["rollover"]) == Int64(rollover), "seed \(seed)'s day starts at \(config["rollover"] ?? "4")")
        func buriedHere() throws -> Set<Int64> { try buriedCards(collection) }
        func buriedThere() throws -> Set<Int64> { try buriedCards(onThePhone: phonePath) }
        // The phone buries a card on its day; Maeil one on that day (a card made due, then `b` in
        // its deck's review); and the phone another once it moved its day on. Each bury on the
        // phone is from its deck list, which unburies what a new day brings back.
        func firstCard(ofANoteNoneOf cards: Set<Int64>) throws -> (id: Int64, guid: String, deck: String) {
            try self.firstCard(collection, ofANoteNoneOf: cards)
        }
        // (The phone's download studied every deck from its deck list: in some zones, and at some
        // hours, that buried siblings already.)
        let shared = try buriedThere()
        _ = try phone(["bury", phonePath] + login + [try firstCard(ofANoteNoneOf: shared).guid])
        let dayBefore = try buriedThere()
        #expect(try maeil(["sync"], collection, state: state).status == 0)
        let taken = try buriedHere()
        #expect(dayBefore.subtracting(shared).count == 1 && taken == dayBefore, "buried on the day before: on the phone \(dayBefore), here \(taken)")
        let made = try firstCard(ofANoteNoneOf: dayBefore)
        #expect(try maeil(["set-due", "0", "card:\(made.id)"], collection, state: state).status == 0)
        let reviewed = try maeil(["review", made.deck], collection, input: "b\nq\n", state: state)
        let buriedHereOnThatDay = try buriedHere().subtracting(dayBefore)
        #expect(buriedHereOnThatDay.count == 1, "\(reviewed.stdout)\(reviewed.stderr)")
        let changed = try phone(["config", phonePath] + login + ["rollover=\(moved)"])
        #expect((changed["required"] as? Int ?? 9) <= 1, "\(changed)")
        _ = try phone(["bury", phonePath] + login + [try firstCard(ofANoteNoneOf: dayBefore.union(buriedHereOnThatDay)).guid])
        let newDay = try buriedThere()
        #expect(newDay.count == 1 && newDay.isDisjoint(with: dayBefore.union(buriedHereOnThatDay)),
                "buried on the phone's new day: \(newDay); the day before: \(dayBefore), here \(buriedHereOnThatDay)")
        let synced = try maeil(["sync", "--json"], collection, state: state)
        #expect(synced.status == 0 && synced.stdout.contains("\"taken_in_place\" : false"), "\(synced.stdout)\(synced.stderr)")
        // What was buried before the day moved and went up with this sync stays buried on both
        // sides: the phone unburied its new day already, as Anki keeps a card another device sent.
        let here = try buriedHere(), stillBuried = newDay.union(buriedHereOnThatDay)
        #expect(here == stillBuried, "buried here \(here), on the phone \(newDay), here before the day moved \(buriedHereOnThatDay)")
        try expectCheckedAndSettled(collection, state: state, server: server)
        let phoneSynced = try phone(["sync", phonePath] + login)
        #expect((phoneSynced["required"] as? Int ?? 9) <= 1, "the phone's next sync: \(phoneSynced)")
        let thereAfter = try buriedThere()
        #expect(thereAfter == stillBuried, "buried on the phone \(thereAfter), here \(here)")
        try expectTheSameDeckLists(collection, state: state, phonePath: phonePath, context: "the day moved on on the phone")
    }

    /// The Anki ids of the cards buried here now.
    private func buriedCards(_ collection: String) throws -> Set<Int64> {
        try Collection(path: collection, readOnly: true).read { db in
            Set(try Int64.fetchAll(db, sql: "SELECT anki_id FROM card WHERE buried_until > ?", arguments: [Int64(Date().timeIntervalSince1970)]))
        }
    }

    /// The ids of the cards the phone shows buried, once its deck list lifted what a new day brings back.
    private func buriedCards(onThePhone phonePath: String) throws -> Set<Int64> {
        Set((try phone(["buried", phonePath])["cards"] as? [NSNumber] ?? []).map(\.int64Value))
    }

    /// The first card of the first note here (from Anki, not suspended) none of whose cards is among `cards`.
    private func firstCard(_ collection: String, ofANoteNoneOf cards: Set<Int64>) throws -> (id: Int64, guid: String, deck: String) {
        try #require(try Collection(path: collection, readOnly: true).read { db in
            try Row.fetchOne(db, sql: """
                SELECT card.id, note.guid, deck.name FROM note JOIN card ON card.note_id = note.id AND card.ordinal = 0
                  JOIN deck ON deck.id = card.deck_id
                WHERE note.anki_id IS NOT NULL AND card.suspended = 0
                  AND NOT EXISTS (SELECT 1 FROM card o WHERE o.note_id = note.id AND o.anki_id IN (SELECT value FROM json_each(?)))
                ORDER BY note.id LIMIT 1
                """, arguments: ["[\(cards.map(String.init).joined(separator: ","))]"]).map { ($0[0], $0[1], $0[2]) }
        })
    }

    /// A card buried here goes up with the day Maeil last lifted the day's burials on, so a
    /// phone still on the day before keeps it buried when it comes to the new day: Anki's deck
    /// list lifts every card buried before the day the collection's config names. Anki's own
    /// client sends that day in its whole config whenever it is the newer side; Maeil sends the
    /// server's config as it stands (read first, so a setting the phone changed since is kept)
    /// with its day over it.
    /// Two zones three hours apart make the two days: in the first it is two hours before the
    /// hour a day starts (the day before), in the second an hour after (the new day). The
    /// phone studies in the first; Maeil buries a card in the second; the phone then changes a
    /// setting in the first (its config goes up with the day before); Maeil syncs; the phone
    /// syncs in the second. Before: the phone showed the card Maeil buried, Maeil kept it buried.
    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func aCardBuriedHereStaysBuriedOnAPhoneComingToTheNewDay() throws {
        let seed = "330", rollover = 6
        var before = self, after = self
        // Three hours apart on the same date: 04:xx and 07:xx, an hour or more from the day's start.
        let east = Self.east(whereItIs: rollover + 1)
        (before.zone, after.zone) = (Self.zone(east: east - 3), Self.zone(east: east))
        after.phoneProcess = PhoneProcess()
        let (server, collection, state, phonePath, login) = try before.sharedWithThePhone(seed)
        let config = try #require(try before.phone(["config", phonePath] + login)["config"] as? [String: Any])
        let dayBefore = try #require(SyncTests.int(config["lastUnburied"]), "the phone's download opened its deck list: \(config)")
        #expect(SyncTests.int(config["rollover"]) == Int64(rollover), "seed \(seed)'s day starts at \(config["rollover"] ?? "4")")
        // What the phone's download buried on the day before (it studied from the deck list) comes
        // back first, here and there: Maeil holds a burial until the instant its day ends where it
        // was counted, which in a zone further east is past the start of that zone's new day.
        let shared = try buriedCards(collection)
        if !shared.isEmpty {
            let notes = try Collection(path: collection, readOnly: true).read { db in
                try Int64.fetchAll(db, sql: "SELECT DISTINCT note_id FROM card WHERE anki_id IN (SELECT value FROM json_each(?))",
                                   arguments: ["[\(shared.map(String.init).joined(separator: ","))]"])
            }
            for note in notes { #expect(try before.maeil(["unbury", "\(note)"], collection, state: state).status == 0) }
            #expect(try before.maeil(["sync"], collection, state: state).status == 0)
            #expect((try before.phone(["sync", phonePath] + login)["required"] as? Int ?? 9) <= 1)
        }
        #expect(try buriedCards(collection).isEmpty && before.buriedCards(onThePhone: phonePath).isEmpty)
        let made = try firstCard(collection, ofANoteNoneOf: [])
        #expect(try after.maeil(["set-due", "0", "card:\(made.id)"], collection, state: state).status == 0)
        let reviewed = try after.maeil(["review", made.deck], collection, input: "b\nq\n", state: state)
        let buriedHere = try buriedCards(collection)
        #expect(buriedHere.count == 1, "\(reviewed.stdout)\(reviewed.stderr)")
        // Meanwhile the phone, still on the day before, changes a setting: its config goes up whole.
        let changed = try before.phone(["config", phonePath] + login + ["sortBackwards=true"])
        #expect((changed["required"] as? Int ?? 9) <= 1 && SyncTests.int((changed["config"] as? [String: Any])?["lastUnburied"]) == dayBefore,
                "\(changed)")
        let synced = try after.maeil(["sync", "--json"], collection, state: state)
        #expect(synced.status == 0, "\(synced.stdout)\(synced.stderr)")
        try after.expectCheckedAndSettled(collection, state: state, server: server)
        let phoneSynced = try after.phone(["sync", phonePath] + login)
        #expect((phoneSynced["required"] as? Int ?? 9) <= 1, "the phone's sync on the new day: \(phoneSynced)")
        let here = try buriedCards(collection), there = try after.buriedCards(onThePhone: phonePath)
        #expect(there.isSuperset(of: buriedHere) && there == here, "buried here \(here), on the phone \(there); buried here on the new day \(buriedHere)")
        // The setting the phone changed since Maeil's last sync is still there, and the day is the new one.
        let now = try #require(try after.phone(["config", phonePath] + login)["config"] as? [String: Any])
        #expect(now["sortBackwards"] as? Bool == true && SyncTests.int(now["lastUnburied"]) == dayBefore + 1, "\(now)")
        try after.expectTheSameDeckLists(collection, state: state, phonePath: phonePath, context: "a card buried here on the new day")
    }

    /// A zone where it is now `hour` o'clock: whole hours east or west of UTC.
    static func zone(whereItIs hour: Int, at now: Date = Date()) -> String {
        zone(east: east(whereItIs: hour, at: now))
    }

    /// How many hours east of UTC it is now `hour` o'clock, from 9 west to 14 east (where the
    /// zone three hours west of it is a zone too).
    static func east(whereItIs hour: Int, at now: Date = Date()) -> Int {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let east = ((hour - utc.component(.hour, from: now)) % 24 + 24) % 24
        return east > 14 ? east - 24 : east
    }

    static func zone(east: Int) -> String {
        east == 0 ? "Etc/GMT" : east > 0 ? "Etc/GMT-\(east)" : "Etc/GMT+\(-east)"
    }
}
