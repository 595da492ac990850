/// An Anki note type as Anki defines it (fields, card templates, styling), kept from an import
/// so that its notes go back to Anki under the very type they came from: Anki then updates them
/// instead of calling them conflicts.
package struct AnkiNoteType: Hashable, Sendable, Codable {
    package struct Template: Hashable, Sendable, Codable {
        package var name: String
        package var question: String
        package var answer: String

        package init(name: String, question: String, answer: String) {
            self.name = name
            self.question = question
            self.answer = answer
        }
    }

    /// Anki's note type id.
    package var id: Int64
    package var name: String
    package var isCloze: Bool
    package var fields: [String]
    package var templates: [Template]
    /// Seconds since 1970, as Anki's `mod`.
    package var modified: Int64
    /// The whole definition as Anki's legacy JSON (an entry of `col.models`): what a package
    /// written for Anki carries, every setting Maeil has no use for included.
    package var legacyJSON: String

    package init(id: Int64, name: String, isCloze: Bool, fields: [String], templates: [Template], modified: Int64, legacyJSON: String) {
        self.id = id
        self.name = name
        self.isCloze = isCloze
        self.fields = fields
        self.templates = templates
        self.modified = modified
        self.legacyJSON = legacyJSON
    }
}
