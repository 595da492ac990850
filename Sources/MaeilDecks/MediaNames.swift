import Foundation

/// Media names as Maeil keeps them: NFC, like the text of the notes that point at them. Two
/// files of one package whose names differ only in normalisation (é as one character or as e
/// and an accent) would become one name, and every note the picture of whichever came last:
/// the first keeps the name, each other gets one of its own, and the notes that spelled it
/// that way are pointed at it before their text is normalised.
package struct MediaNames: Sendable {
    /// The package's spelling of a name (its UTF-8: Swift's strings take é and e + accent as one
    /// key) → the name it is kept under, where that is not its NFC form.
    private var renamed: [[UInt8]: (original: String, name: String)] = [:]

    package init(_ names: [String]) {
        var taken = Set<String>()
        for name in names {
            let normal = name.nfc
            if taken.insert(normal).inserted { continue }
            let stem = (normal as NSString).deletingPathExtension, ext = (normal as NSString).pathExtension
            var unique = stem + "-" + String(StableHash.hex(name).prefix(8))
                + (ext.isEmpty ? "" : "." + ext)
            while !taken.insert(unique).inserted { unique = "x" + unique }
            renamed[Array(name.utf8)] = (name, unique)
        }
    }

    /// Whether every name is kept as it is spelled in NFC: then `pointed` changes no text.
    package var renamesNothing: Bool { renamed.isEmpty }

    /// The name a package's file is kept under.
    package func name(for original: String) -> String { renamed[Array(original.utf8)]?.name ?? original.nfc }

    /// A field's text, before it is normalised, with its references to the renamed spellings
    /// pointed at their own names. Compared scalar by scalar: Swift's strings would take é and
    /// e + accent as equal and point both at one file.
    package func pointed(_ text: String) -> String {
        guard !renamed.isEmpty else { return text }
        var result = text as NSString
        for (old, new) in renamed.values where result.range(of: old, options: .literal).location != NSNotFound {
            result = Self.rewritten(result as String, old, new) as NSString
        }
        return result as String
    }

    /// A field's references to `old` (a picture's src in any quoting, a [sound:…]) pointed at `new`.
    package static func rewritten(_ text: String, _ old: String, _ new: String) -> String {
        var text = text as NSString
        func replace(_ from: String, _ to: String) { text = text.replacingOccurrences(of: from, with: to, options: .literal, range: NSRange(location: 0, length: text.length)) as NSString }
        replace("[sound:\(old)]", "[sound:\(new)]")
        for (from, to) in [("\"\(old)\"", "\"\(new)\""), ("'\(old)'", "'\(new)'")] { replace("src=" + from, "src=" + to) }
        replace("src=\(old)>", "src=\(new)>")
        replace("src=\(old) ", "src=\(new) ")
        return text as String
    }
}
