import CZstd
import Foundation
import MaeilPrograms
import GRDB
import MaeilSQLite
import MaeilCore
import ZIPFoundation

/// Writes an Anki package that Anki imports as the notes, cards and history it would have made
/// itself: note types whole (the ones that came from Anki under their own ids, so Anki updates
/// their notes rather than calling them conflicts), every card's schedule and FSRS memory, the
/// whole review log (entries that came from Anki under their own ids, so none is doubled), the
/// decks' options, and the pictures and sounds the notes use.
///
/// The current format (Anki 2.1.50 and later) is zstd-compressed with a protobuf media list;
/// the legacy one (every Anki since 2.1) is deflated with a JSON media list. Inside both is a
/// schema-11 collection, which Anki upgrades as it opens it.
package enum AnkiPackageWriter {
    /// Ids of decks and options made here count up from this (a time in 2014, as Anki's ids are
    /// times): clear of the ids Anki gives, the same in every export.
    package static let ownIDBase: Int64 = 1_400_000_000_000

    /// A log entry as the revlog row a package writes for it (ease, interval, last interval,
    /// factor, type); nil for Maeil's own bookkeeping, which Anki has no row for. `clock`: the
    /// study-day clock the answer was given by, which makes a step that ran past the day's end
    /// whole days, as Anki logs it; without it, steps stay in seconds.
    package static func revlog(_ entry: ReviewLogEntry, clock: DayClock? = nil) -> (ease: Int, interval: Int, lastInterval: Int, factor: Int, type: Int)? {
        CollectionWriting.revlog(entry, clock: clock, scheduler: nil)
    }

    package enum Format: Sendable {
        case current, legacy
    }

    /// `clock` is the study-day clock review due dates are counted in. `deckPackage`: an .apkg,
    /// which Anki imports into another collection, rather than a whole collection (.colpkg).
    @discardableResult
    package static func write(_ collection: ExportCollection, to url: URL, format: Format = .current, now: Date, clock: DayClock,
                              deckPackage: Bool = false) throws -> ExportSummary {
        var source = collection
        return try write(&source, to: url, format: format, now: now, clock: clock, deckPackage: deckPackage)
    }

    @discardableResult
    package static func write(_ source: inout some ExportSource, to url: URL, format: Format = .current, now: Date, clock: DayClock,
                              deckPackage: Bool = false) throws -> ExportSummary {
        let work = try workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let databaseURL = work.appendingPathComponent("collection.anki21")
        // A scratch file that is zipped and deleted: no journal, no waiting for the disk.
        let summary = try writeCollectionFile(&source, to: databaseURL, now: now, clock: clock, deckPackage: deckPackage)
        try package(databaseURL, media: source.media, to: url, format: format, work: work)
        return summary
    }

    /// A folder of the process's own for an export's working files, which the caller removes.
    /// Its name carries the process's id: the next export removes a killed one's.
    package static func workFolder() throws -> URL {
        Leftovers.removeDead(in: FileManager.default.temporaryDirectory, prefix: "maeil-export-")
        let work = FileManager.default.temporaryDirectory.appendingPathComponent(Leftovers.name("maeil-export-"))
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }

    /// The package of the collection file `databaseURL` (left as it is) and `media`, put at
    /// `url` whole or not at all; `work` holds what is compressed on the way.
    package static func package(_ databaseURL: URL, media: [(name: String, file: URL)], to url: URL, format: Format, work: URL) throws {
        Leftovers.removeDead(in: url.deletingLastPathComponent(), prefix: ".\(url.lastPathComponent).", suffix: ".partial")
        let partial = url.deletingLastPathComponent().appendingPathComponent(Leftovers.name(".\(url.lastPathComponent).", ".partial"))
        defer { try? FileManager.default.removeItem(at: partial) }
        let archive = try Archive(url: partial, accessMode: .create)
        switch format {
        case .legacy:
            try archive.addEntry(with: "collection.anki21", fileURL: databaseURL, compressionMethod: .deflate)
            var names: [String: String] = [:]
            for (index, item) in media.enumerated() {
                names["\(index)"] = item.name
                try archive.addEntry(with: "\(index)", fileURL: item.file, compressionMethod: .deflate)
            }
            try add(try JSONSerialization.data(withJSONObject: names, options: [.sortedKeys]), named: "media", to: archive)
            try add(Data([0x08, 0x02]), named: "meta", to: archive)  // PackageMetadata { version: LEGACY_2 }
        case .current:
            // Compressed into a file of its own, then stored: the collection is never in memory whole.
            let compressed = work.appendingPathComponent("collection.anki21b")
            try Zstd.compress(file: databaseURL, to: compressed)
            try archive.addEntry(with: "collection.anki21b", fileURL: compressed, compressionMethod: .none)
            var entries = Data()
            for (index, item) in media.enumerated() {
                let data = try Data(contentsOf: item.file)
                // MediaEntries { repeated MediaEntry entries = 1 } MediaEntry { name = 1; size = 2; sha1 = 3 }
                var entry = Protobuf.bytes(1, Data(item.name.utf8)) + Protobuf.varint(2, UInt64(data.count))
                entry += Protobuf.bytes(3, Data(SHA1.digest(data)))
                entries += Protobuf.bytes(1, entry)
                try add(try Zstd.compress(data), named: "\(index)", to: archive, compress: false)
            }
            try add(try Zstd.compress(entries), named: "media", to: archive, compress: false)
            try add(Data([0x08, 0x03]), named: "meta", to: archive)  // PackageMetadata { version: LATEST }
        }
        // Whole or not at all: the finished file takes the name in one step.
        guard rename(partial.path, url.path) == 0 else { throw FileFailure.writing(url.path) }
    }

    /// The collection alone, as the SQLite file a package holds (a sync uploads it): written
    /// to `url`, which must not exist yet. `rowUSN`: the update sequence number every note,
    /// card and answer gets: −1 (pending), as a package's are; 0 for a file a full sync uploads
    /// (Anki's client sends nothing pending, and setting them afterwards rewrote every row and
    /// its index: 0.3 s at 100,000 answers).
    @discardableResult
    package static func writeCollectionFile(_ source: inout some ExportSource, to url: URL, now: Date, clock: DayClock,
                                            deckPackage: Bool = false, rowUSN: Int = -1) throws -> ExportSummary {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF")
        }
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        // The writing on a thread of its own, the reading here (ExportPipe).
        let pipe = ExportPipe()
        let piped = PipedExportSource(source, pipe: pipe)
        let outcome = WriterOutcome()
        let writer = Thread {
            outcome.result = Result {
                var piped = piped
                return try queue.write { db in try CollectionWriting(db: db, now: now, clock: clock, deckPackage: deckPackage, rowUSN: rowUSN).write(&piped) }
            }
            pipe.stopWriting()
            outcome.done.signal()
        }
        // GRDB and SQLite go deep on a writer's stack: as much as the main thread's.
        writer.stackSize = 8 << 20
        writer.start()
        let read = Result { try pipe.serve(&source) }
        outcome.done.wait()
        try read.get()
        var summary = try outcome.result!.get()
        summary.media = source.media.count
        try queue.close()
        return summary
    }

    /// What the writer's thread answers, and when.
    private final class WriterOutcome: @unchecked Sendable {
        var result: Result<ExportSummary, any Error>?
        let done = DispatchSemaphore(value: 0)
    }

    /// An FSRS memory as Anki's card data keeps it: stability to four decimals, difficulty to three.
    package static func ankiMemory(_ memory: MemoryState) -> MemoryState {
        memory.inCardData
    }

    static func add(_ data: Data, named name: String, to archive: Archive, compress: Bool = true) throws {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: compress ? .deflate : .none) {
            position, size in data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}

/// Ids for one table of a package: a record's own Anki id the first time it is asked for,
/// else the next id after `start` that no record keeps.
struct AnkiIDs {
    private let kept: Set<Int64>
    private var used = Set<Int64>()
    private var next: Int64

    init(kept: Set<Int64>, start: Int64) {
        self.kept = kept
        next = start
    }

    /// `proposed`: the id to give a record that keeps none, unless a record keeps it or has it.
    /// Takes `id` for a record that must have it; false where a record has it already.
    mutating func claim(_ id: Int64) -> Bool { used.insert(id).inserted }

    mutating func id(keeping own: Int64?, proposing proposed: Int64? = nil) -> Int64 {
        if let own, used.insert(own).inserted { return own }
        if own == nil, let proposed, !kept.contains(proposed), used.insert(proposed).inserted { return proposed }
        repeat { next += 1 } while kept.contains(next) || used.contains(next)
        used.insert(next)
        return next
    }
}

/// The schema-11 collection inside a package.
struct CollectionWriting {
    let db: Database
    let now: Date
    let clock: DayClock
    /// An .apkg: Anki's importer counts the package's today by the default rollover where the
    /// package names none, as its own .apkg never does; a rollover named moved every date a day
    /// when imported between the two hours.
    let deckPackage: Bool
    let rowUSN: Int

    static let schema = """
        CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null, scm integer not null,
          ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null,
          models text not null, decks text not null, dconf text not null, tags text not null);
        CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, mod integer not null,
          usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null,
          flags integer not null, data text not null);
        CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null, ord integer not null,
          mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null,
          ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null,
          odue integer not null, odid integer not null, flags integer not null, data text not null);
        CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null,
          ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
        CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
        """

    /// Anki's indexes, made once the rows are in (faster than keeping them up to date row by row).
    static let indexes = """
        CREATE INDEX ix_notes_usn on notes (usn);
        CREATE INDEX ix_cards_usn on cards (usn);
        CREATE INDEX ix_revlog_usn on revlog (usn);
        CREATE INDEX ix_cards_nid on cards (nid);
        CREATE INDEX ix_cards_sched on cards (did, queue, due);
        CREATE INDEX ix_revlog_cid on revlog (cid);
        CREATE INDEX ix_notes_csum on notes (csum);
        """

    func write(_ source: inout some ExportSource) throws -> ExportSummary {
        try db.execute(sql: Self.schema)
        let nowSeconds = Int64(now.timeIntervalSince1970)
        // Day numbers count from the collection's creation day: a day before every due date
        // and every answer, so none is negative.
        let earliest = source.earliestDate
        let createdDay = min(clock.dayNumber(of: now), earliest.map(clock.dayNumber(of:)) ?? .max) - 1
        let created = clock.start(ofDay: createdDay)
        let today = clock.dayNumber(of: now)
        // A note type's sort field, read from its JSON the first time one of its notes comes.
        var sortFields: [Int64: Int] = [:]
        // Review log rows wait in a table of their own and are written after the cards, in id
        // order: SQLite appends them instead of inserting each in the middle of its table, and
        // however many there are, none is held in memory.
        try db.execute(sql: "CREATE TEMP TABLE answers (id INTEGER NOT NULL, cid INTEGER NOT NULL, ease INTEGER NOT NULL, ivl INTEGER NOT NULL, lastIvl INTEGER NOT NULL, factor INTEGER NOT NULL, time INTEGER NOT NULL, type INTEGER NOT NULL, kept INTEGER NOT NULL)")
        let insertAnswer = try db.makeStatement(sql: "INSERT INTO temp.answers VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")
        var decks: [String: Any] = ["1": Self.deckJSON(id: 1, name: "Default", configID: 1, now: nowSeconds)]
        var configs: [String: Any] = ["1": Self.deckConfigJSON(Preset(name: "Default"), id: 1, now: nowSeconds)]
        var configIDs: [String: Int64] = [:]
        var usedConfigIDs: Set<Int64> = [1]
        let insertNote = try db.makeStatement(sql: "INSERT INTO notes VALUES (?, ?, ?, ?, \(rowUSN), ?, ?, ?, ?, 0, '')")
        let insertCard = try db.makeStatement(sql: "INSERT INTO cards VALUES (?, ?, ?, ?, ?, \(rowUSN), ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?)")
        var bind = Binder()
        // A card's answers, as rows waiting in temp.answers.
        func addAnswers(_ history: [ReviewLogEntry], cardID: Int64, scheduler: SchedulerSettings?) throws {
            for entry in history {
                guard let row = Self.revlog(entry, clock: clock, scheduler: scheduler) else { continue }
                bind.begin(insertAnswer)
                bind.int(entry.ankiID ?? Int64((entry.time.timeIntervalSince1970 * 1000).rounded(.down))); bind.int(cardID)
                bind.int(row.ease); bind.int(row.interval); bind.int(row.lastInterval); bind.int(row.factor)
                bind.int(entry.durationMilliseconds); bind.int(row.type); bind.bool(entry.ankiID != nil)
                try bind.step(db)
            }
        }
        // Anki's own ids where the records came from Anki; new ones, clear of those, for the rest
        // (and for a second record with the same id, from another Anki collection).
        var noteIDs = AnkiIDs(kept: source.keptNoteIDs, start: nowSeconds * 1000)
        var cardIDs = AnkiIDs(kept: source.keptCardIDs, start: nowSeconds * 1000)
        var summary = ExportSummary(media: 0)
        var lastNewPosition: Int64 = 0
        var modelDeck: [Int64: Int64] = [:]
        var fsrs = false
        // Decks keep Anki's ids; a deck made here, or a second deck with one id (from another
        // Anki collection), gets a new one. Id 1 is Anki's first deck, "Default" unless renamed:
        // the deck that has it takes the place of the Default written above.
        let exportedDecks = source.decks, deckAnkiIDs = source.deckAnkiIDs
        var deckIDs = AnkiIDs(kept: Set(exportedDecks.compactMap(\.ankiID) + deckAnkiIDs.values + [1]), start: nowSeconds * 1000 + 100)
        var firstDeckTaken = false
        let keptConfigIDs = Set(exportedDecks.compactMap(\.preset.ankiConfigID))
        func deckID(keeping ankiID: Int64?, proposing proposed: Int64? = nil) -> Int64 {
            guard ankiID == 1 else { return deckIDs.id(keeping: ankiID, proposing: proposed) }
            defer { firstDeckTaken = true }
            return firstDeckTaken ? deckIDs.id(keeping: nil) : 1
        }
        // Worked out first, in the same order: a card in another deck than its note's is written
        // there, where that deck is exported too.
        let exportedDeckIDs = exportedDecks.map { deckID(keeping: $0.ankiID, proposing: $0.proposedID) }
        var deckOfProposedID: [Int64: (id: Int64, scheduler: SchedulerSettings)] = [:]
        for (deck, id) in zip(exportedDecks, exportedDeckIDs) {
            if let proposed = deck.proposedID { deckOfProposedID[proposed] = (id, deck.preset.scheduler) }
        }
        for (deckIndex, deck) in exportedDecks.enumerated() {
            let deckID = exportedDeckIDs[deckIndex]
            // Decks that share a preset share Anki's options, under Anki's id where they came from Anki.
            let presetKey = deck.preset.id.map { "#\($0)" } ?? deck.preset.name
            let configID: Int64
            if let known = configIDs[presetKey] {
                configID = known
            } else {
                let kept = deck.preset.ankiConfigID
                // Options made here: an id of their own, the same in every export (a sync finds them by it).
                let proposed = deck.preset.id.map { AnkiPackageWriter.ownIDBase + $0 }
                if let kept, kept == 1 || usedConfigIDs.insert(kept).inserted {
                    configID = kept
                } else if kept == nil, let proposed, !keptConfigIDs.contains(proposed), usedConfigIDs.insert(proposed).inserted {
                    configID = proposed
                } else {
                    var next = nowSeconds * 1000 + Int64(configIDs.count) + 1
                    while !usedConfigIDs.insert(next).inserted { next += 1 }
                    configID = next
                }
                configIDs[presetKey] = configID
                configs["\(configID)"] = Self.deckConfigJSON(deck.preset, id: configID, now: nowSeconds)
            }
            fsrs = fsrs || deck.preset.scheduler.kind == .fsrs
            let kept = deck.ankiJSON.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] } ?? [:]
            decks["\(deckID)"] = Self.deckJSON(id: deckID, name: deck.name, configID: configID, description: deck.description, now: nowSeconds)
                .merging(kept) { $1 }
                .merging(Self.limitsJSON(deck.limits, createdDay: createdDay)) { $1 }
                .merging(Self.studiedJSON(deck.studiedToday, today: today - createdDay)) { $1 }
            var written = ExportSummary.Deck(deck)
            try source.forEachNote(ofDeck: deckIndex, history: true) { note, type in
                written.add(note)
                let noteID = noteIDs.id(keeping: note.ankiID, proposing: note.proposedID)
                modelDeck[note.noteTypeID] = modelDeck[note.noteTypeID] ?? deckID
                // A field can hold no U+001F: it separates them.
                let values = note.values.contains { $0.utf8.contains(0x1F) } ? note.values.map { $0.replacingOccurrences(of: "\u{1f}", with: " ") }
                    : note.values
                let sortField = sortFields[type.id] ?? type.sortField
                sortFields[type.id] = sortField
                let first = FieldText.ankiSortText(values.first ?? "")
                let sortText = sortField == 0 ? first : FieldText.ankiSortText(sortField < values.count ? values[sortField] : "")
                bind.begin(insertNote)
                bind.int(noteID); bind.text(note.guid); bind.int(note.noteTypeID); bind.int(note.modified)
                bind.text(" " + note.tags.joined(separator: " ") + " "); bind.text(values.joined(separator: "\u{1f}")); bind.text(sortText)
                bind.int(Self.checksum(first))
                try bind.step(db)
                for card in note.cards {
                    let cardID = cardIDs.id(keeping: card.ankiID, proposing: card.proposedID)
                    // A card in a deck of its own is scheduled by that deck's options.
                    let (cardDeckID, scheduler) = card.deckProposedID.flatMap { deckOfProposedID[$0] } ?? (deckID, deck.preset.scheduler)
                    let columns = Self.scheduling(card, createdDay: createdDay, today: today, clock: clock,
                                                  learningSteps: scheduler.learningSteps.count, relearningSteps: scheduler.relearningSteps.count)
                    bind.begin(insertCard)
                    bind.int(cardID); bind.int(noteID); bind.int(cardDeckID)
                    bind.int(card.ordinal); bind.int(card.modified)
                    bind.int(columns.type); bind.int(columns.queue); bind.int(columns.due); bind.int(columns.interval)
                    // No ease before a card first leaves learning, as in Anki.
                    bind.int(card.state.phase == .new || card.state.phase == .learning ? 0 : card.state.easePermille)
                    bind.int(card.state.reps); bind.int(card.state.lapses)
                    bind.int(columns.left); bind.int(card.flags); bind.text(Self.data(card))
                    try bind.step(db)
                    if columns.type == 0 { lastNewPosition = max(lastNewPosition, Int64(columns.due)) }
                    try addAnswers(card.history, cardID: cardID, scheduler: scheduler)
                }
            }
            summary.decks.append(written)
        }
        // A whole collection keeps the answers of cards that are gone, as Anki's does; under an id
        // a card written here has, they would be that card's, and stay out.
        if !deckPackage {
            try source.forEachGoneCard { gone in
                guard cardIDs.claim(gone.ankiID) else { return }
                try addAnswers(gone.history, cardID: gone.ankiID, scheduler: gone.preset?.scheduler)
            }
        }
        // Anki has every parent of a deck ("Korean" for "Korean::Food"): a parent not exported
        // gets a deck of its own with the default options, as Anki's Check Database would add it.
        let names = Set(exportedDecks.map(\.name))
        var parents: [String] = []
        for name in exportedDecks.map(\.name) {
            let parts = name.components(separatedBy: "::")
            for end in parts.indices.dropLast() {
                let parent = parts[...end].joined(separator: "::")
                if !names.contains(parent), !parents.contains(parent) { parents.append(parent) }
            }
        }
        for parent in parents {
            let deckID = deckID(keeping: deckAnkiIDs[parent])
            decks["\(deckID)"] = Self.deckJSON(id: deckID, name: parent, configID: 1, now: nowSeconds)
        }
        try Self.moveAnswers(db, usn: rowUSN)
        var models: [String: Any] = [:]
        let noteTypes = source.noteTypes
        for type in noteTypes {
            var model = Self.completeModel(type)
            model["id"] = type.id
            model["name"] = type.name
            model["mod"] = type.modified
            model["usn"] = -1
            model["did"] = modelDeck[type.id] ?? 1
            models["\(type.id)"] = model
        }
        func json(_ object: Any) throws -> String {
            String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
        }
        // The collection's own config where a whole collection's file brought it, every key; Anki's
        // defaults where none did. Over it what Maeil decides: its settings, and what the file's
        // creation time and new cards need.
        let defaults: [String: Any] = ["nextPos": 1, "curDeck": 1, "activeDecks": [1], "sortType": "noteFld", "sortBackwards": false,
                                       "collapseTime": 1200, "dueCounts": true, "estTimes": true, "newSpread": 0, "curModel": noteTypes.first?.id ?? 1]
        var kept = source.ankiConfig.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] } ?? defaults
        // Anki lifts the cards written buried (buried here until a later time today) on a later day
        // than this one, counted from this file's creation day; without it, as soon as it opens.
        kept["lastUnburied"] = today - createdDay
        var conf = kept.merging(["schedVer": 2, "fsrs": fsrs, "rollover": clock.rolloverHour,
                                 // Past every new card's place, as Anki keeps it.
                                 "nextPos": max((kept["nextPos"] as? NSNumber)?.int64Value ?? 0, lastNewPosition + 1),
                                 // Anki counts due days from crt's date at this offset: without it, at its
                                 // own, so a collection opened in another time zone would move every date.
                                 "creationOffset": -clock.timeZone.secondsFromGMT(for: created) / 60,
                                 // The v3 scheduler: without the key Anki opens the file with one that cannot review.
                                 "sched2021": true]) { $1 }
            .merging(source.limitRules.map { ["newCardsIgnoreReviewLimit": $0.newIgnoresReviewLimit, "applyAllParentLimits": $0.applyAllParentLimits] }
                     ?? [:]) { $1 }
        // An .apkg names no rollover, as Anki's own (its importer then counts the package's days from
        // 4 o'clock, as the collection it goes into does by default); its creation time falls at
        // midday, so the creation day is the same whichever hour a day starts.
        var createdAt = Int64(created.timeIntervalSince1970)
        if deckPackage {
            conf["rollover"] = nil
            createdAt += 12 * 3600
        }
        try db.execute(sql: "INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')", arguments: [
            createdAt, nowSeconds * 1000, nowSeconds * 1000,
            try json(conf), try json(models), try json(decks), try json(configs),
        ])
        try db.execute(sql: Self.indexes)
        return summary
    }

    /// The answers waiting in temp.answers into revlog (empty till now), in id order. An id is
    /// the answer's time in milliseconds (Anki's own where it came from Anki). An answer that
    /// keeps its id (Anki's, or one given here that went up under it) keeps it; the others, in
    /// the order they came, each take the first id from their own on that is free of those and
    /// past the one before. Where no two share an id, that is every answer's own: they go in
    /// as they are in one statement (0.10 s for 100,000 rows, where numbering them in SQL's
    /// window functions took 0.30 s). Before, one walk numbered every answer past the one
    /// before: an answer given here in the same second as Anki's answers pushed Anki's answer
    /// of the next millisecond to another id (seen when Anki and Maeil answered in one second),
    /// which a sync would have sent as another answer. (A scratch file has no journal to take
    /// back a failed statement: the rows go in again from the start.)
    static func moveAnswers(_ db: Database, usn: Int) throws {
        let answers = try Int.fetchOne(db, sql: "SELECT count(*) FROM temp.answers") ?? 0
        try db.execute(sql: "INSERT OR IGNORE INTO revlog SELECT id, cid, \(usn), ease, ivl, lastIvl, factor, time, type FROM temp.answers ORDER BY id, kept DESC, rowid")
        if db.changesCount != answers {
            try db.execute(sql: "DELETE FROM revlog")
            let insert = try db.makeStatement(sql: """
                INSERT INTO revlog SELECT ?, cid, \(usn), ease, ivl, lastIvl, factor, time, type FROM temp.answers WHERE rowid = ?
                """)
            var taken = Set<Int64>(), moving: [(row: Int64, id: Int64)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT rowid, id, kept FROM temp.answers ORDER BY id, kept DESC, rowid")
            while let row = try rows.next() {
                let (rowID, id, kept) = (row[0] as Int64, row[1] as Int64, row[2] as Bool)
                // A second answer keeping one id (from two Anki collections) moves as the others do.
                if kept, taken.insert(id).inserted {
                    try insert.execute(arguments: [id, rowID])
                } else {
                    moving.append((rowID, id))
                }
            }
            var last = Int64.min
            for answer in moving {
                var id = max(answer.id, last &+ 1)
                while taken.contains(id) { id += 1 }
                taken.insert(id)
                last = id
                try insert.execute(arguments: [id, answer.row])
            }
        }
        try db.execute(sql: "DROP TABLE temp.answers")
    }
}
