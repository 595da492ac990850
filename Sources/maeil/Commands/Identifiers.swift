import ArgumentParser

/// A note's number, as `find` prints it: `12`, `#12` or `note:12`.
struct NoteID: ExpressibleByArgument {
    let value: Int64

    init?(argument: String) {
        let text = argument.hasPrefix("note:") ? String(argument.dropFirst(5)) : argument
        guard let value = Int64(text.trimmingCharacters(in: ["#"])), value > 0 else { return nil }
        self.value = value
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

/// A card's number, as `missed`, `focus` and `info` print it: `12`, `#12` or `card:12`.
struct CardID: ExpressibleByArgument {
    let value: Int64

    init?(argument: String) {
        let text = argument.hasPrefix("card:") ? String(argument.dropFirst(5)) : argument
        guard let value = Int64(text.trimmingCharacters(in: ["#"])), value > 0 else { return nil }
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
