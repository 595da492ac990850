import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore
import MaeilSync

/// Each deck's counts of the day's answers across a sync: Anki's devices count against the
/// limits by these counters, so what was studied on one side counts on the other.
extension NormalSync {
    /// What Anki counted of today's answers in `decks` here and the decks above them (every
    /// deck when nil), beyond what the log counts (`AnkiDayCount.keep`), from the merged file's
    /// decks, by Anki's ids. A deck's own count is its counters less its subdecks': one above a
    /// deck whose counts came changes with them.
    /// For a deck whose row came from the other side (`takenThere`), a count short of the
    /// answers the server held before this sync is kept too (`serverAnsweredSince`: Anki's, and
    /// those sent from here before, whose counts went with them): the counts are the last
    /// device's to answer there, who counted those answers, so fewer is custom study raising
    /// the day's limit there, an answer there in the deck a card has left since, or two devices
    /// answering the deck between syncs (Anki keeps the last one's counts, and so does Maeil).
    /// The answers on their way up now are not among them: the deck taken never counted them.
    /// True where a deck whose row came holds an answer given here that has yet to go up: the
    /// counts taken do not count it, and this side's must go up.
    static func keepDayCounts(of merged: URL, decks: Set<Int64>?, takenThere: Set<Int64>, timeZone: TimeZone, now: Date,
                              writer: CollectionWriter) throws -> Bool {
        guard decks?.isEmpty != true else { return false }
        var behind = false
        let answered = try AnkiPackage.answeredToday(ofCollectionFile: merged, timeZone: timeZone, now: now)
        let here = try writer.decks()
        func ankiID(_ deck: Deck) -> Int64 { deck.ankiID ?? StoreExportSource.proposedID(ofDeck: deck.id) }
        let counted = decks.map { decks in here.filter { decks.contains(ankiID($0)) }.map(\.name) }
        for deck in here {
            let ankiID = ankiID(deck)
            guard counted?.contains(where: { $0 == deck.name || $0.hasPrefix(deck.name + "::") }) != false, var today = answered[ankiID] else { continue }
            if takenThere.contains(ankiID) {
                let dayStart = today.clock.start(ofDay: today.day)
                let logged = try writer.serverAnsweredSince(deck: deck.id, since: dayStart)
                today.logged = AnkiAnsweredToday.Logged(new: logged.new, reviews: logged.reviews)
                let unsent = try writer.unsentAnsweredSince(deck: deck.id, since: dayStart)
                behind = behind || unsent.new + unsent.reviews > 0
            }
            try AnkiDayCount.keep(today, deck: deck.id, writer: writer)
        }
        return behind
    }

    /// Per Anki deck id among `decks` (those whose row the merge took from the server), the
    /// answers given here today that go up in this sync: the merged file's log holds them, and
    /// the deck's counters, the other device's, never counted them. Read before a whole merge
    /// replaces the collection, after which every answer is one the file held. An answer to a
    /// card the server deleted is none: the file's log holds it as a gone card's, in no deck (as
    /// a take in place, which deletes the card first, leaves it out too).
    func answersNotCounted(inDecks decks: Set<Int64>, of merged: URL, deletedThere: SyncGraves) throws -> [Int64: AnkiAnsweredToday.Logged] {
        guard !decks.isEmpty else { return [:] }
        let answered = try AnkiPackage.answeredToday(ofCollectionFile: merged, timeZone: full.timeZone, now: full.now)
        let gone = try full.collection.cardsDeletedThere(notes: deletedThere.notes, cards: deletedThere.cards)
        var notCounted: [Int64: AnkiAnsweredToday.Logged] = [:]
        for deck in try full.collection.decks() {
            let ankiID = deck.ankiID ?? StoreExportSource.proposedID(ofDeck: deck.id)
            guard decks.contains(ankiID), let today = answered[ankiID] else { continue }
            let unsent = try full.collection.unsentAnsweredSince(deck: deck.id, since: today.clock.start(ofDay: today.day), excluding: gone)
            if unsent.new + unsent.reviews > 0 { notCounted[ankiID] = AnkiAnsweredToday.Logged(new: unsent.new, reviews: unsent.reviews) }
        }
        return notCounted
    }
}
