import Foundation
import MaeilCore

/// Anki's text import format (Anki 2.1.54 and later): header lines such as `#separator:tab`,
/// `#html:true`, `#notetype:Basic`, `#deck:Korean`, `#columns:…`, `#guid column:1`, then one
/// note per record. Every header key Anki writes or reads is in `headerKeys`; a file's own
/// `#columns:` names its fields.
package enum AnkiTextFormat {
    static let headerKeys: Set<String> = [
        "separator", "html", "tags", "columns", "notetype", "deck", "notetype column", "deck column", "tags column",
        "guid column", "match scope", "if matches",
    ]

    /// True when the text starts with at least one of Anki's header lines.
    package static func hasHeaderLines(_ text: String) -> Bool {
        guard let first = text.split(separator: "\n", maxSplits: 1).first, first.hasPrefix("#") else { return false }
        return parseHeader(first) != nil
    }

    static func parseHeader(_ line: Substring) -> (key: String, value: String)? {
        guard line.hasPrefix("#"), let colon = line.firstIndex(of: ":") else { return nil }
        let key = line[line.index(after: line.startIndex)..<colon].trimmingCharacters(in: .whitespaces).lowercased()
        guard headerKeys.contains(key) else { return nil }
        var value = String(line[line.index(after: colon)...])
        if value.hasSuffix("\r") { value.removeLast() }
        return (key, value)
    }

    struct Header {
        var separator: Character?
        var html = false
        var tags: [String] = []
        var columns: [String]?
        var notetype = "Basic"
        var deck: String?
        var notetypeColumn: Int?
        var deckColumn: Int?
        var tagsColumn: Int?
        var guidColumn: Int?
        var ifMatches = "update current"
    }

    package static func read(path: String, options: ImportOptions) throws -> ([ImportedDeck], [ImportProblem]) {
        try parse(text: InputFile.readText(path, options: options), path: path, options: options)
    }

    package static func parse(text: String, path: String, options: ImportOptions) throws -> ([ImportedDeck], [ImportProblem]) {
        var bundle = ImportBundle()
        try stream(text: text, path: path, options: options) { bundle.take($0) }
        return (bundle.decks, bundle.skipped)
    }

    package static func stream(path: String, options: ImportOptions, emit: ImportEmitter) throws {
        try stream(text: InputFile.readText(path, options: options), path: path, options: options, emit: emit)
    }

    /// Reads the text and hands its decks and notes on as it goes.
    package static func stream(text: String, path: String, options: ImportOptions, emit: ImportEmitter) throws {
        var header = Header()
        var bodyStart = text.startIndex
        var line = 1
        // Header lines come first; the body starts at the first line that is not one.
        while bodyStart < text.endIndex {
            let end = text[bodyStart...].firstIndex(of: "\n") ?? text.endIndex
            let current = text[bodyStart..<end]
            guard let (key, value) = parseHeader(current) else { break }
            try apply(key, value, to: &header, file: path, line: line)
            bodyStart = end < text.endIndex ? text.index(after: end) : end
            line += 1
        }
        let body = text[bodyStart...]
        let separator = header.separator ?? DelimitedText.guessSeparator(body.prefix { $0 != "\n" })
        let splitter = DelimitedText(body)
        var sink = ProblemSink(skipInvalid: options.skipInvalid)
        // The first record sets the width and which columns are fields.
        var width = 0
        var fieldColumns: [Int] = []
        var tagsColumn = header.tagsColumn
        var labels = header.columns
        func takeLayout(from first: DelimitedText.Record) throws {
            width = first.fields.count
            guard width <= options.maximumFields + 4 else {
                throw ImportProblem(file: path, line: first.line, column: 1,
                                    message: "the first row has \(width) columns; a note holds at most \(options.maximumFields) fields")
            }
            let special = Set([header.notetypeColumn, header.deckColumn, header.tagsColumn, header.guidColumn].compactMap { $0 })
            for column in special where column < 1 || column > width {
                throw ImportProblem(file: path, message: "a #… column header names column \(column), but the rows have \(width) columns")
            }
            // Field columns are the ones not given to notetype, deck, tags or guid.
            fieldColumns = (1...width).filter { !special.contains($0) }
            if let columns = labels, let tagIndex = columns.firstIndex(where: { $0.lowercased() == "tags" }), tagsColumn == nil {
                tagsColumn = tagIndex + 1
                fieldColumns.removeAll { $0 == tagIndex + 1 }
                labels?.remove(at: tagIndex)
            }
            try emit(.expecting(notes: splitter.lineCount))
        }
        var deckSlots = DeckSlots<String>()
        // Per deck: its templates as note type and name, and the names they were given there
        // (two note types that both have a "card 1" are named apart; the first keeps the name).
        var templateIdentities: [[(name: String, noteType: String?)]] = []
        var templateNames: [Set<String>] = []
        var chunks = NoteChunks()
        let fileName = (path as NSString).lastPathComponent
        // What the rows of one note type in one deck share, worked out for the first of them:
        // most files have one note type and one deck, and per-row lookups were most of reading.
        var shapes: [String: RowShape] = [:]
        var last: RowShape?
        let tagsFromHeader = header.tags
        let keepExisting = header.ifMatches == "keep current"
        do {
            try splitter.forEachRecord(separator: separator, startLine: line) { record in
                if width == 0 { try takeLayout(from: record) }
                guard record.fields.count == width else {
                    let field = record.fields.count > width ? record.fields[width] : record.fields.last!
                    sink.record(ImportProblem(file: path, line: record.line, column: splitter.column(of: field),
                                              message: "expected \(width) columns, like the first row, found \(record.fields.count)"))
                    return
                }
                func cell(_ column: Int) -> String { record.fields[column - 1].text.nfc }
                let notetype = header.notetypeColumn.map(cell) ?? header.notetype
                let deckName = options.deckName ?? header.deckColumn.map(cell) ?? header.deck ?? "Imported"
                let shape: RowShape
                if let last, last.notetype == notetype, last.deckName == deckName {
                    shape = last
                } else if let known = shapes[notetype + "\u{1f}" + deckName] {
                    shape = known
                } else {
                    shape = RowShape(notetype: notetype, deckName: deckName, valueCount: fieldColumns.count, header: header, labels: labels)
                    shapes[notetype + "\u{1f}" + deckName] = shape
                }
                last = shape
                // Columns map to the note type's fields in order; labels rename them.
                var values = fieldColumns.map { cell($0) }
                var tagText = tagsColumn.map(cell) ?? ""
                if shape.lastValueIsTags { tagText = values.removeLast() }
                // HTML is kept as it is (shown formatted, written back the same); plain text too.
                let names = shape.names
                var effectiveType = notetype
                if shape.isOptionalReversed {
                    let reverse = names.firstIndex(of: "Add Reverse").map { values[$0] } ?? ""
                    effectiveType = reverse.trimmingCharacters(in: .whitespaces).isEmpty ? "Basic" : "Basic (and reversed card)"
                }
                let mapping = shape.mapping(for: effectiveType)
                guard let firstValue = values.first, FieldText.plain(firstValue, html: header.html).hasVisibleText else {
                    sink.record(ImportProblem(file: path, line: record.line, column: 1, message: "the first field is empty"))
                    return
                }
                let guid: String
                if let given = header.guidColumn.map(cell), !given.isEmpty {
                    guid = given
                } else if header.ifMatches == "keep both" {
                    guid = "txt-" + UUID().uuidString
                } else {
                    // Without a guid, a note is matched by its note type and first field, as Anki does.
                    guid = "txt-" + StableHash.hex("\(notetype)\u{1f}\(firstValue)")
                }
                let fields = zip(names, values).map { NoteField(name: $0, value: $1) }
                var note = NoteDraft(guid: guid, kind: mapping.kind, noteType: effectiveType, fields: fields,
                                     tags: tagsFromHeader + tagText.utf8Split(0x20).filter { !$0.isEmpty },
                                     origin: fileName + ":" + String(record.line), keepExisting: keepExisting, html: header.html)
                note.fieldsByPosition = true
                let (slot, isNew) = try deckSlots.slot(for: deckName, emit: emit) {
                    ImportedDeck(name: deckName, kind: nil, templates: [], source: path)
                }
                if isNew {
                    templateIdentities.append([])
                    templateNames.append([])
                }
                if shape.templatesAddedFor != effectiveType {
                    for template in mapping.templates
                    where !templateIdentities[slot].contains(where: { $0.name == template.name && $0.noteType == template.noteType }) {
                        templateIdentities[slot].append((template.name, template.noteType))
                        var named = template
                        if templateNames[slot].contains(named.name) { named.name = "\(template.name) (\(template.noteType ?? "?"))" }
                        templateNames[slot].insert(named.name)
                        chunks.add(named, to: slot)
                    }
                    shape.templatesAddedFor = effectiveType
                }
                try chunks.add(note, to: slot, emit: emit)
            }
        } catch let error as DelimitedText.UnterminatedQuote {
            throw ImportProblem(file: path, line: error.line, column: splitter.column(lineStart: error.lineStart, offset: error.offset),
                                message: "this quoted field never ends: a \" is missing")
        }
        try chunks.flush(emit)
        let skipped = try sink.finish()
        if !skipped.isEmpty { try emit(.skipped(skipped)) }
    }

    /// The field names, tag column and note-type mapping shared by the rows of one note type
    /// in one deck.
    final class RowShape {
        let notetype: String
        let deckName: String
        let names: [String]
        /// With no tags column and no labels, a last column beyond the note type's fields holds tags.
        let lastValueIsTags: Bool
        let isOptionalReversed: Bool
        private var mappings: [String: AnkiNoteTypes.Mapping] = [:]
        /// The effective type whose templates were last added to this shape's deck: a row like
        /// the one before adds nothing.
        var templatesAddedFor: String?

        init(notetype: String, deckName: String, valueCount: Int, header: Header, labels: [String]?) {
            self.notetype = notetype
            self.deckName = deckName
            let defaultFields = AnkiNoteTypes.defaultFields(for: notetype)
            var names = labels.map { Array($0.prefix(valueCount)) } ?? Array(defaultFields.prefix(valueCount))
            var lastValueIsTags = false
            if names.count < valueCount {
                if header.tagsColumn == nil, labels == nil, valueCount == names.count + 1 {
                    lastValueIsTags = true
                } else {
                    names += (names.count..<valueCount).map { "Field \($0 + 1)" }
                }
            }
            self.names = names
            self.lastValueIsTags = lastValueIsTags
            isOptionalReversed = notetype.lowercased().contains("optional reversed")
        }

        /// The mapping for a row's effective type: an "optional reversed" row is one of two.
        func mapping(for type: String) -> AnkiNoteTypes.Mapping {
            if let known = mappings[type] { return known }
            let mapping = AnkiNoteTypes.mapping(for: type, fields: names)
            mappings[type] = mapping
            return mapping
        }
    }

    static func apply(_ key: String, _ value: String, to header: inout Header, file: String, line: Int) throws {
        func column() throws -> Int {
            guard let number = Int(value.trimmingCharacters(in: .whitespaces)), number >= 1 else {
                throw ImportProblem(file: file, line: line, column: key.count + 3, message: "#\(key) needs a column number (1 is the first)")
            }
            return number
        }
        switch key {
        case "separator":
            guard let separator = DelimitedText.separator(named: value.trimmingCharacters(in: .init(charactersIn: "\r"))) else {
                throw ImportProblem(file: file, line: line, column: 12,
                                    message: "unknown separator '\(value)'; use Tab, Comma, Semicolon, Space, Pipe, Colon or one character")
            }
            header.separator = separator
        case "html": header.html = value.trimmingCharacters(in: .whitespaces).lowercased() == "true"
        case "tags": header.tags = value.split(separator: " ").map(String.init)
        case "columns":
            let separator = header.separator ?? DelimitedText.guessSeparator(Substring(value))
            header.columns = value.split(separator: separator, omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
        case "notetype": header.notetype = value.trimmingCharacters(in: .whitespaces)
        case "deck": header.deck = value.trimmingCharacters(in: .whitespaces)
        case "notetype column": header.notetypeColumn = try column()
        case "deck column": header.deckColumn = try column()
        case "tags column": header.tagsColumn = try column()
        case "guid column": header.guidColumn = try column()
        case "if matches": header.ifMatches = value.trimmingCharacters(in: .whitespaces).lowercased()
        default: break
        }
    }
}

/// FNV-1a: a stable hash for guids and file names made from content (Swift's own hash is
/// seeded per run).
package enum StableHash {
    package static func hex(_ text: String) -> String { hex(bytes: text.utf8) }

    package static func hex(_ data: Data) -> String { hex(bytes: data) }

    static func hex(bytes: some Sequence<UInt8>) -> String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01B3
        }
        return String(hash, radix: 16)
    }
}
