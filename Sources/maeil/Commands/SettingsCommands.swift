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

    @Argument(help: "The text.") var words: [String] = []

    @Option(help: ArgumentHelp("The language: ko, ja, en, or another ISO 639 code espeak-ng knows.", valueName: "code")) var lang: String?

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

    @Argument(help: "A setting.") var key: String?

    @Argument(help: "Its new value (several words are joined).") var value: [String] = []

    func validate() throws {
        if let key, UserConfig.keys[key] == nil {
            throw ValidationError("no setting '\(key)'; the settings are: \(UserConfig.keys.keys.sorted().joined(separator: ", "))")
        }
    }

    func run(in context: CommandContext) throws {
        guard let key else { return UserConfig.keys.keys.sorted().forEach { context.line(context.config.line(for: $0, style: context.style)) } }
        if !value.isEmpty {
            do { try context.config.set(key, value.joined(separator: " ")) } catch let error as ConfigError { throw UsageError(error.description) }
            return context.line("\(key) = \(context.config[key] ?? "")")
        }
        context.line(context.config.line(for: key, style: context.style))
    }
}

struct AboutCommand: MaeilCommand {
    static let configuration = CommandConfiguration(commandName: "about", abstract: "What Maeil is built on, and where its decks come from.")

    func run(in context: CommandContext) throws {
        About.lines().forEach(context.line)
    }
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

    @Flag(help: "Repair what can be repaired (see above).") var repair = false

    @Flag(help: "Print the report as JSON.") var json = false

    func run(in context: CommandContext) throws {
        let report: CheckReport
        do {
            let collection = try context.collection(self.collection, readOnly: !repair)
            report = try collection.check(repair: repair, now: context.now)
        } catch StoreError.damaged(let path, let detail) {
            return try damaged(path: path, detail: detail, context: context)
        }
        if report.integrity != "ok" { return try damaged(path: CollectionLocation.resolve(explicit: self.collection.path, environment: context.variables), detail: report.integrity, context: context) }
        if json { context.verbatim(try JSONOutput.string(report)) } else { CheckView.lines(report, repair: repair).forEach(context.line) }
        if !report.problems.isEmpty && !repair { throw ExitCode(1) }
    }

    /// A file SQLite finds damaged: reported (a failure), and with --repair recovered into a new file.
    func damaged(path: String, detail: String, context: CommandContext) throws {
        if !(try CheckView.damaged(path: path, detail: detail, repair: repair, json: json, context: context)) { throw ExitCode(1) }
    }
}
