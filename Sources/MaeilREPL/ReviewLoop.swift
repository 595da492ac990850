import Foundation
import MaeilCore
import MaeilSession
import MaeilSpeech
import MaeilStore

/// Drives a review session from lines of input: the same loop serves a learner at the
/// terminal and a script on a pipe. Every answer is committed by the session before its
/// acknowledgement is printed and before the next card is shown.
package final class ReviewLoop {
    let session: ReviewSession
    let console: Console
    let input: LineReader
    let speaker: Speaker?
    /// Called after each answer (the focus list's re-export).
    let afterAnswers: (() -> Void)?
    let speech: UserConfig.Speech
    /// Pictures and sounds are only named, not opened or played (MAEIL_SPEECH=stub).
    let mediaStubbed: Bool
    private var style: Style { console.style }

    package init(session: ReviewSession, console: Console, input: LineReader, speaker: Speaker? = nil, speech: UserConfig.Speech = .off,
                 mediaStubbed: Bool = false, afterAnswers: (() -> Void)? = nil) {
        self.mediaStubbed = mediaStubbed
        self.session = session
        self.console = console
        self.input = input
        self.speaker = speaker
        self.speech = speech
        self.afterAnswers = afterAnswers
    }

    /// Runs until the queue is empty or the learner leaves; returns the summary.
    @discardableResult
    package func run() throws -> SessionSummary? {
        var summary = try show(session.start())
        var interrupted = false
        left = false
        while summary == nil, let current = session.state.current {
            if console.isInteractive, session.state.revealed, let buttons = buttons(for: current) { console.line(buttons) }
            // While an answer is being typed every key is the answer's; otherwise a key acts at once.
            let typing = !session.state.revealed && current.template.typed != nil
            switch typing ? input.readLine(prompt: prompt(for: current)) : input.readKey(prompt: prompt(for: current)) {
            case .end:
                left = true
                summary = try show(session.send(.leave))
            case .interrupted where interrupted || !console.isInteractive:
                left = true
                summary = try show(session.send(.leave))
            case .interrupted:
                // The first Ctrl-C clears what was typed; a second one leaves.
                interrupted = true
                console.line(style.dim("Ctrl-C again to leave; every answer given is kept"))
                continue
            case .line(let text) where typing:
                // Nothing typed shows the answer, as ⏎ does on a card that asks for none.
                let answer = text.trimmingCharacters(in: .whitespaces)
                summary = try show(session.send(answer.isEmpty ? .reveal : .type(answer)))
            case .line(let text):
                summary = try handle(text.trimmingCharacters(in: .whitespaces), current: current)
            }
            interrupted = false
        }
        try offerPracticeOfMissed()
        return summary
    }

    /// Whether the learner left before the queue was done (q, Ctrl-C twice, Ctrl-D).
    private var left = false
    /// The card on screen was answered by typing, wrongly: ⏎ alone does not make that "good".
    private var typedWrong = false
    /// `f` was pressed: the next key is a flag, 0–7.
    private var choosingFlag = false

    /// Anki's flag in its colour.
    static func flagMark(_ flag: Int, _ style: Style) -> String {
        let colour: [(String) -> String] = [style.dim, style.red, style.yellow, style.green, style.blue, style.magenta, style.cyan, style.magenta]
        return colour[min(max(flag, 0), 7)]("⚑")
    }

    /// At a terminal, when the day's queue is done, offers one more round over just the cards
    /// missed in this session (their schedule is not touched again). A learner who left is not
    /// asked: the next line typed is meant for the prompt.
    private func offerPracticeOfMissed() throws {
        let missed = session.missedCardIDs
        guard console.isInteractive, !left, session.state.mode == .review, !missed.isEmpty else { return }
        let count = "\(missed.count) card\(missed.count == 1 ? "" : "s")"
        guard case .line(let answer) = input.readLine(prompt: "Go over the \(count) you missed once more? [y/N] "),
              YesNo.reading(answer, default: false) else { return }
        let practice = ReviewSession(collection: session.collection, practicing: missed, environment: session.environment)
        try ReviewLoop(session: practice, console: console, input: input, speaker: speaker, speech: speech, mediaStubbed: mediaStubbed).run()
    }

    /// The prompt is kept short; what the buttons do is a line of its own above it, so a narrow
    /// terminal wraps it between buttons rather than inside one.
    private func prompt(for current: PresentedCard) -> String {
        guard console.isInteractive else { return "" }
        if !session.state.revealed {
            return current.template.typed != nil ? style.cyan("answer") + " › " : style.dim("⏎ show") + " › "
        }
        return style.dim("1–4") + " › "
    }

    /// "1 again 1m · 2 hard 6m · 3 good 10m · 4 easy 4d"; in practice, where nothing is
    /// scheduled, without the intervals.
    private func buttons(for current: PresentedCard) -> String? {
        let practice = session.state.mode == .practice
        let buttons = Rating.allCases.map { rating in
            let interval = practice ? "" : " " + style.dim(current.intervals[rating] ?? "")
            return "\(style.bold("\(rating.rawValue)")) \(rating.name)\(interval)"
        }
        return buttons.joined(separator: " · ")
    }

    private func handle(_ text: String, current: PresentedCard) throws -> SessionSummary? {
        let revealed = session.state.revealed
        if choosingFlag {
            choosingFlag = false
            guard let flag = Int(text), (0...7).contains(flag) else {
                console.line(style.dim("no flag set"))
                return nil
            }
            return try show(session.send(.flag(flag)))
        }
        if let rating = Self.rating(text) {
            if !revealed { try show(session.send(.reveal)) }
            return try show(session.send(.answer(rating)))
        }
        switch text.lowercased() {
        case "":
            if !revealed { return try show(session.send(.reveal)) }
            guard !typedWrong else {
                console.line(style.dim("The typed answer was not right: choose 1 again · 2 hard · 3 good · 4 easy"))
                return nil
            }
            return try show(session.send(.answer(.good)))  // Enter on the answer is "good", as in Anki
        case "u", "undo":
            do { return try show(session.send(.undo)) } catch StoreError.nothingToUndo { console.line(style.dim("nothing to undo")) }
        case "s", "star":
            return try show(session.send(.toggleStar))
        case "!", "suspend":
            return try show(session.send(.suspend))
        case "b", "bury":
            return try show(session.send(.bury))
        case "f", "flag":
            // No-break spaces keep each flag whole when a narrow terminal wraps the line.
            console.line((1...7).map { Self.flagMark($0, style) + "\u{A0}\($0)\u{A0}" + CardChanges.flagNames[$0] }.joined(separator: "  ") + style.dim("  0\u{A0}none"))
            choosingFlag = true
        case "e", "edit":
            return try edit(current)
        case "p", "say", "speak", "play":
            speak(current)
        case "o", "open":
            openImages(current)
        case "h", "hint":
            console.line(CardView(current, style: style).hints ?? style.dim("no hints for this card"))
        case "q", "quit", "leave":
            left = true
            return try show(session.send(.leave))
        case "?", "help":
            console.line(Self.help)
        default:
            console.line(style.dim("1 again · 2 hard · 3 good · 4 easy — ? for more"))
        }
        return nil
    }

    package static let help = """
        ⏎ or Space shows the answer (then again is "good")   1 again · 2 hard · 3 good · 4 easy
        h hint   p play the sound or speak   o open the pictures   s star   e edit   b bury until tomorrow
        f flag (then 0–7)   ! suspend   u undo   q leave   — each key acts at once
        A card that asks for an answer takes every key as the answer's: ⏎ on nothing shows it.
        """

    static func rating(_ text: String) -> Rating? {
        switch text.lowercased() {
        case "1", "again": .again
        case "2", "hard": .hard
        case "3", "good": .good
        case "4", "easy": .easy
        default: nil
        }
    }

    /// Prints what the session did; returns the summary when it finished.
    @discardableResult
    private func show(_ events: [SessionEvent]) throws -> SessionSummary? {
        for event in events {
            switch event {
            case .shown:
                typedWrong = false
                guard let current = session.state.current else { continue }
                console.line()
                console.line(header(current))
                console.line(CardView(current, style: style).front)
                // With speech on, every card is spoken; with auto, cards of decks that name a field to speak.
                if speaksByItself(current) { speak(current) }
            case .revealed(_, let judgement):
                guard let current = session.state.current else { continue }
                typedWrong = judgement.map { !$0.correct } ?? false
                if let judgement { console.line(CardView.diff(judgement, style: style)) }
                console.line(style.dim(String(repeating: "─", count: 24)))
                // An answer that adds nothing (an Anki card whose answer names no field) leaves no blank line.
                let back = CardView(current, style: style).back
                if !back.isEmpty { console.line(back) }
                // What the front could not say without giving the answer away is said now.
                if speaksByItself(current) { speak(current) }
            case .answered(_, let rating, let interval):
                console.line(style.dim("\(rating.name)\(interval.isEmpty ? "" : " · " + interval)"))
                afterAnswers?()
            case .leech(_, let suspended):
                console.line(style.yellow("⚠ leech: this card keeps slipping — tagged “leech”\(suspended ? " and suspended" : "")"))
            case .undone:
                console.line(style.dim("↶ undone"))
            case .starred(_, let starred):
                console.line(starred ? style.yellow("★ starred") : style.dim("☆ unstarred"))
            case .flagged(_, let flag):
                console.line(flag == 0 ? style.dim("⚑ flag off") : Self.flagMark(flag, style) + " " + CardChanges.flagNames[flag])
            case .suspended:
                console.line(style.dim("suspended"))
            case .buried:
                console.line(style.dim("buried until tomorrow"))
            case .edited:
                console.line(style.dim("saved"))
            case .skipped(let cardID, let reason):
                // Said even on a pipe: a script waiting for an acknowledgement gets this instead.
                console.line(style.dim("card \(cardID): \(reason), skipped"))
            case .finished(let summary):
                console.line()
                console.line(Self.describe(summary, style: style, now: session.environment.now()))
                return summary
            }
        }
        return nil
    }

    private func header(_ current: PresentedCard) -> String {
        var (new, learning, review) = session.state.remaining
        switch current.card.state.phase {
        case .new: new += 1
        case .learning, .relearning: learning += 1
        case .review: review += 1
        }
        let counts = session.state.mode == .practice
            ? "practice · \(session.state.practiceQueue.count + 1) left"
            : TodayCounts(due: review, learning: learning, new: new).text(style)
        let star = current.card.starred ? style.yellow(" ★") : ""
        let flag = current.card.flags > 0 ? " " + Self.flagMark(current.card.flags, style) : ""
        return style.dim("── ") + TerminalText.sanitize(current.deck.name) + style.dim(" · ") + counts + star + flag
    }

    private func edit(_ current: PresentedCard) throws -> SessionSummary? {
        guard let fields = NoteEditing.edit(current.note.fields, console: console, input: input) else { return nil }
        guard fields != current.note.fields else {
            console.line(style.dim("Nothing changed."))
            return nil
        }
        return try show(session.send(.edit(fields)))
    }

    private func speaksByItself(_ current: PresentedCard) -> Bool {
        speech == .on || (speech == .auto && current.deck.speak != nil)
    }

    /// `p`: the card's own sounds when it has some (the answer side's too once shown), else
    /// what the side on screen may say (`CardView.spoken`).
    private func speak(_ current: PresentedCard) {
        let view = CardView(current, style: style)
        let sounds = view.sounds(answer: session.state.revealed)
        if !sounds.isEmpty {
            for name in sounds { media.play(mediaFolder.appendingPathComponent(name)) }
            return
        }
        guard let speaker, let spoken = view.spoken(answer: session.state.revealed) else { return }
        _ = speaker.say(spoken.text, language: spoken.language)
    }

    /// `o`: the card's pictures, in the desktop's viewer.
    private func openImages(_ current: PresentedCard) {
        let images = CardView(current, style: style).images
        guard !images.isEmpty else {
            console.line(style.dim("no pictures on this card"))
            return
        }
        for name in images { media.open(mediaFolder.appendingPathComponent(name)) }
    }

    /// Where an import put the collection's pictures and sounds.
    private var mediaFolder: URL {
        URL(fileURLWithPath: session.collection.path).deletingLastPathComponent().appendingPathComponent("media")
    }

    private lazy var media = MediaPlayer(stub: mediaStubbed) { [console] in
        console.line($0)
    }

    package static func describe(_ summary: SessionSummary, style: Style, now: Date) -> String {
        let stillDue = summary.stillDue + summary.learningLaterToday
        guard summary.reviewed > 0 else {
            guard stillDue == 0 else { return "No cards reviewed; \(stillDue) still due today." }
            return "Nothing due right now." + (summary.nextDue.map { " Next card \(relative($0, from: now))." } ?? "")
        }
        let minutes = summary.seconds / 60, seconds = summary.seconds % 60
        var text = style.bold("Reviewed \(summary.reviewed)") + " · \(summary.correctPercent)% correct · \(minutes)m \(seconds)s"
        if summary.stillDue > 0 {
            text += "\n\(summary.stillDue) card\(summary.stillDue == 1 ? "" : "s") still due today."
        }
        if summary.learningLaterToday > 0 {
            text += "\n\(summary.learningLaterToday) learning card\(summary.learningLaterToday == 1 ? "" : "s") due again later today."
        }
        // With cards still due now, the next one is now: a date days away read as if none were.
        if summary.stillDue == 0, let next = summary.nextDue { text += "\nNext due \(relative(next, from: now))." }
        return text
    }

    static func relative(_ date: Date, from now: Date) -> String {
        let seconds = Int(date.timeIntervalSince(now))
        switch seconds {
        case ..<60: return "now"
        case ..<3600: return "in \(seconds / 60) min"
        case ..<86_400: return "in \(seconds / 3600) h"
        default: return "in \(seconds / 86_400) d"
        }
    }
}
