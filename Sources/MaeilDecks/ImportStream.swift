import MaeilCore

/// What a reader hands on as it reads, so that an importer can write the first notes while
/// the reader is still at work on the rest of the file. A deck comes before anything that
/// names it, and a template before the notes that need it; events name decks by the order
/// they arrived in.
package enum ImportEvent: Sendable {
    /// How many notes a file holds (at most: a text file's lines), as soon as the reader
    /// knows: for a progress bar, and for an importer to prepare for a large import. Of them,
    /// `alreadyHere` the collection holds (a package imported again, see `KnownAnkiCards`):
    /// merged, not added.
    case expecting(notes: Int, alreadyHere: Int = 0)
    /// A deck, without its notes.
    case deck(ImportedDeck)
    /// Templates a deck gained after it was announced: a note type first met further down.
    case templates(deck: Int, [CardTemplate])
    /// The next notes of a deck, in file order.
    case notes(deck: Int, [NoteDraft])
    /// Rows left out because `--skip-invalid` was given.
    case skipped([ImportProblem])
    case media([MediaFile])
    /// Anki note types, whole, before the notes of theirs: kept to write those notes back.
    case noteTypes([AnkiNoteType])
    /// A plan of daily readings: no notes, no cards.
    case readingPlan(ReadingPlan)
    /// Anki's collection-wide rules for daily limits (a whole collection's file carries them).
    case limitRules(LimitRules)
    /// Anki's collection config, every key, as JSON (a whole collection's file: .colpkg, .anki2).
    case ankiConfig(String)
    /// Answers of cards the file no longer holds (deleted in Anki, which keeps their answers):
    /// a whole collection's file carries them, after its notes.
    case goneCards([GoneCardDraft])
}

/// Takes a reader's events; throwing stops the reader.
package typealias ImportEmitter = (ImportEvent) throws -> Void

extension ImportBundle {
    /// Adds one event of a reader.
    package mutating func take(_ event: ImportEvent) {
        switch event {
        case .expecting: break
        case .deck(let deck): decks.append(deck)
        case .templates(let deck, let templates): decks[deck].templates += templates
        case .notes(let deck, let notes): decks[deck].notes += notes
        case .skipped(let problems): skipped += problems
        case .media(let files): media += files
        case .noteTypes(let types): noteTypes += types
        case .readingPlan(let plan): readingPlans.append(plan)
        case .limitRules(let rules): limitRules = rules
        case .ankiConfig(let config): ankiConfig = config
        case .goneCards(let cards): goneCards += cards
        }
    }

    /// The bundle as events: each deck, then its notes.
    package func emit(into emit: ImportEmitter) throws {
        try emit(.expecting(notes: decks.reduce(0) { $0 + $1.notes.count }))
        if let limitRules { try emit(.limitRules(limitRules)) }
        if let ankiConfig { try emit(.ankiConfig(ankiConfig)) }
        if !noteTypes.isEmpty { try emit(.noteTypes(noteTypes)) }
        for (index, deck) in decks.enumerated() {
            var announced = deck
            announced.notes = []
            try emit(.deck(announced))
            if !deck.notes.isEmpty { try emit(.notes(deck: index, deck.notes)) }
        }
        if !goneCards.isEmpty { try emit(.goneCards(goneCards)) }
        for plan in readingPlans { try emit(.readingPlan(plan)) }
        if !skipped.isEmpty { try emit(.skipped(skipped)) }
        if !media.isEmpty { try emit(.media(media)) }
    }
}

/// Hands a reader's notes on in chunks, each after the templates its notes need.
struct NoteChunks {
    /// Small enough that an importer starts writing early, large enough that handing a chunk
    /// over costs nothing next to reading it.
    static let size = 512

    private var templates: [Int: [CardTemplate]] = [:]
    private var notes: [Int: [NoteDraft]] = [:]
    private var order: [Int] = []
    private var count = 0

    mutating func add(_ template: CardTemplate, to deck: Int) {
        if !order.contains(deck) { order.append(deck) }
        templates[deck, default: []].append(template)
    }

    mutating func add(_ note: NoteDraft, to deck: Int, emit: ImportEmitter) throws {
        if !order.contains(deck) { order.append(deck) }
        notes[deck, default: []].append(note)
        count += 1
        if count >= Self.size { try flush(emit) }
    }

    /// Sends what is waiting: every deck's new templates, then its notes.
    mutating func flush(_ emit: ImportEmitter) throws {
        for deck in order {
            if let added = templates[deck], !added.isEmpty { try emit(.templates(deck: deck, added)) }
            if let waiting = notes[deck], !waiting.isEmpty { try emit(.notes(deck: deck, waiting)) }
        }
        templates.removeAll(keepingCapacity: true)
        notes.removeAll(keepingCapacity: true)
        order.removeAll(keepingCapacity: true)
        count = 0
    }
}

/// Gives each deck a reader meets its place in the events, announcing the deck the first
/// time it is met.
struct DeckSlots<Key: Hashable> {
    private var slots: [Key: Int] = [:]

    /// The deck's place, and whether it was just announced.
    mutating func slot(for key: Key, emit: ImportEmitter, deck: () -> ImportedDeck) throws -> (slot: Int, isNew: Bool) {
        if let known = slots[key] { return (known, false) }
        let slot = slots.count
        slots[key] = slot
        try emit(.deck(deck()))
        return (slot, true)
    }
}
