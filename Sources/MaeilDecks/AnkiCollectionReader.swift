import Foundation
import GRDB
import MaeilCore

/// Reads the SQLite collection inside an Anki package into Maeil decks.
extension AnkiPackage {
    struct NoteType {
        var id: Int64
        var name: String
        var isCloze: Bool
        var fields: [String]
        /// (name, question format, answer format) by ordinal.
        var templates: [(name: String, question: String, answer: String)]
    }

    struct DeckOptions {
        var learningSteps: [Double] = [1, 10]
        var relearningSteps: [Double] = [10]
        var preset = ImportedPreset()
    }

    static func readCollection(_ database: Data, version: Version, file: String, options: ImportOptions) throws -> Contents {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("maeil-apkg-\(UUID().uuidString).sqlite")
        try database.write(to: temporary)
        defer { try? FileManager.default.removeItem(at: temporary) }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in
            // Schema 15 and later compare names with Anki's own "unicase" collation.
            db.add(collation: DatabaseCollation("unicase") { $0.caseInsensitiveCompare($1) })
        }
        do {
            let queue = try DatabaseQueue(path: temporary.path, configuration: configuration)
            return try queue.read { db in try CollectionReading(db: db, version: version, file: file, options: options).contents() }
        } catch let problem as ImportProblem {
            throw problem
        } catch {
            throw ImportProblem(file: file, message: "cannot read the collection inside the package: \(error)")
        }
    }
}

private struct CollectionReading {
    let db: Database
    let version: AnkiPackage.Version
    let file: String
    let options: ImportOptions

    func contents() throws -> AnkiPackage.Contents {
        guard let created = try Int64.fetchOne(db, sql: "SELECT crt FROM col") else {
            throw ImportProblem(file: file, message: "the collection has no creation time (col.crt)")
        }
        let (noteTypes, deckNames, deckOptions) = version == .latest ? try currentSchema() : try legacySchema()
        let cardsByNote = try cards()
        let reviews = try reviewsByCard()
        var decks: [Int64: ImportedDeck] = [:]
        var deckOrder: [Int64] = []
        var templateNames: [Int64: [String]] = [:]  // per Maeil deck id: template names in use
        var skipped: [ImportProblem] = []
        var templatesByType: [Int64: [CardTemplate]] = [:]
        var noteRows: [(note: Row, id: Int64, firstNew: Int64)] = []
        for row in try Row.fetchAll(db, sql: "SELECT id, guid, mid, tags, flds FROM notes ORDER BY id") {
            let id: Int64 = row[0]
            let cards = cardsByNote[id] ?? []
            let firstNew = cards.filter { ($0[4] as Int) == 0 }.map { $0[6] as Int64 }.min() ?? Int64.max
            noteRows.append((row, id, firstNew))
        }
        // New cards keep Anki's order; notes with no new card keep their creation order.
        noteRows.sort { ($0.firstNew, $0.id) < ($1.firstNew, $1.id) }
        for (row, _, _) in noteRows {
            let noteID: Int64 = row[0]
            guard let type = noteTypes[row[2] as Int64] else {
                skipped.append(ImportProblem(file: file, message: "note \(noteID) has a note type the package does not define"))
                continue
            }
            let cards = cardsByNote[noteID] ?? []
            guard let firstCard = cards.first else { continue }
            let homeDeck: Int64 = (firstCard[13] as Int64) != 0 ? firstCard[13] : firstCard[2]
            let deckName = options.deckName ?? deckNames[homeDeck] ?? "Imported"
            let deckKey = options.deckName == nil ? homeDeck : 0
            if decks[deckKey] == nil {
                var deck = ImportedDeck(name: deckName, kind: nil, templates: [], source: file)
                deck.preset = deckOptions[homeDeck]?.preset
                decks[deckKey] = deck
                deckOrder.append(deckKey)
            }
            // Templates of this note type, named apart from other note types' in the same deck.
            let mapped = templatesByType[type.id] ?? maeilTemplates(for: type)
            templatesByType[type.id] = mapped
            var names: [String] = []
            for template in mapped {
                var candidate = template
                if let existing = decks[deckKey]!.templates.first(where: { $0.name == template.name }), existing.noteType != type.name {
                    candidate.name = "\(template.name) (\(type.name))"
                }
                if !decks[deckKey]!.templates.contains(where: { $0.name == candidate.name }) {
                    decks[deckKey]!.templates.append(candidate)
                }
                names.append(candidate.name)
            }
            templateNames[deckKey] = names
            let values = (row[4] as String).split(separator: "\u{1f}", omittingEmptySubsequences: false).map { HTMLText.plain(String($0)).nfc }
            let fields = type.fields.enumerated().map { index, name in
                NoteField(name: name, value: index < values.count ? values[index] : "")
            }
            var note = ImportedNote(guid: row[1], kind: type.isCloze ? .cloze : .basic, noteType: type.name, fields: fields,
                                    tags: (row[3] as String).split(separator: " ").map(String.init), origin: "\(file): note \(noteID)")
            let steps = deckOptions[homeDeck] ?? AnkiPackage.DeckOptions()
            for card in cards {
                let ordinal: Int = card[3]
                let templateName = type.isCloze ? names.first ?? "cloze" : (ordinal < names.count ? names[ordinal] : "card \(ordinal + 1)")
                var imported = ImportedCard(template: templateName, ordinal: type.isCloze ? ordinal + 1 : 0,
                                            state: state(card, created: created, steps: steps, reviews: reviews[card[0] as Int64] ?? []))
                imported.suspended = (card[5] as Int) == -1
                imported.reviews = reviews[card[0] as Int64] ?? []
                note.cards.append(imported)
            }
            decks[deckKey]!.notes.append(note)
        }
        return AnkiPackage.Contents(decks: deckOrder.map { decks[$0]! }, media: [], skipped: skipped)
    }

    // MARK: Note types and decks

    func legacySchema() throws -> ([Int64: AnkiPackage.NoteType], [Int64: String], [Int64: AnkiPackage.DeckOptions]) {
        guard let row = try Row.fetchOne(db, sql: "SELECT models, decks, dconf FROM col") else {
            throw ImportProblem(file: file, message: "the collection has no col row")
        }
        func json(_ text: String) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
        }
        var types: [Int64: AnkiPackage.NoteType] = [:]
        for (key, value) in json(row[0]) {
            guard let model = value as? [String: Any], let id = Int64(key) else { continue }
            let fields = ((model["flds"] as? [[String: Any]]) ?? []).sorted { ($0["ord"] as? Int ?? 0) < ($1["ord"] as? Int ?? 0) }
                .compactMap { $0["name"] as? String }
            let templates = ((model["tmpls"] as? [[String: Any]]) ?? []).sorted { ($0["ord"] as? Int ?? 0) < ($1["ord"] as? Int ?? 0) }
                .map { (name: $0["name"] as? String ?? "Card", question: $0["qfmt"] as? String ?? "", answer: $0["afmt"] as? String ?? "") }
            types[id] = AnkiPackage.NoteType(id: id, name: model["name"] as? String ?? "Note type \(id)",
                                             isCloze: (model["type"] as? Int) == 1, fields: fields, templates: templates)
        }
        var names: [Int64: String] = [:]
        var configOfDeck: [Int64: String] = [:]
        for (key, value) in json(row[1]) {
            guard let deck = value as? [String: Any], let id = Int64(key) else { continue }
            names[id] = deck["name"] as? String
            configOfDeck[id] = (deck["conf"] as? Int).map(String.init)
        }
        let configs = json(row[2])
        var options: [Int64: AnkiPackage.DeckOptions] = [:]
        for (deck, configID) in configOfDeck {
            if let config = configs[configID] as? [String: Any] { options[deck] = deckOptions(config) }
        }
        return (types, names, options)
    }

    /// Anki's legacy deck options JSON, as a Maeil preset.
    func deckOptions(_ config: [String: Any]) -> AnkiPackage.DeckOptions {
        var options = AnkiPackage.DeckOptions()
        let new = config["new"] as? [String: Any] ?? [:]
        let review = config["rev"] as? [String: Any] ?? [:]
        let lapse = config["lapse"] as? [String: Any] ?? [:]
        func seconds(_ minutes: [Double]) -> LearningSteps { LearningSteps(seconds: minutes.map { Int(($0 * 60).rounded()) }.filter { $0 > 0 }) }
        if let delays = new["delays"] as? [Double] { options.learningSteps = delays }
        if let delays = lapse["delays"] as? [Double] { options.relearningSteps = delays }
        var preset = ImportedPreset()
        preset.scheduler.learningSteps = seconds(options.learningSteps)
        preset.scheduler.relearningSteps = seconds(options.relearningSteps)
        if let perDay = new["perDay"] as? Int { preset.newPerDay = perDay }
        if let perDay = review["perDay"] as? Int { preset.reviewsPerDay = perDay }
        if let ints = new["ints"] as? [Int], ints.count >= 2 {
            preset.scheduler.graduatingInterval = max(1, ints[0])
            preset.scheduler.easyInterval = max(1, ints[1])
        }
        if let factor = new["initialFactor"] as? Int, factor >= 1300 { preset.scheduler.startingEasePermille = factor }
        if let bonus = review["ease4"] as? Double { preset.scheduler.easyBonus = Float(bonus) }
        if let hard = review["hardFactor"] as? Double { preset.scheduler.hardInterval = Float(hard) }
        if let modifier = review["ivlFct"] as? Double, modifier > 0 { preset.scheduler.intervalModifier = Float(modifier) }
        if let maximum = review["maxIvl"] as? Int, maximum > 0 { preset.scheduler.maximumInterval = maximum }
        if let multiplier = lapse["mult"] as? Double { preset.scheduler.lapseNewInterval = Float(multiplier) }
        if let minimum = lapse["minInt"] as? Int, minimum > 0 { preset.scheduler.minimumLapseInterval = minimum }
        if let fails = lapse["leechFails"] as? Int { preset.scheduler.leechThreshold = fails }
        if let action = lapse["leechAction"] as? Int { preset.scheduler.leechAction = action == 0 ? .suspend : .tag }
        options.preset = preset
        return options
    }

    func currentSchema() throws -> ([Int64: AnkiPackage.NoteType], [Int64: String], [Int64: AnkiPackage.DeckOptions]) {
        var fields: [Int64: [String]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT ntid, name FROM fields ORDER BY ntid, ord") {
            fields[row[0], default: []].append(row[1])
        }
        var templates: [Int64: [(name: String, question: String, answer: String)]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT ntid, name, config FROM templates ORDER BY ntid, ord") {
            let config = (row[2] as Data?) ?? Data()
            templates[row[0], default: []].append((
                name: row[1], question: (try? ProtobufReader.string(config, field: 1)) ?? nil ?? "",
                answer: (try? ProtobufReader.string(config, field: 2)) ?? nil ?? ""))
        }
        var types: [Int64: AnkiPackage.NoteType] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name, config FROM notetypes") {
            let id: Int64 = row[0]
            let kind = (try? ProtobufReader.varint((row[2] as Data?) ?? Data(), field: 1)) ?? nil
            types[id] = AnkiPackage.NoteType(id: id, name: row[1], isCloze: kind == 1, fields: fields[id] ?? [], templates: templates[id] ?? [])
        }
        var names: [Int64: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, name FROM decks") {
            names[row[0]] = (row[1] as String).replacingOccurrences(of: "\u{1f}", with: "::")
        }
        return (types, names, [:])
    }

    /// Maeil templates from Anki's: the fields a question shows, the ones its answer adds.
    func maeilTemplates(for type: AnkiPackage.NoteType) -> [CardTemplate] {
        if type.isCloze {
            let question = type.templates.first?.question ?? ""
            let blanks = Self.references(in: question).first { $0.prefix == "cloze" }?.field ?? type.fields.first ?? "Text"
            let answer = type.templates.first?.answer ?? ""
            let back = Self.references(in: answer).map(\.field).filter { $0 != blanks && type.fields.contains($0) }
            return [CardTemplate(name: "cloze", front: [], back: Self.unique(back), blanks: blanks, noteType: type.name)]
        }
        return type.templates.enumerated().map { index, template in
            let asked = Self.references(in: template.question).filter { type.fields.contains($0.field) && $0.prefix != "type" }
            let front = Self.unique(asked.map(\.field))
            let typed = Self.references(in: template.question).first { $0.prefix == "type" }?.field
            var back = Self.unique(Self.references(in: template.answer).map(\.field).filter { type.fields.contains($0) && !front.contains($0) })
            if back.isEmpty { back = type.fields.filter { !front.contains($0) } }
            return CardTemplate(name: template.name.isEmpty ? "card \(index + 1)" : template.name,
                                front: front.isEmpty ? Array(type.fields.prefix(1)) : front, back: back, typed: typed, noteType: type.name)
        }
    }

    /// {{Field}}, {{type:Field}}, {{cloze:Text}}, {{#Field}}… → (prefix, field).
    static func references(in format: String) -> [(prefix: String?, field: String)] {
        var result: [(String?, String)] = []
        var rest = Substring(format)
        while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
            var body = rest[open.upperBound..<close.lowerBound].trimmingCharacters(in: .whitespaces)
            rest = rest[close.upperBound...]
            if body.hasPrefix("#") || body.hasPrefix("/") || body.hasPrefix("^") { body.removeFirst() }
            let parts = body.split(separator: ":").map(String.init)
            guard let field = parts.last, !["FrontSide", "Tags", "Deck", "Subdeck", "Card", "CardFlag", "Type"].contains(field) else { continue }
            result.append((parts.count > 1 ? parts[0].lowercased() : nil, field))
        }
        return result
    }

    static func unique(_ names: [String]) -> [String] {
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    // MARK: Cards and reviews

    /// Card rows by note: id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, left, odue, odid, data.
    func cards() throws -> [Int64: [Row]] {
        var result: [Int64: [Row]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT id, nid, did, ord, type, queue, due, ivl, factor, reps, lapses, left, odue, odid, data FROM cards ORDER BY nid, ord
            """) {
            result[row[1], default: []].append(row)
        }
        return result
    }

    func reviewsByCard() throws -> [Int64: [ImportedReview]] {
        var result: [Int64: [ImportedReview]] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT id, cid, ease, ivl, lastIvl, factor, time, type FROM revlog ORDER BY id") {
            let type: Int = row[7]
            guard let rating = Rating(rawValue: row[2]), type <= 3 else { continue }  // manual and rescheduled entries carry no answer
            let before: CardPhase = type == 0 ? .learning : (type == 2 ? .relearning : .review)
            let interval: Int = row[3]
            let after: CardPhase = interval > 0 ? .review : (before == .review ? .relearning : before)
            let factor: Int = row[5]
            result[row[1], default: []].append(ImportedReview(
                time: Date(timeIntervalSince1970: Double(row[0] as Int64) / 1000), rating: rating,
                durationMilliseconds: max(0, row[6]), phaseBefore: before, phaseAfter: after,
                intervalBefore: max(0, row[4] as Int), intervalAfter: max(0, interval), easePermille: factor > 0 ? factor : 2500))
        }
        return result
    }

    /// An Anki card's scheduling as a Maeil state. Review due dates are day numbers counted
    /// from the collection's creation day (col.crt, which falls on a rollover); learning due
    /// times are epoch seconds; a card in a filtered deck keeps its original due in odue.
    func state(_ card: Row, created: Int64, steps: AnkiPackage.DeckOptions, reviews: [ImportedReview]) -> CardState {
        let type: Int = card[4], queue: Int = card[5]
        let due: Int64 = (card[13] as Int64) != 0 && (card[12] as Int64) != 0 ? card[12] : card[6]
        let interval: Int = card[7]
        let factor: Int = card[8]
        let data = (card[14] as String?) ?? ""
        let memory = (try? JSONSerialization.jsonObject(with: Data(data.utf8))) as? [String: Any]
        guard type != 0 else { return .new }
        var state = CardState(phase: .review, intervalDays: max(interval, 0), easePermille: factor >= 1300 ? factor : 2500,
                              reps: card[9], lapses: card[10], streak: 0)
        if let stability = memory?["s"] as? Double, let difficulty = memory?["d"] as? Double {
            state.stability = stability
            state.difficulty = difficulty
        }
        func dayStart(_ day: Int64) -> Date { Date(timeIntervalSince1970: TimeInterval(created + day * 86_400)) }
        let intraday = queue == 1 || (queue < 0 && due > 1_000_000_000)
        switch type {
        case 1, 3:
            state.phase = type == 1 ? .learning : .relearning
            let stepMinutes = type == 1 ? steps.learningSteps : steps.relearningSteps
            let remaining = (card[11] as Int) % 1000
            state.step = max(0, min(stepMinutes.count - remaining, max(stepMinutes.count - 1, 0)))
            state.scheduledSeconds = stepMinutes.isEmpty ? 600 : Int(stepMinutes[min(state.step, stepMinutes.count - 1)] * 60)
            state.due = intraday ? Date(timeIntervalSince1970: TimeInterval(due)) : dayStart(due)
            if type == 1 { state.intervalDays = 0 }
        default:
            state.due = dayStart(due)
        }
        if let lastReview = (memory?["lrt"] as? Double) ?? reviews.last.map({ $0.time.timeIntervalSince1970 }) {
            state.lastReview = Date(timeIntervalSince1970: lastReview)
        } else if let due = state.due {
            state.lastReview = due.addingTimeInterval(-Double(state.intervalDays) * 86_400)
        }
        state.streak = reviews.reversed().prefix { $0.rating != .again }.count
        return state
    }
}
