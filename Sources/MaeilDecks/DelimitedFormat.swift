import Foundation
import MaeilCore

/// Plain CSV or TSV with a header row. Columns become fields by name; `--map column=field`
/// renames them; a column named "tags" holds tags and one named "id" or "guid" a stable id.
/// The first two fields make a front-and-back card; a `--map` to "front"/"back" chooses them.
package enum DelimitedFormat {
    package static func read(path: String, options: ImportOptions) throws -> (ImportedDeck, [ImportProblem]) {
        try parse(text: InputFile.readText(path, options: options), path: path, options: options)
    }

    package static func parse(text: String, path: String, options: ImportOptions) throws -> (ImportedDeck, [ImportProblem]) {
        let separator: Character = path.lowercased().hasSuffix(".tsv") ? "\t" : DelimitedText.guessSeparator(text.prefix { $0 != "\n" })
        let splitter = DelimitedText(text[...])
        let records: [DelimitedText.Record]
        do {
            records = try splitter.records(separator: separator, comments: false)
        } catch let error as DelimitedText.UnterminatedQuote {
            throw ImportProblem(file: path, line: error.line, column: splitter.column(lineStart: error.lineStart, offset: error.offset),
                                message: "this quoted field never ends: a \" is missing")
        }
        guard let header = records.first else {
            throw ImportProblem(file: path, line: 1, column: 1, message: "the file is empty; its first row must name the columns")
        }
        guard header.fields.count <= options.maximumFields else {
            throw ImportProblem(file: path, line: header.line, column: 1,
                                message: "the header row names \(header.fields.count) columns; a note holds at most \(options.maximumFields) fields")
        }
        var names = header.fields.map { $0.text.trimmingCharacters(in: .whitespaces).nfc }
        for (from, to) in options.columnMap {
            guard let index = names.firstIndex(where: { $0.lowercased() == from.lowercased() }) else {
                throw ImportProblem(file: path, line: header.line, message: "--map names column '\(from)', but the columns are: \(names.joined(separator: ", "))")
            }
            names[index] = to
        }
        for (index, name) in names.enumerated() where name.isEmpty {
            throw ImportProblem(file: path, line: header.line, column: splitter.column(of: header.fields[index]), message: "column \(index + 1) has no name")
        }
        let lowered = names.map { $0.lowercased() }
        let tagsIndex = lowered.firstIndex(of: "tags")
        let idIndex = lowered.firstIndex(of: "id") ?? lowered.firstIndex(of: "guid")
        let fieldIndexes = names.indices.filter { $0 != tagsIndex && $0 != idIndex }
        guard fieldIndexes.count >= 2 else {
            // A file with no separator (a config file, /etc/passwd) reads as one column: it is no table of cards.
            throw ImportProblem(file: path, line: header.line, column: 1,
                                message: "the first row names \(fieldIndexes.count) column\(fieldIndexes.count == 1 ? "" : "s") for fields; "
                                    + "a CSV or TSV deck needs a header row naming at least two (a front and a back)")
        }
        let fieldNames = fieldIndexes.map { names[$0] }
        let front = fieldNames.first { $0.lowercased() == "front" } ?? fieldNames[0]
        let back = fieldNames.filter { $0 != front }
        let deckName = options.deckName ?? ((path as NSString).lastPathComponent as NSString).deletingPathExtension
        var deck = ImportedDeck(name: deckName, kind: .word, templates: [
            CardTemplate(name: "recognize", front: [front], back: back),
        ], source: path)
        var sink = ProblemSink(skipInvalid: options.skipInvalid)
        let fileName = (path as NSString).lastPathComponent
        for record in records.dropFirst() {
            guard record.fields.count == names.count else {
                let field = record.fields.count > names.count ? record.fields[names.count] : record.fields.last!
                sink.record(ImportProblem(file: path, line: record.line, column: splitter.column(of: field),
                                          message: "expected \(names.count) columns (\(names.joined(separator: ", "))), found \(record.fields.count)"))
                continue
            }
            let values = record.fields.map { $0.text.nfc }
            let fields = fieldIndexes.map { NoteField(name: names[$0], value: values[$0]) }
            guard (fields.first { $0.name == front }?.value ?? "").hasVisibleText else {
                sink.record(ImportProblem(file: path, line: record.line, column: 1, message: "the '\(front)' column is empty"))
                continue
            }
            let id = idIndex.map { values[$0] }.flatMap { $0.isEmpty ? nil : $0 }
            let guid = id.map { "\(deckName)/\($0)" } ?? "csv-" + StableHash.hex("\(deckName)\u{1f}\(fields.first { $0.name == front }!.value)")
            deck.notes.append(NoteDraft(guid: guid, kind: .word, fields: fields,
                                        tags: tagsIndex.map { values[$0].split(separator: " ").map(String.init) } ?? [],
                                        origin: "\(fileName):\(record.line)"))
        }
        return (deck, try sink.finish())
    }
}
