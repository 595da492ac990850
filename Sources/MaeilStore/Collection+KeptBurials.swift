import Foundation
import GRDB
import MaeilCore

extension Collection {
    /// After a whole merge rebuilt this collection (numbered as `old` by `keepNumbers`), the
    /// burials `old` held, on every card whose row neither side changed since the last sync:
    /// all but `merged`, Anki's ids of the rows the merge took from the server or sent to it,
    /// which both sides now hold as its file does. An Anki file says only that a card is
    /// buried, and the day Anki last unburied on, and Anki unburies without a change to sync.
    /// Where the merge moved the hour a day starts, a burial ends by the new hour
    /// (`DayClock.burialEnd`): a card buried by the old hour on a day the new hour has ended
    /// is back, as the phone that moved the hour unburied it. One transaction.
    package func keepBurials(of old: Collection, except merged: Set<Int64>, timeZone: TimeZone, now: Date) throws {
        // By Anki's id; a card that has none yet (made here) by its number, which it keeps.
        typealias Burial = (until: Date, byUser: Bool, rollover: Int)
        let (byAnkiID, byNumber) = try old.read { db in
            var held: (byAnkiID: [Int64: Burial], byNumber: [Int64: Burial]) = ([:], [:])
            for row in try Row.fetchAll(db, sql: """
                SELECT card.id, card.anki_id, card.buried_until, card.buried_by_user, preset.rollover_hour FROM card
                JOIN deck ON deck.id = card.deck_id JOIN preset ON preset.id = deck.preset_id
                WHERE card.buried_until > ?
                """, arguments: [now.unixSeconds]) {
                let burial: Burial = (Date(unixSeconds: row[2]), row[3], row[4])
                if let ankiID = row[1] as Int64? { held.byAnkiID[ankiID] = burial } else { held.byNumber[row[0]] = burial }
            }
            return held
        }
        try checkBeforeWriting()
        try StoreError.during(path) {
            try pool.write { db in
                let cards = try Row.fetchAll(db, sql: """
                    SELECT card.id, card.anki_id, card.buried_until, card.buried_by_user, preset.rollover_hour FROM card
                    JOIN deck ON deck.id = card.deck_id JOIN preset ON preset.id = deck.preset_id
                    WHERE card.buried_until > ? OR card.anki_id IN (SELECT value FROM json_each(?)) OR card.id IN (SELECT value FROM json_each(?))
                    """, arguments: [now.unixSeconds, "[\(byAnkiID.keys.map(String.init).joined(separator: ","))]",
                                     "[\(byNumber.keys.map(String.init).joined(separator: ","))]"])
                let set = try db.makeStatement(sql: "UPDATE card SET buried_until = ?, buried_by_user = ? WHERE id = ?")
                for card in cards {
                    let (id, ankiID, until, byUser, rollover): (Int64, Int64?, Int64?, Bool, Int) = (card[0], card[1], card[2], card[3], card[4])
                    if let ankiID, merged.contains(ankiID) { continue }
                    let kept = (ankiID.flatMap { byAnkiID[$0] } ?? byNumber[id]).flatMap { burial -> (until: Int64, byUser: Bool)? in
                        DecodeCache.clock(timeZone: timeZone, rolloverHour: rollover)
                            .burialEnd(burial.until, countedBy: DecodeCache.clock(timeZone: timeZone, rolloverHour: burial.rollover), now: now)
                            .map { ($0.unixSeconds, burial.byUser) }
                    }
                    guard kept?.until != until || (kept?.byUser ?? false) != byUser else { continue }
                    try set.execute(arguments: [kept?.until, kept?.byUser ?? false, id])
                }
            }
        }
    }
}
