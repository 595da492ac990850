import Foundation
import MaeilCore
import MaeilStore

/// A note, its fields and its cards' schedule, as `show` and `edit` print it.
package enum NoteView {
    /// The note `show` means: the note numbered `note`, or the note of card `card`. A number
    /// that is no note but is a card's gives that card's note; the remark says which it was.
    package static func find(_ note: Int64?, card: Int64?, in collection: Collection) throws -> (Note, remark: String?) {
        if let card {
            let found = try collection.note(id: try collection.card(id: card).noteID)
            return (found, "Card \(card) is of note \(found.id):")
        }
        let id = note ?? 0
        do {
            return (try collection.note(id: id), nil)
        } catch StoreError.noSuchNote {
            guard let card = try? collection.card(id: id) else { throw StoreError.noSuchNote(id) }
            let found = try collection.note(id: card.noteID)
            return (found, "There is no note \(id); card \(id) is of note \(found.id):")
        }
    }

    package static func print(_ note: Note, collection: Collection, context: CommandContext) throws {
        let style = context.style
        let deck = try collection.deck(id: note.deckID)
        context.line(style.bold("Note \(note.id)") + style.dim(" · \(TerminalText.sanitize(deck.name)) · \(note.kind.rawValue)"))
        for field in note.fields where !field.value.isEmpty {
            context.line(style.dim(TerminalText.sanitize(field.name) + ":") + " " + FieldView.render(field.value, html: note.html, style: style))
        }
        if !note.tags.isEmpty { context.line(style.dim("tags: ") + note.tags.map(TerminalText.sanitize).joined(separator: " ")) }
        for card in try collection.cards(noteID: note.id) {
            context.line("  " + CardSummary.parts(card, timeZone: context.environment.timeZone, now: context.now).joined(separator: style.dim(" · ")))
        }
    }
}

/// One card's schedule in a line: its number, template, phase, due date and memory.
package enum CardSummary {
    /// A card's schedule in a few words; a card buried until a time after `now` says so, as
    /// its phase alone (new, say) would have it look ready to study.
    package static func parts(_ card: Card, timeZone: TimeZone, now: Date) -> [String] {
        let state = card.state
        var parts = ["card \(card.id)", card.template + (card.ordinal > 0 ? " \(card.ordinal)" : ""), state.phase.rawValue]
        if state.phase != .new {
            if let due = state.due { parts.append("due \(DateText.minute(due, timeZone: timeZone))") }
            if state.phase == .review { parts.append("every \(IntervalFormat.days(state.intervalDays))") }
            if let memory = state.memory {
                parts.append(String(format: "S %.1f d · D %.1f", memory.stability, memory.difficulty))
            } else {
                parts.append(String(format: "ease %.2f", state.ease))
            }
            parts.append("\(state.reps) reps · \(state.lapses) lapses")
        }
        if card.starred { parts.append("★") }
        if card.suspended { parts.append("suspended") }
        if let until = card.buriedUntil, until > now { parts.append("buried until \(DateText.minute(until, timeZone: timeZone))") }
        return parts
    }
}

package enum DateText {
    package static func minute(_ date: Date, timeZone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }
}
