import Foundation
import GRDB
import MaeilDecks
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilSession
@testable import MaeilStore
@testable import MaeilSync

/// A normal sync exports only the notes marked since its base and lays them over a copy of the
/// base (SyncDelta). Whatever was written, the result must hold every row a whole export would:
/// a row it missed would be a change never sent. Seeded rounds of answers, undo, edits, tags,
/// flags, forgetting, burying, deletions, additions, option changes and a deck renamed, on notes from Anki and
/// Maeil's own, each round settled as a sync settles it.
@Suite("A sync's partial export")
struct SyncDeltaTests {
    @Test(arguments: Array(UInt64(1)...12))
    func thePartLaidOverTheBaseIsTheWhole(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        let collection = try Fixture.collection()
        let bundle = try DeckReader.read([PresetChangeTests.fixtures.appendingPathComponent("anki-sm2-history.apkg").path], options: ImportOptions())
        _ = try Importer(collection: collection, now: now).apply(bundle)
        let words = try Fixture.wordDeck(collection, count: 12)
        let server = SyncServer(SyncConnection(endpoint: URL(string: "http://127.0.0.1:9/")!, hostKey: ""))
        let folder = Fixture.temporaryDirectory()
        var clock = now
        _ = words
        _ = try collection.takeChangeFlag()
        let mark = SyncMark(endpoint: "test", serverModified: 1, schema: 1, usn: 1)
        let base = folder.appendingPathComponent("base.anki2")
        var sync = FullSync(collection: collection, server: server, now: clock, timeZone: Fixture.utc)
        let first = try sync.write(collection, to: base)
        try collection.recordSync(mark, base: first?.through, leavesBase: true)

        for round in 0..<4 {
            clock = clock.addingTimeInterval(86_400 * Double(round + 1))
            try change(collection, words: words, at: clock, options: round >= 1, random: &random)
            sync = FullSync(collection: collection, server: server, now: clock, timeZone: Fixture.utc)
            let whole = folder.appendingPathComponent("whole-\(round).anki2"), merged = folder.appendingPathComponent("merged-\(round).anki2")
            try sync.write(collection, to: whole)
            try FileManager.default.copyItem(at: base, to: merged)
            let part = folder.appendingPathComponent("part-\(round).anki2")
            let marks = try #require(try sync.write(collection, to: part, onlyMarked: true))
            #expect(try SyncDelta.lay(part, deletedGuids: marks.deletedGuids, over: merged), "seed \(seed) round \(round): the part did not fit")
            // Answers to cards deleted here stay in the base (and on the server) for good.
            var (expected, found) = (try rows(whole), try rows(merged))
            let kept = Set(expected["revlog"]!.map(Self.answerID))
            expected["revlog"]!.formUnion(try rows(base)["revlog"]!.filter { !kept.contains(Self.answerID($0)) })
            for table in expected.keys.sorted() {
                let missing = expected[table]!.subtracting(found[table]!), extra = found[table]!.subtracting(expected[table]!)
                #expect(missing.isEmpty && extra.isEmpty, "seed \(seed) round \(round) \(table): missing \(missing.sorted().prefix(3)), extra \(extra.sorted().prefix(3))")
            }
            // Settled as a sync settles: the laid-over file is the next base, its marks cleared.
            try FileManager.default.removeItem(at: base)
            try FileManager.default.copyItem(at: merged, to: base)
            try collection.recordSync(mark, base: marks.through, leavesBase: true)
        }
    }

    /// A collection of `words` notes exported as a sync's base, and a copy of that file named `name` beside it.
    static func baseAndCopy(words: Int, named name: String) throws -> (base: URL, copy: URL) {
        let collection = try Fixture.collection()
        _ = try Fixture.wordDeck(collection, count: words)
        let server = SyncServer(SyncConnection(endpoint: URL(string: "http://127.0.0.1:9/")!, hostKey: ""))
        let folder = Fixture.temporaryDirectory()
        let sync = FullSync(collection: collection, server: server, now: Date(timeIntervalSince1970: 1_700_000_000), timeZone: Fixture.utc)
        let base = folder.appendingPathComponent("base.anki2"), copy = folder.appendingPathComponent(name)
        try sync.write(collection, to: base)
        try FileManager.default.copyItem(at: base, to: copy)
        return (base, copy)
    }

    /// A card changed here in the second its base row was made goes up a second later than the
    /// base's, so the server and a phone take it as the newer; but never later than the sync's
    /// own time: a card sent a second ahead tied with a change a phone made in that second, and
    /// the server and the phone each kept their own (found by SyncTests.busyOnBothSidesTheSidesAgree).
    @Test(arguments: [(0, 0), (10, 1)])
    func aChangeGoesUpNewerThanItsBaseButNotAhead(secondsLater: Int64, expectedBump: Int64) throws {
        let (base, merged) = try Self.baseAndCopy(words: 3, named: "merged.anki2")
        let (card, baseModified) = try #require(try DatabaseQueue(path: base.path).read { db in
            try Row.fetchOne(db, sql: "SELECT id, mod FROM cards ORDER BY id").map { ($0[0] as Int64, $0[1] as Int64) }
        })
        try DatabaseQueue(path: merged.path).write { db in
            try db.execute(sql: "UPDATE cards SET flags = 3, mod = ?, usn = -1 WHERE id = ?", arguments: [baseModified, card])
        }
        let merge = try SyncMerge(merged: merged, base: base, changedHere: true)
        try merge.markPendingRows(now: Date(timeIntervalSince1970: TimeInterval(baseModified + secondsLater)))
        try merge.close()
        let sent = try DatabaseQueue(path: merged.path).read { db in try Int64.fetchOne(db, sql: "SELECT mod FROM cards WHERE id = ? AND usn = -1", arguments: [card]) }
        #expect(sent == baseModified + expectedBump)
    }

    /// A part that does not fit (here a new note under an id the base gives another, found
    /// after a note deleted here left the file) is rolled back: the file it was laid over is as
    /// it was, byte for byte, so a sync's merge it was laid over can still be taken whole.
    @Test func aPartThatDoesNotFitLeavesTheFileAsItWas() throws {
        let (base, part) = try Self.baseAndCopy(words: 6, named: "part.anki2")
        let queue = try DatabaseQueue(path: part.path)
        let deleted = try queue.read { db in try String.fetchOne(db, sql: "SELECT guid FROM notes ORDER BY id DESC") }
        try queue.write { db in
            let first = try #require(try Int64.fetchOne(db, sql: "SELECT min(id) FROM notes"))
            try db.execute(sql: "DELETE FROM cards WHERE nid != ?; DELETE FROM notes WHERE id != ?", arguments: [first, first])
            try db.execute(sql: "UPDATE notes SET guid = 'made elsewhere', flds = 'other' WHERE id = ?", arguments: [first])
            try db.execute(sql: "UPDATE cards SET due = due + 5")
        }
        try queue.close()
        let before = try Data(contentsOf: base)
        #expect(try !SyncDelta.lay(part, deletedGuids: [try #require(deleted)], over: base))
        #expect(try Data(contentsOf: base) == before)
    }

    /// Two bulk changes of other cards less than their count of milliseconds apart, a sync
    /// between them: the second's log rows (one millisecond apart from its time on) come in
    /// the part under ids the first's have in the base. Each takes the next free id, as the
    /// whole export gives it.
    @Test func bulkChangesCloseTogetherTakeTheNextFreeIds() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 300)
        let cards = try collection.notes(deckID: deck.id).flatMap { try collection.cards(noteID: $0.id) }.map(\.id)
        let server = SyncServer(SyncConnection(endpoint: URL(string: "http://127.0.0.1:9/")!, hostKey: ""))
        let folder = Fixture.temporaryDirectory()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try collection.takeChangeFlag()
        let mark = SyncMark(endpoint: "test", serverModified: 1, schema: 1, usn: 1)
        let base = folder.appendingPathComponent("base.anki2")
        let first = try FullSync(collection: collection, server: server, now: start, timeZone: Fixture.utc).write(collection, to: base)
        try collection.recordSync(mark, base: first?.through, leavesBase: true)
        var random = SeededGenerator(seed: 5)
        let halves = [Array(cards.prefix(cards.count / 2)), Array(cards.dropFirst(cards.count / 2))]
        for (round, offset) in [0.0, 0.1].enumerated() {
            let now = start.addingTimeInterval(86_400 + offset)
            _ = try collection.apply(CardChanges.setDueDate(halves[round], DueDateChange("3")!, now: now, timeZone: Fixture.utc, using: &random))
            let sync = FullSync(collection: collection, server: server, now: now, timeZone: Fixture.utc)
            let whole = folder.appendingPathComponent("whole-\(round).anki2"), merged = folder.appendingPathComponent("merged-\(round).anki2")
            let part = folder.appendingPathComponent("part-\(round).anki2")
            try sync.write(collection, to: whole)
            try FileManager.default.copyItem(at: base, to: merged)
            let marks = try #require(try sync.write(collection, to: part, onlyMarked: true))
            if round == 1 {
                // The part's ids the base has for other cards' answers: the case this is about.
                let shared = try DatabaseQueue(path: part.path).read { db in
                    try db.execute(sql: "ATTACH DATABASE ? AS base", arguments: [base.path])
                    return try Int.fetchOne(db, sql: "SELECT count(*) FROM main.revlog p JOIN base.revlog b ON b.id = p.id AND b.cid != p.cid") ?? 0
                }
                #expect(shared >= 50)
            }
            #expect(try SyncDelta.lay(part, deletedGuids: marks.deletedGuids, over: merged), "round \(round): the part did not fit")
            let (expected, found) = (try rows(whole)["revlog"]!, try rows(merged)["revlog"]!)
            #expect(expected == found, "round \(round): missing \(expected.subtracting(found).sorted().prefix(3)), extra \(found.subtracting(expected).sorted().prefix(3))")
            try FileManager.default.removeItem(at: base)
            try FileManager.default.copyItem(at: merged, to: base)
            try collection.recordSync(mark, base: marks.through, leavesBase: true)
        }
    }

    /// What the base holds and Maeil keeps no record of (a phone's custom study deck, options no
    /// deck uses, a note type no note uses) stays when a part is laid over it, beside the part's
    /// own decks and options. Before, the part's decks and options replaced the base's: the
    /// next sync counted a deck fewer than the server and its check failed (found by
    /// SyncTests.busyOnBothSidesTheSidesAgree once the phone did custom study).
    @Test func whatOnlyTheBaseHoldsStaysUnderAPart() throws {
        let collection = try Fixture.collection()
        let words = try Fixture.wordDeck(collection, count: 4)
        let server = SyncServer(SyncConnection(endpoint: URL(string: "http://127.0.0.1:9/")!, hostKey: ""))
        let folder = Fixture.temporaryDirectory()
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        _ = try collection.takeChangeFlag()
        let base = folder.appendingPathComponent("base.anki2"), merged = folder.appendingPathComponent("merged.anki2")
        let sync = FullSync(collection: collection, server: server, now: now, timeZone: Fixture.utc)
        let first = try sync.write(collection, to: base)
        try collection.recordSync(SyncMark(endpoint: "test", serverModified: 1, schema: 1, usn: 1), base: first?.through, leavesBase: true)
        let (filtered, options, noteType): (Int64, Int64, Int64) = (1_800_000_000_001, 1_800_000_000_002, 1_800_000_000_003)
        try DatabaseQueue(path: base.path).write { db in
            for (column, id, object) in [("decks", filtered, ["id": filtered, "name": "Custom study session", "dyn": 1] as [String: Any]),
                                         ("dconf", options, ["id": options, "name": "Unused options"]),
                                         ("models", noteType, ["id": noteType, "name": "Unused note type", "flds": [], "tmpls": []])] {
                var objects = try SyncMerge.objects(db, column)
                objects["\(id)"] = object
                try SyncMerge.save(db, column, objects)
            }
        }
        try FileManager.default.copyItem(at: base, to: merged)
        let note = try #require(try collection.notes(deckID: words.id).first)
        var renamed = try collection.deck(id: words.id)
        renamed.name = "Words renamed"
        try collection.update(renamed)
        _ = try collection.setTags(noteID: note.id, add: ["edited"])
        let part = folder.appendingPathComponent("part.anki2")
        let marks = try #require(try sync.write(collection, to: part, onlyMarked: true))
        #expect(try SyncDelta.lay(part, deletedGuids: marks.deletedGuids, over: merged))
        let (inPart, laid) = try (objectNames(part), objectNames(merged))
        #expect(laid["decks"]?["\(filtered)"] == "Custom study session")
        #expect(laid["dconf"]?["\(options)"] == "Unused options")
        #expect(laid["models"]?["\(noteType)"] == "Unused note type")
        // The part's own decks and options as it wrote them (the renamed deck under its old id).
        for column in ["decks", "dconf"] {
            #expect(inPart[column]!.allSatisfy { laid[column]?[$0.key] == $0.value }, "\(column): \(laid[column]!) against \(inPart[column]!)")
        }
        #expect(laid["decks"]!.values.contains("Words renamed") && !laid["decks"]!.values.contains("Words"))
    }

    /// A deck written otherwise but saying the same (a flag as true or 1, a key left out or
    /// null), or a note type whose last deck alone differs, is no change to send; and a deck the server deleted, which only the base still
    /// holds (a phone's custom study, done), is not put back. Before, every deck went up at
    /// every sync that carried a change from here, and such a deck came back on the server:
    /// the phone, which keeps its old grave, then failed every sync's check
    /// (SyncTests.busyOnBothSidesTheSidesAgree, seed 404, once the phone did custom study).
    @Test func decksGoUpOnlyChangedAndNeverBackFromTheDead() throws {
        let (base, merged) = try Self.baseAndCopy(words: 3, named: "merged.anki2")
        let filtered: Int64 = 1_800_000_000_001
        let kept = try DatabaseQueue(path: base.path).write { db in
            var decks = try SyncMerge.objects(db, "decks")
            decks["\(filtered)"] = ["id": filtered, "name": "Custom study session", "dyn": 1, "mod": 1, "usn": 0] as [String: Any]
            try SyncMerge.save(db, "decks", decks)
            return decks.keys.filter { $0 != "\(filtered)" }
        }
        try DatabaseQueue(path: merged.path).write { db in
            var decks = try SyncMerge.objects(db, "decks")
            for (key, value) in decks {
                guard var deck = value as? [String: Any] else { continue }
                deck["collapsed"] = (deck["collapsed"] as? NSNumber)?.boolValue == true ? 1 : false
                if deck["newLimitToday"] is NSNull { deck["newLimitToday"] = nil }
                deck["reviewLimitToday"] = deck["reviewLimitToday"] ?? NSNull()
                decks[key] = deck
            }
            try SyncMerge.save(db, "decks", decks)
            // A note type's last deck differs (the export names its first note's deck): no change either.
            var models = try SyncMerge.objects(db, "models")
            for (key, value) in models {
                guard var model = value as? [String: Any] else { continue }
                model["did"] = 1_700_000_000_123 as Int64
                models[key] = model
            }
            try SyncMerge.save(db, "models", models)
        }
        let merge = try SyncMerge(merged: merged, base: base, changedHere: true)
        try merge.apply(serverGraves: SyncGraves(decks: [filtered]))
        let sent = try merge.localObjects(usn: 5)
        try merge.close()
        #expect(sent.decks.isEmpty, "sent: \(sent.decks.map { $0["name"] ?? "" })")
        #expect(sent.models.isEmpty, "sent: \(sent.models.map { $0["name"] ?? "" })")
        #expect(try Set(objectNames(merged)["decks"]!.keys) == Set(kept))
    }

    /// Each note type's, deck's and option group's name by id, as an Anki file holds them.
    func objectNames(_ file: URL) throws -> [String: [String: String]] {
        try DatabaseQueue(path: file.path).read { db in
            try Dictionary(uniqueKeysWithValues: ["models", "decks", "dconf"].map { column in
                (column, try SyncMerge.objects(db, column).compactMapValues { ($0 as? [String: Any])?["name"] as? String })
            })
        }
    }

    static func answerID(_ row: String) -> Substring { row.split(separator: " ")[0] }

    /// One round of what a learner does, chosen by `random`.
    func change(_ collection: Collection, words: Deck, at now: Date, options: Bool, random: inout SeededGenerator) throws {
        // Answers seconds apart, as a person gives them; Anki's ids of answers are their times.
        let clock = TestClock(now)
        let session = try Fixture.session(collection, clock: clock)
        var answered = 0
        while let current = session.state.current, answered < 15 {
            clock.advance(seconds: 7)
            try session.send(.answer(Rating.allCases.randomElement(using: &random)!))
            answered += 1
            if answered == 5 { try session.send(.undo) }
            _ = current
        }
        let notes = try collection.decks().flatMap { try collection.notes(deckID: $0.id) }
        guard notes.count > 4 else { return }
        let picked = notes.shuffled(using: &random)
        _ = try collection.setTags(noteID: picked[0].id, add: ["round"])
        _ = try collection.deleteNote(id: picked[1].id)
        let card = try collection.cards(noteID: picked[2].id)[0]
        _ = try collection.forget(cardID: card.id, at: now)
        _ = try collection.bury(cardID: try collection.cards(noteID: picked[3].id)[0].id, until: now.addingTimeInterval(3600))
        _ = try collection.updateNote(id: picked[4].id, fields: picked[4].fields.map { NoteField(name: $0.name, value: $0.value + " (edited)", language: $0.language) }, now: now)
        _ = try collection.addNote(NoteDraft(guid: "added-\(now.timeIntervalSince1970)", kind: .word, fields: [NoteField(name: "word", value: "새"),
                                                                                                           NoteField(name: "meaning", value: "new")],
                                             position: 100), deckID: words.id, now: now)
        // A deck's options reach every card of the decks sharing them (FSRS cards carry the desired
        // retention); a deck of Maeil's own names the note type its notes go to Anki under.
        guard options else { return }
        var renamed = try collection.deck(id: words.id)
        renamed.name = "Words renamed \(Int(now.timeIntervalSince1970))"
        try collection.update(renamed)
        // Three settings of the preset a deck uses: Anki's options alone, or what its cards export
        // (steps, retention, scheduler, the day's start), which marks only the notes whose rows
        // they change.
        let deck = try #require(try collection.decks().randomElement(using: &random))
        let settings: [(PresetKey, [String])] = [
            (.newPerDay, ["\(Int.random(in: 5...40, using: &random))"]), (.learningSteps, ["2m 20m", "1m 10m 1h", "30s"]),
            (.relearningSteps, ["5m", "10m 1h"]), (.desiredRetention, ["0.85", "0.93"]), (.scheduler, ["fsrs", "anki-sm2"]),
            (.rolloverHour, ["2", "6"]), (.buryNew, ["true"]), (.reviewOrder, ["random"]),
        ]
        for _ in 0..<3 {
            let (key, values) = settings.randomElement(using: &random)!
            _ = try PresetChange(collection: collection).set(key, .text(values.randomElement(using: &random)!), deck: deck, now: now, timeZone: Fixture.utc)
        }
    }

    /// Every row of the notes, cards and log of an Anki file, as text, without what a sync
    /// sets (usn) and what a partial export places on its own (a new card's position); review
    /// due days as calendar days, the files' creation days differing.
    func rows(_ file: URL) throws -> [String: Set<String>] {
        let queue = try DatabaseQueue(path: file.path)
        defer { try? queue.close() }
        return try queue.read { db in
            let created = SyncMerge.createdDay(try Int64.fetchOne(db, sql: "SELECT crt FROM col") ?? 0, try SyncMerge.config(db, schema: "main"))
            return [
                "notes": Set(try Row.fetchAll(db, sql: "SELECT id, guid, mid, mod, tags, flds, sfld, csum, flags, data FROM notes").map { "\($0)" }),
                "cards": Set(try Row.fetchAll(db, sql: """
                    SELECT id, nid, did, ord, mod, type, queue, CASE WHEN type = 0 THEN 0 WHEN due < 1000000000 THEN due + ? ELSE due END,
                      ivl, factor, reps, lapses, left, odue, odid, flags, data FROM cards
                    """, arguments: [created]).map { "\($0)" }),
                "revlog": Set(try Row.fetchAll(db, sql: "SELECT id, cid, ease, ivl, lastIvl, factor, time, type FROM revlog").map { "\($0)" }),
            ]
        }
    }
}
