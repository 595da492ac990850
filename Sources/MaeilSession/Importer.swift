import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore

/// What an import did (or, with --dry-run, would do).
package struct ImportSummary: Sendable, Codable {
    package struct DeckSummary: Sendable, Codable {
        package var name: String
        package var created: Bool
        package var added = 0
        package var updated = 0
        package var unchanged = 0
        /// Notes a package has older than here (changed in Maeil since): kept as they are.
        package var kept = 0
        /// Notes moved here from another deck in Anki since the last import: moved here too.
        package var moved = 0
        /// The deck's options changed in Anki since they came and were taken; or changed here
        /// too, and kept.
        package var optionsTaken = false
        package var optionsKept = false
        /// The scheduler the file's options name, when the deck was already here with another
        /// (its options are the learner's and are kept).
        package var fileScheduler: String?
        /// Notes of this deck that are no longer in the file: kept, and listed so the learner
        /// can delete them.
        package var gone: [String] = []
        package var cardsWithHistory = 0
    }

    /// A reading plan added or updated (what was read stays marked).
    package struct PlanSummary: Sendable, Codable {
        package var name: String
        package var created: Bool
        package var days: Int
    }

    package var decks: [DeckSummary] = []
    package var readingPlans: [PlanSummary] = []
    package var skipped: [String] = []
    package var media = 0
    package var dryRun = false

    package var added: Int { decks.reduce(0) { $0 + $1.added } }
    package var updated: Int { decks.reduce(0) { $0 + $1.updated } }
    package var unchanged: Int { decks.reduce(0) { $0 + $1.unchanged } }
    package var kept: Int { decks.reduce(0) { $0 + $1.kept } }
}

/// Applies imported decks to a collection: all of it in one transaction, or nothing.
///
/// The file is read on a second thread while this one writes: a reader hands decks and
/// notes on in chunks (`ImportEvent`), so a large file is written as it is read instead of
/// after. A problem the reader finds at the end still undoes everything.
package struct Importer {
    package let collection: Collection
    package var now: Date
    /// Called as notes are written: (done, total).
    package var progress: ((Int, Int) -> Void)?

    package init(collection: Collection, now: Date, progress: ((Int, Int) -> Void)? = nil) {
        self.collection = collection
        self.now = now
        self.progress = progress
    }

    /// Reads files, handing each event to the importer: `DeckReader.stream` with its arguments.
    package typealias Reader = @Sendable (_ emit: ImportEmitter) throws -> Void

    /// The folder media files go to, beside the collection file.
    package var mediaDirectory: URL {
        URL(fileURLWithPath: collection.path).deletingLastPathComponent().appendingPathComponent("media")
    }

    private struct DryRunRollback: Error {
        let summary: ImportSummary
    }

    /// From this many notes on, an import may rebuild the secondary indexes once at the end
    /// instead of keeping them up to date row by row.
    static let bulkThreshold = 2000

    /// Whether to rebuild the indexes at the end. A rebuild sorts the whole collection, not only
    /// the new rows, so it pays only when the import is large next to what is there: keeping an
    /// index up to date costs a few times more per row than building it in one sort.
    static func rebuildsIndexes(expecting notes: Int, collectionNotes: Int) -> Bool {
        notes >= bulkThreshold && notes * 3 >= collectionNotes
    }

    package func apply(_ bundle: ImportBundle, dryRun: Bool = false) throws -> ImportSummary {
        try apply(reading: { emit in try bundle.emit(into: emit) }, dryRun: dryRun)
    }

    /// Runs `read` on another thread and writes what it hands on as it comes.
    package func apply(reading read: @escaping Reader, dryRun: Bool = false) throws -> ImportSummary {
        try apply(ImportReading(read), dryRun: dryRun)
    }

    /// Writes what a reading already under way hands on: a program can start reading the
    /// files before it opens the collection.
    package func apply(_ reading: ImportReading, dryRun: Bool = false) throws -> ImportSummary {
        let channel = reading.channel
        defer { channel.close() }
        // Before the channel closes: a reader waiting for this answer would never end.
        defer { reading.knownAnkiCards?.giveUp() }
        // Media go to a staging folder first and are moved in just before the notes commit;
        // the folder goes whatever happens.
        let media = MediaStaging(mediaDirectory: mediaDirectory)
        defer { media.discard() }
        var summary: ImportSummary
        do {
            summary = try collection.batch(now: now, bulk: true) { writer in
                if let known = reading.knownAnkiCards {
                    known.answer(try writer.storedAnkiRecords())
                }
                var summary = ImportSummary()
                var application = ImportApplication()
                var deferredIndexes: [CollectionWriter.SecondaryIndex]?
                var expected = 0
                var adding = 0
                var done = 0
                func noteWritten() {
                    done += 1
                    if done % 500 == 0 { progress?(done, max(expected, done)) }
                }
                reading: while true {
                    switch channel.next() {
                    case .finished:
                        break reading
                    case .failed(let error):
                        throw error
                    case .event(.expecting(let notes, let alreadyHere)):
                        expected += notes
                        adding += notes - alreadyHere
                        if deferredIndexes == nil, Self.rebuildsIndexes(expecting: adding, collectionNotes: try writer.noteCountEstimate()) {
                            deferredIndexes = try writer.dropSecondaryIndexes()
                        }
                    case .event(let event) where try application.apply(event, writer: writer, noteWritten: noteWritten):
                        // Notes already here are merged card by card through the indexes: a
                        // package imported again needs them back at once (without, 200 s for 20,000 notes).
                        if case .deck = event, let dropped = deferredIndexes, application.decks.last?.holdsNotes == true {
                            try writer.restore(dropped)
                            deferredIndexes = nil
                        }
                    case .event(.skipped(let problems)):
                        summary.skipped += problems.map(\.description)
                    case .event(.limitRules(let rules)):
                        try writer.setLimitRules(rules)
                    case .event(.ankiConfig(let config)):
                        try writer.setAnkiConfig(config)
                    case .event(.goneCards(let cards)):
                        // New cards still waiting take their numbers first: a gone card is numbered
                        // past every card, and a card written after it took its number, and with it
                        // the gone card's answers (a note whose card Anki deleted alone got a new
                        // card for it, holding the deleted card's answers).
                        try application.flushNewCards()
                        try writer.keepGoneCards(cards)
                    case .event(.readingPlan(let plan)):
                        let created = try writer.save(plan)
                        summary.readingPlans.append(.init(name: plan.name, created: created, days: plan.days.count))
                    case .event(.media(let files)):
                        summary.media += files.count
                        if !dryRun { try media.stage(files) }
                    case .event:
                        break  // decks, templates, notes and note types: written by `application` above
                    }
                }
                // A picture or sound whose name another file already has here was staged under a
                // name of its own: this import's notes point at that name.
                if !media.renamed.isEmpty {
                    try MediaReferences.rewrite(media.renamed, inNotes: Set(application.importedGUIDs), decks: application.decks.map(\.deck.id),
                                                writer: writer)
                }
                summary.decks += try application.finish(writer: writer)
                try application.keepAnkiDayCounts(writer: writer)
                if let deferredIndexes { try writer.restore(deferredIndexes) }
                if done > 0 { progress?(done, done) }
                if dryRun {
                    summary.dryRun = true
                    throw DryRunRollback(summary: summary)
                }
                // Last before the commit: the notes become visible with their files in place.
                try media.moveIn()
                return summary
            }
        } catch let rollback as DryRunRollback {
            return rollback.summary
        }
        return summary
    }
}

/// Files being read on a thread of their own, for one importer to write as they come.
package final class ImportReading: Sendable {
    let channel = ImportChannel()
    /// Asked by the reader, answered by the importer (see `KnownAnkiCards`).
    let knownAnkiCards: KnownAnkiCards?

    /// Starts reading `files` at once. One package read alone is told which Anki cards the
    /// collection holds unchanged (two packages may hold the same card, which the first may change).
    package convenience init(files: [String], options: ImportOptions) {
        let known = files.count == 1 ? KnownAnkiCards() : nil
        var told = options
        told.knownAnkiCards = known
        let options = told
        self.init(known: known) { emit in try DeckReader.stream(files, options: options, emit: emit) }
    }

    /// Starts `read` at once.
    package init(known: KnownAnkiCards? = nil, _ read: @escaping Importer.Reader) {
        knownAnkiCards = known
        let channel = channel
        Thread.detachNewThread {
            do {
                try read { try channel.send($0) }
                channel.finish(nil)
            } catch {
                channel.finish(error)
            }
        }
    }

    /// A reading nobody wrote stops at its next event.
    deinit {
        knownAnkiCards?.giveUp()
        channel.close()
    }
}
