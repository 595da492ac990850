import Foundation

/// A field's text as pieces to show: Anki keeps fields as HTML, and a terminal shows bold,
/// italics and underlining, a word's reading after it, and where a sound or a picture is.
/// Plain-text fields (Maeil's own) are one piece of text.
package enum FieldText {
    package struct Emphasis: OptionSet, Hashable, Sendable {
        package let rawValue: Int
        package init(rawValue: Int) { self.rawValue = rawValue }
        package static let bold = Emphasis(rawValue: 1)
        package static let italic = Emphasis(rawValue: 2)
        package static let underline = Emphasis(rawValue: 4)
    }

    package enum Piece: Hashable, Sendable {
        case text(String, Emphasis)
        case lineBreak
        /// A word and its reading: <ruby>漢字<rt>かんじ</rt></ruby>, or Anki's 漢字[かんじ].
        case reading(base: String, reading: String)
        /// [sound:name]
        case sound(String)
        /// <img src="name">
        case image(String)
    }

    /// The pieces of a field's value.
    package static func pieces(_ value: String, html: Bool) -> [Piece] {
        guard html else { return furigana(value, .init()) }
        var pieces: [Piece] = []
        var emphasis: Emphasis = []
        var counts: [Int: Int] = [:]  // open tags of each emphasis, so nesting closes right
        var text = ""
        var ruby: (base: String, reading: String, inReading: Bool)?
        func flush() {
            guard !text.isEmpty else { return }
            if ruby != nil {
                if ruby!.inReading { ruby!.reading += text } else { ruby!.base += text }
            } else {
                pieces += furigana(text, emphasis)
            }
            text = ""
        }
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "<", let close = value[index...].firstIndex(of: ">") {
                flush()
                let tag = value[value.index(after: index)..<close]
                let closing = tag.hasPrefix("/")
                let name = tag.drop { $0 == "/" }.prefix { $0.isLetter || $0.isNumber }.lowercased()
                let style: Emphasis? = ["b": .bold, "strong": .bold, "i": .italic, "em": .italic, "u": .underline][name]
                if let style {
                    counts[style.rawValue, default: 0] += closing ? -1 : 1
                    if counts[style.rawValue]! > 0 { emphasis.insert(style) } else { emphasis.remove(style); counts[style.rawValue] = 0 }
                } else if ["br", "div", "p", "li", "tr"].contains(name) {
                    if name == "br" || closing || !(pieces.last.map { $0 == .lineBreak } ?? true) { pieces.append(.lineBreak) }
                } else if name == "img", let source = attribute("src", in: String(tag)) {
                    pieces.append(.image(source))
                } else if name == "ruby" {
                    if closing, let open = ruby {
                        pieces.append(open.reading.isEmpty ? .text(open.base, emphasis) : .reading(base: open.base, reading: open.reading))
                        ruby = nil
                    } else if !closing {
                        ruby = ("", "", false)
                    }
                } else if name == "rt" {
                    ruby?.inReading = !closing
                }
                index = value.index(after: close)
            } else if character == "&", let semicolon = value[index...].prefix(10).firstIndex(of: ";"),
                      let decoded = entity(String(value[value.index(after: index)..<semicolon])) {
                text += decoded
                index = value.index(after: semicolon)
            } else {
                text.append(character)
                index = value.index(after: index)
            }
        }
        flush()
        while pieces.first == .lineBreak { pieces.removeFirst() }
        while pieces.last == .lineBreak { pieces.removeLast() }
        return pieces
    }

    /// Text with [sound:…] and Anki's furigana as pieces of their own. Furigana is a word with
    /// a kanji in it, then its reading in kana in brackets (漢字[かんじ]); the word runs back to the
    /// space before it, as in Anki. Other brackets ([k], [1]) are text.
    static func furigana(_ text: String, _ emphasis: Emphasis) -> [Piece] {
        guard text.contains("[") else { return [.text(text, emphasis)] }
        var pieces: [Piece] = []
        var pending = ""
        func flushText() {
            if !pending.isEmpty { pieces.append(.text(pending, emphasis)) }
            pending = ""
        }
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            let inside = rest[rest.index(after: open)..<close]
            let before = rest[..<open]
            if inside.hasPrefix("sound:") {
                pending += before
                flushText()
                pieces.append(.sound(String(inside.dropFirst(6))))
            } else {
                let wordStart = before.lastIndex(of: " ").map { before.index(after: $0) } ?? before.startIndex
                let word = before[wordStart...]
                if !word.isEmpty, word.unicodeScalars.contains(where: isKanji), !inside.isEmpty,
                   inside.unicodeScalars.allSatisfy({ isKana($0) || $0 == "・" }) {
                    // The space before the word only marks where it starts.
                    pending += before[..<wordStart].dropLast(wordStart > before.startIndex ? 1 : 0)
                    flushText()
                    pieces.append(.reading(base: String(word), reading: String(inside)))
                } else {
                    pending += rest[...close]
                }
            }
            rest = rest[rest.index(after: close)...]
        }
        pending += rest
        flushText()
        return pieces
    }

    static func isKanji(_ scalar: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(scalar.value) || (0x3400...0x4DBF).contains(scalar.value) || scalar == "々"
    }

    static func isKana(_ scalar: Unicode.Scalar) -> Bool {
        (0x3040...0x30FF).contains(scalar.value)
    }

    /// The field as one line of plain text: readings after their word in parentheses, sounds
    /// and pictures by name. For lists, search results and widgets.
    package static func plain(_ value: String, html: Bool) -> String {
        guard html || value.utf8.contains(UInt8(ascii: "[")) else { return value }
        return pieces(value, html: html).map { piece in
            switch piece {
            case .text(let text, _): text
            case .lineBreak: "\n"
            case .reading(let base, let reading): "\(base)(\(reading))"
            case .sound(let name): "[sound: \(name)]"
            case .image(let name): "[image: \(name)]"
            }
        }.joined()
    }

    /// What a typed answer is checked against: the words alone, without readings, sounds or
    /// pictures.
    package static func answer(_ value: String, html: Bool) -> String {
        guard html || value.utf8.contains(UInt8(ascii: "[")) else { return value }
        return pieces(value, html: html).compactMap { piece -> String? in
            switch piece {
            case .text(let text, _): text
            case .lineBreak: " "
            case .reading(let base, _): base
            case .sound, .image: nil
            }
        }.joined().trimmingCharacters(in: .whitespaces)
    }

    /// The sounds a field plays, in order.
    package static func sounds(_ value: String, html: Bool) -> [String] {
        // A byte scan first: Foundation's substring search is slow, and most fields have no "[".
        guard value.utf8.contains(UInt8(ascii: "[")), value.contains("[sound:") else { return [] }
        return pieces(value, html: html).compactMap { if case .sound(let name) = $0 { name } else { nil } }
    }

    /// The pictures a field shows, in order.
    package static func images(_ value: String, html: Bool) -> [String] {
        guard html, value.utf8.contains(UInt8(ascii: "<")) else { return [] }
        return pieces(value, html: html).compactMap { if case .image(let name) = $0 { name } else { nil } }
    }

    static func attribute(_ name: String, in tag: String) -> String? {
        guard let range = tag.range(of: name + "=", options: .caseInsensitive) else { return nil }
        let rest = tag[range.upperBound...]
        let value: String
        if let quote = rest.first, quote == "\"" || quote == "'" {
            value = String(rest.dropFirst().prefix { $0 != quote })
        } else {
            value = String(rest.prefix { $0 != " " && $0 != ">" })
        }
        return pieces(value, html: true).compactMap { if case .text(let text, _) = $0 { text } else { nil } }.joined()
    }

    /// A field as Anki sorts and checksums it (a note's `sfld` and `csum`): pictures, sounds and
    /// videos in tags become their file name between spaces, every other tag, comment, style and
    /// script goes, entities are decoded (a non-breaking space becomes a space). Furigana and
    /// `[sound:…]` are text to Anki, and stay.
    package static func ankiSortText(_ value: String) -> String {
        guard value.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return value }
        var result = ""
        var index = value.startIndex
        while index < value.endIndex {
            let character = value[index]
            if character == "<", value[index...].hasPrefix("<!--") {
                guard let end = value[index...].range(of: "-->") else { result.append(character); index = value.index(after: index); continue }
                index = end.upperBound
            } else if character == "<", let close = value[index...].firstIndex(of: ">") {
                let tag = String(value[value.index(after: index)..<close])
                let name = tag.prefix { $0.isLetter || $0.isNumber }.lowercased()
                index = value.index(after: close)
                if ["img", "audio", "video", "object", "source"].contains(name),
                   let file = attribute("src", in: tag) ?? attribute("data", in: tag) {
                    result += " \(file) "
                } else if name == "style" || name == "script", let end = value[index...].range(of: "</\(name)>", options: .caseInsensitive) {
                    index = end.upperBound
                }
            } else if character == "&", let semicolon = value[index...].prefix(12).firstIndex(of: ";"),
                      let decoded = entity(String(value[value.index(after: index)..<semicolon])) {
                result += decoded == "\u{A0}" ? " " : decoded
                index = value.index(after: semicolon)
            } else {
                result.append(character)
                index = value.index(after: index)
            }
        }
        return result
    }

    static func entity(_ name: String) -> String? {
        switch name {
        case "nbsp": return "\u{A0}"
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos", "#39": return "'"
        default:
            if name.hasPrefix("#x") || name.hasPrefix("#X"), let value = UInt32(name.dropFirst(2), radix: 16), let scalar = Unicode.Scalar(value) {
                return String(Character(scalar))
            }
            if name.hasPrefix("#"), let value = UInt32(name.dropFirst()), let scalar = Unicode.Scalar(value) {
                return String(Character(scalar))
            }
            return nil
        }
    }

    /// Plain text as Anki's HTML: what a field of a Maeil deck becomes in a package or a text
    /// file for Anki, and back again unchanged.
    package static func html(fromPlain text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">") || $0 == 0x0A })
        else { return text }
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\n": result += "<br>"
            default: result.append(character)
            }
        }
        return result
    }

    /// The other way: Anki HTML that came from plain text, back to it.
    package static func plainText(fromHTML html: String) -> String {
        html.replacingOccurrences(of: "<br>", with: "\n").replacingOccurrences(of: "&lt;", with: "<")
            .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
