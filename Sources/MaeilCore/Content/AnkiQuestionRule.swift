import Foundation

/// Anki's rule for which cards a note of a standard (not cloze) note type has: a template makes
/// a card when its question shows something that is not empty, counting only what its sections
/// let through: `{{#Name}}…{{/Name}}` when that is not empty, `{{^Name}}…{{/Name}}` when it is
/// (rslib's `renders_with_fields`). A field named through a filter (`{{hint:Field}}`,
/// `{{type:Field}}`, `{{tts ko_KR:Field}}`) counts as the field. Of the special names, `{{Card}}`,
/// `{{Deck}}`, `{{Subdeck}}`, `{{Type}}` and `{{CardFlag}}` always show something, `{{Tags}}`
/// when the note has a tag, `{{FrontSide}}` nothing (checked against Anki 26.9.3's library).
package enum AnkiQuestionRule {
    static let alwaysShown: Set<String> = ["Card", "Deck", "Subdeck", "Type", "CardFlag"]

    /// Whether a question template makes a card for a note whose field `name` holds
    /// `field(name)` (nil for a name that is no field of it), with or without tags.
    package static func makesCard(question: String, field: (String) -> String?, hasTags: Bool) -> Bool {
        var makes = false
        walk(question, field: field, hasTags: hasTags) { _, empty in
            makes = !empty
            return !makes
        }
        return makes
    }

    /// The names the question shows for such a note, in order: the ones its sections let
    /// through, each with whether it is empty (the question makes a card where one is not).
    package static func shownNames(question: String, field: (String) -> String?, hasTags: Bool) -> [(name: String, empty: Bool)] {
        var names: [(name: String, empty: Bool)] = []
        walk(question, field: field, hasTags: hasTags) { name, empty in
            names.append((name, empty))
            return true
        }
        return names
    }

    /// Each name the question shows through its sections, with whether it is empty, until
    /// `visit` answers false.
    private static func walk(_ question: String, field: (String) -> String?, hasTags: Bool, _ visit: (String, Bool) -> Bool) {
        func empty(_ name: String) -> Bool {
            if let value = field(name) { return isEmpty(value) }
            if name == "Tags" { return !hasTags }
            return !alwaysShown.contains(name)
        }
        // Whether each open section lets its contents through.
        var open: [Bool] = []
        forEachTag(in: question) { _, tag in
            let shown = open.last ?? true
            switch tag.first {
            case "#": open.append(shown && !empty(key(tag.dropFirst())))
            case "^": open.append(shown && empty(key(tag.dropFirst())))
            case "/": if !open.isEmpty { open.removeLast() }
            case "!": break
            default:
                // `filters:Name`: the name is the last part.
                let name = key(tag.split(separator: ":", omittingEmptySubsequences: false).last ?? tag)
                if shown { return visit(name, empty(name)) }
            }
            return true
        }
    }

    /// The question's tags alone, in order (`{{#Extra}}{{Extra}}{{/Extra}}`): all the rule
    /// reads, and the same for a question only restyled (its HTML changed around the fields).
    package static func tags(of question: String) -> String {
        var tags = ""
        forEachTag(in: question) { whole, _ in
            tags += whole
            return true
        }
        return tags
    }

    /// Each `{{…}}` tag of a template, in order, whole and inside its braces, until `body`
    /// answers false.
    static func forEachTag(in format: String, _ body: (_ whole: Substring, _ inside: Substring) -> Bool) {
        var rest = Substring(format)
        while let start = rest.range(of: "{{"), let end = rest[start.upperBound...].range(of: "}}") {
            let (whole, inside) = (rest[start.lowerBound..<end.upperBound], rest[start.upperBound..<end.lowerBound])
            rest = rest[end.upperBound...]
            guard body(whole, inside) else { return }
        }
    }

    /// Anki's empty field (rslib's `field_is_empty`): nothing but ASCII white space and line
    /// breaks or divisions as HTML (`<br>`, `<br/>`, `<div>`, `</div>`, any case). A
    /// no-break space, a zero-width space or `<b></b>` is text.
    package static func isEmpty(_ value: String) -> Bool {
        let bytes = Array(value.utf8)
        var index = 0
        func lower(_ at: Int) -> UInt8? { at < bytes.count ? bytes[at] | 0x20 : nil }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0B, 0x0C, 0x0D:
                index += 1
            case UInt8(ascii: "<"):
                // </?(br|div) ?/?>
                var at = index + 1
                if at < bytes.count, bytes[at] == UInt8(ascii: "/") { at += 1 }
                if lower(at) == UInt8(ascii: "b"), lower(at + 1) == UInt8(ascii: "r") {
                    at += 2
                } else if lower(at) == UInt8(ascii: "d"), lower(at + 1) == UInt8(ascii: "i"), lower(at + 2) == UInt8(ascii: "v") {
                    at += 3
                } else {
                    return false
                }
                if at < bytes.count, bytes[at] == 0x20 { at += 1 }
                if at < bytes.count, bytes[at] == UInt8(ascii: "/") { at += 1 }
                guard at < bytes.count, bytes[at] == UInt8(ascii: ">") else { return false }
                index = at + 1
            default:
                return false
            }
        }
        return true
    }

    private static func key(_ text: Substring) -> String {
        text.trimmingCharacters(in: .whitespaces)
    }
}
