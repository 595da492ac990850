import Foundation
import MaeilCore
import MaeilStore

/// What Tab completes at the prompt, read from the command tree (`CommandTree`): command
/// names, each command's options, and values as each argument says they complete — from a
/// list, file names, or the command's own completion function (deck names, tags, keys), which
/// `custom` runs the way a shell's completion script does.
package final class Completer {
    /// Runs a command's completion function: the command path, the argument's key
    /// ("positional@N" or "--name"), the words typed (the program's name first), the index of
    /// the word being completed among them, and what of it is typed.
    package typealias Custom = (_ path: [String], _ key: String, _ words: [String], _ index: Int, _ prefix: String) -> [String]

    private let makeTree: () -> CommandTree
    private lazy var tree: CommandTree = makeTree()
    private let custom: Custom

    /// `tree` is asked once, at the first Tab: the prompt comes up without waiting for it.
    package init(tree: @escaping () -> CommandTree, custom: @escaping Custom) {
        makeTree = tree
        self.custom = custom
    }

    /// Candidates for `word`, the word under the cursor, given the line before it.
    package func candidates(before prefix: String, word: String) -> [String] {
        let words = prefix.split(separator: " ").map(String.init)
        let commandNames = { self.tree.subcommands.filter(\.visible).map(\.name).filter { $0.hasPrefix(word) }.sorted() }
        guard let first = words.first else { return commandNames() }
        if first == "help" { return commandNames() }
        guard var node = tree.subcommand(first) else { return [] }
        var path = [first], rest = words.dropFirst()
        while let next = rest.first, let child = node.subcommand(next) {
            node = child
            path.append(next)
            rest = rest.dropFirst()
        }
        if word.hasPrefix("-") {
            return node.options.flatMap(\.names).filter { $0.hasPrefix("--") && $0 != "--help" && $0.hasPrefix(word) }.sorted()
        }
        let value: CommandTree.Value?
        if let last = rest.last, let option = node.option(last) {
            value = option.value
        } else {
            value = positional(after: Array(rest), in: node)
        }
        guard let value else { return [] }
        switch value.completion {
        case .none: return []
        case .list(let values): return values.filter { $0.hasPrefix(word) }.sorted()
        case .files(let extensions): return Self.files(matching: word, extensions: extensions, directoriesOnly: false)
        case .directories: return Self.files(matching: word, extensions: [], directoriesOnly: true)
        case .custom:
            let typed = ["maeil"] + words + [word]
            return custom(path, value.key, typed, typed.count - 1, word)
        }
    }

    /// The positional argument the next word fills: words that are options, or the values of
    /// options, do not count.
    private func positional(after words: [String], in node: CommandTree) -> CommandTree.Value? {
        var index = 0, skipValue = false
        for word in words {
            if skipValue {
                skipValue = false
            } else if word.hasPrefix("-"), let option = node.option(word) {
                skipValue = option.value != nil
            } else {
                index += 1
            }
        }
        guard !node.positionals.isEmpty else { return nil }
        if index < node.positionals.count { return node.positionals[index] }
        return node.positionals.last.flatMap { $0.repeating ? $0 : nil }
    }

    /// Files and folders whose path starts with `word`; folders end in "/".
    static func files(matching word: String, extensions: [String], directoriesOnly: Bool) -> [String] {
        let folder = word.contains("/") ? String(word[...word.lastIndex(of: "/")!]) : ""
        let expanded = folder.hasPrefix("~/") ? NSHomeDirectory() + folder.dropFirst() : folder
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: expanded.isEmpty ? "." : expanded) else { return [] }
        let start = String(word.dropFirst(folder.count))
        return names.filter { $0.hasPrefix(start) && (start.hasPrefix(".") || !$0.hasPrefix(".")) }.compactMap { name in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: (expanded.isEmpty ? "" : expanded) + name, isDirectory: &isFolder)
            if isFolder.boolValue { return folder + name + "/" }
            guard !directoriesOnly else { return nil }
            guard extensions.isEmpty || extensions.contains(where: { name.hasSuffix("." + $0) }) else { return nil }
            return folder + name
        }.sorted()
    }
}

/// Decks can be named by their name (any case) or by a slug: "Korean Practice" is also
/// "korean-practice", which needs no quotes at a prompt.
package enum DeckNames {
    package static func slug(_ name: String) -> String { Deck.slug(name) }

    package static func find(_ name: String, in collection: Collection) throws -> Deck? {
        if let deck = try collection.deck(named: name) { return deck }
        let wanted = slug(name)
        return try collection.decks().first { slug($0.name) == wanted }
    }

    /// Decks named on the command line (quoted or not, or by slug), or nil for all of them.
    package static func resolveIDs(_ names: [String], in collection: Collection) throws -> [Int64]? {
        guard !names.isEmpty else { return nil }
        return try resolve(names, in: collection).map(\.id)
    }

    /// Deck names given as words, where a name may have spaces and arrive unquoted:
    /// `review Korean Practice Hangul Jamo` is two decks. Each time the longest run of words
    /// that names a deck wins; a word that starts no deck name is reported. A deck comes with
    /// its subdecks, as in Anki (`review Korean` takes Korean::Food), and a parent that is only
    /// a prefix of its subdecks' names (as Anki packages often leave it) names them all.
    package static func resolve(_ words: [String], in collection: Collection) throws -> [Deck] {
        let all = try collection.decks()
        var decks: [Deck] = []
        var start = 0
        while start < words.count {
            var found: (decks: [Deck], end: Int)?
            for end in stride(from: words.count, to: start, by: -1) {
                let phrase = words[start..<end].joined(separator: " ")
                let deck = try find(phrase, in: collection)
                let parent = deck?.name ?? phrase
                let family = (deck.map { [$0] } ?? []) + all.filter { isSubdeck($0.name, of: parent) }
                if !family.isEmpty {
                    found = (family, end)
                    break
                }
            }
            guard let found else { throw StoreError.noSuchDeck(words[start...].joined(separator: " ")) }
            decks += found.decks.filter { deck in !decks.contains { $0.id == deck.id } }
            start = found.end
        }
        return decks
    }

    /// `name` is under `parent` (Anki's "::"), by name or by slug.
    static func isSubdeck(_ name: String, of parent: String) -> Bool {
        let prefix = DeckName.canonical(parent) + "::"
        return name.hasPrefix(prefix) || slug(name).hasPrefix(slug(parent) + "::")
    }
}
