/// `tag NOTE +food -review`: a word with + (or none) adds a tag, one with - removes it; tags
/// are one word each, in NFC.
public struct TagChanges: Sendable, Equatable {
    public var add: [String] = []
    public var remove: [String] = []

    public struct Problem: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    public init(_ words: [String]) throws(Problem) {
        for word in words {
            let tag = word.hasPrefix("+") || word.hasPrefix("-") ? String(word.dropFirst()) : word
            if tag.isEmpty || tag.contains(where: \.isWhitespace) { throw Problem(description: "'\(word)' is no tag: a tag is one word") }
            if word.hasPrefix("-") { remove.append(tag.nfc) } else { add.append(tag.nfc) }
        }
    }
}
