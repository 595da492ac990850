import Foundation

/// One word of a search: plain text, or `qualifier:value`. A qualifier Anki has and Maeil does
/// not is refused by name, never searched as a field.
enum SearchTermParser {
    static let unsupported: Set<String> = ["card", "dupe", "re", "nc", "w", "preset", "edited", "introduced", "resched", "sc", "has-cd"]
    static let supported = "deck: tag: note: is: flag: prop: rated: added: nid: cid: FIELD:"

    static func term(_ word: String) throws -> SearchTerm {
        guard let colon = unescapedColon(in: word) else { return .text(word) }
        let qualifier = word[..<colon].lowercased()
        let value = String(word[word.index(after: colon)...])
        switch qualifier {
        case "deck": return .deck(value)
        case "tag": return .tag(value)
        case "note": return .noteType(value)
        case "is":
            guard let state = CardStateFilter(rawValue: value.lowercased()) else {
                throw SearchError("is:\(value) is not a card state; the states are \(CardStateFilter.allCases.map { "is:" + $0.rawValue }.joined(separator: ", "))")
            }
            return .state(state)
        case "flag":
            guard let flag = Int(value), (0...7).contains(flag) else { throw SearchError("flag:\(value): a flag is 0 (none) to 7") }
            return .flag(flag)
        case "prop": return try property(value)
        case "rated": return try rated(value)
        case "added":
            guard let days = Int(value), days > 0 else { throw SearchError("added:\(value): say how many days, as added:7") }
            return .added(days: days)
        case "nid", "cid":
            let ids = value.split(separator: ",").map { Int64($0.trimmingCharacters(in: .whitespaces)) }
            guard !ids.isEmpty, !ids.contains(nil) else { throw SearchError("\(qualifier):\(value): give numbers joined by commas") }
            return qualifier == "nid" ? .noteIDs(ids.compactMap { $0 }) : .cardIDs(ids.compactMap { $0 })
        case _ where unsupported.contains(qualifier):
            throw SearchError("Maeil does not search by \(qualifier): yet; it searches by \(supported)")
        default:
            return .field(name: String(word[..<colon]), value: value)
        }
    }

    /// `prop:ivl>=30`: a property, a comparison and a number.
    static func property(_ value: String) throws -> SearchTerm {
        let lowered = value.lowercased()
        guard let property = SearchProperty.allCases.first(where: { lowered.hasPrefix($0.rawValue) }) else {
            throw SearchError("prop:\(value): the properties are \(SearchProperty.allCases.map(\.rawValue).joined(separator: ", ")), as prop:ivl>30")
        }
        let rest = lowered.dropFirst(property.rawValue.count)
        let operators: [SearchComparison] = [.lessOrEqual, .greaterOrEqual, .notEqual, .less, .greater, .equal]
        guard let comparison = operators.first(where: { rest.hasPrefix($0.rawValue) }),
              let number = Double(rest.dropFirst(comparison.rawValue.count)) else {
            throw SearchError("prop:\(value): compare with <, <=, =, !=, >= or > and a number, as prop:\(property.rawValue)>3")
        }
        return .property(property, comparison, number)
    }

    /// `rated:N` or `rated:N:R`, R an answer 1–4.
    static func rated(_ value: String) throws -> SearchTerm {
        let parts = value.split(separator: ":", omittingEmptySubsequences: false)
        guard let days = parts.first.flatMap({ Int($0) }), days > 0, parts.count <= 2 else {
            throw SearchError("rated:\(value): say how many days, as rated:1, and an answer 1–4 if you like, as rated:7:1")
        }
        guard parts.count == 2 else { return .rated(days: min(days, 36_500), rating: nil) }
        guard let rating = Int(parts[1]), (1...4).contains(rating) else { throw SearchError("rated:\(value): an answer is 1 to 4") }
        return .rated(days: min(days, 36_500), rating: rating)
    }

    static func unescapedColon(in word: String) -> String.Index? {
        var index = word.startIndex, escaped = false
        while index < word.endIndex {
            let c = word[index]
            if escaped { escaped = false } else if c == "\\" { escaped = true } else if c == ":" { return index > word.startIndex ? index : nil }
            index = word.index(after: index)
        }
        return nil
    }
}

/// The two kinds of pattern a search's words become, from the same escapes.
enum SearchPattern {
    /// A LIKE pattern (escape `\`): `*` any run, `_` one character, `%` itself.
    static func like(_ word: String) -> String {
        var result = "", escaped = false
        for c in word {
            if escaped {
                result += c == "_" || c == "%" || c == "\\" ? "\\\(c)" : String(c)
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else {
                result += c == "*" ? "%" : c == "%" ? "\\%" : String(c)
            }
        }
        return result
    }

    /// A regular expression for a name: `*` any run (of `anyRun`), `_` one character, the rest literal.
    static func regex(_ word: String, any anyCharacter: String = ".") -> String {
        var result = "", escaped = false
        for c in word {
            if escaped {
                result += NSRegularExpression.escapedPattern(for: String(c))
                escaped = false
            } else if c == "\\" {
                escaped = true
            } else if c == "*" {
                result += anyCharacter + "*"
            } else if c == "_" {
                result += anyCharacter
            } else {
                result += NSRegularExpression.escapedPattern(for: String(c))
            }
        }
        return result
    }

    /// A case-insensitive matcher of whole names.
    static func nameMatcher(_ word: String) -> @Sendable (String) -> Bool {
        let pattern = try? NSRegularExpression(pattern: "^" + regex(word) + "$", options: [.caseInsensitive, .dotMatchesLineSeparators])
        return { name in
            pattern?.firstMatch(in: name, range: NSRange(name.startIndex..., in: name)) != nil
        }
    }
}
