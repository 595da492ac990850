import Foundation
import MaeilCore

/// A deck as read from a file, before it touches a collection. Every format (Maeil's own,
/// Anki text, CSV, Anki packages) produces these; the importer applies them in one transaction.
public struct ImportedDeck: Sendable {
    public var name: String
    public var kind: NoteKind?
    public var description: String = ""
    public var templates: [CardTemplate]
    /// Scheduling options from the file; used when the deck is created, never to overwrite
    /// options a learner has since changed.
    public var preset: ImportedPreset?
    public var speak: String?
    /// Curriculum units in order.
    public var units: [ImportedUnit] = []
    public var notes: [ImportedNote] = []
    /// Where it came from, for the deck's record and the summary.
    public var source: String

    public init(name: String, kind: NoteKind?, templates: [CardTemplate], source: String) {
        self.name = name
        self.kind = kind
        self.templates = templates
        self.source = source
    }
}

public struct ImportedUnit: Hashable, Sendable {
    public var key: String
    public var title: String

    public init(key: String, title: String) {
        self.key = key
        self.title = title
    }
}

/// The values a preset may hold, in one place: Maeil deck files reject anything outside them with
/// a message, and Anki packages, whose options are untrusted JSON, are clamped into them.
public enum PresetLimits {
    public static let newPerDay = 0...9999
    public static let reviewsPerDay = 0...99_999
    public static let rolloverHour = 0...23
    public static let desiredRetention = 0.7...0.99
    public static let maximumInterval = 1...36_500
    public static let leechThreshold = 0...99
    public static let graduatingInterval = 1...365
    public static let easyInterval = 1...365
    public static let minimumLapseInterval = 1...365
    public static let startingEase = 1.31...5.0
    public static let easyBonus = 1.0...5.0
    public static let hardInterval = 0.5...2.0
    public static let intervalModifier = 0.5...2.0
    public static let lapseNewInterval = 0.0...1.0
    public static let stepSeconds = LearningSteps.secondsRange
}

extension Comparable {
    func clamped(to range: ClosedRange<Self>) -> Self { min(max(self, range.lowerBound), range.upperBound) }
}

public struct ImportedPreset: Hashable, Sendable {
    public var scheduler = SchedulerSettings()
    public var newPerDay = 20
    public var reviewsPerDay = 200
    public var rolloverHour = 4
    public var burySiblings = true
    public var curriculumGating = false

    public init() {}
}

public struct ImportedNote: Sendable {
    /// Stable across imports: a second import of the same item updates this note.
    public var guid: String
    public var kind: NoteKind
    public var noteType: String?
    public var fields: [NoteField]
    public var tags: [String] = []
    /// Key of the curriculum unit.
    public var unit: String?
    /// Where the note came from in its file ("deck.yaml:12", "words.csv:40"), for messages.
    public var origin: String
    /// Scheduling carried over from another program (Anki packages), by template name and ordinal.
    public var cards: [ImportedCard] = []
    /// When a note with this guid exists: leave it as it is (Anki's "keep current").
    public var keepExisting = false

    public init(guid: String, kind: NoteKind, noteType: String? = nil, fields: [NoteField], tags: [String] = [], unit: String? = nil,
                origin: String) {
        self.guid = guid
        self.kind = kind
        self.noteType = noteType
        self.fields = fields
        self.tags = tags
        self.unit = unit
        self.origin = origin
    }
}

public struct ImportedCard: Sendable {
    public var template: String
    public var ordinal: Int
    public var state: CardState
    public var suspended = false
    public var buriedUntil: Date?
    public var reviews: [ImportedReview] = []

    public init(template: String, ordinal: Int, state: CardState) {
        self.template = template
        self.ordinal = ordinal
        self.state = state
    }
}

/// One answer from another program's history. Only what it kept is known: the phase the
/// card was in, the rating, and the interval and ease before and after.
public struct ImportedReview: Hashable, Sendable {
    public var time: Date
    public var rating: Rating
    public var durationMilliseconds: Int
    public var phaseBefore: CardPhase
    public var phaseAfter: CardPhase
    public var intervalBefore: Int
    public var intervalAfter: Int
    public var easePermille: Int

    public init(time: Date, rating: Rating, durationMilliseconds: Int, phaseBefore: CardPhase, phaseAfter: CardPhase,
                intervalBefore: Int, intervalAfter: Int, easePermille: Int) {
        self.time = time
        self.rating = rating
        self.durationMilliseconds = durationMilliseconds
        self.phaseBefore = phaseBefore
        self.phaseAfter = phaseAfter
        self.intervalBefore = intervalBefore
        self.intervalAfter = intervalAfter
        self.easePermille = easePermille
    }
}

/// A media file from a package, to copy into the collection's media folder.
public struct MediaFile: Sendable {
    /// A plain file name: never a path, checked before it gets here.
    public var name: String
    public var data: Data
}

/// What reading some files produced.
public struct ImportBundle: Sendable {
    public var decks: [ImportedDeck] = []
    public var media: [MediaFile] = []
    /// Problems skipped over because `--skip-invalid` was given.
    public var skipped: [ImportProblem] = []

    public init() {}
}

/// A problem in an input file, placed as precisely as the format allows:
/// "words.csv:12:7: expected 3 columns, found 2".
public struct ImportProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    /// For archives: the entry the problem is in.
    public var entry: String?
    public var message: String

    public init(file: String, line: Int? = nil, column: Int? = nil, entry: String? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.entry = entry
        self.message = message
    }

    public var description: String {
        var place = file
        if let entry { place += "(\(entry))" }
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): \(message)"
    }
}

/// All the problems found in one import; nothing was changed.
public struct ImportFailure: Error, Sendable, CustomStringConvertible {
    public var problems: [ImportProblem]

    public init(_ problems: [ImportProblem]) { self.problems = problems }

    public var description: String {
        let shown = problems.prefix(20).map(\.description)
        let more = problems.count > 20 ? ["… and \(problems.count - 20) more"] : []
        return (shown + more).joined(separator: "\n")
    }
}

/// How strict to be, and where notes without a deck of their own go.
public struct ImportOptions: Sendable {
    /// Deck for files that name none (CSV, Anki text without #deck).
    public var deckName: String?
    /// Skip bad rows and report them instead of refusing the whole import.
    public var skipInvalid = false
    /// CSV: column → field, "front=Korean".
    public var columnMap: [String: String] = [:]
    /// Largest total of uncompressed bytes an archive may unpack to.
    public var maximumUnpackedBytes: Int64 = 2 << 30
    /// Largest input file read.
    public var maximumFileBytes: Int64 = 512 << 20

    public init(deckName: String? = nil, skipInvalid: Bool = false) {
        self.deckName = deckName
        self.skipInvalid = skipInvalid
    }
}

/// Collects problems: throws at once when strict, keeps going when skipping invalid input.
struct ProblemSink {
    let skipInvalid: Bool
    private(set) var problems: [ImportProblem] = []

    init(skipInvalid: Bool) { self.skipInvalid = skipInvalid }

    /// Records a problem with one row or item; the caller skips that row.
    mutating func record(_ problem: ImportProblem) {
        problems.append(problem)
    }

    /// Throws every problem when strict; otherwise hands them back as skipped.
    func finish() throws -> [ImportProblem] {
        if !skipInvalid, !problems.isEmpty { throw ImportFailure(problems) }
        return problems
    }
}
