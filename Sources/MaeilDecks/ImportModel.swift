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
    /// options a learner has since changed. Its name is the deck's.
    public var preset: Preset?
    public var speak: String?
    /// Curriculum units in order.
    public var units: [ImportedUnit] = []
    public var notes: [NoteDraft] = []
    /// Where it came from, for the deck's record and the summary.
    public var source: String
}

public struct ImportedUnit: Hashable, Sendable {
    public var key: String
    public var title: String
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
    public var noteTypes: [AnkiNoteType] = []
    public var readingPlans: [ReadingPlan] = []

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
    /// Largest total of uncompressed bytes an archive may unpack to, and one entry of it (the
    /// collection, or one media file). `import --max-unpacked` raises both.
    public var maximumUnpackedBytes: Int64 = 1 << 30
    public var maximumEntryBytes: Int64 = 256 << 20
    /// Largest input file read.
    public var maximumFileBytes: Int64 = 512 << 20
    /// Most fields a note may have (a CSV of a million columns made review quadratic).
    public var maximumFields = 100

    public init(deckName: String? = nil, skipInvalid: Bool = false) {
        self.deckName = deckName
        self.skipInvalid = skipInvalid
    }

    /// Lets a package unpack to `megabytes` in all; one entry may take a quarter of it, and
    /// never less than by default.
    public mutating func allowUnpacked(megabytes: Int) {
        maximumUnpackedBytes = Int64(megabytes) << 20
        maximumEntryBytes = max(maximumUnpackedBytes / 4, maximumEntryBytes)
    }

    /// CSV columns renamed to fields, each written `column=field`.
    public mutating func map(_ mappings: [String]) {
        for mapping in mappings {
            let parts = mapping.split(separator: "=", maxSplits: 1).map(String.init)
            columnMap[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
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
