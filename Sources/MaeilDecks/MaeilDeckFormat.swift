import Foundation
import MaeilCore
import Yams

/// Maeil's own deck format: a YAML manifest (deck.yaml) a person writes by hand and reviews in
/// a diff, with items inline or in a TSV file beside it. docs/decks.md describes it in full.
///
/// Every value is checked with its line and column, so a typo gets an answer like
/// "deck.yaml:41:7: no field named 'meanng'; the fields are: word, reading, meaning".
package enum MaeilDeckFormat {
    package static let manifestName = "deck.yaml"

    /// Reads `path`: a deck.yaml, or a folder holding one.
    package static func read(path: String, options: ImportOptions) throws -> (ImportedDeck, [ImportProblem]) {
        let manifest = try InputFile.manifest(manifestName, at: path, options: options)
        return try parse(text: manifest.text, file: manifest.path, options: options)
    }

    /// Parses manifest text; a TSV file it names is read from beside `file`.
    package static func parse(text: String, file manifestPath: String, options: ImportOptions) throws -> (ImportedDeck, [ImportProblem]) {
        let root = try compose(text, file: manifestPath, whenEmpty: "a deck needs id, name, fields and templates")
        var reader = ManifestReader(file: manifestPath, directory: (manifestPath as NSString).deletingLastPathComponent, options: options)
        let deck = try reader.deck(root)
        return (deck, try reader.sink.finish())
    }

    /// A manifest's YAML, or its problem with line and column.
    static func compose(_ text: String, file: String, whenEmpty needs: String) throws -> Node {
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw ImportProblem(file: file, line: 1, column: 1, message: "the file is empty; \(needs)")
            }
            return node
        } catch let error as YamlError {
            throw Self.problem(error, file: file)
        }
    }

    static func problem(_ error: YamlError, file: String) -> ImportProblem {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            // libyaml's own words, without the names of its functions.
            if problem.contains("nesting level") {
                return ImportProblem(file: file, line: mark.line, column: mark.column, message: "not valid YAML: nested too deeply")
            }
            let detail = [context?.text, problem].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return ImportProblem(file: file, line: mark.line, column: mark.column, message: "not valid YAML: \(detail)")
        case .duplicatedKeysInMapping(let duplicates, let context):
            return ImportProblem(file: file, line: context.mark.line, column: context.mark.column,
                                 message: "the key \(duplicates.joined(separator: ", ")) appears twice")
        default:
            return ImportProblem(file: file, message: "not valid YAML: \(error)")
        }
    }
}

/// Walks the manifest's YAML nodes, checking each against what a deck may hold.
struct ManifestReader {
    let file: String
    let directory: String
    let options: ImportOptions
    var sink: ProblemSink

    init(file: String, directory: String, options: ImportOptions) {
        self.file = file
        self.directory = directory
        self.options = options
        sink = ProblemSink(skipInvalid: options.skipInvalid)
    }

    static let deckKeys = ["format", "id", "name", "kind", "description", "speak", "fields", "templates", "preset", "units", "items"]

    func problem(_ node: Node?, _ message: String) -> ImportProblem {
        ImportProblem(file: file, line: node?.mark?.line, column: node?.mark?.column, message: message)
    }

    func mapping(_ node: Node, _ what: String) throws -> Node.Mapping {
        guard case .mapping(let mapping) = node else { throw problem(node, "\(what) must be a mapping of keys to values") }
        return mapping
    }

    func string(_ node: Node?, _ what: String, in parent: Node) throws -> String {
        guard let node else { throw problem(parent, "missing \(what)") }
        guard case .scalar(let scalar) = node else { throw problem(node, "\(what) must be text") }
        return scalar.string.nfc
    }

    func strings(_ node: Node?, _ what: String) throws -> [String] {
        guard let node else { return [] }
        switch node {
        case .scalar(let scalar):
            return scalar.string.split(whereSeparator: { $0 == " " || $0 == "," }).map { String($0).nfc }
        case .sequence(let sequence):
            return try sequence.map { try string($0, what, in: node) }
        default:
            throw problem(node, "\(what) must be text or a list")
        }
    }

    func checkKeys(_ mapping: Node.Mapping, allowed: [String], in what: String) throws {
        for (key, _) in mapping {
            guard let name = key.string, allowed.contains(name) else {
                throw problem(key, "unknown key '\(key.string ?? "?")' in \(what); expected one of: \(allowed.joined(separator: ", "))")
            }
        }
    }

    mutating func deck(_ root: Node) throws -> ImportedDeck {
        let top = try mapping(root, "a deck manifest")
        try checkKeys(top, allowed: Self.deckKeys, in: "the deck")
        if let format = top["format"], format.int != 1 {
            throw problem(format, "format \(format.string ?? "?") is newer than this Maeil understands (1); upgrade Maeil")
        }
        let id = try string(top["id"], "id (a stable name such as hangul-jamo)", in: root)
        guard id.range(of: #"^[a-z0-9][a-z0-9._-]*$"#, options: .regularExpression) != nil else {
            throw problem(top["id"], "id '\(id)' may hold only lowercase letters, digits, '.', '_' and '-'")
        }
        let name = try string(top["name"], "name", in: root)
        var kind: NoteKind?
        if let node = top["kind"] {
            let text = try string(node, "kind", in: root)
            guard let parsed = NoteKind(rawValue: text) else {
                throw problem(node, "unknown kind '\(text)'; expected one of: \(NoteKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            kind = parsed
        }
        let fields = try self.fields(top["fields"], in: root)
        let fieldNames = fields.map(\.name)
        let templates = try self.templates(top["templates"], fields: fieldNames, in: root)
        var deck = ImportedDeck(name: name, kind: kind, templates: templates, source: file)
        deck.description = try top["description"].map { try string($0, "description", in: root) } ?? ""
        if let speak = top["speak"] {
            let field = try string(speak, "speak", in: root)
            guard fieldNames.contains(field) else { throw problem(speak, "speak names '\(field)', which is not a field") }
            deck.speak = field
        }
        if let preset = top["preset"] { deck.preset = try self.preset(preset, name: name) }
        deck.units = try units(top["units"])
        let unitKeys = Set(deck.units.map(\.key))
        guard let items = top["items"] else { throw problem(root, "missing items: a list, or the name of a TSV file beside deck.yaml") }
        let context = ItemContext(deckID: id, kind: kind ?? .basic, fields: fields, units: unitKeys)
        switch items {
        case .scalar(let scalar):
            deck.notes = try tsvItems(named: scalar.string, node: items, context: context)
        case .sequence(let sequence):
            deck.notes = try inlineItems(sequence, context: context)
        default:
            throw problem(items, "items must be a list or the name of a TSV file")
        }
        return deck
    }

    func fields(_ node: Node?, in root: Node) throws -> [NoteField] {
        guard let node, case .sequence(let sequence) = node, !sequence.isEmpty else {
            throw problem(node ?? root, "fields must list the deck's fields, e.g. - {name: word, language: ko}")
        }
        guard sequence.count <= options.maximumFields else {
            throw problem(node, "fields lists \(sequence.count) fields; a note holds at most \(options.maximumFields)")
        }
        var seen = Set<String>()
        return try sequence.map { item in
            let field: NoteField
            if case .scalar(let scalar) = item {
                field = NoteField(name: scalar.string, value: "")
            } else {
                let map = try mapping(item, "a field")
                try checkKeys(map, allowed: ["name", "language"], in: "a field")
                field = NoteField(name: try string(map["name"], "field name", in: item), value: "",
                                  language: try map["language"].map { try string($0, "language", in: item) })
            }
            guard !["id", "unit", "tags", "kind"].contains(field.name) else {
                throw problem(item, "'\(field.name)' is reserved for items; give the field another name")
            }
            guard seen.insert(field.name).inserted else { throw problem(item, "the field '\(field.name)' is listed twice") }
            return field
        }
    }

    func templates(_ node: Node?, fields: [String], in root: Node) throws -> [CardTemplate] {
        guard let node, case .sequence(let sequence) = node, !sequence.isEmpty else {
            throw problem(node ?? root, "templates must list at least one card template, e.g. - {name: recognize, front: word, back: meaning}")
        }
        var names = Set<String>()
        return try sequence.map { item in
            let map = try mapping(item, "a template")
            try checkKeys(map, allowed: ["name", "front", "back", "typed", "blanks", "hints"], in: "a template")
            func known(_ key: String) throws -> [String] {
                let values = try strings(map[key], key)
                for value in values where !fields.contains(value) {
                    throw problem(map[key], "\(key) names '\(value)', which is not a field; the fields are: \(fields.joined(separator: ", "))")
                }
                return values
            }
            let template = CardTemplate(
                name: try string(map["name"], "template name", in: item), front: try known("front"), back: try known("back"),
                typed: try known("typed").first, blanks: try known("blanks").first, hints: try known("hints"))
            guard !template.front.isEmpty || template.blanks != nil else {
                throw problem(item, "template '\(template.name)' asks nothing: give it a front or blanks")
            }
            guard names.insert(template.name).inserted else { throw problem(item, "two templates are named '\(template.name)'") }
            return template
        }
    }

    func units(_ node: Node?) throws -> [ImportedUnit] {
        guard let node else { return [] }
        guard case .sequence(let sequence) = node else { throw problem(node, "units must be a list of {id, title}") }
        var keys = Set<String>()
        return try sequence.map { item in
            let map = try mapping(item, "a unit")
            try checkKeys(map, allowed: ["id", "title"], in: "a unit")
            let key = try string(map["id"], "unit id", in: item)
            guard keys.insert(key).inserted else { throw problem(item, "two units have the id '\(key)'") }
            return ImportedUnit(key: key, title: try map["title"].map { try string($0, "title", in: item) } ?? key)
        }
    }

    /// A deck's options. Every key and value is checked by `PresetKey`, which deck files,
    /// scenarios and the command line share.
    func preset(_ node: Node, name: String) throws -> Preset {
        let map = try mapping(node, "preset")
        try checkKeys(map, allowed: PresetKey.allCases.map(\.rawValue), in: "preset")
        var preset = Preset(name: name)
        for (keyNode, value) in map {
            guard let key = keyNode.string.flatMap(PresetKey.init(rawValue:)) else { continue }
            let input: PresetKey.Input
            switch value {
            case .scalar(let scalar): input = .text(scalar.string)
            case .sequence(let sequence): input = .list(try sequence.map { try string($0, key.rawValue, in: value) })
            default: throw problem(value, "\(key.rawValue) must be a value or a list")
            }
            do {
                try key.set(input, on: &preset)
            } catch {
                throw problem(value, error.description)
            }
        }
        return preset
    }

    struct ItemContext {
        let deckID: String
        let kind: NoteKind
        let fields: [NoteField]
        let units: Set<String>

        var fieldNames: [String] { fields.map(\.name) }
    }

    mutating func inlineItems(_ sequence: Node.Sequence, context: ItemContext) throws -> [NoteDraft] {
        var notes: [NoteDraft] = []
        var seen: [String: Int] = [:]
        for item in sequence {
            do {
                let map = try mapping(item, "an item")
                let id = try string(map["id"], "id (stable across edits of this file)", in: item)
                if let line = seen[id] { throw problem(map["id"], "the id '\(id)' was already used on line \(line)") }
                seen[id] = item.mark?.line ?? 0
                var values: [String: String] = [:]
                var unit: String?
                var tags: [String] = []
                for (key, value) in map {
                    let name = key.string ?? ""
                    switch name {
                    case "id": continue
                    case "unit":
                        unit = try string(value, "unit", in: item)
                        guard context.units.contains(unit!) else {
                            throw problem(value, "no unit '\(unit!)'; the units are: \(context.units.sorted().joined(separator: ", "))")
                        }
                    case "tags":
                        tags = try strings(value, "tags")
                    default:
                        guard context.fieldNames.contains(name) else {
                            throw problem(key, "no field named '\(name)'; the fields are: \(context.fieldNames.joined(separator: ", "))")
                        }
                        values[name] = try string(value, name, in: item)
                    }
                }
                notes.append(note(id: id, values: values, unit: unit, tags: tags, context: context, line: item.mark?.line ?? 0))
            } catch let problem as ImportProblem {
                sink.record(problem)
            }
        }
        return notes
    }

    func note(id: String, values: [String: String], unit: String?, tags: [String], context: ItemContext, line: Int) -> NoteDraft {
        let fields = context.fields.map { NoteField(name: $0.name, value: values[$0.name] ?? "", language: $0.language) }
        return NoteDraft(guid: "\(context.deckID)/\(id)", kind: context.kind, fields: fields, tags: tags, unit: unit,
                         origin: "\((file as NSString).lastPathComponent):\(line)")
    }

    /// A file the manifest names under `key`, beside it: never outside its folder, never a link.
    func fileBeside(named name: String, node: Node, key: String) throws -> String {
        let manifest = (file as NSString).lastPathComponent
        guard !name.contains(".."), !name.hasPrefix("/") else { throw problem(node, "\(key) must name a file beside \(manifest)") }
        let path = (directory as NSString).appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: path) else { throw problem(node, "\(key) names \(name), which does not exist beside \(manifest)") }
        try InputFile.refuseLink(path)
        return path
    }

    mutating func tsvItems(named name: String, node: Node, context: ItemContext) throws -> [NoteDraft] {
        let path = try fileBeside(named: name, node: node, key: "items")
        let text = try InputFile.readText(path, options: options)
        let table = TSV.parse(text, file: path)
        guard let header = table.header else { throw ImportProblem(file: path, line: 1, column: 1, message: "the file is empty; its first line names the columns") }
        for (index, column) in header.cells.enumerated() where !(["id", "unit", "tags"] + context.fieldNames).contains(column) {
            throw ImportProblem(file: path, line: header.line, column: header.columns[index],
                                message: "column '\(column)' is not a field; the fields are: \(context.fieldNames.joined(separator: ", "))")
        }
        guard let idColumn = header.cells.firstIndex(of: "id") else {
            throw ImportProblem(file: path, line: header.line, column: 1, message: "no 'id' column: every item needs a stable id")
        }
        var notes: [NoteDraft] = []
        var seen: [String: Int] = [:]
        for row in table.rows {
            guard row.cells.count == header.cells.count else {
                let column = row.cells.count > header.cells.count ? row.columns[header.cells.count] : (row.columns.last ?? 1)
                sink.record(ImportProblem(file: path, line: row.line, column: column,
                                          message: "expected \(header.cells.count) columns (\(header.cells.joined(separator: ", "))), found \(row.cells.count)"))
                continue
            }
            let id = row.cells[idColumn]
            if id.isEmpty {
                sink.record(ImportProblem(file: path, line: row.line, column: row.columns[idColumn], message: "empty id"))
                continue
            }
            if let line = seen[id] {
                sink.record(ImportProblem(file: path, line: row.line, column: row.columns[idColumn], message: "the id '\(id)' was already used on line \(line)"))
                continue
            }
            seen[id] = row.line
            var values: [String: String] = [:]
            var unit: String?
            var tags: [String] = []
            var bad = false
            for (index, column) in header.cells.enumerated() {
                let cell = row.cells[index]
                switch column {
                case "id": continue
                case "unit":
                    guard cell.isEmpty || context.units.contains(cell) else {
                        sink.record(ImportProblem(file: path, line: row.line, column: row.columns[index],
                                                  message: "no unit '\(cell)'; the units are: \(context.units.sorted().joined(separator: ", "))"))
                        bad = true
                        continue
                    }
                    unit = cell.isEmpty ? nil : cell
                case "tags": tags = cell.split(separator: " ").map(String.init)
                default: values[column] = cell
                }
            }
            if !bad { notes.append(note(id: id, values: values, unit: unit, tags: tags, context: context, line: row.line)) }
        }
        // Report positions relative to the TSV file, not the manifest.
        return notes.map { note in
            var note = note
            note.origin = note.origin?.replacingOccurrences(of: (file as NSString).lastPathComponent, with: (path as NSString).lastPathComponent)
            return note
        }
    }
}

/// Tab-separated values as Maeil's decks write them: a header row, one item per line,
/// `\t`, `\n` and `\\` escapes inside cells, `#` comment lines. Positions are kept for errors.
enum TSV {
    struct Row {
        var line: Int
        var cells: [String]
        /// 1-based column (in characters) where each cell starts.
        var columns: [Int]
    }

    struct Table {
        var header: Row?
        var rows: [Row] = []
    }

    static func parse(_ text: String, file: String) -> Table {
        var table = Table()
        var lineNumber = 0
        // "\r\n" is one Character to Swift, which a split at "\n" never finds: Windows line
        // endings are made Unix ones first.
        for line in text.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            var cells: [String] = []
            var columns: [Int] = []
            var column = 1
            for cell in line.split(separator: "\t", omittingEmptySubsequences: false) {
                columns.append(column)
                cells.append(unescape(cell).nfc)
                column += cell.count + 1
            }
            let row = Row(line: lineNumber, cells: cells, columns: columns)
            if table.header == nil { table.header = row } else { table.rows.append(row) }
        }
        return table
    }

    static func unescape(_ cell: Substring) -> String {
        guard cell.contains("\\") else { return String(cell) }
        var result = ""
        var escaped = false
        for character in cell {
            if escaped {
                switch character {
                case "t": result.append("\t")
                case "n": result.append("\n")
                default: result.append(character)
                }
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else {
                result.append(character)
            }
        }
        return result
    }

    static func escape(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
    }
}

/// Reading input files with a size cap and a clear message for text that is not UTF-8.
enum InputFile {
    /// The manifest `path` names: the file itself, or `name` in the folder it names (which must
    /// not be a link out of the folder). Its path and text.
    static func manifest(_ name: String, at path: String, options: ImportOptions) throws -> (path: String, text: String) {
        var isDirectory: ObjCBool = false
        let inFolder = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
        let manifestPath = inFolder ? (path as NSString).appendingPathComponent(name) : path
        if inFolder { try refuseLink(manifestPath) }
        return (manifestPath, try readText(manifestPath, options: options))
    }

    /// A deck folder never reads outside itself: a file in it that is a symbolic link (to
    /// /etc/passwd, say) is refused without being opened.
    static func refuseLink(_ path: String) throws {
        let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
        if type == .typeSymbolicLink {
            throw ImportProblem(file: path, message: "this is a symbolic link; a deck folder's files must be in the folder itself")
        }
    }

    static func readData(_ path: String, options: ImportOptions) throws -> Data {
        _ = try size(path, options: options)
        guard let data = FileManager.default.contents(atPath: path) else { throw ImportProblem(file: path, message: "cannot read the file") }
        return data
    }

    /// The file's size, when it is within the limit.
    static func size(_ path: String, options: ImportOptions) throws -> Int64 {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        guard let size = attributes?[.size] as? Int64 ?? (attributes?[.size] as? Int).map(Int64.init) else {
            throw ImportProblem(file: path, message: "cannot read the file (does it exist?)")
        }
        guard size <= options.maximumFileBytes else {
            throw ImportProblem(file: path, message: "the file is \(size >> 20) MB, over the \(options.maximumFileBytes >> 20) MB limit")
        }
        return size
    }

    static func readText(_ path: String, options: ImportOptions) throws -> String {
        let data = try readData(path, options: options)
        var bytes = data[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(data: Data(bytes), encoding: .utf8) else {
            // Find the first bad byte's line for the message.
            let good = String(decoding: bytes.prefix { $0 < 0x80 }, as: UTF8.self)
            let line = good.split(separator: "\n", omittingEmptySubsequences: false).count
            throw ImportProblem(file: path, line: line, message: "the text is not UTF-8; convert it first (iconv -t UTF-8)")
        }
        return text
    }
}
