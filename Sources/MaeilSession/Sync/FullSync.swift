import Foundation
import MaeilDecks
import MaeilPrograms
import MaeilStore
import MaeilSync

/// A full sync: the whole collection goes to the server in Anki's own file format, or the
/// server's copy replaces this one. Either way both sides end the same, and the collection
/// records where it stands, so the next sync knows who changed what since.
package struct FullSync {
    package let collection: Collection
    package let server: SyncServer
    package let now: Date
    package let timeZone: TimeZone

    package init(collection: Collection, server: SyncServer, now: Date, timeZone: TimeZone) {
        (self.collection, self.server, self.now, self.timeZone) = (collection, server, now, timeZone)
    }

    package struct Counts: Codable, Sendable, Equatable {
        package var notes: Int
        package var cards: Int
        package var reviews: Int
    }

    /// This collection's counts, as the side a learner may choose to keep.
    package func localCounts() throws -> Counts {
        try collection.read { db in
            Counts(notes: try Int.fetchOne(db, sql: "SELECT count(*) FROM note") ?? 0, cards: try Int.fetchOne(db, sql: "SELECT count(*) FROM card") ?? 0,
                   reviews: try Int.fetchOne(db, sql: "SELECT count(*) FROM review_log") ?? 0)
        }
    }

    /// Every deck of `source` as an Anki collection file (schema 11) at `file`; `onlyMarked`:
    /// only the notes marked since the last sync's base. Answers the marks as the export read
    /// them (nil where the collection keeps none). `rowUSN`: as `AnkiPackageWriter.writeCollectionFile`.
    @discardableResult
    func write(_ source: Collection, to file: URL, onlyMarked: Bool = false, rowUSN: Int = -1) throws -> SyncDirty? {
        try Exporter(collection: source).streaming(try source.decks(), now: now, timeZone: timeZone, marks: true, onlyMarked: onlyMarked) { export in
            try AnkiPackageWriter.writeCollectionFile(&export, to: file, now: now, clock: ExportFile.clock(for: export.decks, timeZone: timeZone),
                                                      rowUSN: rowUSN)
            return export.dirty
        }
    }

    /// Writes every deck as an Anki collection and puts it in place of the server's.
    package func upload() throws -> Counts {
        let work = try Self.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("collection.anki2")
        // Written as prepareForUpload leaves it: nothing pending.
        let marks = try write(collection, to: file, rowUSN: 0)
        try FullSyncFile.prepareForUpload(file, now: now)
        let sent = try FullSyncFile.check(file)
        try collection.recordUploadUnderWay(SyncMark(endpoint: server.connection.endpoint.absoluteString, serverModified: sent.modified,
                                                     schema: sent.schema, usn: sent.usn))
        do {
            try server.upload(file)
        } catch {
            server.abort()
            throw error
        }
        let meta = try server.meta()
        let mark = SyncMark(endpoint: server.connection.endpoint.absoluteString, serverModified: meta.modified, schema: meta.schema, usn: meta.usn)
        // What was sent is what the server holds: the next sync finds what changed here since by it.
        let base = SyncBase(collectionPath: collection.path)
        try base.prepare(file, mark: mark)
        try collection.recordSync(mark, base: marks?.through, leavesBase: true)
        base.settle()
        // The upload is recorded: an answer left without its id now gets it at the next sync.
        try? keepSentAnswerIDs(base: base.file, notes: nil)
        return Counts(notes: sent.notes, cards: sent.cards, reviews: sent.reviews)
    }

    /// The server's copy, fetched and checked, ready to replace this collection or be counted.
    package final class Download {
        package let file: URL
        package let contents: FullSyncFile.Contents
        let work: URL

        init(work: URL, file: URL, contents: FullSyncFile.Contents) {
            (self.work, self.file, self.contents) = (work, file, contents)
        }

        deinit { try? FileManager.default.removeItem(at: work) }

        package var counts: Counts { Counts(notes: contents.notes, cards: contents.cards, reviews: contents.reviews) }
    }

    package func fetch() throws -> Download {
        let work = try Self.workFolder()
        do {
            let file = work.appendingPathComponent("collection.anki2")
            try server.download(to: file)
            return Download(work: work, file: file, contents: try FullSyncFile.check(file))
        } catch {
            try? FileManager.default.removeItem(at: work)
            throw error
        }
    }

    /// Replaces this collection with the server's copy: imported whole into a new collection
    /// first (the way `maeil import` reads an Anki collection), Maeil's own decks given back what
    /// Anki has no place for, then copied in place in one step, after a backup of what was here
    /// (when there was anything). Reading plans, which Anki has no place for, stay.
    package func replace(with download: Download, calendar: Calendar) throws -> Backup? {
        // The server's note types, decks and options as Anki's JSON, for the base: its file keeps
        // them in tables Maeil does not write.
        try replace(with: download, mark: SyncMark(endpoint: server.connection.endpoint.absoluteString, serverModified: download.contents.modified,
                                                   schema: download.contents.schema, usn: download.contents.usn), calendar: calendar,
                    serverObjects: try? server.allObjects())
    }

    /// The same, recording `mark` as where this collection then stands with the server, and
    /// the result's export as the base the next normal sync compares with.
    /// `serverObjects`: the note types, decks and options the server holds, which the base must
    /// count too though Maeil keeps only those its notes use.
    /// `answersNotCounted`: per Anki deck id, the answers a merge holds that the deck's counters
    /// never counted (`ImportOptions.answersNotCounted`); the base keeps those decks' counts as
    /// `download` has them, so this side's go up at the next sync.
    /// `mergedCards`: for a merge, Anki's ids of the cards whose row it took from the server or
    /// sent to it; the others keep this side's burials (`keepBurials`). Nil for a download,
    /// which takes every row as it is.
    func replace(with download: Download, mark: SyncMark, calendar: Calendar, serverObjects: SyncObjects?,
                 answersNotCounted: [Int64: AnkiAnsweredToday.Logged] = [:], mergedCards: Set<Int64>? = nil) throws -> Backup? {
        let built = try Collection(path: download.work.appendingPathComponent("built.sqlite").path)
        var settings = ImportOptions()
        (settings.timeZone, settings.now, settings.answersNotCounted) = (timeZone, now, answersNotCounted)
        let options = settings, file = download.file.path
        _ = try Importer(collection: built, now: now).apply(reading: { emit in try DeckReader.stream([file], options: options, emit: emit) })
        // Maeil's own decks went to Anki under note types of their own; what Anki has no place
        // for (kind, speech, units, plain text) comes back from the collection as it was.
        try built.restoreMaeilDecks(from: collection, now: now)
        // A note or card that was here keeps its number (what `find` shows and commands take).
        try built.keepNumbers(of: collection)
        if let mergedCards { try built.keepBurials(of: collection, except: mergedCards, timeZone: timeZone, now: now) }
        // The mark goes in with the contents, in the same copy: a sync killed after it is a finished one.
        _ = try built.takeChangeFlag()
        try built.settleChangeFlag()
        let base = SyncBase(collectionPath: collection.path), export = download.work.appendingPathComponent("next-base.anki2")
        let marks = try write(built, to: export)
        try built.recordSync(mark, base: marks?.through, leavesBase: true)
        if let serverObjects { try SyncMerge.addMissing(serverObjects, to: export) }
        try SyncMerge.moveToCalendar(of: download.file, in: export, keepingDayCountsOf: Set(answersNotCounted.keys))
        try base.prepare(export, mark: mark, answersOf: download.file)
        // An answer given meanwhile (another process) would be lost under the server's copy.
        if try collection.changedDuringSync() {
            throw SyncError(.inProgress, "the collection changed while the server's copy was on its way (a review in another window?); "
                            + "nothing was replaced: run maeil sync again")
        }
        let here = try localCounts()
        let backup = here.notes + here.reviews > 0 ? try collection.backUp(now: now, calendar: calendar) : nil
        try collection.replaceContents(with: built)
        base.settle()
        return backup
    }

    /// A folder of this process's own for the files on their way; a killed sync's are removed
    /// by the next.
    static func workFolder() throws -> URL {
        let temporary = FileManager.default.temporaryDirectory
        Leftovers.removeDead(in: temporary, prefix: "maeil-sync-")
        let work = temporary.appendingPathComponent(Leftovers.name("maeil-sync-"))
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }
}
