import Foundation
import MaeilCore
import MaeilDecks
import MaeilPrograms
import MaeilStore
import MaeilSync

/// A normal sync, as Anki's own client makes one: only what changed on each side since the
/// last sync crosses, both sides' answers survive, and where both changed one card or note the
/// newer change wins. This side's changes are found against the base (SyncBase); the server's
/// are merged into this collection's Anki file (SyncMerge), which then replaces the collection
/// the way a full download does, so Maeil reads the result as it reads any Anki collection.
package struct NormalSync {
    package let full: FullSync

    package init(_ full: FullSync) { self.full = full }

    package struct Summary: Codable, Sendable, Equatable {
        /// Rows and deletions sent up.
        package var sentCards = 0, sentNotes = 0, sentReviews = 0, sentDeletions = 0
        /// Rows and deletions taken from the server.
        package var receivedCards = 0, receivedNotes = 0, receivedReviews = 0, receivedDeletions = 0
        package var backup: String?
        /// FSRS cards answered on both sides whose memory now comes from every answer.
        package var recomputedCards = 0
        /// Whether what came down was applied here in place (cards, answers, notes edited, added,
        /// moved or deleted there, cards moved or deleted there alone, answers to cards deleted
        /// there, decks, options and note types made there, note types restyled, deck options
        /// changed, decks renamed, described, given other options or limits or deleted, a day's
        /// counts, the limits' rules, and custom study made, emptied or deleted; no note type
        /// changed in what Maeil makes of it, not the hour a day starts or FSRS), or the
        /// collection took the whole merge.
        package var takenInPlace = false
        /// Whether the collection's settings went up (a limit rule, the day's start or FSRS changed here).
        package var sentSettings = false
        /// Decks that went up for their counts of the day alone (cards studied here count on the phone).
        package var sentDayCounts = 0
    }

    /// Runs the sync against the server whose `meta` was read. `base` is the export the last sync
    /// left (needed when this side changed since).
    package func run(meta: ServerMeta, mark: SyncMark, base: URL?, changedHere: Bool, calendar: Calendar) throws -> Summary {
        let server = full.server
        let work = try FullSync.workFolder()
        var handedOver = false
        defer { if !handedOver { try? FileManager.default.removeItem(at: work) } }
        let merged = work.appendingPathComponent("collection.anki2")
        let (marks, laidOver) = try export(to: merged, base: base, mark: mark, work: work, changedHere: changedHere)
        let merge = try SyncMerge(merged: merged, base: base, changedHere: changedHere, fromBase: laidOver)
        var summary = Summary()
        var cameDown = false
        // Whether anything came at all: where only what Maeil does not hold did, it was taken as it is.
        var anythingCame = false
        // Where only cards, answers and notes came down, the notes they touch: taken in place.
        var inPlace: Set<Int64>?
        // What the server deleted: deleted here too when the rest is taken in place.
        var deletedThere = SyncGraves()
        do {
            let localGraves = try merge.localGraves()
            summary.sentDeletions = localGraves.cards.count + localGraves.notes.count
            // A setting of the collection's changed here: this side is the newer, as Anki's client
            // is after changing its config, and sends it; else the server's comes down.
            var sentConfig = try merge.localConfig()
            summary.sentSettings = sentConfig != nil
            // A card buried here goes up with the day this side lifted burials on (see `burialDay`):
            // over the server's config as it stands where no setting changed here, so nothing the
            // phone set since the last sync is lost, as it would be under the base's.
            if let day = try merge.burialDay(), var config = try sentConfig ?? server.configAsItStands(usn: mark.usn),
               SyncMerge.int(config.config["lastUnburied"]) ?? .min < day {
                config.config["lastUnburied"] = day
                sentConfig = config
            }
            let serverGraves = try server.start(minUsn: mark.usn, localIsNewer: sentConfig != nil)
            summary.receivedDeletions = serverGraves.cards.count + serverGraves.notes.count + serverGraves.decks.count
            deletedThere = serverGraves
            try merge.apply(serverGraves: serverGraves)
            for start in stride(from: 0, to: max(localGraves.cards.count, localGraves.notes.count), by: 250) {
                try server.applyGraves(SyncGraves(cards: Array(localGraves.cards.dropFirst(start).prefix(250)),
                                                  notes: Array(localGraves.notes.dropFirst(start).prefix(250))))
            }
            var objects = try merge.localObjects(usn: meta.usn)
            summary.sentDayCounts = merge.sentDayCounts
            (objects.config, objects.created) = (sentConfig?.config, sentConfig?.created)
            let remote = try server.applyChanges(objects)
            // The server counts due days from its own creation date; without it, nothing can be merged.
            guard let created = remote.created ?? sentConfig?.created else {
                throw SyncError(.server, "the sync server did not send its collection's creation time")
            }
            let settingsChanged = try merge.adopt(created: created, config: remote.config ?? sentConfig?.config)
            anythingCame = !serverGraves.isEmpty || !remote.decks.isEmpty
            // A phone's custom study (a filtered deck made, changed or deleted) is nothing Maeil holds.
            cameDown = settingsChanged || merge.serverChangedLimitRules || !serverGraves.cards.isEmpty || !serverGraves.notes.isEmpty
                || merge.serverDeletedHeldDecks || !remote.models.isEmpty || remote.decks.contains { !SyncMerge.isFiltered($0) } || !remote.deckConfigs.isEmpty
            try merge.markPendingRows(now: full.now)
            merge.answersUnderAnkiIDs = { [collection = full.collection] in try collection.answersUnderAnkiIDs(among: $0) }
            try merge.apply(serverObjects: remote)
            while true {
                let chunk = try merge.apply(serverChunk: try server.chunk())
                (summary.receivedCards, summary.receivedNotes, summary.receivedReviews)
                    = (summary.receivedCards + chunk.cards, summary.receivedNotes + chunk.notes, summary.receivedReviews + chunk.revlog)
                cameDown = cameDown || chunk.total > 0
                if chunk.done { break }
            }
            if cameDown, !settingsChanged, !merge.serverChangedObjects,
               !(merge.receivedCards.isEmpty && merge.takenNotes.isEmpty && serverGraves.notes.isEmpty && serverGraves.cards.isEmpty
                 && !merge.serverDeletedHeldDecks
                 && merge.serverChangedOptions.isEmpty && merge.serverChangedDecks.isEmpty && merge.serverNewDecks.isEmpty
                 && merge.serverNewOptions.isEmpty && merge.serverNewNoteTypes.isEmpty && merge.serverRestyledNoteTypes.isEmpty
                 && merge.serverTakenDecks.isEmpty && !merge.serverChangedLimitRules) {
                inPlace = try merge.notes(ofCards: merge.receivedCards).union(merge.takenNotes)
            }
            for chunk in try merge.pendingChunks(usn: meta.usn) {
                (summary.sentCards, summary.sentNotes, summary.sentReviews)
                    = (summary.sentCards + chunk.cards.count, summary.sentNotes + chunk.notes.count, summary.sentReviews + chunk.revlog.count)
                try server.applyChunk(chunk)
            }
            let counts = try merge.counts()
            let check = try server.sanityCheck(cards: counts.cards, notes: counts.notes, revlog: counts.revlog, models: counts.models,
                                               decks: counts.decks, deckConfigs: counts.deckConfigs)
            guard check.ok else {
                throw SyncError(.schema, "after merging, this collection and the server's copy would differ (the server's check: "
                                + "\(check.said.prefix(300))); this collection was not changed")
            }
            let modified = try server.finish()
            try merge.settle(usn: meta.usn, modified: modified, schema: meta.schema)
            try merge.close()
        } catch {
            try? merge.close()
            server.abort()
            throw error
        }
        let contents = try FullSyncFile.contents(of: merged)
        let newMark = SyncMark(endpoint: mark.endpoint, serverModified: contents.modified, schema: meta.schema, usn: meta.usn + 1)
        // Nothing came down that Maeil holds: this collection already is the merge (a filtered deck
        // the server made or deleted is the base's alone); the merge becomes the base.
        if !cameDown {
            // But for what Maeil keeps of Anki's as it came: the server's config and decks.
            _ = try full.collection.writeAsSync(now: full.now) { writer in try Self.takeKept(from: merged, writer: writer) }
            let base = SyncBase(collectionPath: full.collection.path)
            try base.prepare(merged, mark: newMark)
            try full.collection.recordSync(newMark, base: marks?.through, leavesBase: true)
            base.settle()
            // The sync is recorded: an answer left without its id now gets it at the next sync.
            try? full.keepSentAnswerIDs(base: base.file, notes: laidOver ? marks?.notes : nil)
            summary.takenInPlace = anythingCame
            return summary
        }
        var countsToSend = false
        if let notes = inPlace, try takeInPlace(merged: merged, merge: merge, sent: laidOver ? marks?.notes : nil, notes: notes, deleted: deletedThere,
                                                mark: newMark, work: work, countsToSend: &countsToSend) {
            summary.takenInPlace = true
            summary.recomputedCards = try recomputeMemory(ankiCardIDs: merge.changedOnBothSides)
            // A deck taken from the server never counted the answers that went up beside it: its
            // counts go up at the next sync.
            if countsToSend { try full.collection.markChangedSinceSync() }
            return summary
        }
        // The server holds the merge now; this side takes it as a full download takes the server's copy.
        handedOver = true
        let result = FullSync.Download(work: work, file: merged, contents: contents)
        let notCounted = try answersNotCounted(inDecks: merge.serverTakenDecks, of: merged, deletedThere: deletedThere)
        summary.backup = try full.replace(with: result, mark: newMark, calendar: calendar, serverObjects: try SyncMerge.storedObjects(in: merged),
                                          answersNotCounted: notCounted, mergedCards: merge.takenCards.union(merge.sentCards))?.path
        summary.recomputedCards = try recomputeMemory(ankiCardIDs: merge.changedOnBothSides)
        // As in place: the decks taken never counted the answers that went up beside them.
        if !notCounted.isEmpty { try full.collection.markChangedSinceSync() }
        return summary
    }

    static let changedMeanwhile = SyncError(.inProgress, "the collection changed while the server's changes were on their way (a review in "
                                            + "another window?); run maeil sync again")

    /// This collection as Anki's file at `merged`. Where every change since the base is marked
    /// (the marks were kept since the sync that left it), only the marked notes are exported and
    /// laid over a copy of the base (SyncDelta); else, or where the part does not fit, the whole
    /// collection is. Answers the marks the export read, and whether it laid a part over the base.
    /// Where nothing changed here since the base, the base is the export as it is.
    func export(to merged: URL, base: URL?, mark: SyncMark, work: URL, changedHere: Bool) throws -> (SyncDirty?, Bool) {
        if let base, try full.collection.syncTracking() == mark {
            try FileCopy.copy(base, to: merged)
            if !changedHere { return (try full.collection.readingExport { try $0.syncDirty() }, true) }
            let part = work.appendingPathComponent("marked.anki2")
            defer { try? FileManager.default.removeItem(at: part) }
            if let marks = try full.write(full.collection, to: part, onlyMarked: true),
               try SyncDelta.lay(part, deletedGuids: marks.deletedGuids, over: merged) {
                return (marks, true)
            }
            try FileManager.default.removeItem(at: merged)
        }
        if let base { try full.keepSentRecordIDs(base: base) }
        return (try full.write(full.collection, to: merged), false)
    }

    /// One step past Anki: a card changed on both sides keeps the newer side's row (its due
    /// date and interval), but what the merged log says of it comes from every answer in it:
    /// its last review, and an FSRS card's memory. A change here like any other: the next sync
    /// carries it up. Answers how many FSRS cards got their memory so.
    func recomputeMemory(ankiCardIDs: Set<Int64>) throws -> Int {
        guard !ankiCardIDs.isEmpty else { return 0 }
        return try full.collection.batch(now: full.now) { writer in
            var count = 0
            for ankiID in ankiCardIDs.sorted() {
                guard let card = try writer.card(ankiID: ankiID), card.state.phase != .new else { continue }
                let preset = try writer.preset(id: try writer.deck(id: card.deckID).presetID)
                let log = try writer.reviewLog(cardID: card.id).map(\.entry)
                var state = card.state
                // The other side's answer may be the newer even when this row won (a later due date set here).
                // In whole seconds, as Anki keeps it: a fraction later is the same answer's time.
                if let answered = log.last(where: { $0.rating != nil })?.time,
                   answered.timeIntervalSince1970.rounded(.down) > (state.lastReview ?? .distantPast).timeIntervalSince1970.rounded(.down) {
                    state.lastReview = answered
                }
                var remembered = false
                if preset.scheduler.kind == .fsrs {
                    let fsrs = FSRS(parameters: preset.scheduler.fsrsParameters)
                    let clock = preset.dayClock(in: full.timeZone)
                    let nextDay = clock.start(ofDay: clock.dayNumber(of: full.now) + 1)
                    // Only a memory that differs as Anki keeps it: a change past its decimals is none the
                    // other side could see, and the next sync would say it synced nothing. Kept as Anki
                    // keeps it, so the next answer here starts where the phone's would.
                    if let memory = FSRSHistory(log: log, nextDayStart: nextDay, clock: clock, fsrs: fsrs,
                                                    historicalRetention: preset.historicalRetention).flatMap({ $0.memory(fsrs)?.stored }),
                       memory != card.state.memory?.stored {
                        (state.stability, state.difficulty) = (memory.stability, memory.difficulty)
                        remembered = true
                    }
                }
                guard state != card.state else { continue }
                try writer.setState(cardID: card.id, state, kind: .manual)
                count += remembered ? 1 : 0
            }
            return count
        }
    }
}
