import Foundation
import GRDB
import MaeilCore
import MaeilDecks
import MaeilPrograms
import MaeilStore
import MaeilSync

/// A `.colpkg` is the collection as Anki's file. Anki's collection is that file, so its export
/// only compresses it; Maeil keeps the file its last `.colpkg` was made of beside the
/// collection (`c.sqlite.export-base`), and the next one exports only the notes marked since
/// (the marks a sync's part is made of) and lays them over it (`SyncDelta`), as a normal sync
/// lays its part over its base. Where there is no such file for the marks the collection
/// keeps, the part does not fit it, or a new card keeps no place of Anki's (a whole export
/// places such a card by its rank among every card written), every note is written again, and
/// that file is kept.
///
/// What the laid file holds that a whole export would not: the answers of cards deleted here
/// since (Anki keeps a deleted card's answers too), and an answer's id as the file first had
/// it where a sync has since given it another.
package struct ExportBase {
    let collection: Collection
    package let file: URL

    package init(collection: Collection) {
        self.collection = collection
        file = URL(fileURLWithPath: collection.path + ".export-base")
    }

    /// Every deck of the collection as a `.colpkg` at `url`.
    package func writePackage(to url: URL, now: Date, timeZone: TimeZone) throws -> ExportSummary {
        // Marks from before the file is read: a change made while it is written is marked for the next.
        try collection.trackChangesForExport()
        // One export at a time lays over the file and compresses it.
        let lock = try FileLock(file.path + ".lock")
        defer { withExtendedLifetime(lock) {} }
        let work = try AnkiPackageWriter.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let decks = try collection.decks()
        let written = try layMarked(decks, now: now, timeZone: timeZone, work: work) ?? writeWhole(decks, now: now, timeZone: timeZone)
        var summary = written.summary
        let media = try written.media ?? Self.media(namedIn: file, folder: Exporter.mediaFolder(of: collection))
        summary.media = media.count
        try AnkiPackageWriter.package(file, media: media, to: url, format: .current, work: work)
        // Recorded once the package is in place, with the file as it is now: a file changed after (or
        // an export killed halfway through laying over it) is not taken for this one.
        if let through = written.through, let stamp = FileStamp(file) {
            try collection.recordExportBase(ExportBaseMark(through: through, file: stamp))
        }
        return summary
    }

    private struct Written {
        var summary: ExportSummary
        /// The marks the file holds now, where the collection keeps marks.
        var through: SyncDirty.Through?
        /// The media its notes name, where the export found them on its way.
        var media: [(name: String, file: URL)]?
    }

    /// The notes marked since the kept file laid over it; nil where the file is not the one the
    /// collection's marks are kept for, a new card keeps no place of Anki's, or the part does not
    /// fit (the file is as it was).
    private func layMarked(_ decks: [Deck], now: Date, timeZone: TimeZone, work: URL) throws -> Written? {
        guard let mark = try collection.exportBase(), FileStamp(file) == mark.file else { return nil }
        let part = work.appendingPathComponent("marked.anki2")
        let laid = try Exporter(collection: collection).streaming(decks, now: now, timeZone: timeZone, onlyMarked: true) { source -> (SyncDirty?, ExportSummary)? in
            // A new card with no place of Anki's is placed by its rank in the whole export, which
            // the notes before it move: the file's places could be stale.
            guard try !source.reading.hasNewCardWithoutAnkiPlace() else { return nil }
            try AnkiPackageWriter.writeCollectionFile(&source, to: part, now: now, clock: ExportFile.clock(for: source.decks, timeZone: timeZone))
            // The part counts only its own notes: the summary counts the collection's, in the same read;
            // the cards studied only where it says something of them (a package of FSRS and SM-2 decks).
            let schedulers = Set(source.decks.map { $0.preset.scheduler.kind == .fsrs })
            let counts = try source.reading.noteCounts(studied: schedulers.count > 1)
            let written = zip(decks, source.decks).map { deck, exported in
                ExportSummary.Deck(exported, notes: counts[deck.id]?.notes ?? 0, reviewedCards: counts[deck.id]?.studied ?? 0)
            }
            return (source.dirty, ExportSummary(decks: written, media: 0))
        }
        guard let laid, let marks = laid.0, try SyncDelta.lay(part, deletedGuids: marks.deletedGuids, over: file, partsObjects: true) else { return nil }
        return Written(summary: laid.1, through: marks.through)
    }

    /// Every note written to a new file, which takes the kept one's place.
    private func writeWhole(_ decks: [Deck], now: Date, timeZone: TimeZone) throws -> Written {
        let next = URL(fileURLWithPath: file.path + ".next")
        try? FileManager.default.removeItem(at: next)
        defer { try? FileManager.default.removeItem(at: next) }
        let written = try Exporter(collection: collection).streaming(decks, now: now, timeZone: timeZone, marks: true) { source in
            let summary = try AnkiPackageWriter.writeCollectionFile(&source, to: next, now: now,
                                                                     clock: ExportFile.clock(for: source.decks, timeZone: timeZone))
            return Written(summary: summary, through: source.dirty?.through, media: source.media)
        }
        guard rename(next.path, file.path) == 0 else { throw FileFailure.writing(file.path) }
        return written
    }

    /// The pictures and sounds the notes of `file` name that `folder` holds, as a whole export
    /// finds them in the same fields.
    static func media(namedIn file: URL, folder: URL) throws -> [(name: String, file: URL)] {
        // No folder, or nothing in it: no note's field need be read (about 4 ms at 20,000 notes).
        guard let held = try? FileManager.default.contentsOfDirectory(atPath: folder.path), !held.isEmpty else { return [] }
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: file.path, configuration: configuration)
        defer { try? queue.close() }
        var found = MediaFound(folder: folder)
        try queue.read { db in
            // Only notes that can name one: LIKE ignores the tag's case, as the field reader does.
            let rows = try String.fetchCursor(db, sql: "SELECT flds FROM notes WHERE instr(flds, '[sound:') > 0 OR flds LIKE '%<img%'")
            while let fields = try rows.next() {
                for value in fields.split(separator: "\u{1f}", omittingEmptySubsequences: false) { found.add(namedIn: String(value)) }
            }
        }
        return found.sorted
    }
}
