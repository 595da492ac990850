import Foundation
import MaeilCore
import MaeilSession
import MaeilStore

/// A clock tests move by hand; sessions read it through their environment.
package final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    package init(_ date: Date) { current = date }

    package var now: Date {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    package func advance(seconds: Double) { now = now.addingTimeInterval(seconds) }
    package func advance(days: Int) { advance(seconds: Double(days) * 86_400) }
}

/// What the tests share: a fixed place in time, temporary files and collections.
package enum Fixture {
    package static let utc = TimeZone(identifier: "UTC")!
    /// Study days begin at 04:00 UTC.
    package static let clock = DayClock.utc()
    /// 2026-01-05.
    package static let day0 = 20_458
    /// Noon UTC on 2026-01-05 (study day `day0`), far from the 04:00 rollover.
    package static let noon = Date(timeIntervalSince1970: 1_767_614_400)

    /// Noon on study day `day`, plus `seconds`.
    package static func noon(on day: Int, plus seconds: Int = 0) -> Date {
        clock.start(ofDay: day).addingTimeInterval(TimeInterval(8 * 3600 + seconds))
    }

    package static func context(day: Int = day0, plus seconds: Int = 0, fuzz: Double? = nil) -> SchedulingContext {
        SchedulingContext(now: noon(on: day, plus: seconds), clock: clock, fuzzFactor: fuzz)
    }

    /// A review card last answered `elapsed` days before `day0`, with interval `interval`.
    package static func reviewCard(interval: Int, easePermille: Int = 2500, elapsed: Int? = nil, lapses: Int = 0,
                                   memory: MemoryState? = nil) -> CardState {
        let last = noon(on: day0 - (elapsed ?? interval))
        return CardState(phase: .review, intervalDays: interval, easePermille: easePermille,
                         stability: memory?.stability, difficulty: memory?.difficulty,
                         due: clock.start(ofDay: day0 - (elapsed ?? interval) + interval),
                         reps: 5, lapses: lapses, streak: 3, lastReview: last)
    }

    /// A POSIX TZ in which it was about midday when the test process started, so learning steps
    /// never cross the 04:00 rollover whatever time the tests run ("UTC-5" is five hours east of
    /// UTC): for the real binary, which reads the real clock. Chosen once: chosen at each use, a
    /// test that ran the binary at 16:59 UTC and read its days at 17:00 read them in the next
    /// zone, a day apart (CI, 2026-12-07).
    package static let middayTimeZone: String = {
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        var offset = 12 - hour
        if offset > 14 { offset -= 24 }
        if offset < -12 { offset += 24 }
        return "Etc/GMT\(offset >= 0 ? "-" : "+")\(abs(offset))"
    }()

    /// Whether `condition` comes to hold within `timeout` (what another process does takes its time).
    package static func eventually(timeout: TimeInterval = 10, _ condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try condition() { return true }
            usleep(20_000)
        }
        return try condition()
    }

    package static func temporaryDirectory() -> URL {
        TestFolders.make("maeil-tests")
    }

    /// A collection file with `count` one-card word notes, all new, no daily limit worth the name.
    package static func wordCollection(count: Int, newPerDay: Int = 10_000) throws -> String {
        let path = temporaryDirectory().appendingPathComponent("collection.sqlite").path
        let collection = try Collection(path: path)
        try collection.batch(now: Date()) { writer in
            let deck = try writer.createDeck(name: "Words", kind: .word,
                                             templates: [CardTemplate(name: "recognize", front: ["word"], back: ["meaning"])],
                                             preset: Preset(name: "Words", newPerDay: newPerDay, reviewsPerDay: 10_000, burySiblings: false))
            for index in 0..<count {
                try writer.addNote(NoteDraft(guid: "w\(index)", kind: .word, fields: [
                    NoteField(name: "word", value: "단어\(index)", language: "ko"), NoteField(name: "meaning", value: "word \(index)"),
                ], position: index), deck: deck)
            }
        }
        return path
    }

    package static func temporaryPath(_ name: String = "collection") -> String {
        temporaryDirectory().appendingPathComponent("\(name).sqlite").path
    }

    package static func collection() throws -> Collection {
        try Collection(path: temporaryPath())
    }

    package static let wordTemplates = [
        CardTemplate(name: "recognize", front: ["word"], back: ["meaning"]),
        CardTemplate(name: "recall", front: ["meaning"], back: ["word"], typed: "word"),
    ]

    /// A deck of `count` word notes, in units of `unitSize` when given.
    @discardableResult
    package static func wordDeck(_ collection: Collection, name: String = "Words", count: Int, templates: [CardTemplate] = wordTemplates,
                         unitSize: Int? = nil, preset: Preset? = nil) throws -> Deck {
        let deck = try collection.createDeck(name: name, kind: .word, templates: templates,
                                             preset: preset ?? Preset(name: name, burySiblings: templates.count > 1), now: noon)
        if let unitSize {
            for unit in 0..<((count + unitSize - 1) / unitSize) {
                try collection.saveUnit(deckID: deck.id, key: "day-\(unit + 1)", title: "Day \(unit + 1)", position: unit + 1)
            }
        }
        for index in 0..<count {
            let draft = NoteDraft(guid: "\(name)-\(index)", kind: .word,
                                  fields: [NoteField(name: "word", value: "단어\(index)", language: "ko"),
                                           NoteField(name: "meaning", value: "word \(index)", language: "en")],
                                  unit: unitSize.map { "day-\(index / $0 + 1)" }, position: index)
            try collection.addNote(draft, deckID: deck.id, now: noon)
        }
        return deck
    }

    /// A session on `clock`, fuzz off so intervals are exact days.
    package static func session(_ collection: Collection, clock: TestClock, deckIDs: [Int64]? = nil) throws -> ReviewSession {
        let session = try ReviewSession(collection: collection, deckIDs: deckIDs,
                                        environment: SessionEnvironment(now: { clock.now }, timeZone: utc, fuzz: false))
        try session.start()
        return session
    }
}

