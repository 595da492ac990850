import Foundation
import MaeilCore

/// A deck as read from a file, before it touches a collection. Every format (Maeil's own,
/// Anki text, CSV, Anki packages) produces these; the importer applies them in one transaction.
package struct ImportedDeck: Sendable {
    package var name: String
    package var kind: NoteKind?
    package var description: String = ""
    package var templates: [CardTemplate]
    /// Scheduling options from the file; used when the deck is created, never to overwrite
    /// options a learner has since changed. Its name is the deck's.
    package var preset: Preset?
    package var speak: String?
    /// Curriculum units in order.
    package var units: [ImportedUnit] = []
    package var notes: [NoteDraft] = []
    /// Where it came from, for the deck's record and the summary.
    package var source: String
    /// Anki's id for the deck, when it comes from Anki (its description is then Anki's HTML).
    package var ankiID: Int64? = nil
    /// Its own daily limits, from Anki's "This deck" and "Today only".
    package var limits = DeckLimits()
    /// The rest of Anki's deck (legacy JSON), when it came from Anki: written back whole.
    package var ankiJSON: String?
    /// What Anki counted of today's answers in this deck, when the file says (a whole
    /// collection from Anki, read on the day it counted them).
    package var ankiAnsweredToday: AnkiAnsweredToday?
}

/// The day's answers Anki counted in one deck, from its deck counters, which Anki limits a
/// day's study by. They count what a log cannot place: an answer to a card deleted since (its
/// log row keeps no deck), and an answer in the deck the card was in then, not where it is
/// now. Anki keeps a deck's counters with its subdecks' answers in them; these are the
/// deck's own.
package struct AnkiAnsweredToday: Sendable, Hashable {
    /// The collection's clock, and the day (a day number of that clock) the counts are of.
    package var clock: DayClock
    package var day: Int
    /// May be below zero: Anki's custom study extends a day's limit by counting fewer.
    package var new = 0, reviews = 0, milliseconds = 0
    /// The deck's own answers that day in the file's log, counted as the counts are (its
    /// cards' first answers and reviews), less those its counters never counted
    /// (`ImportOptions.answersNotCounted`; a sync taken in place gives the answers the server
    /// held, for a deck whose counts came); nil where the counters were not read with a log.
    /// Counts below these are no answers missing: Anki's custom study raised the day's limit,
    /// or a card answered in the deck has moved to another since, and Anki counts as few.
    package var logged: Logged?

    package struct Logged: Sendable, Hashable {
        package var new = 0, reviews = 0
        package init(new: Int = 0, reviews: Int = 0) { (self.new, self.reviews) = (new, reviews) }
    }
}

package struct ImportedUnit: Hashable, Sendable {
    package var key: String
    package var title: String
}

/// A media file from a package, to copy into the collection's media folder.
package struct MediaFile: Sendable {
    /// A plain file name: never a path, checked before it gets here.
    package var name: String
    package var data: Data
}

/// What reading some files produced.
package struct ImportBundle: Sendable {
    package var decks: [ImportedDeck] = []
    package var media: [MediaFile] = []
    /// Problems skipped over because `--skip-invalid` was given.
    package var skipped: [ImportProblem] = []
    package var noteTypes: [AnkiNoteType] = []
    package var readingPlans: [ReadingPlan] = []
    /// Anki's collection-wide rules for daily limits, when the file carries them.
    package var limitRules: LimitRules?
    package var ankiConfig: String?
    package var goneCards: [GoneCardDraft] = []

    package init() {}
}


/// A problem in an input file, placed as precisely as the format allows:
/// "words.csv:12:7: expected 3 columns, found 2".
package struct ImportProblem: Error, Hashable, Sendable, CustomStringConvertible {
    package var file: String
    package var line: Int?
    package var column: Int?
    /// For archives: the entry the problem is in.
    package var entry: String?
    package var message: String

    package var description: String {
        var place = file
        if let entry { place += "(\(entry))" }
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return "\(place): \(message)"
    }
}

/// All the problems found in one import; nothing was changed.
package struct ImportFailure: Error, Sendable, CustomStringConvertible {
    package var problems: [ImportProblem]

    package init(_ problems: [ImportProblem]) { self.problems = problems }

    package var description: String {
        let shown = problems.prefix(20).map(\.description)
        let more = problems.count > 20 ? ["… and \(problems.count - 20) more"] : []
        return (shown + more).joined(separator: "\n")
    }
}

/// How strict to be, and where notes without a deck of their own go.
package struct ImportOptions: Sendable {
    /// Deck for files that name none (CSV, Anki text without #deck).
    package var deckName: String?
    /// Skip bad rows and report them instead of refusing the whole import.
    package var skipInvalid = false
    /// CSV: column → field, "front=Korean".
    package var columnMap: [String: String] = [:]
    /// Largest total of uncompressed bytes an archive may unpack to, and one entry of it (the
    /// collection, or one media file). `import --max-unpacked` raises both.
    package var maximumUnpackedBytes: Int64 = 1 << 30
    package var maximumEntryBytes: Int64 = 256 << 20
    /// Largest input file read.
    package var maximumFileBytes: Int64 = 512 << 20
    /// Most fields a note may have (a CSV of a million columns made review quadratic).
    package var maximumFields = 100
    /// Where and when the import runs: an Anki due day is a calendar date, which begins at a
    /// different instant in each time zone.
    package var timeZone = TimeZone.current
    package var now = Date()
    /// An Anki collection's notes to read, by Anki's ids; all when nil (a sync takes the few
    /// that came down).
    package var onlyNotes: Set<Int64>?
    /// With `onlyNotes`: cards whose answers to hand on as gone cards where the collection
    /// file no longer holds them (a sync takes the answers to cards deleted there since).
    package var goneCards: Set<Int64> = []
    /// The Anki collection file is the caller's own working copy (a sync's merge), read where
    /// it lies; any other is copied first, so opening it cannot change it.
    package var ownWorkingCopy = false
    /// What the collection importing these files holds of Anki's cards, answered by the
    /// importer: a package's notes whose cards it holds unchanged come without their cards.
    package var knownAnkiCards: KnownAnkiCards?
    /// An Anki collection's deck counters are kept with its log, in a package or a collection
    /// file one Anki wrote, in a download (each deck's counters are the last device's to answer
    /// in it, Maeil's included: it sends its decks' counts) and in a sync's merge: where a
    /// counter counts fewer answers than that log holds, Maeil counts as few
    /// (`AnkiAnsweredToday.logged`). But for these: per Anki deck id, answers of the day the
    /// log holds that the deck's counters never counted (in a merge, those going up from this
    /// side beside a deck taken from the server), read as not in the log.
    package var answersNotCounted: [Int64: AnkiAnsweredToday.Logged] = [:]

    package init(deckName: String? = nil, skipInvalid: Bool = false) {
        self.deckName = deckName
        self.skipInvalid = skipInvalid
    }

    /// Lets a package unpack to `megabytes` in all; one entry may take a quarter of it, and
    /// never less than by default.
    package mutating func allowUnpacked(megabytes: Int) {
        maximumUnpackedBytes = Int64(megabytes) << 20
        maximumEntryBytes = max(maximumUnpackedBytes / 4, maximumEntryBytes)
    }

    /// CSV columns renamed to fields, each written `column=field`.
    package mutating func map(_ mappings: [String]) {
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
