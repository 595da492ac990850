/// Words an `.allUnrecognized` argument collects. swift-argument-parser hands on the "--" that
/// ends the options (`maeil find -- -tag:x`, `maeil tag 5 -- -food`) as a word of its own: it
/// is none, and taken as one it searched for notes without a hyphen.
enum GivenWords {
    static func without(terminator words: [String]) -> [String] {
        guard let index = words.firstIndex(of: "--") else { return words }
        var words = words
        words.remove(at: index)
        return words
    }
}
