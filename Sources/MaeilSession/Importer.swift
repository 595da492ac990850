import Foundation
import MaeilCore
import MaeilDecks
import MaeilStore

/// What an import did (or, with --dry-run, would do).
public struct ImportSummary: Sendable, Codable {
    public struct DeckSummary: Sendable, Codable {
        public var name: String
        public var created: Bool
        public var added = 0
        public var updated = 0
        public var unchanged = 0
        /// Notes of this deck that are no longer in the file: kept, and listed so the learner
        /// can delete them.
        public var gone: [String] = []
        public var cardsWithHistory = 0
    }

    public var decks: [DeckSummary] = []
    public var skipped: [String] = []
    public var media = 0
    public var dryRun = false

    public var added: Int { decks.reduce(0) { $0 + $1.added } }
    public var updated: Int { decks.reduce(0) { $0 + $1.updated } }
    public var unchanged: Int { decks.reduce(0) { $0 + $1.unchanged } }
}

/// Applies imported decks to a collection: all of it in one transaction, or nothing.
public struct Importer {
    public let collection: Collection
    public var now: Date
    /// Called as notes are written: (done, total).
    public var progress: ((Int, Int) -> Void)?

    public init(collection: Collection, now: Date = Date(), progress: ((Int, Int) -> Void)? = nil) {
        self.collection = collection
        self.now = now
        self.progress = progress
    }

    /// The folder media files go to, beside the collection file.
    public var mediaDirectory: URL {
        URL(fileURLWithPath: collection.path).deletingLastPathComponent().appendingPathComponent("media")
    }

    private struct DryRunRollback: Error {
        let summary: ImportSummary
    }

    /// From this many notes on, an import rebuilds the secondary indexes once at the end
    /// instead of keeping them up to date row by row.
    static let bulkThreshold = 2000

    public func apply(_ bundle: ImportBundle, dryRun: Bool = false) throws -> ImportSummary {
        // Media go to a staging folder first and are moved in only after the notes commit.
        let staging = dryRun ? nil : try stageMedia(bundle.media)
        defer { if let staging { try? FileManager.default.removeItem(at: staging) } }
        var summary: ImportSummary
        do {
            let total = bundle.decks.reduce(0) { $0 + $1.notes.count }
            summary = try collection.batch(now: now, bulk: total >= Self.bulkThreshold) { writer in
                var summary = ImportSummary()
                var done = 0
                func applyAll() throws {
                    for deck in bundle.decks {
                        summary.decks.append(try apply(deck, writer: writer) {
                            done += 1
                            if done % 500 == 0 || done == total { progress?(done, total) }
                        })
                    }
                }
                if total >= Self.bulkThreshold {
                    try writer.withSecondaryIndexesDeferred(applyAll)
                } else {
                    try applyAll()
                }
                summary.skipped = bundle.skipped.map(\.description)
                summary.media = bundle.media.count
                if dryRun {
                    summary.dryRun = true
                    throw DryRunRollback(summary: summary)
                }
                return summary
            }
        } catch let rollback as DryRunRollback {
            return rollback.summary
        }
        if let staging { try moveMedia(from: staging) }
        return summary
    }

    private func apply(_ imported: ImportedDeck, writer: CollectionWriter, noteWritten: () -> Void) throws -> ImportSummary.DeckSummary {
        var deck: Deck
        var created = false
        if let existing = try writer.deck(named: imported.name) {
            deck = existing
            // The file's templates replace ones of the same name; others the learner added stay.
            var templates = existing.templates
            for template in imported.templates {
                if let index = templates.firstIndex(where: { $0.name == template.name }) {
                    templates[index] = template
                } else {
                    templates.append(template)
                }
            }
            deck.templates = templates
            deck.description = imported.description.isEmpty ? existing.description : imported.description
            deck.speak = imported.speak ?? existing.speak
            deck.kind = imported.kind ?? existing.kind
            try writer.update(deck)
        } else {
            let preset = imported.preset.map { spec in
                Preset(name: imported.name, scheduler: spec.scheduler, newPerDay: spec.newPerDay, reviewsPerDay: spec.reviewsPerDay,
                       rolloverHour: spec.rolloverHour, burySiblings: spec.burySiblings, curriculumGating: spec.curriculumGating)
            }
            deck = try writer.createDeck(name: imported.name, kind: imported.kind, description: imported.description,
                                         templates: imported.templates, preset: preset, speak: imported.speak, source: imported.source)
            created = true
        }
        var summary = ImportSummary.DeckSummary(name: deck.name, created: created)
        var unitIDs: [String: (id: Int64, position: Int)] = [:]
        for (index, unit) in imported.units.enumerated() {
            unitIDs[unit.key] = (try writer.saveUnit(deckID: deck.id, key: unit.key, title: unit.title, position: index + 1), index + 1)
        }
        let existing = try writer.notesByGUID(deckID: deck.id)
        // Guids are unique in the whole collection: a note may already live in another deck.
        let elsewhere = try writer.allGUIDs().subtracting(existing.keys)
        // Curriculum decks order notes by their place in the file; other imports go after what is there.
        let base = imported.units.isEmpty ? try writer.nextNotePosition(deckID: deck.id) : 0
        var inserter = try writer.noteInserter(deck: deck)
        var seen = Set<String>()
        for (index, item) in imported.notes.enumerated() {
            if !existing.isEmpty { seen.insert(item.guid) }
            let unit = item.unit.flatMap { unitIDs[$0] }
            let stored = existing.isEmpty ? nil : existing[item.guid]
            let position = imported.units.isEmpty ? (stored?.position ?? base + index) : index
            if stored == nil, elsewhere.isEmpty || !elsewhere.contains(item.guid) {
                let draft = NoteDraft(guid: item.guid, kind: item.kind, fields: item.fields, tags: item.tags, unitID: unit?.id,
                                      position: position, source: item.origin, noteType: item.noteType)
                let added = try inserter.add(draft, unitPosition: unit?.position, seeds: item.cards.map(Self.seed))
                summary.added += 1
                summary.cardsWithHistory += added.scheduled
                noteWritten()
                continue
            }
            if var note = try stored ?? writer.note(guid: item.guid) {
                let changed = !item.keepExisting && note.fields != item.fields || Set(note.tags) != Set(item.tags) || note.unitID != unit?.id
                    || note.position != position || note.kind != item.kind || note.noteType != item.noteType
                if changed {
                    note.fields = item.fields
                    note.tags = item.tags
                    note.unitID = unit?.id
                    note.position = position
                    note.kind = item.kind
                    note.noteType = item.noteType
                    try writer.updateNote(note)
                    summary.updated += 1
                } else {
                    summary.unchanged += 1
                }
                if !item.cards.isEmpty {
                    summary.cardsWithHistory += try applyScheduling(item.cards, to: note, deckID: deck.id, writer: writer)
                }
            }
            noteWritten()
        }
        summary.gone = existing.keys.filter { !seen.contains($0) }.sorted()
        return summary
    }

    /// A new note's card with the schedule, flags and history another program gave it.
    static func seed(_ card: ImportedCard) -> CardSeed {
        CardSeed(template: card.template, ordinal: card.ordinal, state: card.state, suspended: card.suspended,
                 buriedUntil: card.buriedUntil, history: card.reviews.map(answer))
    }

    static func answer(_ review: ImportedReview) -> ImportedAnswer {
        ImportedAnswer(time: review.time, rating: review.rating, durationMilliseconds: review.durationMilliseconds,
                       before: CardState(phase: review.phaseBefore, intervalDays: review.intervalBefore, easePermille: review.easePermille),
                       after: CardState(phase: review.phaseAfter, intervalDays: review.intervalAfter, easePermille: review.easePermille,
                                        lastReview: review.time))
    }

    /// Carries another program's scheduling over to the cards of a note already in the
    /// collection: each card's state, suspension and burial, and its review history (as
    /// imported log entries). A card already reviewed in Maeil keeps Maeil's state.
    private func applyScheduling(_ cards: [ImportedCard], to note: Note, deckID: Int64, writer: CollectionWriter) throws -> Int {
        let stored = try writer.cards(noteID: note.id)
        var applied = 0
        for imported in cards {
            guard let card = stored.first(where: { $0.template == imported.template && $0.ordinal == imported.ordinal }) else { continue }
            if card.state == .new, imported.state != .new {
                for answer in imported.reviews.map(Self.answer) {
                    try writer.appendImportedReview(cardID: card.id, deckID: deckID, answer)
                }
                try writer.setState(cardID: card.id, deckID: deckID, from: card.state, to: imported.state, kind: .imported)
                applied += 1
            }
            if imported.suspended || imported.buriedUntil != nil {
                try writer.setFlags(cardID: card.id, suspended: imported.suspended ? true : nil, buriedUntil: imported.buriedUntil)
            }
        }
        return applied
    }

    private func stageMedia(_ media: [MediaFile]) throws -> URL? {
        guard !media.isEmpty else { return nil }
        let staging = mediaDirectory.deletingLastPathComponent().appendingPathComponent(".media-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        for file in media {
            try file.data.write(to: staging.appendingPathComponent(file.name), options: .atomic)
        }
        return staging
    }

    private func moveMedia(from staging: URL) throws {
        try FileManager.default.createDirectory(at: mediaDirectory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: staging.path) {
            let target = mediaDirectory.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.moveItem(at: staging.appendingPathComponent(name), to: target)
        }
    }
}
