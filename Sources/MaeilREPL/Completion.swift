import Foundation
import MaeilStore

/// What tab completes: command names, each command's options, deck names (as slugs, so no
/// quoting is needed) and tags.
public final class Completer {
    public struct Command {
        public var name: String
        public var options: [String]
        /// Complete deck names after it.
        public var takesDecks: Bool

        public init(name: String, options: [String] = [], takesDecks: Bool = false) {
            self.name = name
            self.options = options
            self.takesDecks = takesDecks
        }
    }

    private let listCommands: () -> [Command]
    private lazy var commands: [Command] = listCommands()
    let decks: () -> [String]
    let tags: () -> [String]

    /// `commands` is asked once, at the first Tab: the prompt comes up without waiting for it.
    public init(commands: @escaping () -> [Command], decks: @escaping () -> [String], tags: @escaping () -> [String]) {
        listCommands = commands
        self.decks = decks
        self.tags = tags
    }

    public convenience init(commands: [Command], decks: @escaping () -> [String], tags: @escaping () -> [String]) {
        self.init(commands: { commands }, decks: decks, tags: tags)
    }

    /// Candidates for `word`, the word under the cursor, given the line before it.
    public func candidates(before prefix: String, word: String) -> [String] {
        let words = prefix.split(separator: " ").map(String.init)
        guard let first = words.first else {
            return commands.map(\.name).filter { $0.hasPrefix(word) }.sorted()
        }
        if first == "help" {
            return commands.map(\.name).filter { $0.hasPrefix(word) }.sorted()
        }
        guard let command = commands.first(where: { $0.name == first }) else { return [] }
        if word.hasPrefix("-") {
            return command.options.filter { $0.hasPrefix(word) }.sorted()
        }
        if word.hasPrefix("tag:") {
            return tags().map { "tag:" + $0 }.filter { $0.hasPrefix(word) }.sorted()
        }
        if command.takesDecks || words.last == "--deck" {
            return decks().map(DeckNames.slug).filter { $0.hasPrefix(word.lowercased()) }.sorted()
        }
        return []
    }
}

/// Decks can be named by their name (any case) or by a slug: "Korean Practice" is also
/// "korean-practice", which needs no quotes at a prompt.
public enum DeckNames {
    public static func slug(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { $0 == " " || $0 == "_" }).joined(separator: "-")
    }

    public static func find(_ name: String, in collection: Collection) throws -> Deck? {
        if let deck = try collection.deck(named: name) { return deck }
        let wanted = slug(name)
        return try collection.decks().first { slug($0.name) == wanted }
    }

    /// Deck names given as words, where a name may have spaces and arrive unquoted:
    /// `review Korean Practice Hangul Jamo` is two decks. Each time the longest run of words
    /// that names a deck wins; a word that starts no deck name is reported.
    public static func resolve(_ words: [String], in collection: Collection) throws -> [Deck] {
        var decks: [Deck] = []
        var start = 0
        while start < words.count {
            var found: (deck: Deck, end: Int)?
            for end in stride(from: words.count, to: start, by: -1) {
                if let deck = try find(words[start..<end].joined(separator: " "), in: collection) {
                    found = (deck, end)
                    break
                }
            }
            guard let found else { throw StoreError.noSuchDeck(words[start...].joined(separator: " ")) }
            decks.append(found.deck)
            start = found.end
        }
        return decks
    }
}
