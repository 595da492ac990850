import Foundation
import MaeilTestSupport
import PropertyBased
import Testing
@testable import MaeilCore
@testable import MaeilFocus
import MaeilPrograms
@testable import MaeilSession
@testable import MaeilStore

@Suite("Focus list")
struct FocusTests {
    static let utc = TimeZone(identifier: "UTC")!
    static let noon = Date(timeIntervalSince1970: 1_767_614_400)

    /// Ten word notes, some reviewed long ago (at risk), one starred, one a leech, one missed today.
    static func collection() throws -> (Collection, [Note]) {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-focus-\(UUID().uuidString)/c.sqlite").path
        let collection = try Collection(path: path)
        let deck = try collection.createDeck(name: "Words", kind: .word, templates: [
            CardTemplate(name: "recognize", front: ["word"], back: ["meaning"]),
        ], preset: Preset(name: "Words", reviewsPerDay: 1000, burySiblings: false), now: Self.noon)
        var notes: [Note] = []
        for index in 0..<10 {
            notes.append(try collection.addNote(NoteDraft(guid: "n\(index)", kind: .word, fields: [
                NoteField(name: "word", value: "단어\(index)", language: "ko"), NoteField(name: "meaning", value: "word \(index)"),
            ], position: index), deckID: deck.id, now: noon))
        }
        // Cards 2…7 were reviewed; card 2 long ago with a short interval (most at risk).
        for index in 2..<8 {
            let card = try collection.cards(noteID: notes[index].id)[0]
            let days = index == 2 ? 60 : index
            try collection.setState(cardID: card.id, CardState(
                phase: .review, intervalDays: index, easePermille: 2500, stability: Double(index), difficulty: 5,
                due: noon.addingTimeInterval(Double(index - days) * 86_400), reps: 3, lastReview: noon.addingTimeInterval(-Double(days) * 86_400)),
                at: noon.addingTimeInterval(-Double(days) * 86_400))
        }
        try collection.setStarred(cardID: try collection.cards(noteID: notes[5].id)[0].id, true)
        try collection.setTags(noteID: notes[6].id, add: ["leech"])
        // Note 7 is answered "again" today.
        let missed = try collection.cards(noteID: notes[7].id)[0]
        let clock = DayClock(timeZone: utc)
        let outcome = SchedulerSettings().makeScheduler().answer(missed.state, .again, context: SchedulingContext(now: noon, clock: clock))
        _ = try collection.apply(AnswerPlan(
            answering: AnsweredCard(id: missed.id, noteID: missed.noteID, state: missed.state, suspended: false, noteTaggedLeech: false),
            siblings: [], rating: .again, outcome: outcome, at: noon, durationMilliseconds: 4000, scheduler: .ankiSM2,
            preset: Preset(name: "Words", burySiblings: false), clock: clock))
        return (collection, notes)
    }

    @Test func holdsStarredLeechesMissesThenTheMostAtRisk() throws {
        let (collection, notes) = try Self.collection()
        let list = try FocusListBuilder.build(collection, limit: 5, now: Self.noon, timeZone: Self.utc)
        #expect(list.items.count == 5)
        #expect(list.items[0].note == notes[5].id)
        #expect(list.items[0].reasons == [.starred])
        #expect(list.items[1].note == notes[6].id)
        #expect(list.items[1].reasons.contains(.leech))
        #expect(list.items[2].note == notes[7].id)
        #expect(list.items[2].reasons.contains(.missed))
        #expect(list.items[3].note == notes[2].id)  // reviewed 60 days ago: lowest recall
        #expect(list.items[3].reasons == [.atRisk])
        #expect(list.items.dropFirst(3).allSatisfy { $0.recall != nil })
        #expect(list.items[3].recall! < list.items[4].recall!)
        #expect(list.items[0].front == "단어5")
        #expect(list.items[0].back == "word 5")
        #expect(list.items[0].deck == "Words")
        #expect(Set(list.items.map(\.note)).count == list.items.count)
        #expect(list.counts.learned >= 1)
        #expect(list.counts.streak == 1)
        #expect(list.schema == 2)
    }

    /// At risk means below the deck's desired retention when the next study day begins: a card
    /// answered well today is never at risk, nor one whose recall will still be high; the
    /// counts are the ones `stats` gives, and `learned` counts cards, not answers.
    @Test func atRiskMeansBelowTheTargetByTheNextSession() throws {
        let (collection, notes) = try Self.collection()
        let clock = DayClock(timeZone: Self.utc)
        let scheduler = SchedulerSettings().makeScheduler()
        // Card 3 (due now) is answered good, note 7's card a second time (again, then good).
        for index in [3, 7] {
            let card = try collection.cards(noteID: notes[index].id)[0]
            let outcome = scheduler.answer(card.state, .good, context: SchedulingContext(now: Self.noon.addingTimeInterval(60), clock: clock))
            _ = try collection.apply(AnswerPlan(
                answering: AnsweredCard(id: card.id, noteID: card.noteID, state: card.state, suspended: false, noteTaggedLeech: false),
                siblings: [], rating: .good, outcome: outcome, at: Self.noon.addingTimeInterval(60), durationMilliseconds: 3000,
                scheduler: .ankiSM2, preset: Preset(name: "Words", burySiblings: false), clock: clock))
        }
        // Note 8's card was reviewed five days ago with a stability of 200 days: safe tomorrow.
        let safe = try collection.cards(noteID: notes[8].id)[0]
        try collection.setState(cardID: safe.id, CardState(
            phase: .review, intervalDays: 180, easePermille: 2500, stability: 200, difficulty: 5,
            due: Self.noon.addingTimeInterval(175 * 86_400), reps: 5, lastReview: Self.noon.addingTimeInterval(-5 * 86_400)),
            at: Self.noon.addingTimeInterval(-5 * 86_400))
        let list = try FocusListBuilder.build(collection, limit: 10, now: Self.noon.addingTimeInterval(120), timeZone: Self.utc)
        let atRisk = list.items.filter { $0.reasons.contains(.atRisk) }
        #expect(!list.items.contains { $0.note == notes[8].id })
        #expect(!atRisk.contains { $0.note == notes[3].id }, "answered well a minute ago")
        #expect(atRisk.map(\.note).contains(notes[2].id))
        // Each card at risk will have fallen below 0.9 by tomorrow's 04:00.
        let tomorrow = Self.noon.addingTimeInterval(16 * 3600)
        let fsrs = FSRS()
        for item in atRisk {
            let state = try collection.card(id: item.card).state
            let recall = fsrs.retrievability(elapsedDays: tomorrow.timeIntervalSince(state.lastReview!) / 86_400,
                                             stability: state.memory!.stability)
            #expect(recall < 0.9, "\(item.front): \(recall)")
        }
        let stats = try collection.stats(now: Self.noon.addingTimeInterval(120), timeZone: Self.utc)
        #expect(list.counts.due == stats.dueToday)
        #expect(list.counts.learning == stats.learningToday)
        #expect(list.counts.new == stats.newToday)
        #expect(list.counts.learned == 2, "card 7 answered twice and card 3 once are two cards")
    }

    /// One note whose 100 cards are all at risk, lowest of all, fills no more than one item:
    /// the notes after it come from reading the collection again, keeping more.
    @Test func aNoteOfManyCardsDoesNotCrowdOutTheOthers() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-focus-\(UUID().uuidString)/c.sqlite").path
        let collection = try Collection(path: path)
        let deck = try collection.createDeck(name: "Many", kind: .word,
                                             templates: (0..<100).map { CardTemplate(name: "t\($0)", front: ["word"], back: ["meaning"]) },
                                             preset: Preset(name: "Many", burySiblings: false), now: Self.noon)
        var notes: [Note] = []
        for index in 0..<4 {
            notes.append(try collection.addNote(NoteDraft(guid: "m\(index)", kind: .word, fields: [
                NoteField(name: "word", value: "단어\(index)", language: "ko"), NoteField(name: "meaning", value: "word \(index)"),
            ], position: index), deckID: deck.id, now: Self.noon))
        }
        // Note 0's cards were last seen 300 days ago; notes 1–3 at 50, 40 and 30 (stability 2).
        for (index, note) in notes.enumerated() {
            let days = index == 0 ? 300.0 : Double(60 - 10 * index)
            for card in try collection.cards(noteID: note.id) {
                try collection.setState(cardID: card.id, CardState(
                    phase: .review, intervalDays: 2, easePermille: 2500, stability: 2, difficulty: 5,
                    due: Self.noon.addingTimeInterval((2 - days) * 86_400), reps: 3, lastReview: Self.noon.addingTimeInterval(-days * 86_400)),
                    at: Self.noon.addingTimeInterval(-days * 86_400))
            }
        }
        let list = try FocusListBuilder.build(collection, limit: 3, now: Self.noon, timeZone: Self.utc)
        #expect(list.items.map(\.note) == [notes[0].id, notes[1].id, notes[2].id])
        #expect(list.items.allSatisfy { $0.reasons == [.atRisk] })
    }

    /// Keeping only the lowest while reading gives what sorting them all would, ties in the
    /// order offered; it knows when it held everything.
    @Test func keepingTheLowestRecallIsASortedPrefix() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...20).array(of: 0...400), Gen.int(in: 1...50)) { recalls, keeping in
            var lowest = LowestRecall(keeping: keeping)
            for (index, recall) in recalls.enumerated() {
                lowest.offer(FocusCandidate(cardID: Int64(index), noteID: Int64(index), state: .new, starred: false, leech: false,
                                            missedToday: false, deckID: 1), recall: Double(recall) / 20)
            }
            let sorted = recalls.enumerated().sorted { ($0.element, $0.offset) < ($1.element, $1.offset) }.map { Int64($0.offset) }
            #expect(lowest.lowest().map(\.cardID) == Array(sorted.prefix(keeping)))
            #expect(lowest.holdsAll == (recalls.count <= keeping))
        }
    }

    @Test func everyFormatIsWhatItsWidgetReads() throws {
        let (collection, _) = try Self.collection()
        let list = try FocusListBuilder.build(collection, limit: 4, now: Self.noon, timeZone: Self.utc)
        let json = try JSONSerialization.jsonObject(with: Data(FocusFormat.json.render(list).utf8)) as! [String: Any]
        #expect(json["schema"] as? Int == 2)
        #expect((json["readings"] as? [Any])?.isEmpty == true)
        #expect((json["items"] as? [[String: Any]])?.first?["reasons"] as? [String] == ["starred"])
        #expect((json["counts"] as? [String: Any])?["due"] != nil)
        let waybarText = FocusFormat.waybar.render(list)
        #expect(waybarText.split(separator: "\n").count == 1)
        let waybar = try JSONSerialization.jsonObject(with: Data(waybarText.utf8)) as! [String: Any]
        #expect(Set(waybar.keys) == ["text", "alt", "tooltip", "class", "percentage"])
        #expect((waybar["tooltip"] as? String)?.contains("★ 단어5 — word 5") == true)
        let i3 = try JSONSerialization.jsonObject(with: Data(FocusFormat.i3status.render(list).utf8)) as! [String: Any]
        #expect(Set(i3.keys) == ["icon", "state", "text", "short_text"])
        #expect(["Idle", "Info", "Good", "Warning", "Critical"].contains(i3["state"] as! String))
        let xbar = FocusFormat.xbar.render(list).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(xbar[0].hasPrefix("매일 "))
        #expect(xbar[1] == "---")
        #expect(xbar.contains { $0.contains("bash=maeil param1=review param2=--focus") })
        let text = FocusFormat.text.render(list).split(separator: "\n")
        #expect(text[0].hasPrefix("매일 "))
        #expect(text.count == 1 + list.items.count)
        // One mark per reason, from the few glyphs widget fonts carry.
        #expect(text.dropFirst().map { String($0.prefix(1)) } == ["★", "⚠", "×", "△"])
    }

    /// A reading plan's day is in the list until it is read: JSON, text and xbar (as a menu
    /// line that opens `maeil read`).
    @Test func todaysReadingsAreInTheList() throws {
        let (collection, _) = try Self.collection()
        let plan = ReadingPlan(key: "plan", name: "Plan", parts: ["morning", "evening"], days: [
            ReadingDay(number: 1, label: "January 1", readings: ["Genesis 1", "Matthew 1"]),
            ReadingDay(number: 2, label: "January 2", readings: ["Genesis 2", "Matthew 2"]),
        ])
        _ = try collection.batch(now: Self.noon) { try $0.save(plan) }
        let stored = try #require(try collection.readingPlans().first)
        try collection.markRead(planID: stored.id, day: 1, parts: [0], studyDay: TodayReading.studyDay(now: Self.noon, timeZone: Self.utc), at: Self.noon)
        let list = try FocusListBuilder.build(collection, limit: 4, now: Self.noon, timeZone: Self.utc)
        let json = try JSONSerialization.jsonObject(with: Data(FocusFormat.json.render(list).utf8)) as! [String: Any]
        let reading = try #require((json["readings"] as? [[String: Any]])?.first)
        #expect(reading["day"] as? Int == 1 && reading["plan_id"] as? String == "plan" && reading["finished_today"] as? Bool == false)
        #expect((reading["readings"] as? [[String: Any]])?.map { $0["read"] as? Bool } == [true, false])
        #expect(FocusFormat.text.render(list).split(separator: "\n")[1] == "» Matthew 1")
        #expect(FocusFormat.xbar.render(list).contains("» Matthew 1 | bash=maeil param1=read terminal=true"))
        // Read to the end of the day: the line goes.
        try collection.markRead(planID: stored.id, day: 1, parts: [1], studyDay: TodayReading.studyDay(now: Self.noon, timeZone: Self.utc), at: Self.noon)
        let after = try FocusListBuilder.build(collection, limit: 4, now: Self.noon, timeZone: Self.utc)
        #expect(after.readings.first?.finishedToday == true)
        #expect(!FocusFormat.text.render(after).contains("»"))
    }

    @Test func widgetTextCarriesNoControlSequences() {
        let item = FocusList.Item(card: 1, note: 1, deck: "d", front: "bad\u{1B}]0;owned\u{07}\nline", back: "b\tc", reasons: [.starred],
                                  due: nil, recall: nil)
        let list = FocusList(generated: Self.noon, counts: .init(due: 0, learning: 0, new: 0, learned: 0, streak: 0), items: [item])
        for format in FocusFormat.allCases where format != .json {
            #expect(!format.render(list).contains("\u{1B}"), "\(format)")
        }
    }

    @Test func targetsComeFromTheSetting() {
        let targets = FocusTarget.parse("json:~/f.json waybar:/tmp/w.json, nope:/x", defaultPath: "/d.json", home: "/home/u")
        #expect(targets == [FocusTarget(format: .json, path: "/home/u/f.json"), FocusTarget(format: .waybar, path: "/tmp/w.json")])
        #expect(FocusTarget.parse(nil, defaultPath: "/d.json", home: "/h") == [FocusTarget(format: .json, path: "/d.json")])
    }

    /// A widget polls the file while it is rewritten: it must only ever see a whole file.
    /// The reader is a thread of its own (not a task: the test runner's pool may be busy with
    /// other suites), and the writer keeps going until the reader has polled often enough.
    @Test func aReaderPollingTheFileNeverSeesAPart() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-atomic-\(UUID().uuidString)/focus.json").path
        try AtomicFile.write("{\"schema\": 2, \"items\": []}", to: path)
        let done = ManagedFlag()
        let reads = ManagedCounter(), bad = ManagedCounter()
        let finished = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            while !done.value {
                guard let data = FileManager.default.contents(atPath: path) else { bad.add(); continue }
                reads.add()
                if (try? JSONSerialization.jsonObject(with: data)) == nil { bad.add() }
            }
            finished.signal()
        }
        var rounds = 0
        while rounds < 400 || reads.value < 200, rounds < 100_000 {
            let items = (0..<(rounds % 50 * 20)).map { "{\"front\": \"단어 \($0)\", \"back\": \"\(String(repeating: "x", count: $0 % 97))\"}" }
            try AtomicFile.write("{\"schema\": 2, \"items\": [\(items.joined(separator: ","))]}", to: path)
            rounds += 1
        }
        done.value = true
        finished.wait()
        #expect(bad.value == 0)
        #expect(reads.value >= 200, "the reader barely ran: \(reads.value) reads in \(rounds) rewrites")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)
        #expect(leftovers == ["focus.json"])
    }
}

final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var flag = false
    var value: Bool {
        get { lock.withLock { flag } }
        set { lock.withLock { flag = newValue } }
    }
}
