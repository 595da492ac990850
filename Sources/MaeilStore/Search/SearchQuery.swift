import Foundation

/// A search written as Anki's browser takes one: words joined by spaces (all must hold), `or`
/// between alternatives, `-` before a word or group to negate it, parentheses, double quotes
/// around anything with spaces, and `qualifier:value` words. A learner who knows Anki's search
/// types the same words here and finds the same cards.
package indirect enum SearchNode: Equatable, Sendable {
    case all([SearchNode])
    case any([SearchNode])
    case not(SearchNode)
    case term(SearchTerm)
}

package enum SearchTerm: Equatable, Sendable {
    /// Text anywhere in a note's fields; `*` any run of characters, `_` one character.
    case text(String)
    case deck(String)
    case tag(String)
    case noteType(String)
    case field(name: String, value: String)
    case state(CardStateFilter)
    case flag(Int)
    case property(SearchProperty, SearchComparison, Double)
    /// Answered within the last `days` study days (today is 1), with `rating` if given.
    case rated(days: Int, rating: Int?)
    case added(days: Int)
    case noteIDs([Int64])
    case cardIDs([Int64])
}

package enum CardStateFilter: String, Equatable, Sendable, CaseIterable {
    case due, new, learn, review, suspended, buried, buriedSibling = "buried-sibling", buriedManually = "buried-manually"
    /// Maeil's star, which Anki keeps as the tag "marked".
    case starred
}

package enum SearchProperty: String, Equatable, Sendable, CaseIterable {
    case ivl, due, reps, lapses, ease
}

package enum SearchComparison: String, Equatable, Sendable {
    case less = "<", lessOrEqual = "<=", equal = "=", notEqual = "!=", greater = ">", greaterOrEqual = ">="
}

package struct SearchError: Error, CustomStringConvertible, Equatable {
    package let description: String
    init(_ description: String) { self.description = description }
}

extension SearchNode {
    /// The words `find` takes, for its help.
    package static let help = """
        Words as in Anki's browser, all of which must hold: text in any field (* any run, _ one character), \
        deck:NAME (its subdecks too), tag:NAME (its child tags too), FIELD:VALUE (the whole field), note:TYPE, \
        is:due/new/learn/review/suspended/buried/starred, flag:N, prop:ivl>30 (ivl, due, reps, lapses, ease), \
        rated:N[:ANSWER], added:N, nid:/cid:; -WORD negates, 'or' between alternatives, ( ) groups, " " quotes. \
        Examples: find 김치 · find 猫 · find tag:food is:due · find "deck:Korean::Food" -is:new · find prop:lapses>3 or flag:1
        """

    /// Parses `text`; an empty search finds everything.
    package static func parse(_ text: String) throws -> SearchNode {
        var parser = SearchParser(tokens: try SearchToken.split(text))
        let node = try parser.alternatives()
        if parser.index < parser.tokens.count { throw SearchError("a ')' without its '(' in the search") }
        return node
    }
}

/// What the words of a search split into. A word keeps its backslash escapes for the
/// pattern it becomes; `quoted` words are never `and`, `or` or a parenthesis.
enum SearchToken: Equatable {
    case open, close, minus, word(String, quoted: Bool)

    static func split(_ text: String) throws -> [SearchToken] {
        var tokens: [SearchToken] = []
        var chars = Array(text.precomposedStringWithCanonicalMapping)[...]
        while let first = chars.first {
            if first.isWhitespace { chars.removeFirst(); continue }
            if first == "(" { tokens.append(.open); chars.removeFirst(); continue }
            if first == ")" { tokens.append(.close); chars.removeFirst(); continue }
            if first == "-", let next = chars.dropFirst().first, !next.isWhitespace, next != ")" {
                tokens.append(.minus); chars.removeFirst(); continue
            }
            var word = "", quoted = false, sawQuote = false
            while let c = chars.first, !c.isWhitespace || quoted {
                chars.removeFirst()
                if c == "\\", let escaped = chars.first {
                    chars.removeFirst()
                    // Escapes that only keep a character from its syntax meaning are resolved here;
                    // those the patterns and qualifiers need (\* \_ \\ \:) stay for them.
                    word += "*_\\:".contains(escaped) ? "\\\(escaped)" : String(escaped)
                } else if c == "\"" {
                    quoted.toggle()
                    sawQuote = true
                } else if !quoted && (c == "(" || c == ")") {
                    chars.insert(c, at: chars.startIndex)
                    break
                } else {
                    word.append(c)
                }
            }
            if quoted { throw SearchError("a '\"' without its closing '\"' in the search") }
            tokens.append(.word(word, quoted: sawQuote))
        }
        return tokens
    }
}

struct SearchParser {
    let tokens: [SearchToken]
    var index = 0

    init(tokens: [SearchToken]) { self.tokens = tokens }

    /// Alternatives joined by `or`; `and` binds tighter, as in Anki.
    mutating func alternatives() throws -> SearchNode {
        var options = [try sequence()]
        while case .word(let word, false)? = peek, word.lowercased() == "or" {
            index += 1
            options.append(try sequence())
        }
        return options.count == 1 ? options[0] : .any(options)
    }

    mutating func sequence() throws -> SearchNode {
        var parts: [SearchNode] = []
        while let token = peek {
            if token == .close { break }
            if case .word(let word, false) = token {
                let keyword = word.lowercased()
                if keyword == "or" { break }
                if keyword == "and" { index += 1; continue }
            }
            parts.append(try unary())
        }
        if parts.isEmpty && !tokens.isEmpty { throw SearchError("a search has nothing on one side of 'or', or an empty '( )'") }
        return parts.count == 1 ? parts[0] : .all(parts)
    }

    mutating func unary() throws -> SearchNode {
        guard let token = peek else { throw SearchError("the search ends after '-'") }
        index += 1
        switch token {
        case .minus: return .not(try unary())
        case .open:
            let inner = try alternatives()
            guard peek == .close else { throw SearchError("a '(' without its ')' in the search") }
            index += 1
            return inner
        case .close: throw SearchError("a ')' without its '(' in the search")
        case .word(let word, _): return .term(try SearchTermParser.term(word))
        }
    }

    var peek: SearchToken? { index < tokens.count ? tokens[index] : nil }
}
