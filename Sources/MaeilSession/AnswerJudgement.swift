import Foundation
import MaeilCore

/// A typed answer compared with the expected one. Both are NFC-normalized and compared with
/// case, spacing and punctuation folded, so decomposed Hangul from some input methods, "Seoul"
/// vs "seoul", doubled spaces and 얼마예요 for 얼마예요? are all right: punctuation never
/// decides an answer.
package struct AnswerJudgement: Equatable, Sendable {
    package var typed: String
    package var expected: String
    package var correct: Bool
    /// Character by character, for a diff the learner can read.
    package var diff: [DiffPiece]

    package enum DiffPiece: Equatable, Sendable {
        case same(String)
        /// Typed but not expected.
        case extra(String)
        /// Expected but not typed.
        case missing(String)
    }

    package init(typed: String, expected: String) {
        self.typed = typed.nfc
        self.expected = expected.nfc
        let acceptable = Self.alternatives(self.expected).map(Self.folded)
        correct = acceptable.contains(Self.folded(self.typed))
        diff = Self.diff(Array(Self.spaced(self.typed)), Array(Self.spaced(self.expected)))
    }

    /// "ga, ka" or "ga / ka" accept either.
    static func alternatives(_ expected: String) -> [String] {
        let parts = expected.split(whereSeparator: { $0 == "/" || $0 == "," || $0 == ";" }).map(String.init)
        return [expected] + (parts.count > 1 ? parts : [])
    }

    static func folded(_ text: String) -> String {
        // Marks inside a word stay (don't, a–z): only those at a word's edges go.
        let words = text.nfc.split(whereSeparator: \.isWhitespace).map { $0.trimmingCharacters(in: punctuation) }.filter { !$0.isEmpty }
        return words.joined(separator: " ").lowercased()
    }

    /// Western and East Asian sentence punctuation, quotes and brackets.
    static let punctuation = CharacterSet.punctuationCharacters.union(CharacterSet(charactersIn: "~〜"))

    static func spaced(_ text: String) -> String {
        text.nfc.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// Longest common subsequence over characters (grapheme clusters, so a Hangul syllable is one).
    static func diff(_ typed: [Character], _ expected: [Character]) -> [DiffPiece] {
        let n = typed.count, m = expected.count
        var table = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                table[i][j] = same(typed[i], expected[j]) ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        var pieces: [DiffPiece] = []
        func add(_ piece: DiffPiece) {
            switch (pieces.last, piece) {
            case (.same(let a)?, .same(let b)): pieces[pieces.count - 1] = .same(a + b)
            case (.extra(let a)?, .extra(let b)): pieces[pieces.count - 1] = .extra(a + b)
            case (.missing(let a)?, .missing(let b)): pieces[pieces.count - 1] = .missing(a + b)
            default: pieces.append(piece)
            }
        }
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, same(typed[i], expected[j]) {
                add(.same(String(expected[j])))
                i += 1
                j += 1
            } else if i < n, j == m || table[i + 1][j] >= table[i][j + 1] {
                add(.extra(String(typed[i])))
                i += 1
            } else {
                add(.missing(String(expected[j])))
                j += 1
            }
        }
        return pieces
    }

    static func same(_ a: Character, _ b: Character) -> Bool {
        a == b || a.lowercased() == b.lowercased()
    }
}
