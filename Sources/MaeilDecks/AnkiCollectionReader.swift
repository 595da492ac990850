import Foundation
import GRDB
import GRDBSQLite
import MaeilCore
import MaeilPrograms
import MaeilSQLite

/// Reads the SQLite collection inside an Anki package into Maeil decks.
extension AnkiPackage {
    typealias NoteType = AnkiNoteType

    struct DeckOptions {
        var learningSteps: [Double] = [1, 10]
        var relearningSteps: [Double] = [10]
        var preset = Preset(name: "")
    }

    /// Schema 15 and later compare names with Anki's own "unicase" collation: a connection that
    /// reads one of Anki's files needs it, or some of its indexes cannot be used.
    package static func addAnkiCollations(_ db: Database) {
        db.add(collation: DatabaseCollation("unicase") { $0.caseInsensitiveCompare($1) })
    }

    /// Reads the collection in `scratch`, which is this import's own copy: SQLite may write
    /// there, and the indexes reading it note by note needs are added where the file lacks them.
    static func readCollection(_ scratch: ScratchCollection, version: Version, file: String, options: ImportOptions,
                               media: MediaNames = MediaNames([]), emit: ImportEmitter) throws {
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            addAnkiCollations(db)
            // A copy read once and thrown away: nothing to make durable. The package's schema is
            // anyone's: its views and triggers may call no function with side effects.
            try db.execute(sql: "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA trusted_schema = OFF; PRAGMA mmap_size = 1073741824")
        }
        do {
            // Bytes 18 and 19 say "write-ahead log" in a collection Anki had open: set to the
            // rollback journal's, so no log is looked for beside the copy.
            try scratch.useRollbackJournal()
            let queue = try DatabaseQueue(path: scratch.url.path, configuration: configuration)
            defer { try? queue.close() }
            try queue.inDatabase { db in
                for (table, column) in [("cards", "nid"), ("revlog", "cid")] where try !hasIndex(db, table: table, leading: column) {
                    try db.execute(sql: "CREATE INDEX maeil_\(table)_\(column) ON \(table) (\(column))")
                }
            }
            try queue.read { db in try CollectionReading(db: db, version: version, file: file, options: options, media: media).contents(emit) }
        } catch let problem as ImportProblem {
            throw problem
        } catch let failure as ImportFailure {
            throw failure
        } catch {
            throw ImportProblem(file: file, message: "cannot read the collection inside the package: \(error)")
        }
    }

    /// Whether an index of `table` starts with `column`: Anki's files have one for a note's
    /// cards and a card's log, a file made by other tools may not.
    private static func hasIndex(_ db: Database, table: String, leading column: String) throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM pragma_index_list(?) AS list, pragma_index_info(list.name) AS info
                           WHERE info.seqno = 0 AND info.name = ?)
            """, arguments: [table, column]) ?? false
    }
}

/// A collection unpacked from a package, or copied from Anki's folder, for reading: a folder of
/// its own in the temporary folder, named with the process's id, so the next import removes
/// one a killed import left. Or a caller's own working copy, read where it lies.
struct ScratchCollection {
    /// The folder made for it, removed with it; nil for a working copy that is the caller's.
    let folder: URL?
    let url: URL

    init() throws {
        let temporary = FileManager.default.temporaryDirectory
        Leftovers.removeDead(in: temporary, prefix: "maeil-import-")
        let folder = temporary.appendingPathComponent(Leftovers.name("maeil-import-"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        (self.folder, url) = (folder, folder.appendingPathComponent("collection.anki2"))
    }

    /// A file that is already a working copy of the caller's (`ImportOptions.ownWorkingCopy`).
    init(workingCopy: URL) { (folder, url) = (nil, workingCopy) }

    func remove() { if let folder { try? FileManager.default.removeItem(at: folder) } }

    func isSQLite() throws -> Bool {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.read(upToCount: AnkiPackage.sqliteHeader.count).map { Array($0) == AnkiPackage.sqliteHeader } ?? false
    }

    func useRollbackJournal() throws {
        let handle = try FileHandle(forUpdating: url)
        defer { try? handle.close() }
        try handle.seek(toOffset: 18)
        guard let versions = try handle.read(upToCount: 2), versions.count == 2, versions.contains(2) else { return }
        try handle.seek(toOffset: 18)
        try handle.write(contentsOf: Data(versions.map { $0 == 2 ? 1 : $0 }))
    }
}

/// A few hundred notes of a package, each with its cards (in template order) and each card's
/// log (oldest first): three queries for a batch rather than three for every note. A note whose
/// cards are all here unchanged (`PackageNotesHere.cardsKnown`) gets neither: it is not merged.
struct NoteBatch {
    static let size = 256
    var notes: [Int64: NoteRow] = [:]
    /// Each note's home deck: its first card's, or the deck that card's filtered deck took it from.
    var homeDecks: [Int64: Int64] = [:]
    var cards: [Int64: [CardRow]] = [:]
    var reviews: [Int64: [RevlogRow]] = [:]

    init() {}

    init(_ db: Database, ids: [Int64], file: String, here: PackageNotesHere = PackageNotesHere()) throws {
        guard !ids.isEmpty else { return }
        // Ids the package's own tables gave: integers, written into the query as they are.
        let list = ids.map(String.init).joined(separator: ",")
        let sql = "SELECT \(NoteRow.columns) FROM notes WHERE id IN (\(list))"
        if let rows = try NoteRow.straight(db, sql: sql) {
            for note in rows { notes[note.id] = note }
        } else {
            let noteRows = try Row.fetchCursor(db, sql: sql)
            while let row = try noteRows.next() {
                let note = try NoteRow(PackageRow(row: row, table: "notes", file: file))
                notes[note.id] = note
            }
        }
        for id in ids { if let homeDeck = here.cardsKnown[id] { homeDecks[id] = homeDeck } }
        let unknown = ids.filter { here.cardsKnown[$0] == nil }.map(String.init).joined(separator: ",")
        guard !unknown.isEmpty else { return }
        let cardsSQL = "SELECT \(CardRow.columns) FROM cards WHERE nid IN (\(unknown)) ORDER BY nid, ord"
        let cardRows = try CardRow.straight(db, sql: cardsSQL) ?? Row.fetchAll(db, sql: cardsSQL).map {
            try CardRow(PackageRow(row: $0, table: "cards", file: file))
        }
        for card in cardRows {
            if cards[card.note] == nil { homeDecks[card.note] = card.originalDeck != 0 ? card.originalDeck : card.deck }
            cards[card.note, default: []].append(card)
        }
        let reviewsSQL = """
            SELECT \(RevlogRow.columns) FROM revlog WHERE cid IN (SELECT id FROM cards WHERE nid IN (\(unknown))) ORDER BY cid, id
            """
        let reviewRows = try RevlogRow.straight(db, sql: reviewsSQL) ?? Row.fetchAll(db, sql: reviewsSQL).map {
            try RevlogRow(PackageRow(row: $0, table: "revlog", file: file))
        }
        for review in reviewRows { reviews[review.card, default: []].append(review) }
    }
}

private struct CollectionReading {
    let db: Database
    let version: AnkiPackage.Version
    let file: String
    let options: ImportOptions
    /// The package's media names, some given names of their own.
    let media: MediaNames

    /// Hands the package's decks and notes on, note by note.
    func contents(_ emit: ImportEmitter) throws {
        guard let created = try Int64.fetchOne(db, sql: "SELECT crt FROM col") else {
            throw ImportProblem(file: file, message: "the collection has no creation time (col.crt)")
        }
        let config = try AnkiDays.config(db)
        let days = AnkiDays(created: created, config: config, timeZone: options.timeZone, now: options.now)
        // Anki's rules for daily limits, where the file carries its collection's settings (a
        // .colpkg does; an .apkg leaves them out, and its import keeps the collection's own).
        if options.deckName == nil, let rules = AnkiDays.limitRules(config) { try emit(.limitRules(rules)) }
        // A whole collection's config is the collection's, every key: kept to write it back. (An
        // .apkg carries a config of its own making, not the collection's it came from.)
        if options.deckName == nil, !file.lowercased().hasSuffix(".apkg"),
           let text = try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys]) {
            try emit(.ankiConfig(String(decoding: text, as: UTF8.self)))
        }
        // Buried cards come back the next day: the day after the collection last changed.
        let changed = sane(Double(try Int64.fetchOne(db, sql: "SELECT mod FROM col") ?? 0) / 1000)
        let buriedUntil = days.clock.start(ofDay: days.clock.dayNumber(of: changed) + 1)
        func buried(_ card: CardRow) -> Date? { card.queue == -2 || card.queue == -3 ? buriedUntil : nil }
        // The schema is the collection's own, whatever the package's entry name: a current package
        // may hold a schema-11 collection (Maeil writes one; Anki upgrades it when it opens it).
        let tablesOfSchema18 = try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = 'notetypes'") ?? false
        var (noteTypes, ankiDecks, deckOptions) = tablesOfSchema18 ? try currentSchema() : try legacySchema()
        // Only a whole collection's counts are the decks' whole day (notes taken alone are not).
        var answeredToday = options.deckName == nil && options.onlyNotes == nil
            ? AnkiDeckRecord.answeredToday(ankiDecks, days: days, now: options.now) : [:]
        if let day = answeredToday.first?.value.day {
            let logged = try AnkiDeckRecord.logged(db, since: days.clock.start(ofDay: day))
            for id in answeredToday.keys {
                let file = logged[id] ?? AnkiAnsweredToday.Logged(), uncounted = options.answersNotCounted[id] ?? AnkiAnsweredToday.Logged()
                answeredToday[id]?.logged = AnkiAnsweredToday.Logged(new: file.new - uncounted.new, reviews: file.reviews - uncounted.reviews)
            }
        }
        // The day's start is the collection's, where the file says it (Anki keeps one for all decks).
        if let hour = days.rolloverHour {
            for deck in deckOptions.keys { deckOptions[deck]?.preset.rolloverHour = hour }
        }
        var deckSlots = DeckSlots<Int64>()
        /// An Anki deck as the file has it (with its options, as its notes' or cards' deck).
        func ankiDeck(_ id: Int64) -> ImportedDeck {
            guard let record = ankiDecks[id] else { return ImportedDeck(name: "Imported", kind: nil, templates: [], source: file) }
            var deck = ImportedDeck(name: record.name, kind: nil, templates: [], source: file)
            (deck.ankiID, deck.description, deck.limits, deck.ankiJSON) = (id, record.description, record.limits(days), record.keptJSON)
            deck.ankiAnsweredToday = answeredToday[id]
            deck.preset = deckOptions[id]?.preset
            return deck
        }
        var deckTemplates: [[CardTemplate]] = []  // per slot: the templates handed on so far
        var chunks = NoteChunks()
        // Per Maeil deck and note type: the names its templates got in that deck.
        var templateNames: [DeckAndType: [String]] = [:]
        var skipped: [ImportProblem] = []
        var templatesByType: [Int64: [CardTemplate]] = [:]
        var spokenLanguages: [Int64: [String: String]] = [:]  // per note type: field → language of its {{tts}}
        let order = try noteOrder(only: options.onlyNotes)
        let known = options.knownAnkiCards?.wait() ?? StoredAnkiRecords()
        let here = try PackageNotesHere(db, known: known, noteTypes: noteTypes, renamesMedia: !media.renamesNothing) { type in
            spokenLanguages[type.id] ?? type.spokenLanguages
        }
        try emit(.expecting(notes: order.count, alreadyHere: here.notesHere))
        // The note types whole, before any note of theirs: what a package for Anki carries back.
        let used = Set(try Int64.fetchAll(db, sql: "SELECT DISTINCT mid FROM notes WHERE typeof(mid) = 'integer'"))
        let kept = noteTypes.values.filter { used.contains($0.id) }.sorted { $0.id < $1.id }
        if !kept.isEmpty { try emit(.noteTypes(kept)) }
        // Notes read a batch at a time as their turn comes, with their cards and their logs:
        // the package is never held whole, however large.
        var batch = NoteBatch()
        for (index, noteID) in order.enumerated() {
            if index % NoteBatch.size == 0 {
                let ids = order[index..<min(index + NoteBatch.size, order.count)].filter { here.asStored[$0] == nil }
                batch = try NoteBatch(db, ids: ids, file: file, here: here)
            }
            // A note here as the package has it is read no further than its guid and note type.
            let asStored = here.asStored[noteID]
            let row = asStored == nil ? batch.notes[noteID] : nil
            guard let noteType = asStored?.noteType ?? row?.noteType else { continue }
            guard let type = noteTypes[noteType] else {
                skipped.append(ImportProblem(file: file, message: "note \(noteID) has a note type the package does not define"))
                continue
            }
            guard type.fields.count <= options.maximumFields else {
                skipped.append(ImportProblem(file: file, message: "note \(noteID)'s note type has \(type.fields.count) fields; "
                                             + "a note holds at most \(options.maximumFields)"))
                continue
            }
            // A note without cards is no note to Anki (Check Database deletes it).
            guard let homeDeck = asStored == nil ? batch.homeDecks[noteID] : here.cardsKnown[noteID] else { continue }
            let cards = batch.cards[noteID] ?? []
            let deckName = options.deckName ?? ankiDecks[homeDeck]?.name ?? "Imported"
            let deckKey = options.deckName == nil ? homeDeck : 0
            // Anki plays the question's {{tts}} as a card appears; Maeil's speech, when left on auto, too.
            let (slot, isNew) = try deckSlots.slot(for: deckKey, emit: emit) {
                var deck = options.deckName == nil ? ankiDeck(homeDeck) : ImportedDeck(name: deckName, kind: nil, templates: [], source: file)
                deck.preset = deckOptions[homeDeck]?.preset
                deck.speak = type.spokenOnFront
                return deck
            }
            if isNew { deckTemplates.append([]) }
            // Templates of this note type, named apart from other note types' in the same deck:
            // worked out for the first note of a type in a deck, not for every note.
            let names: [String]
            if let known = templateNames[DeckAndType(deck: Int64(slot), type: type.id)] {
                names = known
            } else {
                let mapped = templatesByType[type.id] ?? type.maeilTemplates
                templatesByType[type.id] = mapped
                let (merged, named) = CardTemplate.adding(mapped, ofType: type.name, to: deckTemplates[slot])
                for template in merged[deckTemplates[slot].count...] { chunks.add(template, to: slot) }
                deckTemplates[slot] = merged
                templateNames[DeckAndType(deck: Int64(slot), type: type.id)] = named
                names = named
            }
            if let asStored {
                var note = NoteDraft(guid: asStored.guid, kind: type.isCloze ? .cloze : .basic, fields: [], origin: file)
                (note.ankiID, note.cardsKnown, note.asStored) = (noteID, true, true)
                try chunks.add(note, to: slot, emit: emit)
                continue
            }
            guard let row else { continue }
            let languages = spokenLanguages[type.id] ?? {
                let languages = type.spokenLanguages
                spokenLanguages[type.id] = languages
                return languages
            }()
            // Anki's fields are HTML: kept as they are, shown formatted, written back the same.
            let values = row.fields.utf8Split(0x1F).map { media.pointed($0).nfc }
            let fields = type.fields.enumerated().map { index, name in
                NoteField(name: name, value: index < values.count ? values[index] : "", language: languages[name])
            }
            var note = NoteDraft(guid: row.guid, kind: type.isCloze ? .cloze : .basic, noteType: type.name, fields: fields,
                                 tags: row.tags.utf8Split(0x20).filter { !$0.isEmpty }, origin: "\(file): note \(noteID)", html: true,
                                 ankiNoteTypeID: type.id, ankiModified: row.modified)
            note.ankiID = noteID
            note.cardsKnown = here.cardsKnown[noteID] != nil
            let steps = deckOptions[homeDeck] ?? AnkiPackage.DeckOptions()
            for card in cards where !note.cardsKnown {
                let ordinal = card.ordinal
                let templateName = type.isCloze ? names.first ?? "cloze" : (ordinal < names.count ? names[ordinal] : "card \(ordinal + 1)")
                let history = (batch.reviews[card.id] ?? []).map(entry)
                let data = Self.dataObject(card.data)
                var draft = CardDraft(template: templateName, ordinal: type.isCloze ? ordinal + 1 : 0,
                                      state: state(card, data: data, days: days, steps: steps, reviews: history),
                                      suspended: card.queue == -1, buriedUntil: buried(card),
                                      history: history, ankiModified: card.modified, ankiID: card.id,
                                      flags: Int(card.flags & 7), buriedByUser: card.queue == -3)
                draft.ankiCustomData = Self.customData(data)
                draft.ankiOriginalPosition = Self.originalPosition(data)
                if card.type == 0 { draft.ankiPosition = card.originalDeck != 0 ? card.originalDue : card.due }
                draft.ankiRetention = (data?["dr"] as? NSNumber)?.doubleValue
                // A card Anki keeps in another deck than its note's first card is studied there:
                // that deck is announced before the note, so the card is written into it.
                let ownDeck = card.originalDeck != 0 ? card.originalDeck : card.deck
                if options.deckName == nil, ownDeck != homeDeck, ankiDecks[ownDeck] != nil {
                    draft.ankiDeckID = ownDeck
                    let (_, isNew) = try deckSlots.slot(for: ownDeck, emit: emit) {
                        var deck = ankiDeck(ownDeck)
                        deck.speak = type.spokenOnFront
                        return deck
                    }
                    if isNew { deckTemplates.append([]) }
                }
                note.cards.append(draft)
            }
            try chunks.add(note, to: slot, emit: emit)
        }
        try chunks.flush(emit)
        // A whole collection's answers of cards it no longer holds: Anki keeps them, and so does Maeil.
        if options.deckName == nil, options.onlyNotes == nil, !file.lowercased().hasSuffix(".apkg") { try emitGoneCards(emit) }
        if options.onlyNotes != nil, !options.goneCards.isEmpty { try emitGoneCards(emit, only: options.goneCards) }
        // Decks with no cards are Anki's decks too (a filtered deck has no options of its own, and
        // Anki's "Default" is always there): they come over with their options.
        if options.deckName == nil {
            for id in ankiDecks.keys.sorted() where id != 1 && deckOptions[id] != nil {
                let (_, isNew) = try deckSlots.slot(for: id, emit: emit) { ankiDeck(id) }
                if isNew { deckTemplates.append([]) }
            }
        }
        // All or nothing: a note that cannot be read stops the import unless --skip-invalid.
        if !skipped.isEmpty {
            guard options.skipInvalid else { throw ImportFailure(skipped) }
            try emit(.skipped(skipped))
        }
    }

    /// What Maeil keeps of an Anki deck besides its options: its name, and its description
    /// (HTML, shown on Anki's overview screen), which goes back as it came.
    struct AnkiDeckRecord {
        var name: String
        var description = ""
        /// Its own limits ("This deck", "Today only"), a day limit's day as Anki counts it:
        /// days since the collection was created.
        var limits = DeckLimits()
        /// The rest of the deck as Anki's legacy JSON: what Maeil neither uses nor writes itself.
        var kept: [String: Any] = [:]
        /// Anki's counts of the day it last studied in the deck and its subdecks.
        var counted: Counted?
        /// A filtered deck: its answers count against the decks above it, not the cards' own.
        var filtered = false

        /// `newToday`, `revToday` and `timeToday`, on a day as Anki counts days.
        struct Counted {
            var day: Int
            var new = 0, reviews = 0, milliseconds = 0
        }

        /// Keys Maeil writes itself: the deck's identity, options, limits and day's counts.
        static let written: Set<String> = ["id", "name", "mod", "usn", "conf", "desc", "dyn", "newLimit", "reviewLimit", "newLimitToday",
                                           "reviewLimitToday", "newToday", "revToday", "lrnToday", "timeToday"]

        var keptJSON: String? {
            guard !kept.isEmpty, let data = try? JSONSerialization.data(withJSONObject: kept, options: [.sortedKeys]) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }

        static func kept(legacy deck: [String: Any]) -> [String: Any] {
            deck.filter { !written.contains($0.key) }
        }

        /// From schema 18's protobuf: DeckCommon { bool study_collapsed = 1; bool browser_collapsed = 2;
        /// bytes other = 255 (the legacy keys it has no field for, as JSON) } and NormalDeck
        /// { uint32 extend_new = 2; uint32 extend_review = 3; bool markdown_description = 5 }, under
        /// their legacy names.
        static func kept(common: Data, normal: Data) -> [String: Any] {
            func number(_ data: Data, _ field: Int) -> UInt64 { (try? ProtobufReader.varint(data, field: field)).flatMap { $0 } ?? 0 }
            var kept: [String: Any] = [:]
            if let other = (try? ProtobufReader.messages(common, field: 255))?.first,
               let object = (try? JSONSerialization.jsonObject(with: other)) as? [String: Any] {
                kept = object.filter { !written.contains($0.key) }
            }
            kept["collapsed"] = number(common, 1) == 1
            kept["browserCollapsed"] = number(common, 2) == 1
            kept["extendNew"] = Int(number(normal, 2))
            kept["extendRev"] = Int(number(normal, 3))
            kept["md"] = number(normal, 5) == 1
            return kept
        }

        /// From a legacy deck's JSON: [day, count] pairs, each of its own day (a count of
        /// another day than the new cards' is none that day).
        static func counted(legacy deck: [String: Any]) -> Counted? {
            func pair(_ key: String) -> (day: Int, count: Int)? {
                guard let values = deck[key] as? [Any], values.count == 2, let day = values[0] as? NSNumber, let count = values[1] as? NSNumber
                else { return nil }
                return (Int(clamping: day.int64Value), Int(Int32(clamping: count.int64Value)))
            }
            guard let new = pair("newToday") else { return nil }
            func same(_ key: String) -> Int { pair(key).flatMap { $0.day == new.day ? $0.count : nil } ?? 0 }
            return Counted(day: new.day, new: new.count, reviews: same("revToday"), milliseconds: same("timeToday"))
        }

        /// From schema 18's DeckCommon { uint32 last_day_studied = 3; int32 new_studied = 4;
        /// int32 review_studied = 5; int32 milliseconds_studied = 7 } (a zero is left out: day 0
        /// is the collection's first).
        static func counted(common: Data) -> Counted {
            func number(_ field: Int) -> UInt64 { (try? ProtobufReader.varint(common, field: field)).flatMap { $0 } ?? 0 }
            func int32(_ field: Int) -> Int { Int(Int32(truncatingIfNeeded: number(field))) }
            return Counted(day: Int(UInt32(truncatingIfNeeded: number(3))), new: int32(4), reviews: int32(5), milliseconds: int32(7))
        }

        /// Each deck's own answers of the day as Anki counted them, for the decks that counted
        /// today (by the file's clock at `now`): its counts less its subdecks', which Anki
        /// counts in a deck's too. A filtered subdeck's answers stay with the deck above it,
        /// which Anki counts them against; the cards' own decks it does not.
        static func answeredToday(_ decks: [Int64: AnkiDeckRecord], days: AnkiDays, now: Date) -> [Int64: AnkiAnsweredToday] {
            let today = days.clock.dayNumber(of: now)
            func todays(_ record: AnkiDeckRecord) -> Counted? { record.counted.flatMap { $0.day + days.createdDay == today ? $0 : nil } }
            var children: [String: [Counted]] = [:]
            for record in decks.values where !record.filtered {
                guard let counted = todays(record), let end = record.name.range(of: "::", options: .backwards) else { continue }
                children[String(record.name[..<end.lowerBound]), default: []].append(counted)
            }
            var answered: [Int64: AnkiAnsweredToday] = [:]
            for (id, record) in decks {
                guard let counted = todays(record) else { continue }
                var own = AnkiAnsweredToday(clock: days.clock, day: today, new: counted.new, reviews: counted.reviews, milliseconds: counted.milliseconds)
                for child in children[record.name] ?? [] {
                    own.new -= child.new
                    own.reviews -= child.reviews
                    own.milliseconds -= child.milliseconds
                }
                answered[id] = own
            }
            return answered
        }

        /// Each deck's own answers in the log from `since`, counted as Anki's counters count them
        /// and as Maeil's queue counts Anki's rows (a new card's first answer, a review), in
        /// the deck the card is in (its home deck, while it sits in a filtered one).
        static func logged(_ db: Database, since: Date) throws -> [Int64: AnkiAnsweredToday.Logged] {
            var logged: [Int64: AnkiAnsweredToday.Logged] = [:]
            let rows = try Row.fetchCursor(db, sql: """
                SELECT CASE WHEN cards.odid != 0 THEN cards.odid ELSE cards.did END, total(revlog.type = 0 AND revlog.lastIvl = 0), total(revlog.type = 1)
                FROM revlog JOIN cards ON cards.id = revlog.cid WHERE revlog.id >= ? GROUP BY 1
                """, arguments: [since.unixMilliseconds])
            while let row = try rows.next() {
                logged[row[0]] = AnkiAnsweredToday.Logged(new: Int(row[1] as Double), reviews: Int(row[2] as Double))
            }
            return logged
        }

        /// The limits with their days as study days here.
        func limits(_ days: AnkiDays) -> DeckLimits {
            var limits = limits
            limits.newToday?.day += days.createdDay
            limits.reviewsToday?.day += days.createdDay
            return limits
        }

        /// From a legacy deck's JSON: reviewLimit, newLimit, reviewLimitToday, newLimitToday.
        static func limits(legacy deck: [String: Any]) -> DeckLimits {
            func whole(_ value: Any?) -> Int? { (value as? NSNumber).map { Int(clamping: $0.int64Value).clamped(to: 0...99_999) } }
            func day(_ value: Any?) -> DeckLimits.DayLimit? {
                guard let object = value as? [String: Any], let limit = whole(object["limit"]), let today = whole(object["today"]) else { return nil }
                return DeckLimits.DayLimit(limit: limit, day: today)
            }
            return DeckLimits(newPerDay: whole(deck["newLimit"]), reviewsPerDay: whole(deck["reviewLimit"]),
                              newToday: day(deck["newLimitToday"]), reviewsToday: day(deck["reviewLimitToday"]))
        }

        /// From a deck's protobuf (schema 18): Deck.Normal's review_limit 6, new_limit 7, and the
        /// day limits 8 and 9 (limit 1, today 2).
        static func limits(normal: Data) -> DeckLimits {
            func whole(_ data: Data, _ field: Int) -> Int? {
                (try? ProtobufReader.varint(data, field: field)).flatMap { $0 }.map { Int(clamping: $0).clamped(to: 0...99_999) }
            }
            func day(_ field: Int) -> DeckLimits.DayLimit? {
                guard let message = (try? ProtobufReader.messages(normal, field: field))?.first else { return nil }
                return DeckLimits.DayLimit(limit: whole(message, 1) ?? 0, day: whole(message, 2) ?? 0)
            }
            return DeckLimits(newPerDay: whole(normal, 7), reviewsPerDay: whole(normal, 6), newToday: day(9), reviewsToday: day(8))
        }
    }

    struct DeckAndType: Hashable {
        var deck: Int64
        var type: Int64
    }

    // MARK: Note types and decks

    func legacySchema() throws -> ([Int64: AnkiPackage.NoteType], [Int64: AnkiDeckRecord], [Int64: AnkiPackage.DeckOptions]) {
        guard let row = try Row.fetchOne(db, sql: "SELECT models, decks, dconf, conf FROM col") else {
            throw ImportProblem(file: file, message: "the collection has no col row")
        }
        func json(_ text: String) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        }
        var types: [Int64: AnkiPackage.NoteType] = [:]
        for (key, value) in json(try row.decode(String?.self, atIndex: 0) ?? "") {
            guard let model = value as? [String: Any], let id = Int64(key) else { continue }
            types[id] = AnkiNoteType(id: id, legacy: model)
        }
        var names: [Int64: AnkiDeckRecord] = [:]
        var configOfDeck: [Int64: String] = [:]
        for (key, value) in json(try row.decode(String?.self, atIndex: 1) ?? "") {
            guard let deck = value as? [String: Any], let id = Int64(key) else { continue }
            names[id] = (deck["name"] as? String).map {
                AnkiDeckRecord(name: $0, description: deck["desc"] as? String ?? "", limits: AnkiDeckRecord.limits(legacy: deck),
                               kept: AnkiDeckRecord.kept(legacy: deck), counted: AnkiDeckRecord.counted(legacy: deck),
                               filtered: (deck["dyn"] as? NSNumber)?.intValue ?? 0 != 0)
            }
            configOfDeck[id] = (deck["conf"] as? Int).map(String.init)
        }
        let configs = json(try row.decode(String?.self, atIndex: 2) ?? "")
        // FSRS is one switch for Anki's whole collection; the deck options hold its parameters.
        let fsrs = json(try row.decode(String?.self, atIndex: 3) ?? "")["fsrs"] as? Bool ?? false
        let usedFSRS = try fsrs || remembersFSRSMemory()
        var options: [Int64: AnkiPackage.DeckOptions] = [:]
        for (deck, configID) in configOfDeck {
            if let config = configs[configID] as? [String: Any] { options[deck] = AnkiPackage.deckOptions(config, fsrs: usedFSRS) }
        }
        return (types, names, options)
    }

    /// Whether any card carries an FSRS memory state. Anki's package export leaves out the
    /// collection's settings, FSRS's switch among them; Anki keeps a card's stability and
    /// difficulty only while FSRS is on (turning it off clears them), and the switch is one for
    /// the whole collection, so one such card tells that every deck of the package used FSRS,
    /// those holding only new cards too.
    func remembersFSRSMemory() throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM cards
            WHERE json_valid(data) AND json_extract(data, '$.s') IS NOT NULL AND json_extract(data, '$.d') IS NOT NULL)
            """) ?? false
    }

    func currentSchema() throws -> ([Int64: AnkiPackage.NoteType], [Int64: AnkiDeckRecord], [Int64: AnkiPackage.DeckOptions]) {
        // Fields and templates in their own tables, their settings as protobuf; the legacy JSON a
        // package for Anki carries is made from them.
        var fields: [Int64: [[String: Any]]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT ntid, ord, name, config FROM fields ORDER BY ntid, ord") {
            let config = try row.decode(Data?.self, atIndex: 3) ?? Data()
            fields[try row.decode(Int64.self, atIndex: 0), default: []].append([
                "name": try row.decode(String.self, atIndex: 2), "ord": try row.decode(Int.self, atIndex: 1),
                "sticky": (try? ProtobufReader.varint(config, field: 1)).flatMap { $0 } == 1, "rtl": (try? ProtobufReader.varint(config, field: 2)).flatMap { $0 } == 1,
                "font": (try? ProtobufReader.string(config, field: 3)).flatMap { $0 } ?? "Arial",
                "size": Int((try? ProtobufReader.varint(config, field: 4)).flatMap { $0 } ?? 20), "media": [] as [Any],
                "description": (try? ProtobufReader.string(config, field: 5)).flatMap { $0 } ?? "",
            ])
        }
        var templates: [Int64: [[String: Any]]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT ntid, ord, name, config FROM templates ORDER BY ntid, ord") {
            let config = try row.decode(Data?.self, atIndex: 3) ?? Data()
            func text(_ field: Int) -> String { (try? ProtobufReader.string(config, field: field)).flatMap { $0 } ?? "" }
            templates[try row.decode(Int64.self, atIndex: 0), default: []].append([
                "name": try row.decode(String.self, atIndex: 2), "ord": try row.decode(Int.self, atIndex: 1),
                "qfmt": text(1), "afmt": text(2), "bqfmt": text(3), "bafmt": text(4), "did": NSNull(), "bfont": "", "bsize": 0,
            ])
        }
        var types: [Int64: AnkiPackage.NoteType] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name, mtime_secs, config FROM notetypes") {
            let id = try row.decode(Int64.self, atIndex: 0)
            let config = try row.decode(Data?.self, atIndex: 3) ?? Data()
            func text(_ field: Int) -> String { (try? ProtobufReader.string(config, field: field)).flatMap { $0 } ?? "" }
            let kind = (try? ProtobufReader.varint(config, field: 1)).flatMap { $0 } ?? 0
            let model: [String: Any] = [
                "id": id, "name": try row.decode(String.self, atIndex: 1), "type": Int(kind), "mod": try row.decode(Int64.self, atIndex: 2),
                "usn": -1, "sortf": Int((try? ProtobufReader.varint(config, field: 2)).flatMap { $0 } ?? 0), "did": NSNull(),
                "tmpls": templates[id] ?? [], "flds": fields[id] ?? [], "css": text(3), "latexPre": text(5), "latexPost": text(6),
                "latexsvg": (try? ProtobufReader.varint(config, field: 7)).flatMap { $0 } == 1, "req": [] as [Any], "tags": [] as [Any],
                "vers": [] as [Any],
            ]
            types[id] = AnkiNoteType(id: id, legacy: model)
        }
        var names: [Int64: AnkiDeckRecord] = [:]
        var configOfDeck: [Int64: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name, kind, common FROM decks") {
            let id = try row.decode(Int64.self, atIndex: 0)
            var record = AnkiDeckRecord(name: try row.decode(String.self, atIndex: 1).replacingOccurrences(of: "\u{1f}", with: "::"))
            // DeckKind { NormalDeck normal = 1 { int64 config_id = 1; string description = 4 } }
            if let kind = try row.decode(Data?.self, atIndex: 2), let normal = (try? ProtobufReader.messages(kind, field: 1))?.first {
                if let config = (try? ProtobufReader.varint(normal, field: 1)).flatMap({ $0 }) { configOfDeck[id] = Int64(bitPattern: config) }
                record.description = (try? ProtobufReader.string(normal, field: 4)).flatMap { $0 } ?? ""
                record.limits = AnkiDeckRecord.limits(normal: normal)
                record.kept = AnkiDeckRecord.kept(common: try row.decode(Data?.self, atIndex: 3) ?? Data(), normal: normal)
            }
            // DeckKind { FilteredDeck filtered = 2 }
            if let kind = try row.decode(Data?.self, atIndex: 2), (try? ProtobufReader.messages(kind, field: 2))?.isEmpty == false {
                record.filtered = true
            }
            record.counted = AnkiDeckRecord.counted(common: try row.decode(Data?.self, atIndex: 3) ?? Data())
            names[id] = record
        }
        let fsrs = (try? String.fetchOne(db, sql: "SELECT CAST(val AS TEXT) FROM config WHERE key = 'fsrs'")).flatMap { $0 } == "true"
        var configs: [Int64: [String: Any]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name, mtime_secs, config FROM deck_config") {
            configs[try row.decode(Int64.self, atIndex: 0)] = Self.legacyDeckConfig(
                id: try row.decode(Int64.self, atIndex: 0), name: try row.decode(String.self, atIndex: 1),
                modified: try row.decode(Int64.self, atIndex: 2), config: try row.decode(Data?.self, atIndex: 3) ?? Data())
        }
        let usedFSRS = try fsrs || remembersFSRSMemory()
        var options: [Int64: AnkiPackage.DeckOptions] = [:]
        for (deck, configID) in configOfDeck {
            if let config = configs[configID] { options[deck] = AnkiPackage.deckOptions(config, fsrs: usedFSRS) }
        }
        return (types, names, options)
    }

    /// A 32-bit float as the shortest decimal that reads back as it (0.85, not
    /// 0.8500000238418579), as Anki writes it in the legacy JSON.
    static func decimal(_ bits: UInt32) -> Double {
        let value = Float(bitPattern: bits)
        return Double("\(value)") ?? Double(value)
    }

    /// Anki's deck options (protobuf, schema 18) in its legacy JSON shape: the part Maeil maps
    /// to a preset, and that a package written for Anki carries back.
    static func legacyDeckConfig(id: Int64, name: String, modified: Int64, config: Data) -> [String: Any] {
        let fields = (try? ProtobufReader.fields(config)) ?? []
        func float(_ number: Int) -> Double? {
            for case (number, .fixed32(let bits)) in fields { return Self.decimal(bits) }
            return nil
        }
        func whole(_ number: Int) -> Int? {
            for case (number, .varint(let value)) in fields { return Int(truncatingIfNeeded: value) }
            return nil
        }
        func floats(_ number: Int) -> [Double] {
            var result: [Double] = []
            for (field, value) in fields where field == number {
                switch value {
                case .bytes(let packed):
                    var index = packed.startIndex
                    while packed.endIndex - index >= 4 {
                        let bits = (0..<4).reduce(UInt32(0)) { $0 | UInt32(packed[index + $1]) << (8 * UInt32($1)) }
                        result.append(Self.decimal(bits))
                        index += 4
                    }
                case .fixed32(let bits): result.append(Self.decimal(bits))
                default: continue
                }
            }
            return result
        }
        func text(_ number: Int) -> String {
            for case (number, .bytes(let bytes)) in fields { return String(decoding: bytes, as: UTF8.self) }
            return ""
        }
        // Keys of the legacy JSON the protobuf has no field for (an add-on's), as Anki keeps them.
        var other: [String: Any] = [:]
        for case (255, .bytes(let bytes)) in fields {
            other = (try? JSONSerialization.jsonObject(with: bytes)) as? [String: Any] ?? [:]
        }
        // proto3: a field left out holds 0. Names as Anki's own legacy JSON of DeckConfig.Config.
        return other.merging([
            "id": id, "name": name, "mod": modified, "usn": -1, "dyn": false,
            "new": ["delays": floats(1), "perDay": whole(9) ?? 0, "ints": [whole(18) ?? 0, whole(19) ?? 0, 0],
                    "initialFactor": Int(((float(11) ?? 0) * 1000).rounded()), "bury": whole(27) == 1,
                    // new_card_insert_order: 0 due, 1 random; the legacy order: 1 due, 0 random.
                    "order": whole(20) == 1 ? 0 : 1],
            "rev": ["perDay": whole(10) ?? 0, "ease4": float(12) ?? 0, "hardFactor": float(13) ?? 0, "ivlFct": float(15) ?? 0,
                    "maxIvl": whole(16) ?? 0, "bury": whole(28) == 1],
            "lapse": ["delays": floats(2), "mult": float(14) ?? 0, "minInt": whole(17) ?? 0, "leechFails": whole(22) ?? 0,
                      "leechAction": whole(21) ?? 0],
            "fsrsWeights": floats(3), "fsrsParams5": floats(5), "fsrsParams6": floats(6), "desiredRetention": float(37) ?? 0,
            "buryInterdayLearning": whole(29) == 1,
            "newMix": whole(30) ?? 0, "interdayLearningMix": whole(31) ?? 0, "newSortOrder": whole(32) ?? 0, "reviewOrder": whole(33) ?? 0,
            "newGatherPriority": whole(34) ?? 0,
            "easyDaysPercentages": floats(4), "newPerDayMinimum": whole(35) ?? 0, "sm2Retention": float(40) ?? 0,
            "autoplay": whole(23) != 1, "maxTaken": whole(24) ?? 0, "timer": whole(25) == 1 ? 1 : 0, "replayq": whole(26) != 1,
            "questionAction": whole(36) ?? 0, "answerAction": whole(43) ?? 0, "stopTimerOnAnswer": whole(38) == 1,
            "secondsToShowQuestion": float(41) ?? 0, "secondsToShowAnswer": float(42) ?? 0, "waitForAudio": whole(44) == 1,
            "weightSearch": text(45), "ignoreRevlogsBeforeDate": text(46),
        ]) { $1 }
    }

    // MARK: Cards and reviews

    /// The notes' ids in the order they come over: new cards keep Anki's order (a new card in
    /// a filtered deck keeps its place in the new queue in odue), and a note whose cards all
    /// left the new queue takes the place they left ("pos" in their data), so a card forgotten
    /// later goes back among the new cards where Anki puts it back; notes with neither keep
    /// their creation order.
    func noteOrder(only: Set<Int64>?) throws -> [Int64] {
        var firstNew: [Int64: Int64] = [:]
        // A part of the file (a sync's notes) reads only its own notes' rows.
        let arguments: StatementArguments = try only.map { [String(decoding: try JSONSerialization.data(withJSONObject: Array($0)), as: UTF8.self)] } ?? []
        let (ofCards, ofNotes) = only == nil ? ("", "") : ("WHERE nid IN (SELECT value FROM json_each(?))", " WHERE id IN (SELECT value FROM json_each(?))")
        let placed = """
            SELECT nid, place FROM (
              SELECT nid, coalesce(min(CASE WHEN type = 0 THEN (CASE WHEN odid != 0 THEN odue ELSE due END) END),
                                   min(CASE WHEN type != 0 AND data LIKE '%"pos"%' AND json_valid(data) THEN json_extract(data, '$.pos') END)) AS place
              FROM cards \(ofCards) GROUP BY nid)
            WHERE typeof(place) = 'integer'
            """
        let straight = try StraightRows.read(db, sql: placed, arguments: arguments, types: [SQLITE_INTEGER, SQLITE_INTEGER]) {
            firstNew[$0.int64(0)] = $0.int64(1)
        }
        if !straight {
            firstNew = [:]
            let positions = try Row.fetchCursor(db, sql: placed, arguments: arguments)
            while let row = try positions.next() {
                let pair = PackageRow(row: row, table: "cards", file: file)
                firstNew[try pair.value(0)] = try pair.value(1)
            }
        }
        var order: [(firstNew: Int64, id: Int64)] = []
        let notes = "SELECT id FROM notes" + ofNotes
        if !(try StraightRows.read(db, sql: notes, arguments: arguments, types: [SQLITE_INTEGER]) { order.append((firstNew[$0.int64(0)] ?? .max, $0.int64(0))) }) {
            order = []
            let ids = try Row.fetchCursor(db, sql: notes, arguments: arguments)
            while let row = try ids.next() {
                let id: Int64 = try PackageRow(row: row, table: "notes", file: file).value(0)
                order.append((firstNew[id] ?? .max, id))
            }
        }
        order.sort { ($0.firstNew, $0.id) < ($1.firstNew, $1.id) }
        return order.map(\.id)
    }

    /// The answers whose card is not in the file, by card, a few hundred cards at a time.
    func emitGoneCards(_ emit: ImportEmitter, only: Set<Int64>? = nil) throws {
        // Anki's ids are integers: written into the statement as they are.
        let among = only.map { " AND cid IN (\($0.map(String.init).joined(separator: ",")))" } ?? ""
        let rows = try Row.fetchCursor(db, sql: """
            SELECT \(RevlogRow.columns) FROM revlog WHERE cid NOT IN (SELECT id FROM cards)\(among) ORDER BY cid, id
            """)
        var gone: [GoneCardDraft] = []
        while let row = try rows.next() {
            let review = try RevlogRow(PackageRow(row: row, table: "revlog", file: file))
            if gone.last?.ankiID != review.card {
                if gone.count == NoteBatch.size {
                    try emit(.goneCards(gone))
                    gone.removeAll(keepingCapacity: true)
                }
                gone.append(GoneCardDraft(ankiID: review.card, history: []))
            }
            gone[gone.count - 1].history.append(entry(review))
        }
        if !gone.isEmpty { try emit(.goneCards(gone)) }
    }

    /// One row of the review log as a log entry that keeps Anki's columns as they were: an
    /// answer also as Maeil reads it (the rating, the phase, the interval and ease before and
    /// after); a reset, a set due date or a filtered deck's rescheduling as a row that is no answer.
    func entry(_ review: RevlogRow) -> ReviewLogEntry {
        let type = review.type
        let columns = AnkiRevlogColumns(ease: review.ease, interval: review.interval, lastInterval: review.lastInterval,
                                        factor: review.factor, type: type)
        let duration = Int(review.milliseconds.clamped(to: 0...86_400_000))
        guard let rating = Rating(rawValue: Int(clamping: review.ease)), type >= 0, type <= 3 else {
            return ReviewLogEntry(
                time: sane(Double(review.id) / 1000), kind: .imported, rating: nil, durationMilliseconds: duration, scheduler: "anki",
                before: nil, after: columns.isReset ? .new : nil, ankiID: review.id, anki: columns)
        }
        let before: CardPhase = type == 0 ? .learning : (type == 2 ? .relearning : .review)
        let after: CardPhase = review.interval > 0 ? .review : (before == .review ? .relearning : before)
        let time = sane(Double(review.id) / 1000)
        let ease = review.factor > 0 ? Int(review.factor.clamped(to: 1300...10_000)) : 2500
        return ReviewLogEntry(
            time: time, kind: .imported, rating: rating, durationMilliseconds: duration,
            scheduler: "anki",
            before: CardState(phase: before, intervalDays: Int(review.lastInterval.clamped(to: 0...36_500)), easePermille: ease),
            // Anki logs a step's delay as negative seconds, an interval as positive days.
            after: CardState(phase: after, scheduledSeconds: -Int(review.interval.clamped(to: -(36_500 * 86_400)...0)),
                             intervalDays: Int(review.interval.clamped(to: 0...36_500)), easePermille: ease, lastReview: time),
            ankiID: review.id, anki: columns)
    }

    /// The custom data Anki keeps in a card's data ("cd": a JSON object as text, which Anki
    /// limits to 100 bytes), as it came; nil when there is none, or when it is not such text or
    /// is over `AnkiPackage.customDataLimit`.
    static func customData(_ data: [String: Any]?) -> String? {
        guard let custom = data?["cd"] as? String, !custom.isEmpty, custom.utf8.count <= AnkiPackage.customDataLimit,
              (try? JSONSerialization.jsonObject(with: Data(custom.utf8))) is [String: Any] else { return nil }
        return custom
    }

    /// The new-queue position Anki keeps for a card that left it ("pos" in its data).
    static func originalPosition(_ data: [String: Any]?) -> Int64? {
        guard let position = (data?["pos"] as? NSNumber)?.int64Value, (0...Int64(Int32.max)).contains(position) else { return nil }
        return position
    }

    /// A card's data (FSRS's memory, the last review's time, the original position, custom
    /// data) as one JSON object, read once for all of them. Most cards hold "" or "{}": parsing
    /// JSON for them cost more than the rest of the card.
    static func dataObject(_ data: String) -> [String: Any]? {
        data.utf8.count > 2 ? (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any] : nil
    }

    /// An Anki card's scheduling as a Maeil state. Review due dates are day numbers counted
    /// from the collection's creation date (`AnkiDays`); learning due times are epoch seconds;
    /// a card in a filtered deck keeps its original due in odue.
    func state(_ card: CardRow, data: [String: Any]?, days: AnkiDays, steps: AnkiPackage.DeckOptions,
               reviews: [ReviewLogEntry]) -> CardState {
        let type = card.type, queue = card.queue
        let due = card.originalDeck != 0 && card.originalDue != 0 ? card.originalDue : card.due
        // A card reset to new ("Forget" without resetting counts) keeps its reviews and lapses.
        guard type != 0 else {
            return CardState(reps: Int(card.reps.clamped(to: 0...1_000_000)), lapses: Int(card.lapses.clamped(to: 0...1_000_000)))
        }
        var state = CardState(phase: .review, intervalDays: Int(card.interval.clamped(to: 0...36_500)),
                              easePermille: card.factor >= 1300 ? Int(card.factor.clamped(to: 1300...10_000)) : 2500,
                              reps: Int(card.reps.clamped(to: 0...1_000_000)), lapses: Int(card.lapses.clamped(to: 0...1_000_000)), streak: 0)
        if let stability = data?["s"] as? Double, let difficulty = data?["d"] as? Double,
           stability.isFinite, stability > 0, difficulty.isFinite {
            state.stability = min(stability, 36_500)
            state.difficulty = difficulty.clamped(to: 1...10)
        }
        func dayStart(_ day: Int64) -> Date { days.start(ofDueDay: day) }
        let intraday = queue == 1 || (queue < 0 && due > 1_000_000_000)
        switch type {
        case 1, 3:
            state.phase = type == 1 ? .learning : .relearning
            let stepMinutes = type == 1 ? steps.learningSteps : steps.relearningSteps
            let remaining = Int(card.left % 1000)
            state.step = max(0, min(stepMinutes.count - remaining, max(stepMinutes.count - 1, 0)))
            state.scheduledSeconds = stepMinutes.isEmpty ? 600 : Int(stepMinutes[min(state.step, stepMinutes.count - 1)] * 60)
            state.due = intraday ? sane(Double(due)) : dayStart(due)
            if type == 1 { state.intervalDays = 0 }
        default:
            state.due = dayStart(due)
        }
        if let lastReview = (data?["lrt"] as? Double).flatMap({ $0.isFinite ? $0 : nil }) ?? reviews.last.map({ $0.time.timeIntervalSince1970 }) {
            state.lastReview = sane(lastReview)
        } else if let due = state.due {
            state.lastReview = due.addingTimeInterval(-Double(state.intervalDays) * 86_400)
        }
        state.streak = reviews.reversed().prefix { $0.rating != .again }.count
        return state
    }
}

// GRDB's row subscripts trap on NULL or on a value of another type; a package is untrusted, so
// its rows are decoded once, with errors, into these.

/// A time from the package, kept between 1970 and 9999 so that no later conversion overflows.
private func sane(_ secondsSince1970: Double) -> Date {
    Date(timeIntervalSince1970: secondsSince1970.isFinite ? secondsSince1970.clamped(to: 0...253_402_300_799) : 0)
}

/// A row of one of the package's tables, read by position in the query's own select list,
/// with an error that names the column instead of a trap when a value has the wrong type.
struct PackageRow {
    let row: Row
    let table: String
    let file: String

    func value<T: DatabaseValueConvertible>(_ index: Int) throws -> T {
        do {
            return try row.decode(T.self, atIndex: index)
        } catch {
            let column = Array(row.columnNames)[index]
            throw ImportProblem(file: file, message: "the package's \(table) table holds a value that is not \(T.self) in column \(column) (\(row[index] as DatabaseValue))")
        }
    }
}

// Each row type lists its columns next to the order it reads them in.

struct NoteRow {
    static let columns = "id, guid, mid, tags, flds, mod"
    var id: Int64, guid: String, noteType: Int64, tags: String, fields: String, modified: Int64

    init(_ row: PackageRow) throws {
        (id, guid, noteType, tags, fields) = (try row.value(0), try row.value(1), try row.value(2), try row.value(3), try row.value(4))
        modified = try row.value(5)
    }

    init(id: Int64, guid: String, noteType: Int64, tags: String, fields: String, modified: Int64) {
        (self.id, self.guid, self.noteType, self.tags, self.fields, self.modified) = (id, guid, noteType, tags, fields, modified)
    }
}

extension NoteRow {
    /// The rows `sql` selects (`columns`), read straight (`StraightRows`); nil where a value is
    /// not of the type read, for `PackageRow` to read the rows and say what is wrong.
    static func straight(_ db: Database, sql: String) throws -> [NoteRow]? {
        var rows: [NoteRow] = []
        let read = try StraightRows.read(db, sql: sql, types: [SQLITE_INTEGER, SQLITE_TEXT, SQLITE_INTEGER, SQLITE_TEXT, SQLITE_TEXT, SQLITE_INTEGER]) { row in
            rows.append(NoteRow(id: row.int64(0), guid: row.text(1), noteType: row.int64(2), tags: row.text(3), fields: row.text(4), modified: row.int64(5)))
        }
        return read ? rows : nil
    }
}

/// A package's rows read straight through SQLite's C API (`SQLiteRow`), where GRDB's decoding
/// of each value was most of reading them. Each row's values must be of the types given, or the
/// reading stops and answers false: the caller then reads the rows as `PackageRow`s, which say
/// what is wrong with a value.
enum StraightRows {
    private struct Mistyped: Error {}

    /// `nullable` lists the columns that may also be NULL.
    static func read(_ db: Database, sql: String, arguments: StatementArguments = [], types: [Int32], nullable: Set<Int> = [],
                     _ body: (SQLiteRow) -> Void) throws -> Bool {
        do {
            try db.makeStatement(sql: sql).forEachRow(arguments) { row in
                guard types.indices.allSatisfy({ row.type($0) == types[$0] || (row.type($0) == SQLITE_NULL && nullable.contains($0)) }) else {
                    throw Mistyped()
                }
                body(row)
            }
            return true
        } catch is Mistyped {
            return false
        }
    }
}

struct CardRow {
    static let columns = "id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, left, odue, odid, data, mod, flags"
    var id: Int64, note: Int64, deck: Int64, ordinal: Int, type: Int64, queue: Int64, due: Int64, interval: Int64, factor: Int64
    var reps: Int64, lapses: Int64, left: Int64, originalDue: Int64, originalDeck: Int64, data: String, modified: Int64, flags: Int64

    init(_ row: PackageRow) throws {
        (id, note, deck) = (try row.value(0), try row.value(1), try row.value(2))
        ordinal = Int((try row.value(3) as Int64).clamped(to: 0...10_000))
        (type, queue, due, interval) = (try row.value(4), try row.value(5), try row.value(6), try row.value(7))
        (factor, reps, lapses, left) = (try row.value(8), try row.value(9), try row.value(10), try row.value(11))
        (originalDue, originalDeck) = (try row.value(12), try row.value(13))
        data = (try row.value(14) as String?) ?? ""
        modified = try row.value(15)
        flags = (try? row.value(16) as Int64?).flatMap { $0 } ?? 0
    }

    init(id: Int64, note: Int64, deck: Int64, ordinal: Int, type: Int64, queue: Int64, due: Int64, interval: Int64, factor: Int64,
         reps: Int64, lapses: Int64, left: Int64, originalDue: Int64, originalDeck: Int64, data: String, modified: Int64, flags: Int64) {
        (self.id, self.note, self.deck, self.ordinal, self.type, self.queue) = (id, note, deck, ordinal, type, queue)
        (self.due, self.interval, self.factor, self.reps, self.lapses, self.left) = (due, interval, factor, reps, lapses, left)
        (self.originalDue, self.originalDeck, self.data, self.modified, self.flags) = (originalDue, originalDeck, data, modified, flags)
    }
}

extension CardRow {
    /// The rows `sql` selects (`columns`), read straight; nil where a value is not of the type read.
    static func straight(_ db: Database, sql: String) throws -> [CardRow]? {
        var rows: [CardRow] = []
        var types = Array(repeating: SQLITE_INTEGER, count: 17)
        types[14] = SQLITE_TEXT  // data
        let read = try StraightRows.read(db, sql: sql, types: types, nullable: [14, 16]) { row in
            rows.append(CardRow(id: row.int64(0), note: row.int64(1), deck: row.int64(2), ordinal: Int(row.int64(3).clamped(to: 0...10_000)),
                                type: row.int64(4), queue: row.int64(5), due: row.int64(6), interval: row.int64(7), factor: row.int64(8),
                                reps: row.int64(9), lapses: row.int64(10), left: row.int64(11), originalDue: row.int64(12),
                                originalDeck: row.int64(13), data: row.text(14), modified: row.int64(15), flags: row.int64(16)))
        }
        return read ? rows : nil
    }
}

struct RevlogRow {
    static let columns = "id, cid, ease, ivl, lastIvl, factor, time, type"
    var id: Int64, card: Int64, ease: Int64, interval: Int64, lastInterval: Int64, factor: Int64, milliseconds: Int64, type: Int64

    init(_ row: PackageRow) throws {
        (id, card, ease, interval) = (try row.value(0), try row.value(1), try row.value(2), try row.value(3))
        (lastInterval, factor, milliseconds, type) = (try row.value(4), try row.value(5), try row.value(6), try row.value(7))
    }

    init(id: Int64, card: Int64, ease: Int64, interval: Int64, lastInterval: Int64, factor: Int64, milliseconds: Int64, type: Int64) {
        (self.id, self.card, self.ease, self.interval) = (id, card, ease, interval)
        (self.lastInterval, self.factor, self.milliseconds, self.type) = (lastInterval, factor, milliseconds, type)
    }

    /// The rows `sql` selects (`columns`), read straight; nil where a value is not of the type read.
    static func straight(_ db: Database, sql: String) throws -> [RevlogRow]? {
        var rows: [RevlogRow] = []
        let read = try StraightRows.read(db, sql: sql, types: Array(repeating: SQLITE_INTEGER, count: 8)) { row in
            rows.append(RevlogRow(id: row.int64(0), card: row.int64(1), ease: row.int64(2), interval: row.int64(3),
                                  lastInterval: row.int64(4), factor: row.int64(5), milliseconds: row.int64(6), type: row.int64(7)))
        }
        return read ? rows : nil
    }
}

extension AnkiPackage {
    /// Anki's legacy deck options JSON, as a Maeil preset. The JSON is untrusted: every number is
    /// clamped into the range a Maeil deck file may hold, so no option can reach the scheduler
    /// that it could not get from a deck Maeil validated.
    static func deckOptions(_ config: [String: Any], fsrs: Bool) -> AnkiPackage.DeckOptions {
        var options = AnkiPackage.DeckOptions()
        let new = config["new"] as? [String: Any] ?? [:]
        let review = config["rev"] as? [String: Any] ?? [:]
        let lapse = config["lapse"] as? [String: Any] ?? [:]
        func number(_ value: Any?) -> Double? {
            let number: Double?
            switch value {
            case let double as Double: number = double
            case let whole as Int: number = Double(whole)
            case let whole as Int64: number = Double(whole)
            default: number = nil
            }
            return number.flatMap { $0.isFinite ? $0 : nil }
        }
        func whole(_ value: Any?, _ key: PresetKey) -> Int? {
            let range = key.wholeRange
            return number(value).map { Int($0.clamped(to: Double(range.lowerBound)...Double(range.upperBound)).rounded()) }
        }
        func fraction(_ value: Any?, _ key: PresetKey) -> Float? { number(value).map { Float($0.clamped(to: key.numberRange)) } }
        func minutes(_ value: Any?) -> [Double]? {
            guard let list = value as? [Any] else { return nil }
            let limit = Double(LearningSteps.secondsRange.upperBound) / 60
            return list.prefix(64).compactMap(number).filter { $0 > 0 }.map { min($0, limit) }
        }
        func seconds(_ minutes: [Double]) -> LearningSteps {
            LearningSteps(seconds: minutes.map { Int(($0 * 60).rounded()).clamped(to: LearningSteps.secondsRange) })
        }
        if let delays = minutes(new["delays"]) { options.learningSteps = delays }
        if let delays = minutes(lapse["delays"]) { options.relearningSteps = delays }
        var preset = Preset(name: "")
        preset.scheduler.learningSteps = seconds(options.learningSteps)
        preset.scheduler.relearningSteps = seconds(options.relearningSteps)
        if let perDay = whole(new["perDay"], .newPerDay) { preset.newPerDay = perDay }
        if let perDay = whole(review["perDay"], .reviewsPerDay) { preset.reviewsPerDay = perDay }
        if let ints = new["ints"] as? [Any], ints.count >= 2 {
            if let days = whole(ints[0], .graduatingInterval) { preset.scheduler.graduatingInterval = days }
            if let days = whole(ints[1], .easyInterval) { preset.scheduler.easyInterval = days }
        }
        if let factor = number(new["initialFactor"]), factor >= 1300 {
            preset.scheduler.startingEasePermille = Int((factor / 1000).clamped(to: PresetKey.startingEase.numberRange) * 1000)
        }
        if let bonus = fraction(review["ease4"], .easyBonus) { preset.scheduler.easyBonus = bonus }
        if let hard = fraction(review["hardFactor"], .hardInterval) { preset.scheduler.hardInterval = hard }
        if let modifier = fraction(review["ivlFct"], .intervalModifier) { preset.scheduler.intervalModifier = modifier }
        if let maximum = whole(review["maxIvl"], .maximumInterval) { preset.scheduler.maximumInterval = maximum }
        if let multiplier = fraction(lapse["mult"], .lapseNewInterval) { preset.scheduler.lapseNewInterval = multiplier }
        if let minimum = whole(lapse["minInt"], .minimumLapseInterval) { preset.scheduler.minimumLapseInterval = minimum }
        if let fails = whole(lapse["leechFails"], .leechThreshold) { preset.scheduler.leechThreshold = fails }
        if let action = number(lapse["leechAction"]) { preset.scheduler.leechAction = action == 0 ? .suspend : .tag }
        // Anki's three burying switches, all off by default.
        preset.buryNew = (new["bury"] as? NSNumber)?.boolValue == true
        preset.buryReviews = (review["bury"] as? NSNumber)?.boolValue == true
        preset.buryInterdayLearning = (config["buryInterdayLearning"] as? NSNumber)?.boolValue == true
        // The name the decks that share these options know them by.
        if let name = config["name"] as? String, !name.isEmpty { preset.name = DeckName.canonical(name) }
        if let days = config["easyDaysPercentages"] as? [Any], days.count == 7 {
            let loads = days.compactMap(number)
            if loads.count == 7 { preset.scheduler.easyDays = loads.map { $0 >= 1 ? 1 : ($0 <= 0 ? 0 : 0.5) } }
        }
        // The display order; a number only a newer Anki knows keeps Anki's default.
        func choice<Choice: AnkiNumbered>(_ key: String, _: Choice.Type) -> Choice? { number(config[key]).flatMap { Choice(ankiValue: Int($0)) } }
        if let mix = choice("newMix", StudyOrder.Mix.self) { preset.order.newMix = mix }
        if let mix = choice("interdayLearningMix", StudyOrder.Mix.self) { preset.order.interdayLearningMix = mix }
        if let order = choice("reviewOrder", StudyOrder.ReviewOrder.self) { preset.order.reviews = order }
        if let gather = choice("newGatherPriority", StudyOrder.NewGather.self) { preset.order.newGather = gather }
        if let sort = choice("newSortOrder", StudyOrder.NewSort.self) { preset.order.newSort = sort }
        if fsrs {
            // FSRS-6 parameters where Anki has them, else FSRS-5's; none means Anki's defaults.
            preset.scheduler.kind = .fsrs
            for key in ["fsrsParams6", "fsrsParams5"] {
                guard let list = config[key] as? [Any], !list.isEmpty else { continue }
                if let parameters = FSRSParameters(clamping: list.compactMap(number)) { preset.scheduler.fsrsParameters = parameters }
                break
            }
        }
        // Kept under SM-2 too: it is the preset's, and FSRS takes it when it is turned on.
        if let retention = number(config["desiredRetention"]) {
            preset.scheduler.desiredRetention = retention.clamped(to: PresetKey.desiredRetention.numberRange)
        }
        preset.ankiConfig = (try? JSONSerialization.data(withJSONObject: config, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
        options.preset = preset
        return options
    }


    /// The preset Anki's options stand for, from the legacy JSON a preset keeps of them.
    package static func preset(ankiConfig json: String, fsrs: Bool) -> Preset? {
        guard let config = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return nil }
        return deckOptions(config, fsrs: fsrs).preset
    }

    /// When Anki last changed these options (its "mod", seconds); 0 when it does not say.
    package static func modified(ankiConfig json: String) -> Int64 {
        let config = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        return (config?["mod"] as? NSNumber)?.int64Value ?? 0
    }
}

extension AnkiPackage {
    /// What Anki counted of today's answers in each deck of a collection file (schema 11, as
    /// a sync's merge is), by Anki's deck id: each deck's own, as an import of the whole file
    /// keeps them (`ImportedDeck.ankiAnsweredToday`).
    package static func answeredToday(ofCollectionFile url: URL, timeZone: TimeZone, now: Date) throws -> [Int64: AnkiAnsweredToday] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            guard let created = try Int64.fetchOne(db, sql: "SELECT crt FROM col") else { return [:] }
            let days = AnkiDays(created: created, config: try AnkiDays.config(db), timeZone: timeZone, now: now)
            let text = try String.fetchOne(db, sql: "SELECT decks FROM col") ?? "{}"
            let all = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
            var records: [Int64: CollectionReading.AnkiDeckRecord] = [:]
            for (key, value) in all {
                guard let id = Int64(key), let deck = value as? [String: Any], let name = deck["name"] as? String else { continue }
                records[id] = CollectionReading.AnkiDeckRecord(name: name, counted: CollectionReading.AnkiDeckRecord.counted(legacy: deck),
                                                               filtered: (deck["dyn"] as? NSNumber)?.intValue ?? 0 != 0)
            }
            return CollectionReading.AnkiDeckRecord.answeredToday(records, days: days, now: now)
        }
    }

    /// What a schema-11 collection file (a sync's merge) holds beside what Maeil uses: its config
    /// and the rest of each deck (Anki's legacy JSON, by Anki's deck id), as an import keeps them.
    package static func keptObjects(ofCollectionFile url: URL) throws -> KeptObjects {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in
            func objects(_ column: String) throws -> [Int64: [String: Any]] {
                let text = try String.fetchOne(db, sql: "SELECT \(column) FROM col") ?? "{}"
                let all = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
                return Dictionary(uniqueKeysWithValues: all.compactMap { key, value in
                    guard let id = Int64(key), let object = value as? [String: Any] else { return nil }
                    return (id, object)
                })
            }
            func text(_ object: Any) -> String? {
                (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) }
            }
            var kept = KeptObjects(config: text(try AnkiDays.config(db)))
            for (id, deck) in try objects("decks") {
                var record = CollectionReading.AnkiDeckRecord(name: "")
                record.kept = CollectionReading.AnkiDeckRecord.kept(legacy: deck)
                kept.decks[id] = record.keptJSON
            }
            // As an import keeps a preset's options (`deckOptions`): the legacy JSON whole.
            kept.deckOptions = try objects("dconf").compactMapValues(text)
            return kept
        }
    }

    /// What `keptObjects` reads, each by Anki's id.
    package struct KeptObjects {
        package var config: String?
        package var decks: [Int64: String] = [:]
        package var deckOptions: [Int64: String] = [:]

        /// The collection's rules for daily limits, where its config holds them.
        package var limitRules: LimitRules? {
            guard let config, let object = (try? JSONSerialization.jsonObject(with: Data(config.utf8))) as? [String: Any] else { return nil }
            return AnkiDays.limitRules(object)
        }
    }
}
