import ArgumentParser

/// A note's number, as `find` prints it: `12`, `#12` or `note:12`.
struct NoteID: ExpressibleByArgument {
    let value: Int64

    init?(argument: String) {
        guard let value = number(argument, prefix: "note:") else { return nil }
        self.value = value
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A card's number, as `missed`, `focus` and `info` print it: `12`, `#12` or `card:12`.
struct CardID: ExpressibleByArgument {
    let value: Int64

    init?(argument: String) {
        guard let value = number(argument, prefix: "card:") else { return nil }
        self.value = value
    }
}

/// `show`'s argument: a note's number, or a card's as `card:12`.
enum NoteOrCard: ExpressibleByArgument {
    case note(Int64)
    case card(Int64)

    init?(argument: String) {
        if argument.hasPrefix("card:") {
            guard let card = CardID(argument: argument) else { return nil }
            self = .card(card.value)
        } else {
            guard let note = NoteID(argument: argument) else { return nil }
            self = .note(note.value)
        }
    }
}

extension NoteOrCard {
    var note: Int64? { if case .note(let id) = self { id } else { nil } }
    var card: Int64? { if case .card(let id) = self { id } else { nil } }
}

/// A number as people write it: `12`, `#12`, or after its prefix (`card:12`).
private func number(_ argument: String, prefix: String) -> Int64? {
    let text = argument.hasPrefix(prefix) ? String(argument.dropFirst(prefix.count)) : argument
    return Int64(text.trimmingCharacters(in: ["#"])).flatMap { $0 > 0 ? $0 : nil }
}
