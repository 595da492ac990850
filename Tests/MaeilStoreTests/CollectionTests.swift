import Foundation
import GRDB
import MaeilTestSupport
import Testing
@testable import MaeilCore
@testable import MaeilStore

@Suite("Collection file, decks and notes")
struct CollectionTests {
    @Test func createsAndReopens() throws {
        let path = Fixture.temporaryPath()
        let first = try Collection(path: path)
        try Fixture.wordDeck(first, count: 3)
        let second = try Collection(path: path)
        #expect(try second.counts() == (decks: 1, notes: 3, cards: 6))
        #expect(first.seed == second.seed)
        let mode = try second.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        #expect(mode == "wal")
    }

    /// A file as a checked Maeil closed it is not checked again for a day; one changed since,
    /// damaged in place (same size) or with a write-ahead log still holding changes is.
    @Test func aFileIsCheckedAgainOnlyWhenItChangedOrADayPassed() throws {
        let path = Fixture.temporaryPath()
        let folder = (path as NSString).deletingLastPathComponent + "/checked"
        func records(_ hours: Double) -> IntegrityRecords { IntegrityRecords(folder: folder, now: Fixture.noon.addingTimeInterval(hours * 3600)) }
        let made = try Collection(path: path, integrity: records(0))
        #expect(!made.quickCheckStarted)
        try Fixture.wordDeck(made, count: 200)
        made.close()
        let next = try Collection(path: path, integrity: records(1))
        #expect(!next.quickCheckStarted, "as the Maeil that made it left it")
        let card = try next.cards(deckID: 1)[0]
        try next.setStarred(cardID: card.id, true)
        let other = try Collection(path: path, integrity: records(2))
        #expect(other.quickCheckStarted, "its write-ahead log holds a change the record never saw")
        other.close()
        next.close()
        #expect(!(try Collection(path: path, integrity: records(3))).quickCheckStarted)
        #expect(try Collection(path: path, integrity: records(25)).quickCheckStarted, "a day after the last real check")
        #expect(try Collection(path: path).quickCheckStarted, "nothing remembered without records")
        // Damaged in place: the same size, a later modification time.
        let again = try Collection(path: path, integrity: records(4))
        again.close()
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seek(toOffset: UInt64(size / 2))
        handle.write(Data(repeating: 0xDE, count: 16_384))
        try handle.close()
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int == size)
        let damaged = try Collection(path: path, integrity: records(5))
        #expect(damaged.quickCheckStarted)
        #expect(throws: StoreError.self) { try damaged.setStarred(cardID: card.id, false) }
    }

    @Test func tagsKeepTheirFirstSpellingAndNoSpaces() {
        #expect(Tags.column([]) == " ")
        #expect(Tags.column(["Food", "food", "", "two words", "FOOD", "day1"]) == " Food two_words day1 ")
        // Lowercasing changes the length of some letters: those tags are still the same tag.
        #expect(Tags.column(["İstanbul", "i\u{307}stanbul", "Seoul"]) == " İstanbul Seoul ")
        #expect(Tags.parse(Tags.column(["a", "b"])) == ["a", "b"])
    }

    @Test func fieldsSurviveTheStoreWhateverTheyHold() throws {
        let collection = try Collection(path: Fixture.temporaryPath())
        let deck = try collection.createDeck(name: "Fields", kind: .word, templates: Fixture.wordTemplates, preset: nil, now: Fixture.noon)
        let fields = [NoteField(name: "word", value: "단어\u{1f}둘", language: "ko"), NoteField(name: "meaning", value: "", language: nil),
                      NoteField(name: "extra", value: "x", language: "en")]
        let note = try collection.addNote(NoteDraft(guid: "f", kind: .word, fields: fields, tags: ["t"]), deckID: deck.id, now: Fixture.noon)
        let stored = try collection.note(id: note.id)
        // The field separator cannot live inside a value; it becomes a space.
        #expect(stored.fields.map(\.value) == ["단어 둘", "", "x"])
        #expect(stored.fields.map(\.language) == ["ko", nil, "en"])
        #expect(stored.tags == ["t"])
    }

    @Test func refusesANewerSchema() throws {
        let path = Fixture.temporaryPath()
        let collection = try Collection(path: path)
        try collection.transaction { try $0.execute(sql: "INSERT INTO grdb_migrations (identifier) VALUES ('v99-from-the-future')") }
        #expect(throws: StoreError.newerSchema(path: path, unknown: ["v99-from-the-future"])) { try Collection(path: path) }
    }

    /// A card an older collection kept Anki's other deck for (`anki_deck`, v31) is studied in
    /// that deck from v32 on; one whose deck is not here stays with its note. Nothing an export
    /// writes changes, so the card's modification time stays.
    @Test func cardsKeptForAnotherDeckMoveThere() throws {
        let path = Fixture.temporaryPath()
        let collection = try Collection(path: path)
        let deck = try Fixture.wordDeck(collection, count: 2)
        let other = try Fixture.wordDeck(collection, name: "Words::Reverse", count: 0)
        let cards = try collection.cards(deckID: deck.id).map(\.id)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                UPDATE deck SET anki_id = 555 WHERE id = \(other.id);
                ALTER TABLE card ADD COLUMN anki_deck INTEGER;
                UPDATE card SET anki_deck = 555, modified_at = 1000 WHERE id = \(cards[0]);
                UPDATE card SET anki_deck = 999 WHERE id = \(cards[1]);
                DELETE FROM grdb_migrations WHERE identifier = 'v32';
                """)
        }
        try queue.close()
        let reopened = try Collection(path: path)
        #expect(try reopened.cards(deckID: other.id).map(\.id) == [cards[0]])
        #expect(try reopened.cards(deckID: deck.id).map(\.id) == Array(cards.dropFirst()))
        #expect(try reopened.read { try Int64.fetchOne($0, sql: "SELECT modified_at FROM card WHERE id = \(cards[0])") } == 1000)
        #expect(try reopened.read { try $0.columns(in: "card").map(\.name) }.contains("anki_deck") == false)
    }

    @Test func refusesAFileThatIsNotACollection() throws {
        let path = Fixture.temporaryPath()
        try Data("hello, not sqlite at all, just some text that goes on for a while".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: StoreError.self) { try Collection(path: path) }
        let other = Fixture.temporaryPath()
        let queue = try DatabaseQueue(path: other)
        try queue.write { try $0.execute(sql: "CREATE TABLE recipes (id INTEGER)") }
        #expect(throws: StoreError.notACollection(path: other, reason: "it has tables recipes; nothing was written to it")) { try Collection(path: other) }
    }

    @Test func collectionLocationFollowsXDG() {
        #expect(CollectionLocation.resolve(explicit: "/tmp/a.sqlite", environment: ["MAEIL_COLLECTION": "/x"]) == "/tmp/a.sqlite")
        #expect(CollectionLocation.resolve(explicit: nil, environment: ["MAEIL_COLLECTION": "/x.sqlite"]) == "/x.sqlite")
        #expect(CollectionLocation.resolve(explicit: nil, environment: ["HOME": "/home/u"]) == "/home/u/.local/share/maeil/collection.sqlite")
        #expect(CollectionLocation.resolve(explicit: nil, environment: ["HOME": "/home/u", "XDG_DATA_HOME": "/data"]) == "/data/maeil/collection.sqlite")
        // A relative XDG path is invalid by the spec and ignored.
        #expect(CollectionLocation.resolve(explicit: nil, environment: ["HOME": "/h", "XDG_DATA_HOME": "rel"]) == "/h/.local/share/maeil/collection.sqlite")
        #expect(CollectionLocation.resolve(explicit: "~/c.sqlite", environment: ["HOME": "/h"]) == "/h/c.sqlite")
        #expect(XDG.stateHome(["HOME": "/h"]) == "/h/.local/state")
        #expect(XDG.configHome(["HOME": "/h", "XDG_CONFIG_HOME": "/c"]) == "/c")
    }

    @Test func notesGetOneCardPerSatisfiedTemplate() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 0)
        let note = try collection.addNote(NoteDraft(guid: "only-word", kind: .word, fields: [
            NoteField(name: "word", value: "김치", language: "ko"), NoteField(name: "meaning", value: ""),
        ]), deckID: deck.id, now: Fixture.noon)
        #expect(try collection.cards(noteID: note.id).map(\.template) == ["recognize"])
        // Filling the empty field adds the missing card and keeps the first one's schedule.
        let first = try collection.cards(noteID: note.id)[0]
        var scheduled = CardState.new
        scheduled.phase = .review
        scheduled.intervalDays = 9
        scheduled.due = Fixture.noon
        try collection.setState(cardID: first.id, scheduled, at: Fixture.noon)
        try collection.updateNote(id: note.id, fields: [NoteField(name: "word", value: "김치", language: "ko"), NoteField(name: "meaning", value: "kimchi")], now: Fixture.noon)
        let cards = try collection.cards(noteID: note.id)
        #expect(cards.map(\.template) == ["recognize", "recall"])
        #expect(cards[0].state.intervalDays == 9)
        #expect(try collection.note(id: note.id).fields.value("meaning") == "kimchi")
    }

    @Test func clozeNotesGetACardPerDeletion() throws {
        let collection = try Fixture.collection()
        let deck = try collection.createDeck(name: "Cloze", kind: .cloze, templates: [CardTemplate(name: "cloze", front: [], back: ["Extra"], blanks: "Text")], now: Fixture.noon)
        let note = try collection.addNote(NoteDraft(guid: "c", kind: .cloze, fields: [
            NoteField(name: "Text", value: "{{c1::서울}} is the capital of {{c2::Korea}}, {{c1::yes}}"), NoteField(name: "Extra", value: ""),
        ]), deckID: deck.id, now: Fixture.noon)
        #expect(try collection.cards(noteID: note.id).map(\.ordinal) == [1, 2])
    }

    /// Anki's cloze type: a note whose deletions are all edited out keeps its cards, as Anki
    /// keeps them; one added without a deletion gets Anki's first card (c1). Before, the edit
    /// added a card that went to Anki as a second card of c1 (Check Database deleted it).
    @Test func ankisClozeWithoutDeletionsAsAnkiHasIt() throws {
        let collection = try Fixture.collection()
        let template = CardTemplate(name: "Cloze", front: ["Text"], back: ["Back Extra"], blanks: "Text", noteType: "Cloze")
        let deck = try collection.createDeck(name: "Anki", kind: .cloze, templates: [template], now: Fixture.noon)
        func draft(_ text: String, guid: String) -> NoteDraft {
            NoteDraft(guid: guid, kind: .cloze, noteType: "Cloze", fields: [NoteField(name: "Text", value: text), NoteField(name: "Back Extra", value: "")])
        }
        let note = try collection.addNote(draft("{{c1::물}} and {{c2::불}}", guid: "a"), deckID: deck.id, now: Fixture.noon)
        try collection.updateNote(id: note.id, fields: [NoteField(name: "Text", value: "edited"), NoteField(name: "Back Extra", value: "")], now: Fixture.noon)
        #expect(try collection.cards(noteID: note.id).map(\.ordinal) == [1, 2])
        let bare = try collection.addNote(draft("no deletion", guid: "b"), deckID: deck.id, now: Fixture.noon)
        #expect(try collection.cards(noteID: bare.id).map(\.ordinal) == [1])
    }

    @Test func deletingANoteKeepsItsHistory() throws {
        let collection = try Fixture.collection()
        let clock = TestClock(Fixture.noon)
        let deck = try Fixture.wordDeck(collection, count: 2)
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        let cardID = session.state.current!.card.id
        try session.send(.answer(.good))
        let noteID = try collection.card(id: cardID).noteID
        try collection.deleteNote(id: noteID)
        #expect(throws: StoreError.noSuchCard(cardID)) { try collection.card(id: cardID) }
        #expect(try collection.reviewLog(cardID: cardID).count == 1)
        #expect(try collection.counts().notes == 1)
    }

    /// SQLite numbers a new row one past the highest: a note deleted with the highest card gave
    /// its number, and its answers, to the next card added (`maeil info` showed the deleted
    /// card's review on a new card). A gone card's number is never given again, by one note
    /// added or by many in one transaction, and the gone card keeps its Anki id for export.
    @Test func aDeletedCardsNumberAndAnswersGoToNoOtherCard() throws {
        let collection = try Fixture.collection()
        let clock = TestClock(Fixture.noon)
        let deck = try Fixture.wordDeck(collection, count: 2, templates: [Fixture.wordTemplates[0]])
        let last = try collection.notes(deckID: deck.id).last!
        let cardID = try collection.cards(noteID: last.id).map(\.id).max()!
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        while session.state.current?.card.id != cardID { try session.send(.answer(.good)) }
        try session.send(.answer(.good))
        try collection.deleteNote(id: last.id)
        #expect(try collection.read { db in try Row.fetchOne(db, sql: "SELECT id, note_created FROM gone_card") }
                == ["id": cardID, "note_created": last.created])
        let added = try collection.addNote(NoteDraft(guid: "new", kind: .word, fields: [NoteField(name: "word", value: "새"), NoteField(name: "meaning", value: "new")]),
                                           deckID: deck.id, now: clock.now)
        let newIDs = try collection.cards(noteID: added.id).map(\.id)
        #expect(newIDs.allSatisfy { $0 > cardID }, "\(newIDs) after the gone card \(cardID)")
        #expect(try newIDs.allSatisfy { try collection.reviewLog(cardID: $0).isEmpty })
        #expect(try collection.reviewLog(cardID: cardID).count == 1)
        #expect(try collection.check(repair: false, now: clock.now).problems.isEmpty)
    }

    @Test func findsNotesByTextAndTag() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 12)
        try collection.setTags(noteID: collection.notes(deckID: deck.id)[3].id, add: ["food", "spicy"])
        #expect(try collection.findNotes("단어1", now: Date(), timeZone: .current).count == 3)  // 단어1, 단어10, 단어11
        #expect(try collection.findNotes("tag:spicy", now: Date(), timeZone: .current).map(\.position) == [3])
        #expect(try collection.findNotes("100%", now: Date(), timeZone: .current).isEmpty)
    }

    @Test func deckNamesAreUniqueIgnoringCase() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, name: "Korean", count: 1)
        #expect(throws: StoreError.deckExists("korean")) {
            try collection.createDeck(name: "korean", templates: Fixture.wordTemplates, now: Fixture.noon)
        }
        #expect(try collection.deck(named: "KOREAN")?.name == "Korean")
    }
}

/// SQLite's failures, said about the file in words a person can act on.
@Suite("Store errors")
struct StoreErrorTests {
    @Test func sqliteErrorsBecomeSentences() throws {
        let path = "/data/c.sqlite"
        func said(_ code: ResultCode) -> String? { StoreError(DatabaseError(resultCode: code), path: path)?.description }
        #expect(said(.SQLITE_READONLY) == "/data/c.sqlite cannot be written (the file or its folder is read-only); nothing was changed")
        #expect(said(.SQLITE_FULL) == "the disk holding /data/c.sqlite is full; nothing was changed")
        #expect(said(.SQLITE_BUSY) == "/data/c.sqlite stayed locked by another program writing to it; nothing was changed")
        #expect(said(.SQLITE_CORRUPT)?.hasPrefix("/data/c.sqlite is damaged") == true)
        #expect(said(.SQLITE_CONSTRAINT) == nil)
        let folder = FileManager.default.temporaryDirectory.path
        #expect(StoreError(DatabaseError(resultCode: .SQLITE_CANTOPEN), path: folder)?.description
                == "cannot open \(folder): it is a folder, not a collection file")
    }

    /// Opened for reading, a collection takes no lock: a write transaction held elsewhere
    /// does not stop it, and it refuses to write.
    @Test func aReadOnlyHandleNeverWaits() throws {
        let collection = try Fixture.collection()
        try Fixture.wordDeck(collection, count: 2)
        try collection.transaction { db in
            try db.execute(sql: "UPDATE meta SET value = value WHERE key = 'seed'")
            let reader = try Collection(path: collection.path, readOnly: true)
            #expect(try reader.decks().count == 1)
            #expect(throws: StoreError.self) { try reader.setStarred(cardID: 1, true) }
        }
    }
}

/// A card Anki changed after its last logged state is as Anki has it (Anki changes a card's state
/// without a log row, and where two sides changed one card the newer row wins: a card answered
/// here, then repositioned on a phone that had not synced, is new after two answers):
/// `check` finds no difference with its log, and `repair` does not put the log's state back,
/// which the next sync would have sent up (found by SyncTests.busyOnBothSidesTheSidesAgree,
/// seeds 416 and 419). A card whose state differs from its log with no change in Anki after it
/// is still found.
@Suite struct CheckAgainstTheLogTests {
    @Test(arguments: [(1, false), (-1, true)])
    func aCardAnkiChangedAfterItsLogIsAsAnkiHasIt(ankiModifiedAfter seconds: Int64, found: Bool) throws {
        let collection = try Fixture.collection()
        let clock = TestClock(Fixture.noon)
        let deck = try Fixture.wordDeck(collection, count: 1, templates: [Fixture.wordTemplates[0]])
        let session = try Fixture.session(collection, clock: clock, deckIDs: [deck.id])
        let cardID = try #require(session.state.current?.card.id)
        for _ in 0..<3 { try session.send(.answer(.easy)) }
        try collection.transaction { db in
            let logged = try #require(try Int64.fetchOne(db, sql: "SELECT max(time) FROM review_log WHERE card_id = ?", arguments: [cardID]))
            try db.execute(sql: "UPDATE card SET phase = 'new', due = NULL, interval_days = 0, reps = 0, anki_mod = ? WHERE id = ?",
                           arguments: [logged / 1000 + seconds, cardID])
        }
        let report = try collection.check(repair: true, now: clock.now)
        #expect(report.problems.contains { $0.hasPrefix("card \(cardID): state differs") } == found, "\(report.problems)")
        #expect(try collection.card(id: cardID).state.phase == (found ? .review : .new))
    }
}

/// `check` finds what Anki's Check Database finds in note types, and `repair` mends it.
@Suite struct CheckTemplatesTests {
    @Test func duplicateTemplatesCardsWithoutTemplateAndNotesWithoutCards() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 4)
        try collection.transaction { db in
            // A second "recognize", a card of a template that is gone, a note whose cards were lost.
            let templates = try String.fetchOne(db, sql: "SELECT templates FROM deck WHERE id = ?", arguments: [deck.id]) ?? ""
            var list = try JSONSerialization.jsonObject(with: Data(templates.utf8)) as! [[String: Any]]
            list.append(list[0])
            let doubled = String(decoding: try JSONSerialization.data(withJSONObject: list), as: UTF8.self)
            try db.execute(sql: "UPDATE deck SET templates = ? WHERE id = ?", arguments: [doubled, deck.id])
            try db.execute(sql: "UPDATE card SET template = 'gone' WHERE id = (SELECT min(id) FROM card WHERE template = 'recall')")
            try db.execute(sql: "DELETE FROM card WHERE note_id = (SELECT max(id) FROM note)")
        }
        let cardsBefore = try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM card") ?? 0 }
        #expect(cardsBefore == 8 - 2)

        let found = try collection.check(repair: false, now: Fixture.noon)
        #expect(found.problems.count == 3, "\(found.problems)")
        #expect(found.problems.contains("deck Words: 1 template with the name of another"))
        #expect(found.problems.contains { $0.hasSuffix("its template is not in deck Words") })
        #expect(found.problems.contains { $0.hasSuffix("it has no cards") })

        let repaired = try collection.check(repair: true, now: Fixture.noon)
        #expect(repaired.repaired == 3)
        #expect(try collection.check(repair: false, now: Fixture.noon).isHealthy)
        #expect(try collection.deck(id: deck.id).templates.map(\.name) == ["recognize", "recall"])
        // The card without a template is gone; the note without cards has its two back.
        let cardsAfter = try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM card") ?? 0 }
        #expect(cardsAfter == cardsBefore - 1 + 2)
        let notes = try collection.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM note") ?? 0 }
        #expect(notes == 4)
    }
}

/// What the load balancer reads for an answer: the preset's reviews due on each coming day, and
/// the days a sibling is due.
@Suite struct LoadBalanceRowsTests {
    @Test func dueCountsPerDayAndSiblingDays() throws {
        let collection = try Fixture.collection()
        let deck = try Fixture.wordDeck(collection, count: 6)
        let cards = try collection.cards(deckID: deck.id)
        let clock = DayClock.utc()
        let today = clock.dayNumber(of: Fixture.noon)
        // Cards due in 1, 1, 3 days (review), one in 3 days suspended; a new card counts nowhere.
        for (index, days) in [1, 1, 3, 3].enumerated() {
            var state = CardState(phase: .review, intervalDays: days, easePermille: 2500, due: clock.start(ofDay: today + days).addingTimeInterval(3600),
                                  reps: 1, lapses: 0, lastReview: Fixture.noon)
            state.step = 0
            try collection.setState(cardID: cards[index].id, state, at: Fixture.noon)
        }
        try collection.transaction { try $0.execute(sql: "UPDATE card SET suspended = 1 WHERE id = ?", arguments: [cards[3].id]) }
        let first = cards[0]
        let balance = try collection.loadBalance(presetID: deck.presetID, noteID: first.noteID, cardID: first.id, siblings: true, clock: clock,
                                                 today: today, days: 10, easyDays: [1, 1, 1, 1, 1, 0.5, 0])
        #expect(balance.dueCounts == [0, 2, 0, 1, 0, 0, 0, 0, 0, 0])
        #expect(balance.easyDays == [1, 1, 1, 1, 1, 0.5, 0])
        // Day numbers from Thursday 1 January 1970: 2026-01-05 is a Monday, so tomorrow is Tuesday.
        #expect(balance.tomorrowWeekday == 1)
        let siblingDays = try collection.cards(deckID: deck.id).filter { $0.noteID == first.noteID && $0.id != first.id }
            .compactMap { $0.state.due.map { clock.dayNumber(of: $0) - today } }
        #expect(!siblingDays.isEmpty)
        #expect(balance.siblingDays == Set(siblingDays))
        // Where the preset does not bury siblings, they do not steer the balancer (as in Anki).
        let unburied = try collection.loadBalance(presetID: deck.presetID, noteID: first.noteID, cardID: first.id, siblings: false, clock: clock,
                                                  today: today, days: 10, easyDays: [1, 1, 1, 1, 1, 0.5, 0])
        #expect(unburied.siblingDays.isEmpty && unburied.dueCounts == balance.dueCounts)
    }
}

@Suite("Recovering a collection")
struct RecoveryTests {
    /// Everything a collection holds comes across, not only decks, notes and cards: Anki note
    /// types, reading plans and what was read.
    @Test func recoveryCopiesEveryTable() throws {
        let path = Fixture.temporaryPath()
        let collection = try Collection(path: path)
        try Fixture.wordDeck(collection, count: 3)
        let plan = ReadingPlan(key: "p", name: "Plan", parts: ["a"], days: [ReadingDay(number: 1, label: "", readings: ["Genesis 1"])])
        _ = try collection.batch(now: Date()) { writer in
            try writer.save(plan)
            try writer.save([AnkiNoteType(id: 7, name: "Basic", isCloze: false, fields: ["Front", "Back"], templates: [], modified: 1, legacyJSON: "{}")])
        }
        let stored = try #require(try collection.readingPlans().first)
        try collection.markRead(planID: stored.id, day: 1, parts: [0], studyDay: 5, at: Date())
        let copy = Fixture.temporaryPath("recovered")
        let report = try Collection.recover(from: path, into: copy, now: Date())
        #expect(report.tables.allSatisfy { !$0.lost }, "\(report.tables)")
        let recovered = try Collection(path: copy)
        #expect(try recovered.readingPlans().map(\.plan) == [plan])
        #expect(try recovered.readingMarks(planID: stored.id) == [ReadingMark(day: 1, part: 0, studyDay: 5)])
        #expect(try recovered.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM note_type") } == 1)
        #expect(try recovered.counts().notes == 3)
    }
}
