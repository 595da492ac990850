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

struct CollectionReading {
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
        let buriedUntil = try buriedUntil(config: config, days: days)
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
            for card in cards where !note.cardsKnown {
                // A card Anki keeps in another deck than its note's first card is studied there:
                // that deck is announced before the note, so the card is written into it, and its
                // learning step is counted in that deck's steps (counted in the note's deck's, a
                // card one step from graduating there was sent back to a step it had left).
                let ownDeck = card.originalDeck != 0 ? card.originalDeck : card.deck
                let inOwnDeck = options.deckName == nil && ownDeck != homeDeck && ankiDecks[ownDeck] != nil
                let steps = deckOptions[inOwnDeck ? ownDeck : homeDeck] ?? AnkiPackage.DeckOptions()
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
                if inOwnDeck {
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

        /// Each deck's own answers of the day as Anki counted them (by the file's clock at
        /// `now`): its counts less its subdecks', which Anki counts in a deck's too; none for a
        /// deck whose counters are of another day. A filtered subdeck's answers stay with the
        /// deck above it, which Anki counts them against; the cards' own decks it does not.
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
                guard let counted = record.counted else { continue }
                guard todays(record) != nil else {
                    // Counters of another day: Anki counted nothing there today. An answer of today
                    // the log puts there is one given in another deck, the card moved since, and
                    // counted there (found by DisplayOrderAgainstAnkiTests over 90 seeds: the moved
                    // card's answer counted here too, and its deck showed one new card fewer than Anki).
                    if !record.filtered { answered[id] = AnkiAnsweredToday(clock: days.clock, day: today, new: 0, reviews: 0, milliseconds: 0) }
                    continue
                }
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

    /// When the file's buried cards come back; nil where Anki would unbury them now. Anki lifts
    /// every burial at its first deck list on a later day than the one it last did so on
    /// (`lastUnburied`, a due day; or when that is over a week ahead), and marks no card changed
    /// for it: a file may hold buried a card its device has long since unburied, and a card
    /// buried there today stays buried through the hour a day starts being moved. An .apkg's
    /// settings are of its own making: its cards come back the day after it was made.
    func buriedUntil(config: [String: Any], days: AnkiDays) throws -> Date? {
        guard !file.lowercased().hasSuffix(".apkg") else {
            let made = packageDate(Double(try Int64.fetchOne(db, sql: "SELECT mod FROM col") ?? 0) / 1000)
            return days.clock.start(ofDay: days.clock.dayNumber(of: made) + 1)
        }
        let today = Int64(days.clock.dayNumber(of: options.now) - days.createdDay)
        guard let last = (config["lastUnburied"] as? NSNumber)?.int64Value, today <= last, last <= today + 7 else { return nil }
        return days.start(ofDueDay: last + 1)
    }

    struct DeckAndType: Hashable {
        var deck: Int64
        var type: Int64
    }
}

/// A time from the package, kept between 1970 and 9999 so that no later conversion overflows.
func packageDate(_ secondsSince1970: Double) -> Date {
    Date(timeIntervalSince1970: secondsSince1970.isFinite ? secondsSince1970.clamped(to: 0...253_402_300_799) : 0)
}
