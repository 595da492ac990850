import ArgumentParser
import Foundation
import MaeilREPL
import MaeilStore

/// What the commands' values complete to (`CompletionSources`). The same functions serve a
/// shell's completion script (which runs `maeil ---completion …`) and Tab at the prompt.
enum Completions {
    static let decks = CompletionKind.custom { words, _, prefix in CompletionSources.decks(words, prefix: prefix) }
    static let findWords = CompletionKind.custom { words, _, prefix in CompletionSources.findWords(words, prefix: prefix) }
    static let deckWords = CompletionKind.custom { words, index, prefix in CompletionSources.deckWords(words, index: index, prefix: prefix) }

    /// Runs a command's completion function at the prompt, as a shell's script would.
    static func custom(path: [String], key: String, words: [String], index: Int, prefix: String) -> [String] {
        let request = ["---completion"] + path + ["--", key, "\(index)", "\(prefix.utf8.count)"] + words
        do {
            _ = try Maeil.parseAsRoot(request)
            return []
        } catch {
            return Maeil.fullMessage(for: error).split(separator: "\n").map(String.init)
        }
    }

    /// Tab at the prompt: the command tree as swift-argument-parser describes it.
    static func completer(for collection: Collection) -> Completer {
        CompletionSources.use(collection)
        return Completer(tree: { (try? CommandTree(dumpHelp: Maeil._dumpHelp())) ?? CommandTree(name: "maeil") }, custom: custom)
    }
}
