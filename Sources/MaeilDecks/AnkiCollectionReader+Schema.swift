import Foundation
import GRDB
import MaeilCore
import MaeilPrograms

/// A package's note types, decks and deck options, in the legacy schema's JSON or the
/// current schema's protobuf tables.
extension CollectionReading {
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
    /// those holding only new cards too. (Where no card's data names "s", none is parsed: a sync
    /// reads its merge so each time, and SM-2 cards carry data of their own.)
    func remembersFSRSMemory() throws -> Bool {
        try Bool.fetchOne(db, sql: """
            SELECT EXISTS (SELECT 1 FROM cards
            WHERE instr(data, '"s"') AND json_valid(data) AND json_extract(data, '$.s') IS NOT NULL AND json_extract(data, '$.d') IS NOT NULL)
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
}
