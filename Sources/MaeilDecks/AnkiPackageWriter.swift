import Crypto
import CZstd
import Foundation
import GRDB
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
public enum AnkiPackageWriter {
    public enum Format: Sendable {
        case current, legacy
    }

    /// `clock` is the study-day clock review due dates are counted in.
    public static func write(_ collection: ExportCollection, to url: URL, format: Format = .current, now: Date, clock: DayClock) throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let databaseURL = work.appendingPathComponent("collection.anki21")
        let queue = try DatabaseQueue(path: databaseURL.path)
        try queue.write { db in try CollectionWriting(db: db, collection: collection, now: now, clock: clock).write() }
        try queue.close()
        let partial = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: partial) }
        let archive = try Archive(url: partial, accessMode: .create)
        switch format {
        case .legacy:
            try archive.addEntry(with: "collection.anki21", fileURL: databaseURL, compressionMethod: .deflate)
            var names: [String: String] = [:]
            for (index, item) in collection.media.enumerated() {
                names["\(index)"] = item.name
                try archive.addEntry(with: "\(index)", fileURL: item.file, compressionMethod: .deflate)
            }
            try add(try JSONSerialization.data(withJSONObject: names, options: [.sortedKeys]), named: "media", to: archive)
            try add(Data([0x08, 0x02]), named: "meta", to: archive)  // PackageMetadata { version: LEGACY_2 }
        case .current:
            try add(try Zstd.compress(Data(contentsOf: databaseURL)), named: "collection.anki21b", to: archive, compress: false)
            var entries = Data()
            for (index, item) in collection.media.enumerated() {
                let data = try Data(contentsOf: item.file)
                // MediaEntries { repeated MediaEntry entries = 1 } MediaEntry { name = 1; size = 2; sha1 = 3 }
                var entry = Protobuf.bytes(1, Data(item.name.utf8)) + Protobuf.varint(2, UInt64(data.count))
                entry += Protobuf.bytes(3, Data(Insecure.SHA1.hash(data: data)))
                entries += Protobuf.bytes(1, entry)
                try add(try Zstd.compress(data), named: "\(index)", to: archive, compress: false)
            }
            try add(try Zstd.compress(entries), named: "media", to: archive, compress: false)
            try add(Data([0x08, 0x03]), named: "meta", to: archive)  // PackageMetadata { version: LATEST }
        }
        // Whole or not at all: the finished file takes the name in one step.
        guard rename(partial.path, url.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path, NSUnderlyingErrorKey: POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)])
        }
    }

    static func add(_ data: Data, named name: String, to archive: Archive, compress: Bool = true) throws {
        try archive.addEntry(with: name, type: .file, uncompressedSize: Int64(data.count), compressionMethod: compress ? .deflate : .none) {
            position, size in data.subdata(in: Int(position)..<Int(position) + size)
        }
    }
}

/// The schema-11 collection inside a package.
private struct CollectionWriting {
    let db: Database
    let collection: ExportCollection
    let now: Date
    let clock: DayClock

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
        CREATE INDEX ix_notes_usn on notes (usn);
        CREATE INDEX ix_cards_usn on cards (usn);
        CREATE INDEX ix_revlog_usn on revlog (usn);
        CREATE INDEX ix_cards_nid on cards (nid);
        CREATE INDEX ix_cards_sched on cards (did, queue, due);
        CREATE INDEX ix_revlog_cid on revlog (cid);
        CREATE INDEX ix_notes_csum on notes (csum);
        """

    func write() throws {
        try db.execute(sql: Self.schema)
        let nowSeconds = Int64(now.timeIntervalSince1970)
        // Day numbers count from the collection's creation day: a day before every due date
        // and every answer, so none is negative.
        let cards = collection.decks.flatMap(\.notes).flatMap(\.cards)
        let earliest = cards.compactMap { $0.state.phase == .new ? nil : [$0.state.due, $0.state.lastReview].compactMap { $0 }.min() }.min()
        let createdDay = min(clock.dayNumber(of: now), earliest.map(clock.dayNumber(of:)) ?? .max) - 1
        let created = clock.start(ofDay: createdDay)
        let today = clock.dayNumber(of: now)
        let types = Dictionary(collection.noteTypes.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var usedIDs = Set<Int64>()
        func uniqueID(_ wanted: Int64) -> Int64 {
            var id = wanted
            while !usedIDs.insert(id).inserted { id += 1 }
            return id
        }
        var decks: [String: Any] = ["1": Self.deckJSON(id: 1, name: "Default", configID: 1, now: nowSeconds)]
        var configs: [String: Any] = ["1": Self.deckConfigJSON(Preset(name: "Default"), id: 1, now: nowSeconds)]
        var configIDs: [String: Int64] = [:]
        let insertNote = try db.makeStatement(sql: "INSERT INTO notes VALUES (?, ?, ?, ?, -1, ?, ?, ?, ?, 0, '')")
        let insertCard = try db.makeStatement(sql: "INSERT INTO cards VALUES (?, ?, ?, ?, ?, -1, ?, ?, ?, ?, ?, ?, ?, ?, 0, 0, 0, ?)")
        let insertLog = try db.makeStatement(sql: "INSERT INTO revlog VALUES (?, ?, -1, ?, ?, ?, ?, ?, ?)")
        var noteID = nowSeconds * 1000, cardID = nowSeconds * 1000
        var modelDeck: [Int64: Int64] = [:]
        var fsrs = false
        for (index, deck) in collection.decks.enumerated() {
            let deckID = nowSeconds * 1000 + Int64(index) + 100
            let configID = configIDs[deck.preset.name] ?? nowSeconds * 1000 + Int64(configIDs.count) + 1
            if configIDs[deck.preset.name] == nil {
                configIDs[deck.preset.name] = configID
                configs["\(configID)"] = Self.deckConfigJSON(deck.preset, id: configID, now: nowSeconds)
            }
            fsrs = fsrs || deck.preset.scheduler.kind == .fsrs
            decks["\(deckID)"] = Self.deckJSON(id: deckID, name: deck.name, configID: configID, now: nowSeconds)
            let learningSteps = deck.preset.scheduler.learningSteps.seconds.count
            let relearningSteps = deck.preset.scheduler.relearningSteps.seconds.count
            for note in deck.notes {
                noteID += 1
                modelDeck[note.noteTypeID] = modelDeck[note.noteTypeID] ?? deckID
                let values = note.values.map { $0.replacingOccurrences(of: "\u{1f}", with: " ") }
                let sortField = types[note.noteTypeID].map { Self.sortField(of: $0) } ?? 0
                let sortText = FieldText.plain(sortField < values.count ? values[sortField] : "", html: true)
                try insertNote.execute(arguments: [noteID, note.guid, note.noteTypeID, note.modified, " " + note.tags.joined(separator: " ") + " ",
                                                   values.joined(separator: "\u{1f}"), sortText, Self.checksum(values.first ?? "")])
                for card in note.cards {
                    cardID += 1
                    let columns = Self.scheduling(card, createdDay: createdDay, today: today, clock: clock, learningSteps: learningSteps,
                                                  relearningSteps: relearningSteps)
                    try insertCard.execute(arguments: [cardID, noteID, deckID, card.ordinal, card.modified, columns.type, columns.queue,
                                                       columns.due, columns.interval, card.state.phase == .new ? 0 : card.state.easePermille,
                                                       card.state.reps, card.state.lapses, columns.left, Self.data(card)])
                    for entry in card.history {
                        guard let row = Self.revlog(entry) else { continue }
                        let id = uniqueID(entry.ankiID ?? Int64((entry.time.timeIntervalSince1970 * 1000).rounded(.down)))
                        try insertLog.execute(arguments: [id, cardID, row.ease, row.interval, row.lastInterval, row.factor,
                                                          entry.durationMilliseconds, row.type])
                    }
                }
            }
        }
        var models: [String: Any] = [:]
        for type in collection.noteTypes {
            var model = (try? JSONSerialization.jsonObject(with: Data(type.legacyJSON.utf8))) as? [String: Any] ?? [:]
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
        let conf: [String: Any] = ["nextPos": cards.count + 1, "curDeck": 1, "activeDecks": [1], "sortType": "noteFld", "sortBackwards": false,
                                   "schedVer": 2, "collapseTime": 1200, "dueCounts": true, "estTimes": true, "newSpread": 0,
                                   "curModel": collection.noteTypes.first?.id ?? 1, "fsrs": fsrs, "rollover": clock.rolloverHour]
        try db.execute(sql: "INSERT INTO col VALUES (1, ?, ?, ?, 11, 0, 0, 0, ?, ?, ?, ?, '{}')", arguments: [
            Int64(created.timeIntervalSince1970), nowSeconds * 1000, nowSeconds * 1000,
            try json(conf), try json(models), try json(decks), try json(configs),
        ])
    }

    static func sortField(of type: AnkiNoteType) -> Int {
        ((try? JSONSerialization.jsonObject(with: Data(type.legacyJSON.utf8))) as? [String: Any])?["sortf"] as? Int ?? 0
    }

    /// Anki's note checksum: the first 8 hex digits of the SHA-1 of the first field's text.
    static func checksum(_ field: String) -> Int64 {
        let digest = Insecure.SHA1.hash(data: Data(FieldText.answer(field, html: true).utf8))
        return Int64(digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// Maeil's state in Anki's card columns.
    static func scheduling(_ card: ExportCard, createdDay: Int, today: Int, clock: DayClock, learningSteps: Int, relearningSteps: Int)
        -> (type: Int, queue: Int, due: Int64, interval: Int, left: Int) {
        let state = card.state
        func queue(_ normal: Int) -> Int { card.suspended ? -1 : (card.buried ? -3 : normal) }
        switch state.phase {
        case .new:
            return (0, queue(0), Int64(card.position), 0, 0)
        case .review:
            let dueDay = state.due.map(clock.dayNumber(of:)) ?? today
            return (2, queue(2), Int64(dueDay - createdDay), state.intervalDays, 0)
        case .learning, .relearning:
            let type = state.phase == .learning ? 1 : 3
            let steps = state.phase == .learning ? learningSteps : relearningSteps
            let left = max(1, steps - state.step)
            let interval = state.phase == .relearning ? state.intervalDays : 0
            // Due today: a second (Anki's learning queue); due on a later day: a day number (its day-learning queue).
            guard let due = state.due, clock.dayNumber(of: due) > today else {
                return (type, queue(1), Int64(state.due?.timeIntervalSince1970 ?? 0), interval, left)
            }
            return (type, queue(3), Int64(clock.dayNumber(of: due) - createdDay), interval, left)
        }
    }

    /// FSRS's memory in Anki's card data; new position for new cards.
    static func data(_ card: ExportCard) -> String {
        guard let memory = card.state.memory else { return "{}" }
        var data: [String: Any] = ["s": (memory.stability * 10_000).rounded() / 10_000, "d": (memory.difficulty * 1000).rounded() / 1000]
        if let retention = card.desiredRetention { data["dr"] = retention }
        if let decay = card.decay { data["decay"] = (decay * 1000).rounded() / 1000 }
        if let last = card.state.lastReview { data["lrt"] = Int64(last.timeIntervalSince1970) }
        return (try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// A log entry as a revlog row; nil for Maeil's own bookkeeping.
    static func revlog(_ entry: ReviewLogEntry) -> (ease: Int, interval: Int, lastInterval: Int, factor: Int, type: Int)? {
        func interval(_ state: CardState?) -> Int {
            guard let state else { return 0 }
            switch state.phase {
            case .new: return 0
            case .review: return state.intervalDays
            case .learning, .relearning: return -state.scheduledSeconds
            }
        }
        if let rating = entry.rating, entry.kind != .manual {
            let type: Int
            switch entry.before?.phase ?? .new {
            case .new, .learning: type = 0
            case .review: type = 1
            case .relearning: type = 2
            }
            // FSRS answers log their difficulty in the factor column, as Anki writes them.
            let factor: Int
            if let memory = entry.after?.memory, entry.scheduler == SchedulerKind.fsrs.rawValue {
                factor = Int((((memory.difficulty - 1) / 9 + 0.1) * 1000).rounded())
            } else {
                factor = entry.after?.easePermille ?? 2500
            }
            return (rating.rawValue, interval(entry.after), interval(entry.before), factor, type)
        }
        // Forgetting a card is Anki's "reset": a manual entry with no ease.
        if entry.kind == .manual, entry.after?.phase == .new, entry.before.map({ $0.phase != .new }) == true {
            return (0, 0, interval(entry.before), 0, 4)
        }
        return nil
    }

    static func deckJSON(id: Int64, name: String, configID: Int64, now: Int64) -> [String: Any] {
        ["id": id, "name": name, "mod": now, "usn": -1, "conf": configID, "desc": "", "dyn": 0, "collapsed": false, "browserCollapsed": false,
         "extendNew": 0, "extendRev": 0, "newToday": [0, 0], "revToday": [0, 0], "lrnToday": [0, 0], "timeToday": [0, 0]]
    }

    /// A preset as Anki's deck options: the options it came with from Anki, Maeil's values over them.
    static func deckConfigJSON(_ preset: Preset, id: Int64, now: Int64) -> [String: Any] {
        var config = preset.ankiConfig.flatMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] } ?? [
            "maxTaken": 60, "autoplay": true, "timer": 0, "replayq": true, "dyn": false,
        ]
        let settings = preset.scheduler
        func minutes(_ steps: LearningSteps) -> [Double] { steps.seconds.map { Double($0) / 60 } }
        var new = config["new"] as? [String: Any] ?? ["order": 1]
        new["delays"] = minutes(settings.learningSteps)
        new["perDay"] = preset.newPerDay
        new["ints"] = [settings.graduatingInterval, settings.easyInterval, 0]
        new["initialFactor"] = settings.startingEasePermille
        new["bury"] = preset.burySiblings
        var review = config["rev"] as? [String: Any] ?? [:]
        review["perDay"] = preset.reviewsPerDay
        review["ease4"] = Double(settings.easyBonus)
        review["hardFactor"] = Double(settings.hardInterval)
        review["ivlFct"] = Double(settings.intervalModifier)
        review["maxIvl"] = settings.maximumInterval
        review["bury"] = preset.burySiblings
        var lapse = config["lapse"] as? [String: Any] ?? [:]
        lapse["delays"] = minutes(settings.relearningSteps)
        lapse["mult"] = Double(settings.lapseNewInterval)
        lapse["minInt"] = settings.minimumLapseInterval
        lapse["leechFails"] = settings.leechThreshold
        lapse["leechAction"] = settings.leechAction == .suspend ? 0 : 1
        config["new"] = new
        config["rev"] = review
        config["lapse"] = lapse
        config["id"] = id
        config["name"] = preset.name
        config["mod"] = now
        config["usn"] = -1
        config["desiredRetention"] = settings.desiredRetention
        if settings.kind == .fsrs { config["fsrsParams6"] = settings.fsrsParameters.weights }
        return config
    }
}

/// The few protobuf fields a package's media list needs.
enum Protobuf {
    static func varint(_ value: UInt64) -> Data {
        var value = value
        var bytes = Data()
        repeat {
            bytes.append(UInt8(value & 0x7F) | (value > 0x7F ? 0x80 : 0))
            value >>= 7
        } while value > 0
        return bytes
    }

    static func varint(_ field: Int, _ value: UInt64) -> Data { varint(UInt64(field << 3)) + varint(value) }

    static func bytes(_ field: Int, _ data: Data) -> Data { varint(UInt64(field << 3 | 2)) + varint(UInt64(data.count)) + data }
}

extension Zstd {
    /// One zstd frame, with its content size, as Anki writes its packages.
    static func compress(_ data: Data, level: Int32 = 3) throws -> Data {
        var output = Data(count: ZSTD_compressBound(data.count))
        let written = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in ZSTD_compress(out.baseAddress, out.count, input.baseAddress, input.count, level) }
        }
        guard ZSTD_isError(written) == 0 else { throw Failure(description: "zstd could not compress the package") }
        output.count = written
        return output
    }
}
