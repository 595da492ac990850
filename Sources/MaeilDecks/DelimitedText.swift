import Foundation

/// Splits separated text into records, as Anki's and most CSV readers do: a field may be
/// quoted with `"`, `""` is a quote inside a quoted field, and a quoted field may hold the
/// separator or a newline. Lines starting with `#` (outside quotes) are comments. Every field
/// keeps where it starts, for error messages.
///
/// Written here rather than taken from a CSV package because none of the packages available
/// reports where a bad field is, and these messages must name the line and column. It works on
/// UTF-8 bytes: separators and quotes are ASCII, which never occurs inside a multi-byte
/// character, so a 20,000-line file splits in milliseconds.
struct DelimitedText {
    struct Field {
        var text: String
        var line: Int
        /// Byte offsets of the field's line start and of the field, to compute its column.
        var lineStart: Int
        var offset: Int
    }

    struct Record {
        var line: Int
        var fields: [Field]
    }

    struct UnterminatedQuote: Error {
        var line: Int
        var lineStart: Int
        var offset: Int
    }

    let bytes: [UInt8]

    init(_ text: Substring) {
        bytes = Array(text.utf8)
    }

    /// The 1-based column, in characters, of a byte offset on a line.
    func column(lineStart: Int, offset: Int) -> Int {
        String(decoding: bytes[lineStart..<min(offset, bytes.count)], as: UTF8.self).count + 1
    }

    func column(of field: Field) -> Int { column(lineStart: field.lineStart, offset: field.offset) }

    func records(separator: Character, startLine: Int = 1, comments: Bool = true) throws -> [Record] {
        var records: [Record] = []
        try forEachRecord(separator: separator, startLine: startLine, comments: comments) { records.append($0) }
        return records
    }

    /// How many lines the text has: an upper bound on its records, known at once.
    var lineCount: Int {
        bytes.withUnsafeBufferPointer { buffer in
            guard var cursor = buffer.baseAddress else { return 0 }
            let end = cursor + buffer.count
            var lines = 1
            while cursor < end, let found = memchr(cursor, 0x0A, end - cursor) {
                lines += 1
                cursor = UnsafePointer(found.assumingMemoryBound(to: UInt8.self)) + 1
            }
            return lines
        }
    }

    /// Hands each record to `body` as soon as it is split, so a reader can pass the first
    /// notes on before the last line is read.
    func forEachRecord(separator: Character, startLine: Int = 1, comments: Bool = true, _ body: (Record) throws -> Void) throws {
        let separatorByte = separator.asciiValue ?? 9
        let quote: UInt8 = 0x22, newline: UInt8 = 0x0A, carriageReturn: UInt8 = 0x0D, hash: UInt8 = 0x23
        var fields: [Field] = []
        var buffer: [UInt8] = []
        var line = startLine, lineStart = 0
        var fieldStart = 0, fieldLine = line, fieldLineStart = 0
        var recordLine = line
        var wasQuoted = false
        var index = 0
        let count = bytes.count

        func endField() {
            fields.append(Field(text: String(decoding: buffer, as: UTF8.self), line: fieldLine, lineStart: fieldLineStart, offset: fieldStart))
            buffer.removeAll(keepingCapacity: true)
            wasQuoted = false
        }

        /// Moves to the line that starts at `index`: a new record and its first field begin there.
        func startNextLine() {
            line += 1
            lineStart = index
            fieldStart = index
            fieldLine = line
            fieldLineStart = index
            recordLine = line
        }

        while index < count {
            let byte = bytes[index]
            let atFieldStart = index == fieldStart
            if atFieldStart, byte == quote {
                // A quoted field runs to the next lone quote; "" inside is one quote.
                wasQuoted = true
                let openLine = line, openLineStart = lineStart, openOffset = index
                index += 1
                var closed = false
                while index < count {
                    let inner = bytes[index]
                    if inner == quote {
                        if index + 1 < count, bytes[index + 1] == quote {
                            buffer.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    if inner == newline {
                        line += 1
                        lineStart = index + 1
                    }
                    if inner != carriageReturn { buffer.append(inner) }
                    index += 1
                }
                if !closed { throw UnterminatedQuote(line: openLine, lineStart: openLineStart, offset: openOffset) }
                // Anything after the closing quote up to the separator is kept, as Anki does.
                continue
            }
            if atFieldStart, byte == hash, fields.isEmpty, comments {
                while index < count, bytes[index] != newline { index += 1 }
                index += 1
                startNextLine()
                continue
            }
            if byte == separatorByte {
                endField()
                index += 1
                fieldStart = index
                fieldLine = line
                fieldLineStart = lineStart
                continue
            }
            if byte == newline || byte == carriageReturn {
                if !(fields.isEmpty && buffer.isEmpty && !wasQuoted) {
                    endField()
                    try body(Record(line: recordLine, fields: fields))
                }
                fields = []
                buffer.removeAll(keepingCapacity: true)
                wasQuoted = false
                if byte == carriageReturn, index + 1 < count, bytes[index + 1] == newline { index += 1 }
                index += 1
                startNextLine()
                continue
            }
            buffer.append(byte)
            index += 1
        }
        if !(fields.isEmpty && buffer.isEmpty && !wasQuoted) {
            endField()
            try body(Record(line: recordLine, fields: fields))
        }
    }

    /// Anki's names for separators, or the literal character.
    static func separator(named name: String) -> Character? {
        switch name.lowercased() {
        case "tab", "\\t": return "\t"
        case "comma", ",": return ","
        case "semicolon", ";": return ";"
        case "space", " ": return " "
        case "pipe", "|": return "|"
        case "colon", ":": return ":"
        default: return name.count == 1 && name.first!.isASCII ? name.first : nil
        }
    }

    /// With no #separator line: a tab if the first line has one, else |, ; or , in that order.
    static func guessSeparator(_ firstLine: Substring) -> Character {
        for candidate: Character in ["\t", "|", ";", ","] where firstLine.contains(candidate) { return candidate }
        return "\t"
    }
}

extension String {
    /// The pieces between occurrences of an ASCII byte, empty ones included. Splitting on a
    /// Character walks grapheme boundaries, which made splitting fields most of reading a package.
    func utf8Split(_ separator: UInt8) -> [String] {
        var pieces: [String] = []
        var start = utf8.startIndex
        var index = start
        while index != utf8.endIndex {
            if utf8[index] == separator {
                pieces.append(String(self[start..<index]))
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        pieces.append(String(self[start..<index]))
        return pieces
    }
}
