import Foundation
import GRDB
import Testing
@testable import MaeilCore
@testable import MaeilDecks

@Suite("The package writer")
struct PackageWriterTests {
    let clock = DayClock(timeZone: TimeZone(identifier: "UTC")!)
    let type = AnkiNoteType(id: 1_700_000_000_000, name: "Basic", isCloze: false, fields: ["Front", "Back"],
                            templates: [.init(name: "Card 1", question: "{{Front}}", answer: "{{FrontSide}}<hr id=answer>{{Back}}")],
                            modified: 1_700_000_000, legacyJSON: "{}")

    /// `notes` in one deck, written as Anki's collection file at `now`, in a folder of its own
    /// (the caller removes it).
    func written(_ notes: [ExportNote], now: Date) throws -> (file: URL, summary: ExportSummary) {
        var collection = ExportCollection(noteTypes: [type], decks: [ExportDeck(name: "Deck", preset: Preset(name: "Deck"), notes: notes)], media: [])
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-writer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("collection.anki2")
        return (file, try AnkiPackageWriter.writeCollectionFile(&collection, to: file, now: now, clock: clock))
    }

    /// Answers in one millisecond, on one card and across cards: one that keeps its id (Anki's,
    /// or one it went up under) keeps it; each other takes its own time as its id where it is
    /// free, else the next free one past the one before, in the order the cards and answers come,
    /// as a writer that sorted every answer in memory and walked them once would give them.
    /// Seeds 6 and 7 give every answer a millisecond of its own (the writer's quicker way).
    /// (Before, an answer proposing the id of one kept a millisecond later pushed that one on.)
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7] as [UInt64])
    func answersInOneMillisecondTakeTheNextFreeID(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let base: Int64 = 1_700_000_000_000
        var notes: [ExportNote] = []
        var given: [(id: Int64, tag: Int, kept: Bool)] = []
        var times = Set<Int64>()
        for index in 0..<40 {
            var history: [ReviewLogEntry] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                // Few distinct times, so many answers share one; the tag finds each in the file.
                var id = base + Int64.random(in: 0..<30, using: &random) * Int64.random(in: 1...3, using: &random)
                while seed > 5, !times.insert(id).inserted { id = base + Int64.random(in: 0..<1_000_000, using: &random) }
                var entry = ReviewLogEntry(time: Date(timeIntervalSince1970: TimeInterval(id) / 1000), kind: .answer, rating: .good,
                                           durationMilliseconds: given.count, scheduler: SchedulerKind.sm2.rawValue, before: .new,
                                           after: CardState(phase: .review, intervalDays: 1, easePermille: 2500))
                if Bool.random(using: &random) { entry.ankiID = id }
                given.append((id, given.count, entry.ankiID != nil))
                history.append(entry)
            }
            let state = history.isEmpty ? CardState.new
                : CardState(phase: .review, intervalDays: 1, easePermille: 2500, due: clock.start(ofDay: 19_700), reps: history.count,
                            lastReview: clock.start(ofDay: 19_690))
            notes.append(ExportNote(guid: "note-\(index)", noteTypeID: type.id, values: ["front \(index)", "back"], tags: [],
                                    modified: 1_700_000_000, cards: [ExportCard(ordinal: 0, state: state, suspended: false, position: index,
                                                                                history: history)]))
        }
        #expect((seed > 5) == (Set(given.map(\.id)).count == given.count), "seeds 1–5 share milliseconds, 6 and 7 do not")
        let (file, summary) = try written(notes, now: clock.start(ofDay: 19_700))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        #expect(summary.decks.map(\.notes) == [40])

        // The rule, walked answer by answer: an id kept stays (the first of two that keep one),
        // then the others, past the one before and clear of those.
        var expected: [(id: Int64, tag: Int)] = []
        var taken = Set<Int64>(), moving: [(id: Int64, tag: Int)] = []
        for answer in given.sorted(by: { ($0.id, $0.kept ? 0 : 1, $0.tag) < ($1.id, $1.kept ? 0 : 1, $1.tag) }) {
            if answer.kept, taken.insert(answer.id).inserted { expected.append((answer.id, answer.tag)) } else { moving.append((answer.id, answer.tag)) }
        }
        var last = Int64.min
        for answer in moving {
            last = max(answer.id, last &+ 1)
            while taken.contains(last) { last += 1 }
            taken.insert(last)
            expected.append((last, answer.tag))
        }
        expected.sort { $0.id < $1.id }
        let written = try DatabaseQueue(path: file.path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, time FROM revlog ORDER BY id").map { ($0[0] as Int64, $0[1] as Int) }
        }
        #expect(written.map(\.0) == expected.map(\.id))
        #expect(written.map(\.1) == expected.map(\.tag))
        #expect(Set(written.map(\.0)).count == given.count)
    }

    /// A learning step that ran past the day's end is Anki's day-learning card (queue 3, a day
    /// number) whether its day is still to come, has come or has passed, as Anki keeps it; a
    /// step in seconds stays in the learning queue. (Before, a day-learning card whose day had
    /// come went out as queue 1 with the day's start in seconds: a sync run after the rollover
    /// sent every such card back changed.)
    @Test(arguments: [-1, 0, 2])
    func dayLearningStaysADayNumberOnItsDayToo(daysPast: Int) throws {
        let dueDay = 19_700
        let learning = CardState(phase: .learning, step: 1, due: clock.start(ofDay: dueDay), reps: 2, lastReview: clock.start(ofDay: dueDay - 1))
        let relearning = CardState(phase: .relearning, step: 0, intervalDays: 3, easePermille: 2500, due: clock.start(ofDay: dueDay),
                                   reps: 6, lastReview: clock.start(ofDay: dueDay - 1))
        let seconds = CardState(phase: .learning, step: 0, due: clock.start(ofDay: dueDay).addingTimeInterval(600), reps: 1,
                                lastReview: clock.start(ofDay: dueDay))
        let notes = [learning, relearning, seconds].enumerated().map { index, state in
            ExportNote(guid: "note-\(index)", noteTypeID: type.id, values: ["front \(index)", "back"], tags: [], modified: 1_700_000_000,
                       cards: [ExportCard(ordinal: 0, state: state, suspended: false, position: index)])
        }
        let (file, _) = try written(notes, now: clock.start(ofDay: dueDay + daysPast).addingTimeInterval(3600))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let (crt, cards) = try DatabaseQueue(path: file.path).read { db in
            (try Int64.fetchOne(db, sql: "SELECT crt FROM col")!,
             try Row.fetchAll(db, sql: "SELECT type, queue, due FROM cards ORDER BY id").map { [$0[0] as Int64, $0[1] as Int64, $0[2] as Int64] })
        }
        let day = Int64(dueDay - clock.dayNumber(of: Date(timeIntervalSince1970: TimeInterval(crt))))
        #expect(cards == [[1, 3, day], [3, 3, day], [1, 1, Int64(clock.start(ofDay: dueDay).timeIntervalSince1970) + 600]])
    }

    /// A due date set in Maeil goes to Anki as the row Anki's own Set Due Date writes (read from
    /// Anki 26.9.3: a review card of interval 10 and ease 2300 set due in 3 days logs
    /// [ease 0, ivl 10, lastIvl 10, factor 2300, type 4]; a new card [0, 3, 0, 2500, 4]); a
    /// forgotten card Anki's reset [0, 0, ivl, 0, 4]; a manual change that moves no due date
    /// (FSRS memory from the log) writes nothing.
    @Test func manualChangesAreAnkisManualRows() throws {
        let day = clock.start(ofDay: 19_700)
        func manual(_ before: CardState, _ after: CardState, at seconds: Double) -> ReviewLogEntry {
            ReviewLogEntry(time: day.addingTimeInterval(seconds), kind: .manual, rating: nil, durationMilliseconds: 0,
                           scheduler: SchedulerKind.ankiSM2.rawValue, before: before, after: after)
        }
        let review = CardState(phase: .review, intervalDays: 10, easePermille: 2300, due: clock.start(ofDay: 19_702), reps: 3,
                               lastReview: clock.start(ofDay: 19_690))
        var moved = review
        moved.due = clock.start(ofDay: 19_703)
        var remembered = moved
        remembered.stability = 12
        remembered.difficulty = 5
        let setNew = CardState(phase: .review, intervalDays: 3, easePermille: 2500, due: clock.start(ofDay: 19_703), reps: 0)
        let histories: [[ReviewLogEntry]] = [
            [manual(review, moved, at: 1), manual(moved, remembered, at: 2)],
            [manual(.new, setNew, at: 3)],
            [manual(review, .new, at: 4)],
        ]
        let notes = histories.enumerated().map { index, history in
            ExportNote(guid: "n\(index)", noteTypeID: type.id, values: ["f", "b"], tags: [], modified: 1_700_000_000,
                       cards: [ExportCard(ordinal: 0, state: history.last!.after!, suspended: false, position: index, history: history)])
        }
        let (file, _) = try written(notes, now: day.addingTimeInterval(60))
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let rows = try DatabaseQueue(path: file.path).read { db in
            try Row.fetchAll(db, sql: "SELECT ease, ivl, lastIvl, factor, type FROM revlog ORDER BY id").map { row in (0..<5).map { row[$0] as Int } }
        }
        #expect(rows == [[0, 10, 10, 2300, 4], [0, 3, 0, 2500, 4], [0, 0, 10, 0, 4]])
    }

    /// A source of `count` notes that fails after `failingAfter` of them (never where nil), and counts the notes it read.
    struct CountingSource: ExportSource {
        struct Failure: Error, Equatable {}
        let type: AnkiNoteType
        let count: Int
        let failingAfter: Int?
        var read = 0
        var decks: [ExportDeck] { [ExportDeck(name: "Deck", preset: Preset(name: "Deck"), notes: [])] }
        var deckAnkiIDs: [String: Int64] { [:] }
        var keptNoteIDs: Set<Int64> { [] }
        var keptCardIDs: Set<Int64> { [] }
        var earliestDate: Date? { nil }
        var limitRules: LimitRules? { nil }
        var ankiConfig: String? { nil }
        var noteTypes: [AnkiNoteType] { [type] }
        var media: [(name: String, file: URL)] { [] }

        mutating func forEachNote(ofDeck index: Int, history: Bool, _ body: (ExportNote, AnkiNoteType) throws -> Void) throws {
            for number in 0..<count {
                if number == failingAfter { throw Failure() }
                read += 1
                try body(ExportNote(guid: "note-\(number)", noteTypeID: type.id, values: ["\(number)", ""], tags: [], modified: 1_700_000_000,
                                    cards: [ExportCard(ordinal: 0, state: .new, suspended: false, position: number, history: [])]), type)
            }
        }
    }

    /// The store is read on the caller's thread while another writes Anki's file (ExportPipe):
    /// every note arrives, in order; a reading that fails fails the export with its own error,
    /// and nothing is left waiting.
    @Test(.timeLimit(.minutes(40)))
    func theReadingAndTheWritingGoSideBySide() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-pipe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var whole = CountingSource(type: type, count: 1_000, failingAfter: nil)
        let file = folder.appendingPathComponent("whole.anki2")
        let summary = try AnkiPackageWriter.writeCollectionFile(&whole, to: file, now: clock.start(ofDay: 19_700), clock: clock)
        #expect(summary.decks.map(\.notes) == [1_000])
        let fronts = try DatabaseQueue(path: file.path).read { db in try String.fetchAll(db, sql: "SELECT sfld FROM notes ORDER BY id") }
        #expect(fronts == (0..<1_000).map(String.init))
        var failing = CountingSource(type: type, count: 1_000, failingAfter: 300)
        #expect(throws: CountingSource.Failure()) {
            try AnkiPackageWriter.writeCollectionFile(&failing, to: folder.appendingPathComponent("failing.anki2"), now: clock.start(ofDay: 19_700),
                                                      clock: clock)
        }
        #expect(failing.read == 300)
    }

    /// A writer that stops (it failed) stops the reading at its next batch: the reader stays
    /// at most the pipe's few batches ahead, and is not left waiting.
    @Test(.timeLimit(.minutes(40)))
    func aWriterThatStopsStopsTheReading() throws {
        let pipe = ExportPipe()
        let writer = Thread {
            pipe.ask(.notes(deck: 0, history: true))
            _ = try? pipe.take()
            pipe.stopWriting()
        }
        writer.start()
        var source = CountingSource(type: type, count: 100_000, failingAfter: nil)
        try pipe.serve(&source)
        #expect(source.read <= (ExportPipe.capacity + 2) * ExportPipe.batchSize)
    }
}
