import Foundation
import GRDB
import MaeilCore
import ZIPFoundation

/// Writes an Anki package in the legacy format (collection.anki21, schema 11), which every
/// Anki since 2.1 imports: one note type per deck with the deck's fields and templates, cards
/// with their scheduling (review due dates as day numbers from the collection's creation).
public enum AnkiPackageWriter {
    /// `created` is the collection's creation time, at a day rollover; day numbers count from it.
    public static func write(_ decks: [ExportDeck], to url: URL, created: Date, clock: DayClock) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let databaseURL = work.appendingPathComponent("collection.anki21")
        let queue = try DatabaseQueue(path: databaseURL.path)
        try queue.write { db in try writeCollection(db, decks: decks, created: created, clock: clock) }
        try queue.close()
        try? FileManager.default.removeItem(at: url)
        let archive = try Archive(url: url, accessMode: .create)
        try archive.addEntry(with: "collection.anki21", fileURL: databaseURL, compressionMethod: .deflate)
        try add(Data("{}".utf8), named: "media", to: archive)
        try add(Data([0x08, 0x02]), named: "meta", to: archive)  // PackageMetadata { version: LEGACY_2 }
    }

    static func add(_ data: Data, named name: String, to archive: Archive) throws {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: .deflate) { position, size in
            data.subdata(in: Int(position)..<Int(position) + size)
        }
    }

    static let schema = """
        CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
          ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
          models text not null, decks text not null, dconf text not null, tags text not null);
        CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
          usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
          flags integer not null, data text not null);
        CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
          mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
          ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null,
          odue integer not null, odid integer not null, flags integer not null, data text not null);
        CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
          ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
        CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
        CREATE INDEX ix_notes_usn on notes (usn);
        CREATE INDEX ix_cards_usn on cards (usn);
        CREATE INDEX ix_revlog_usn on revlog (usn);
        CREATE INDEX ix_cards_nid on cards (nid);
        CREATE INDEX ix_cards_sched on cards (did, queue, due);
        CREATE INDEX ix_revlog_cid on revlog (cid);
        CREATE INDEX ix_notes_csum on notes (csum);
        """

    static func writeCollection(_ db: Database, decks: [ExportDeck], created: Date, clock: DayClock) throws {
        try db.execute(sql: schema)
        let now = Int64(created.timeIntervalSince1970)
        let createdDay = clock.dayNumber(of: created)
        var models: [String: Any] = [:]
        var deckObjects: [String: Any] = ["1": deckJSON(id: 1, name: "Default", now: now)]
        var noteID = now * 1000, cardID = now * 1000
        let insertNote = try db.makeStatement(sql: "INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, 0, 0, '')")
        let insertCard = try db.makeStatement(sql: "INSERT INTO cards VALUES (?, ?, ?, ?, ?, -1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, '')")
        for (index, deck) in decks.enumerated() {
            let modelID = now * 1000 + Int64(index) + 1
            let deckID = now * 1000 + Int64(index) + 100
            models["\(modelID)"] = modelJSON(id: modelID, deck: deck, deckID: deckID, now: now)
            deckObjects["\(deckID)"] = deckJSON(id: deckID, name: deck.name, now: now)
            for note in deck.notes {
                noteID += 1
                let fields = note.values.map { $0.replacingOccurrences(of: "\u{1f}", with: " ") }
                try insertNote.execute(arguments: [noteID, note.guid, modelID, now, " " + note.tags.joined(separator: " ") + " ",
                                                   fields.joined(separator: "\u{1f}"), fields.first ?? ""])
                for card in note.cards {
                    cardID += 1
                    let (type, queue, due, interval, left) = ankiScheduling(card, createdDay: createdDay, clock: clock)
                    try insertCard.execute(arguments: [cardID, noteID, deckID, card.ordinal, now, type, queue, due, interval,
                                                       card.state.phase == .new ? 0 : card.state.easePermille, card.state.reps,
                                                       card.state.lapses, left])
                }
            }
        }
        func json(_ object: Any) throws -> String { String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self) }
        try db.execute(sql: "INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')", arguments: [
            clock.start(ofDay: createdDay).timeIntervalSince1970, now * 1000, now * 1000,
            try json(["nextPos": 1, "curDeck": 1, "activeDecks": [1], "sortType": "noteFld", "sortBackwards": false,
                      "schedVer": 2, "collapseTime": 1200, "dueCounts": true, "estTimes": true, "newSpread": 0, "curModel": 1]),
            try json(models), try json(deckObjects), try json(["1": deckConfigJSON(now: now)]),
        ])
    }

    /// Maeil's state in Anki's card columns: (type, queue, due, ivl, left).
    static func ankiScheduling(_ card: ExportCard, createdDay: Int, clock: DayClock) -> (Int, Int, Int64, Int, Int) {
        let state = card.state
        let suspended = card.suspended
        func queue(_ normal: Int) -> Int { suspended ? -1 : normal }
        switch state.phase {
        case .new:
            return (0, queue(0), Int64(card.position), 0, 0)
        case .review:
            let dueDay = state.due.map { clock.dayNumber(of: $0) } ?? createdDay
            return (2, queue(2), Int64(dueDay - createdDay), state.intervalDays, 0)
        case .learning, .relearning:
            let type = state.phase == .learning ? 1 : 3
            let left = max(1, 2 - state.step)
            let due = Int64(state.due?.timeIntervalSince1970 ?? 0)
            return (type, queue(1), due, state.phase == .relearning ? state.intervalDays : 0, left)
        }
    }

    static func modelJSON(id: Int64, deck: ExportDeck, deckID: Int64, now: Int64) -> [String: Any] {
        let fields = deck.fieldNames.enumerated().map { ordinal, name -> [String: Any] in
            ["name": name, "ord": ordinal, "sticky": false, "rtl": false, "font": "Arial", "size": 20, "media": []]
        }
        func braces(_ names: [String]) -> String { names.map { "{{\($0)}}" }.joined(separator: "<br>") }
        let templates: [[String: Any]]
        if deck.isCloze, let template = deck.templates.first, let blanks = template.blanks {
            templates = [["name": "Cloze", "ord": 0, "qfmt": "{{cloze:\(blanks)}}", "afmt": "{{cloze:\(blanks)}}<br>" + braces(template.back),
                          "bqfmt": "", "bafmt": "", "did": NSNull()]]
        } else {
            templates = deck.templates.enumerated().map { ordinal, template in
                let question = braces(template.front) + (template.typed.map { "<br>{{type:\($0)}}" } ?? "")
                return ["name": template.name, "ord": ordinal, "qfmt": question,
                        "afmt": "{{FrontSide}}<hr id=answer>" + braces(template.back), "bqfmt": "", "bafmt": "", "did": NSNull()]
            }
        }
        return [
            "id": id, "name": AnkiTextWriter.noteTypeName(deck), "type": deck.isCloze ? 1 : 0, "mod": now, "usn": -1, "sortf": 0,
            "did": deckID, "tmpls": templates, "flds": fields, "css": ".card { font-size: 24px; text-align: center; }",
            "latexPre": "\\documentclass[12pt]{article}\\begin{document}", "latexPost": "\\end{document}", "tags": [], "vers": [],
            "req": deck.templates.indices.map { [$0, "any", [0]] },
        ]
    }

    static func deckJSON(id: Int64, name: String, now: Int64) -> [String: Any] {
        ["id": id, "name": name, "mod": now, "usn": -1, "conf": 1, "desc": "", "dyn": 0, "collapsed": false,
         "extendNew": 10, "extendRev": 50, "newToday": [0, 0], "revToday": [0, 0], "lrnToday": [0, 0], "timeToday": [0, 0]]
    }

    static func deckConfigJSON(now: Int64) -> [String: Any] {
        ["id": 1, "name": "Default", "mod": now, "usn": -1, "maxTaken": 60, "autoplay": true, "timer": 0, "replayq": true, "dyn": false,
         "new": ["delays": [1, 10], "ints": [1, 4, 0], "initialFactor": 2500, "order": 1, "perDay": 20, "bury": false],
         "rev": ["perDay": 200, "ease4": 1.3, "ivlFct": 1, "maxIvl": 36500, "hardFactor": 1.2, "bury": false],
         "lapse": ["delays": [10], "mult": 0, "minInt": 1, "leechFails": 8, "leechAction": 1]]
    }
}
