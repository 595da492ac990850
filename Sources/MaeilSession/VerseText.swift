import Foundation
import MaeilCore
import MaeilPrograms

/// A passage's text from the World English Bible as Debian packages it (sword-text-web, read
/// with diatheke): the same source and the same cleaning as the bundled memory verses, so a
/// verse a reader adds looks like the ones that came with Maeil.
package enum VerseText {
    package static let module = "engWEB2015eb"
    package static let install = "sudo apt-get install sword-text-web diatheke"

    package struct Passage: Sendable, Equatable {
        /// As the bundled deck writes references: "Psalm 23:1–3", "1 John 4:8".
        package var reference: String
        /// The reference in the form the bundled deck's ids come from ("psalms-23-1"; a passage
        /// adds its last verse: "psalms-23-1-3").
        package var key: String
        package var text: String
    }

    package enum LookupError: Error, Equatable {
        case notInstalled
        case noSuchPassage(String)
    }

    /// A passage whose text the reader gives (another translation): the reference as typed.
    package static func given(reference: String, text: String) -> Passage {
        let reference = reference.split(whereSeparator: \.isWhitespace).joined(separator: " ").nfc
        return Passage(reference: reference, key: key(reference), text: clean(text).nfc)
    }

    /// "Psalms 23:1" → "psalms-23-1", as the bundled deck's generator makes its ids.
    static func key(_ reference: String) -> String {
        reference.lowercased().replacingOccurrences(of: #"[^\p{L}\p{N}]+"#, with: "-", options: .regularExpression)
            .trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }

    /// Looks up "John 3:16" or "Psalm 23:1-3" (a range within one chapter).
    package static func lookup(_ reference: String, searchPath: String = ExternalProgram.searchPath) throws -> Passage {
        guard let diatheke = ExternalProgram.find("diatheke", in: searchPath) else { throw LookupError.notInstalled }
        let asked = reference.split(whereSeparator: \.isWhitespace).joined(separator: " ").replacingOccurrences(of: "–", with: "-")
        guard let range = asked.range(of: #"^(.+?) (\d+):(\d+)(?:-(\d+))?$"#, options: .regularExpression), range == asked.startIndex..<asked.endIndex else {
            throw LookupError.noSuchPassage(reference)
        }
        let output = try ExternalProgram.run(diatheke, ["-b", module, "-o", "f", "-f", "plain", "-k", asked]).output
        guard output.contains("(\(module))") else { throw LookupError.notInstalled }
        return try parse(output, asked: asked)
    }

    /// Verses come as "Book c:v: text", each possibly after a heading line ("A Psalm by
    /// David."), and end with "(module)". SWORD reads a verse past a chapter's end as the
    /// next chapter's, so the first verse must be the one asked for.
    static func parse(_ output: String, asked: String) throws -> Passage {
        let parts = asked.split(separator: " ")
        let chapterVerse = String(parts.last!)
        let pattern = try NSRegularExpression(pattern: #"(?m)^\s*([1-3I]*\s?[A-Za-z][A-Za-z ]*?) (\d+):(\d+): "#)
        let text = output.components(separatedBy: "(\(module))").first ?? output
        let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
        guard let first = matches.first, let book = Range(first.range(at: 1), in: text), let chapter = Range(first.range(at: 2), in: text),
              let verse = Range(first.range(at: 3), in: text),
              chapterVerse.split(separator: "-").first.map(String.init) == "\(text[chapter]):\(text[verse])"
        else { throw LookupError.noSuchPassage(asked) }
        let lastVerse = Int(chapterVerse.split(separator: "-").last.map(String.init)?.split(separator: ":").last ?? "") ?? Int(text[verse])!
        var verses: [String] = []
        for (index, match) in matches.enumerated() {
            guard let number = Range(match.range(at: 3), in: text).flatMap({ Int(text[$0]) }), number <= lastVerse,
                  let end = Range(match.range, in: text)?.upperBound else { break }
            let stop = index + 1 < matches.count ? Range(matches[index + 1].range, in: text)!.lowerBound : text.endIndex
            var body = String(text[end..<stop])
            if let blank = body.range(of: "\n\n") { body = String(body[..<blank.lowerBound]) }
            verses.append(body)
        }
        let bookName = canonicalBook(String(text[book]))
        let range = lastVerse > Int(text[verse])! ? "\(text[chapter]):\(text[verse])–\(lastVerse)" : "\(text[chapter]):\(text[verse])"
        // A single verse keeps the bundled deck's id; a passage the deck holds as one verse
        // ("Psalm 23:1") is another note when the reader asks for more of it ("Psalm 23:1-3").
        let key = key("\(bookName) \(text[chapter]):\(text[verse])" + (verses.count > 1 ? "-\(lastVerse)" : ""))
        let shown = bookName == "Psalms" ? "Psalm" : bookName
        return Passage(reference: "\(shown) \(range)".nfc, key: key, text: clean(verses.joined(separator: " ")).nfc)
    }

    /// "I John" → "1 John", "Revelation of John" → "Revelation".
    static func canonicalBook(_ name: String) -> String {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        for (roman, digit) in [("III ", "3 "), ("II ", "2 "), ("I ", "1 ")] where trimmed.hasPrefix(roman) {
            return digit + trimmed.dropFirst(roman.count)
        }
        return trimmed == "Revelation of John" ? "Revelation" : trimmed
    }

    /// Footnotes and paragraph marks out, poetry lines joined, no space before punctuation.
    static func clean(_ text: String) -> String {
        var text = text.replacingOccurrences(of: #"\[[^\]]*\]"#, with: "", options: .regularExpression).replacingOccurrences(of: "¶", with: "")
        text = text.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression).trimmingCharacters(in: .whitespaces)
        return text.replacingOccurrences(of: #"\s+([,.;:!?’”])"#, with: "$1", options: .regularExpression)
    }
}
