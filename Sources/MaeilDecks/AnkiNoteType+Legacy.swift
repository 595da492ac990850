import Foundation
import MaeilCore

extension AnkiNoteType {
    /// A note type from its legacy JSON (an entry of col.models): as a package's reader takes
    /// it, and as a sync compares the server's with this side's.
    package init(id: Int64, legacy model: [String: Any]) {
        func ordered(_ key: String) -> [[String: Any]] {
            ((model[key] as? [[String: Any]]) ?? []).sorted { ($0["ord"] as? Int ?? 0) < ($1["ord"] as? Int ?? 0) }
        }
        let json = (try? JSONSerialization.data(withJSONObject: model, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        self.init(
            id: id, name: model["name"] as? String ?? "Note type \(id)", isCloze: (model["type"] as? Int) == 1,
            fields: ordered("flds").compactMap { $0["name"] as? String },
            templates: ordered("tmpls").map { Template(name: $0["name"] as? String ?? "Card", question: $0["qfmt"] as? String ?? "",
                                                       answer: $0["afmt"] as? String ?? "") },
            modified: (model["mod"] as? NSNumber)?.int64Value ?? 0, legacyJSON: json)
    }

    /// The field Anki sorts and searches its notes by (`sortf`): each note's sort text is this field's.
    package var sortField: Int {
        ((try? JSONSerialization.jsonObject(with: Data(legacyJSON.utf8))) as? [String: Any])?["sortf"] as? Int ?? 0
    }
}
