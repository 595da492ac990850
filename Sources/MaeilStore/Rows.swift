import Foundation
import GRDB
import MaeilCore

/// Column lists and row decoding, kept together so the SQL and the Swift agree.
enum Columns {
    static let state = "phase, step, scheduled_seconds, interval_days, ease, stability, difficulty, due, reps, lapses, streak, last_review"
    static let card = "id, note_id, deck_id, template, ordinal, starred, suspended, buried_until, " + state
    static let note = "id, guid, deck_id, kind, field_names, field_values, field_languages, tags, unit_id, position, source, note_type"
    static let deck = "id, name, kind, description, preset_id, templates, speak, source"
    static let preset = "id, name, scheduler, new_per_day, reviews_per_day, rollover_hour, bury_siblings, curriculum_gating"
}

enum FieldSeparator {
    static let unit = "\u{1f}"
}

extension Date {
    /// Whole unix seconds, as the store keeps times.
    var unixSeconds: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
    var unixMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    init(unixSeconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(unixSeconds)) }
}

extension CardState {
    /// Decodes the 12 state columns starting at `start`. Returns nil when the phase is NULL.
    init?(row: Row, from start: Int) {
        guard let phaseText: String = row[start], let phase = CardPhase(rawValue: phaseText) else { return nil }
        self.init(
            phase: phase, step: row[start + 1], scheduledSeconds: row[start + 2], intervalDays: row[start + 3],
            easePermille: row[start + 4], stability: row[start + 5], difficulty: row[start + 6],
            due: (row[start + 7] as Int64?).map(Date.init(unixSeconds:)), reps: row[start + 8], lapses: row[start + 9],
            streak: row[start + 10], lastReview: (row[start + 11] as Int64?).map(Date.init(unixSeconds:)))
    }

    /// The 12 state columns, in `Columns.state` order.
    var databaseValues: [any DatabaseValueConvertible & Sendable] {
        [phase.rawValue, step, scheduledSeconds, intervalDays, easePermille, stability, difficulty,
         due?.unixSeconds, reps, lapses, streak, lastReview?.unixSeconds]
    }

    /// The state as the store keeps it: times in whole seconds. Comparing stored states with
    /// this form keeps sub-second noise out of "did the card change?".
    public var storedForm: CardState {
        var state = self
        state.due = due.map { Date(unixSeconds: $0.unixSeconds) }
        state.lastReview = lastReview.map { Date(unixSeconds: $0.unixSeconds) }
        return state
    }
}

extension Card {
    init(row: Row) {
        self.init(
            id: row[0], noteID: row[1], deckID: row[2], template: row[3], ordinal: row[4],
            state: CardState(row: row, from: 8) ?? .new,
            starred: row[5], suspended: row[6],
            buriedUntil: (row[7] as Int64?).map(Date.init(unixSeconds:)))
    }
}

extension Note {
    /// Decodes the `Columns.note` columns starting at column `start`.
    init(row: Row, from start: Int = 0) {
        let names = (row[start + 4] as String).components(separatedBy: FieldSeparator.unit)
        let values = (row[start + 5] as String).components(separatedBy: FieldSeparator.unit)
        let languages = (row[start + 6] as String).components(separatedBy: FieldSeparator.unit)
        let fields = names.indices.map { index in
            NoteField(
                name: names[index], value: index < values.count ? values[index] : "",
                language: index < languages.count && !languages[index].isEmpty ? languages[index] : nil)
        }
        self.init(
            id: row[start], guid: row[start + 1], deckID: row[start + 2], kind: NoteKind(rawValue: row[start + 3]) ?? .basic,
            fields: fields, tags: Tags.parse(row[start + 7]), unitID: row[start + 8], position: row[start + 9], source: row[start + 10],
            noteType: row[start + 11])
    }

    static func fieldColumns(_ fields: [NoteField]) -> (names: String, values: String, languages: String) {
        (fields.map(\.name).joined(separator: FieldSeparator.unit), valuesColumn(fields),
         fields.map { $0.language ?? "" }.joined(separator: FieldSeparator.unit))
    }

    static func valuesColumn(_ fields: [NoteField]) -> String {
        var bytes: [UInt8] = []
        appendValues(fields, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The values joined by the field separator, as UTF-8, into a buffer the caller reuses.
    static func appendValues(_ fields: [NoteField], to bytes: inout [UInt8]) {
        for index in fields.indices {
            if index > 0 { bytes.append(0x1F) }
            let start = bytes.count
            bytes.append(contentsOf: fields[index].value.utf8)
            // The separator cannot appear inside a value; it is a control character, so rare.
            for offset in start..<bytes.count where bytes[offset] == 0x1F { bytes[offset] = 0x20 }
        }
    }
}

extension Deck {
    init(row: Row) throws {
        let templates = try DecodeCache.templates(row[5])
        self.init(
            id: row[0], name: row[1], kind: (row[2] as String?).flatMap(NoteKind.init(rawValue:)),
            description: row[3], presetID: row[4], templates: templates, speak: row[6], source: row[7])
    }
}

extension Preset {
    init(row: Row) throws {
        let scheduler = try DecodeCache.settings(row[2])
        self.init(
            id: row[0], name: row[1], scheduler: scheduler, newPerDay: row[3], reviewsPerDay: row[4],
            rolloverHour: row[5], burySiblings: row[6], curriculumGating: row[7])
    }
}

/// Tags are kept as " a b c " so a single LIKE finds a whole tag.
public enum Tags {
    public static func parse(_ text: String) -> [String] {
        text.split(separator: " ").map(String.init)
    }

    public static func column(_ tags: [String]) -> String {
        var bytes: [UInt8] = []
        appendColumn(tags, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The column's text as UTF-8, into a buffer the caller reuses: spaces inside a tag
    /// become underscores, and a tag already there in another case is left out.
    static func appendColumn(_ tags: [String], to bytes: inout [UInt8]) {
        bytes.append(0x20)
        for index in tags.indices where !tags[index].isEmpty {
            // Lists are short: a scan beats a set.
            guard !tags[..<index].contains(where: { sameTag($0, tags[index]) }) else { continue }
            let start = bytes.count
            bytes.append(contentsOf: tags[index].utf8)
            for offset in start..<bytes.count where bytes[offset] == 0x20 { bytes[offset] = 0x5F }
            bytes.append(0x20)
        }
    }

    static func sameTag(_ a: String, _ b: String) -> Bool {
        if a == b { return true }
        // Lowercasing keeps the length of ASCII text, so ASCII tags of different lengths differ
        // without the two allocations lowercasing takes.
        if a.utf8.count != b.utf8.count, a.utf8.allSatisfy({ $0 < 0x80 }), b.utf8.allSatisfy({ $0 < 0x80 }) { return false }
        return a.lowercased() == b.lowercased()
    }
}
