import Foundation
import MaeilPrograms
import MaeilCore
import MaeilStore

/// What the commands' values complete to, from the collection: the functions a shell's
/// completion script and Tab at the prompt both reach through the command line's own
/// completion functions. At the prompt they read the prompt's open collection; from a shell,
/// the one the words name with --collection (else the default), opened read-only.
package enum CompletionSources {
    /// Deck names, as slugs that need no quoting.
    package static func decks(_ words: [String], prefix: String) -> [String] {
        read(words) { try $0.decks().map { DeckNames.slug($0.name) } }.filter { $0.hasPrefix(prefix.lowercased()) }.sorted()
    }

    /// `find`'s words: tags after "tag:", decks after "deck:", states after "is:", the other
    /// qualifiers by name.
    package static func findWords(_ words: [String], prefix: String) -> [String] {
        let negation = prefix.hasPrefix("-") ? "-" : "", word = String(prefix.dropFirst(negation.count))
        let candidates: [String]
        if word.hasPrefix("tag:") {
            candidates = read(words) { try $0.allTags() }.map { "tag:" + $0 }
        } else if word.hasPrefix("deck:") {
            candidates = read(words) { try $0.decks().map { "deck:" + DeckNames.slug($0.name) } }
        } else if word.hasPrefix("is:") {
            candidates = CardStateFilter.allCases.map { "is:" + $0.rawValue }
        } else {
            candidates = ["deck:", "tag:", "is:", "flag:", "prop:", "rated:", "added:", "note:"]
        }
        return candidates.map { negation + $0 }.filter { $0.hasPrefix(prefix) }.sorted()
    }

    /// `deck`'s words: a deck, then `set`, a key, and the key's value where it has a few.
    package static func deckWords(_ words: [String], index: Int, prefix: String) -> [String] {
        let before = words.prefix(index)
        if before.last == "set" { return PresetKey.allCases.map(\.rawValue).filter { $0.hasPrefix(prefix) } }
        if before.dropLast().last == "set", let key = before.last.flatMap(PresetKey.init(rawValue:)) {
            switch key.domain {
            case .choice(let values): return values.filter { $0.hasPrefix(prefix) }
            case .flag: return ["true", "false"].filter { $0.hasPrefix(prefix) }
            default: return []
            }
        }
        // After a deck's words (never the collection's path), `set` may follow.
        var deckWords = 0, skipValue = false
        for word in before.drop(while: { $0 != "deck" }).dropFirst() {
            if skipValue { skipValue = false } else if word == "--collection" { skipValue = true } else if !word.hasPrefix("-") { deckWords += 1 }
        }
        return decks(words, prefix: prefix) + (deckWords > 0 ? ["set"].filter { $0.hasPrefix(prefix) } : [])
    }

    /// The prompt's open collection: completion there reads it instead of opening the file again.
    private static let prompt = PromptCollection()

    /// Completion at the prompt reads `collection`.
    package static func use(_ collection: Collection) { prompt.set(collection) }

    private static func read(_ words: [String], _ body: (Collection) throws -> [String]) -> [String] {
        if let open = prompt.get() { return (try? body(open)) ?? [] }
        let named = words.firstIndex(of: "--collection").flatMap { words.indices.contains($0 + 1) ? words[$0 + 1] : nil }
        let path = CollectionLocation.resolve(explicit: named, environment: ThisProcess.variables)
        guard FileManager.default.fileExists(atPath: path), let collection = try? Collection(path: path, readOnly: true) else { return [] }
        return (try? body(collection)) ?? []
    }
}

/// The one collection a prompt has open, for the completion functions (which swift-argument-
/// parser keeps as global closures).
private final class PromptCollection: @unchecked Sendable {
    private let lock = NSLock()
    private var collection: Collection?

    func set(_ collection: Collection) { lock.withLock { self.collection = collection } }
    func get() -> Collection? { lock.withLock { collection } }
}
