/// A text with words blanked out: Anki-style {{c1::…}} deletions when the text has them,
/// otherwise key words chosen from the text itself (for a verse to memorize).
package struct Blanks: Hashable, Sendable {
    /// The text with each blank shown as "[…]" (or its hint).
    package var question: String
    /// The text with the blanked words marked, for the back.
    package var answerText: String
    /// The missing words, in order.
    package var answers: [String]

    package static let placeholder = "[…]"

    /// `ordinal` picks the deletion number for cloze markup; automatic blanks ignore it.
    package init(text: String, ordinal: Int) {
        if let masks = ImageOcclusion.masks(in: text) {
            self = ImageOcclusion.blanks(masks, ordinal: ordinal)
        } else if !Cloze.numbers(in: text).isEmpty {
            self = Self.cloze(text, ordinal: ordinal)
        } else {
            self = Self.automatic(text)
        }
    }

    init(question: String, answerText: String, answers: [String]) {
        self.question = question
        self.answerText = answerText
        self.answers = answers
    }

    /// {{cN::answer}} or {{cN::answer::hint}}: deletion N is blanked, the others shown.
    /// Deletions nest as in Anki ({{c1::a {{c2::b}} c}}): blanking c1 hides all of it,
    /// blanking c2 hides only b.
    static func cloze(_ text: String, ordinal: Int) -> Blanks {
        var question = "", answerText = "", answers: [String] = []
        for node in ClozeNode.parse(text) {
            node.render(ordinal: ordinal, question: &question, answer: &answerText, answers: &answers)
        }
        return Blanks(question: question, answerText: answerText, answers: answers)
    }

    /// Blanks about one word in five, chosen among the words that carry meaning (four letters
    /// or more and not a common function word, or one of the short words a verse turns on:
    /// God, Son, sin, law…) and spread evenly through the text; at least one.
    static func automatic(_ text: String) -> Blanks {
        // Words as the text separates them: by spaces, and by em dashes, which join two words
        // without one ("remain—these"); each word remembers what followed it.
        var words: [String] = [], joiners: [String] = []
        for chunk in text.split(separator: " ", omittingEmptySubsequences: false) {
            let parts = chunk.split(separator: "—", omittingEmptySubsequences: false)
            for (index, part) in parts.enumerated() {
                let last = index == parts.count - 1
                words.append(String(part) + (last ? "" : "—"))
                joiners.append(last ? " " : "")
            }
        }
        func joined(_ pieces: [String]) -> String {
            zip(pieces, joiners).map { $0 + $1 }.joined().dropLast().description
        }
        let candidates = words.indices.filter { index in
            let core = Self.core(of: words[index])
            let lower = core.lowercased()
            return (core.count >= 4 || Self.shortContentWords.contains(lower)) && !Self.functionWords.contains(lower)
        }
        guard !candidates.isEmpty else { return Blanks(question: text, answerText: text, answers: []) }
        // About one blank in five words, spread over the words that carry meaning.
        let count = max(1, min(candidates.count, (words.count + 2) / 5))
        let stride = Double(candidates.count) / Double(count)
        let chosen = Set((0..<count).map { candidates[min(candidates.count - 1, Int(Double($0) * stride + stride / 2))] })
        var question: [String] = [], answerText: [String] = [], answers: [String] = []
        for (index, word) in words.enumerated() {
            guard chosen.contains(index) else {
                question.append(word)
                answerText.append(word)
                continue
            }
            let (before, core, after) = Self.split(word)
            question.append(before + placeholder + after)
            answerText.append(before + "[\(core)]" + after)
            answers.append(core)
        }
        return Blanks(question: joined(question), answerText: joined(answerText), answers: answers)
    }

    /// The word without surrounding punctuation: "world," → "world".
    static func core(of word: String) -> String { split(word).core }

    /// A word as (leading punctuation, core, trailing punctuation), cut at scalar boundaries:
    /// the core can start inside a grapheme (a combining mark after a quote), where a search
    /// for it by characters would fail.
    static func split(_ word: String) -> (before: String, core: String, after: String) {
        let scalars = word.unicodeScalars
        func isCore(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.isAlphabetic || scalar.properties.numericType != nil }
        guard let first = scalars.firstIndex(where: isCore), let last = scalars.lastIndex(where: isCore) else { return (word, "", "") }
        let end = scalars.index(after: last)
        return (String(scalars[..<first]), String(scalars[first..<end]), String(scalars[end...]))
    }

    /// Three-letter words that carry a verse's meaning, which the length rule would pass over.
    static let shortContentWords: Set<String> = [
        "god", "son", "sin", "law", "joy", "way", "man", "men", "day", "sun", "sea", "war", "eye", "ear", "cup", "rod",
        "die", "win", "ask", "old", "new", "end", "arm", "run", "sow", "lie",
    ]

    static let functionWords: Set<String> = [
        // Words a verse is not recalled by, though long enough to pass: fillers and the amen.
        "away", "anyone", "anything", "everyone", "everything", "someone", "something", "become", "becomes", "became",
        "amen", "other", "others", "another", "many", "indeed", "truly",
        "that", "this", "with", "from", "have", "your", "they", "them", "their", "were", "which", "will", "into", "unto",
        "shall", "there", "these", "those", "what", "when", "then", "than", "also", "upon", "been", "being", "hath", "thee",
        "thou", "thine", "thy", "whom", "whose", "because", "about", "even", "over", "such", "every", "should", "would",
        "could", "does", "doth", "made", "make", "said", "says", "saith", "things", "before", "after", "through",
        // Words a learner does not recall a verse by: connectives, prepositions, contractions.
        "toward", "towards", "whether", "like", "unless", "until", "while", "among", "within", "without", "against", "across",
        "along", "around", "beside", "between", "beyond", "during", "under", "where", "wherever", "whoever", "whatever",
        "however", "therefore", "neither", "either", "both", "each", "some", "much", "more", "most", "only", "just", "very",
        "here", "yours", "ours", "mine", "must", "might", "again", "still", "yet", "himself", "herself", "itself", "yourself",
        "yourselves", "ourselves", "themselves", "don’t", "don't", "doesn’t", "doesn't", "didn’t", "didn't", "won’t", "won't",
        "can’t", "can't", "isn’t", "isn't", "aren’t", "aren't", "wasn’t", "wasn't", "haven’t", "haven't", "hasn’t", "hasn't",
        "shouldn’t", "shouldn't", "wouldn’t", "wouldn't", "couldn’t", "couldn't", "it’s", "it's", "i’m", "i'm", "you’re",
        "you're", "we’re", "we're", "they’re", "they're", "let’s", "let's",
    ]
}

/// A cloze text as a tree: plain text, and deletions that may hold deletions.
enum ClozeNode {
    case text(String)
    indirect case deletion(number: Int, content: [ClozeNode], hint: String?)

    /// Parses `{{cN::…}}` (with an optional `::hint` at its end) anywhere, nested; an opening
    /// that is never closed is text.
    static func parse(_ text: String) -> [ClozeNode] {
        var stack: [(number: Int, nodes: [ClozeNode], opening: String)] = [(0, [], "")]
        var plain = ""
        func flush() {
            if !plain.isEmpty { stack[stack.count - 1].nodes.append(.text(plain)) }
            plain = ""
        }
        var rest = Substring(text)
        while let index = rest.firstIndex(where: { $0 == "{" || $0 == "}" }) {
            plain += rest[..<index]
            rest = rest[index...]
            if rest.hasPrefix("{{c") {
                let afterOpen = rest.dropFirst(3)
                let digits = afterOpen.prefix(while: \.isNumber)
                if let number = Int(digits), afterOpen.dropFirst(digits.count).hasPrefix("::") {
                    flush()
                    let opening = "{{c\(digits)::"
                    stack.append((number, [], opening))
                    rest = afterOpen.dropFirst(digits.count + 2)
                    continue
                }
            } else if rest.hasPrefix("}}"), stack.count > 1 {
                flush()
                let frame = stack.removeLast()
                var nodes = frame.nodes
                var hint: String?
                // The hint is what follows the deletion's last "::" at its own level.
                if case .text(let last)? = nodes.last, let separator = last.range(of: "::", options: .backwards) {
                    hint = String(last[separator.upperBound...])
                    let kept = String(last[..<separator.lowerBound])
                    nodes.removeLast()
                    if !kept.isEmpty { nodes.append(.text(kept)) }
                }
                stack[stack.count - 1].nodes.append(.deletion(number: frame.number, content: nodes, hint: hint))
                rest = rest.dropFirst(2)
                continue
            }
            plain.append(rest.removeFirst())
        }
        plain += rest
        flush()
        // Openings never closed are text, with what they held.
        while stack.count > 1 {
            let frame = stack.removeLast()
            stack[stack.count - 1].nodes.append(.text(frame.opening))
            stack[stack.count - 1].nodes += frame.nodes
        }
        return stack[0].nodes
    }

    /// The text with every deletion shown.
    var shown: String {
        switch self {
        case .text(let text): text
        case .deletion(_, let content, _): content.map(\.shown).joined()
        }
    }

    func render(ordinal: Int, question: inout String, answer: inout String, answers: inout [String]) {
        switch self {
        case .text(let text):
            question += text
            answer += text
        case .deletion(let number, let content, let hint):
            if number == ordinal {
                let hidden = content.map(\.shown).joined()
                question += hint.map { "[\($0)]" } ?? Blanks.placeholder
                answer += "[\(hidden)]"
                answers.append(hidden)
            } else {
                for node in content { node.render(ordinal: ordinal, question: &question, answer: &answer, answers: &answers) }
            }
        }
    }

    /// Every deletion number in the tree.
    func numbers(into set: inout Set<Int>) {
        if case .deletion(let number, let content, _) = self {
            set.insert(number)
            for node in content { node.numbers(into: &set) }
        }
    }
}

/// Anki-style cloze deletions: {{c1::answer}} or {{c1::answer::hint}}.
package enum Cloze {
    package static func numbers(in text: String) -> [Int] {
        guard text.contains("{{c") else { return [] }
        var numbers = Set<Int>()
        for node in ClozeNode.parse(text) { node.numbers(into: &numbers) }
        return numbers.sorted()
    }
}
