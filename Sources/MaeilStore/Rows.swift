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
        // The separator cannot appear inside a value; it is a control character, so rare.
        func clean(_ value: String) -> String {
            value.utf8.contains(0x1F) ? String(value.map { $0 == "\u{1f}" ? " " : $0 }) : value
        }
        return (fields.map(\.name).joined(separator: FieldSeparator.unit),
                fields.map { clean($0.value) }.joined(separator: FieldSeparator.unit),
                fields.map { $0.language ?? "" }.joined(separator: FieldSeparator.unit))
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
        guard !tags.isEmpty else { return " " }
        let cleaned = tags.compactMap { tag -> String? in
            guard !tag.isEmpty else { return nil }
            return tag.utf8.contains(0x20) ? String(tag.map { $0 == " " ? "_" : $0 }) : tag
        }
        var seen = Set<String>()
        let unique = cleaned.count < 2 ? cleaned : cleaned.filter { seen.insert($0.lowercased()).inserted }
        return " " + unique.joined(separator: " ") + " "
    }
}
