import Foundation
import MaeilCore
import MaeilSession
import MaeilStore

/// A clock tests move by hand; sessions read it through their environment.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    public init(_ date: Date) { current = date }

    public var now: Date {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    public func advance(seconds: Double) { now = now.addingTimeInterval(seconds) }
    public func advance(days: Int) { advance(seconds: Double(days) * 86_400) }
}

public enum Fixture {
    public static let utc = TimeZone(identifier: "UTC")!
    /// Noon UTC on 2026-01-05, far from the 04:00 rollover.
    public static let noon = Date(timeIntervalSince1970: 1_767_614_400)

    public static func temporaryPath(_ name: String = "collection") -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-tests-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("\(name).sqlite").path
    }

    public static func collection() throws -> Collection {
        try Collection(path: temporaryPath())
    }

    public static let wordTemplates = [
        CardTemplate(name: "recognize", front: ["word"], back: ["meaning"]),
        CardTemplate(name: "recall", front: ["meaning"], back: ["word"], typed: "word"),
    ]

    /// A deck of `count` word notes, in units of `unitSize` when given.
    @discardableResult
    public static func wordDeck(_ collection: Collection, name: String = "Words", count: Int, templates: [CardTemplate] = wordTemplates,
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
    public static func session(_ collection: Collection, clock: TestClock, deckIDs: [Int64]? = nil) throws -> ReviewSession {
        let session = try ReviewSession(collection: collection, deckIDs: deckIDs,
                                        environment: SessionEnvironment(now: { clock.now }, timeZone: utc, fuzz: false))
        try session.start()
        return session
    }
}

