/// `tag NOTE +food -review`: a word with + (or none) adds a tag, one with - removes it; tags
/// are one word each, in NFC.
package struct TagChanges: Sendable, Equatable {
    package var add: [String] = []
    package var remove: [String] = []

    package struct Problem: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    package init(_ words: [String]) throws(Problem) {
        for word in words {
            let tag = word.hasPrefix("+") || word.hasPrefix("-") ? String(word.dropFirst()) : word
            if tag.isEmpty || tag.contains(where: \.isWhitespace) { throw Problem(description: "'\(word)' is no tag: a tag is one word") }
            if word.hasPrefix("-") { remove.append(tag.nfc) } else { add.append(tag.nfc) }
        }
    }
}
