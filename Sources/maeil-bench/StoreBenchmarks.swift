import Foundation
import MaeilCore
import MaeilSession
import MaeilStore

/// Today's queue, durable answers and start-up on large collections.
enum StoreBenchmarks {
    static var all: [Benchmark] {
        [
            Benchmark(name: "store.queue") {
                try [20_000, 100_000].map { cards in
                    try withFixture(cards: cards, due: 3000) { collection, now in
                        let seconds = try Benchmarks.bestTime(repeats: 20) {
                            let queue = try collection.studyQueue(now: now, timeZone: fixtureZone)
                            precondition(queue.reviewCount == 3000)
                        }
                        return BenchFigure(name: "store.queue_\(cards / 1000)k_cards_3000_due_ms", value: seconds * 1000, unit: "ms")
                    }
                }
            },
            Benchmark(name: "store.answer") {
                [try withFixture(cards: 20_000, due: 3000) { collection, now in
                    let queue = try collection.studyQueue(now: now, timeZone: fixtureZone)
                    // The deck's own preset, as a session has it: the answer checks it is still the deck's.
                    let preset = try collection.preset(id: try collection.decks()[0].presetID)
                    let scheduler = preset.scheduler.makeScheduler()
                    let clock = DayClock(timeZone: fixtureZone)
                    var answered = 0
                    // What a session does per answer: read the card with its note and siblings, plan, commit.
                    let seconds = try Benchmarks.bestTime(repeats: 1) {
                        for queued in queue.reviews.prefix(1000) {
                            let (card, _, others) = try collection.cardWithNote(id: queued.id)
                            let siblings = others.map { SiblingCard(id: $0.id, phase: $0.state.phase, suspended: $0.suspended, buriedUntil: $0.buriedUntil) }
                            let context = SchedulingContext(now: now, clock: clock, fuzzFactor: 0.5)
                            let outcome = scheduler.answer(card.state, .good, context: context)
                            let plan = AnswerPlan(
                                answering: AnsweredCard(id: card.id, noteID: card.noteID, state: card.state, suspended: card.suspended,
                                                        noteTaggedLeech: false),
                                siblings: siblings, rating: .good, outcome: outcome, at: now, durationMilliseconds: 3000,
                                scheduler: scheduler.kind, preset: preset, clock: clock)
                            _ = try collection.apply(plan)
                            answered += 1
                        }
                    }
                    return BenchFigure(name: "store.durable_answer_avg_ms", value: seconds * 1000 / Double(answered), unit: "ms")
                }]
            },
            Benchmark(name: "store.open") {
                [try withFixture(cards: 100_000, due: 3000) { collection, now in
                    let path = collection.path
                    let seconds = try Benchmarks.bestTime(repeats: 5) {
                        let reopened = try Collection(path: path)
                        let session = try ReviewSession(collection: reopened, environment: SessionEnvironment(now: { now }, timeZone: fixtureZone))
                        try session.start()
                        precondition(session.state.current != nil)
                    }
                    return BenchFigure(name: "store.open_100k_to_first_card_ms", value: seconds * 1000, unit: "ms")
                }]
            },
            // The first answer of a process: before it, SQLite's quick check of the whole file,
            // so a damaged collection is never written to.
            Benchmark(name: "store.first_answer") {
                [try withFixture(cards: 100_000, due: 3000) { collection, now in
                    let path = collection.path
                    var cards = try collection.studyQueue(now: now, timeZone: fixtureZone).reviews.makeIterator()
                    let seconds = try Benchmarks.bestTime(repeats: 5) {
                        let reopened = try Collection(path: path)
                        let card = try reopened.card(id: cards.next()!.id)
                        _ = try reopened.setState(cardID: card.id, card.state, at: now)
                    }
                    return BenchFigure(name: "store.first_answer_100k_with_check_ms", value: seconds * 1000, unit: "ms")
                }]
            },
        ]
    }

    static let fixtureZone = TimeZone(identifier: "Asia/Seoul")!

    /// A collection of `cards` one-card notes: `due` reviews due today, 2,000 new, the rest
    /// reviews due over the next year. Deleted afterwards.
    static func withFixture<T>(cards: Int, due: Int, _ body: (Collection, Date) throws -> T) throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("collection.sqlite").path
        let now = Date(timeIntervalSince1970: 1_767_614_400)
        try fill(Collection(path: path), cards: cards, due: due, now: now)
        // Reopened: the last connection closed checkpoints the write-ahead log, so the figures
        // read the database file, not whichever of its pages the log still held.
        return try body(try Collection(path: path), now)
    }

    static func fill(_ collection: Collection, cards: Int, due: Int, now: Date) throws {
        let clock = DayClock(timeZone: fixtureZone)
        let today = clock.dayNumber(of: now)
        var generator = SeededGenerator(seed: 42)
        try collection.batch(now: now) { writer in
            let deck = try writer.createDeck(
                name: "Bench", kind: .word, templates: [CardTemplate(name: "recognize", front: ["word"], back: ["meaning"])],
                preset: Preset(name: "Bench", reviewsPerDay: 10_000))
            for index in 0..<cards {
                let note = try writer.addNote(NoteDraft(guid: "bench-\(index)", kind: .word, fields: [
                    NoteField(name: "word", value: "단어 \(index)", language: "ko"), NoteField(name: "meaning", value: "word \(index)"),
                ], position: index), deck: deck)
                guard index >= 2000 else { continue }
                let interval = Int.random(in: 1...365, using: &generator)
                let dueDay = index < 2000 + due ? today - Int.random(in: 0..<min(interval, 5), using: &generator)
                                                : today + Int.random(in: 1...365, using: &generator)
                let state = CardState(phase: .review, intervalDays: interval, easePermille: 2500, due: clock.start(ofDay: dueDay),
                                      reps: 5, lapses: 0, streak: 4, lastReview: clock.start(ofDay: dueDay - interval))
                try writer.setState(cardID: try writer.cards(noteID: note.id)[0].id, state)
            }
        }
    }
}
