import GRDB
import MaeilCore

/// Anki's collection config, every key, as a whole collection's file (.colpkg, collection.anki2,
/// a sync's download) brought it: Maeil uses a few of its keys (kept as settings of their own,
/// the limit rules among them) and writes the rest back as they came.
extension CollectionWriter {
    package func setAnkiConfig(_ json: String) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO meta (key, value) VALUES ('anki_config', ?)", arguments: [json])
    }

    /// Anki's options (legacy JSON) a preset keeps, its settings as they are.
    package func setAnkiConfig(_ json: String, ofPreset id: Int64) throws {
        try db.execute(sql: "UPDATE preset SET anki_config = ? WHERE id = ?", arguments: [json, id])
    }
}

extension Collection {
    static func ankiConfig(_ db: Database) throws -> String? {
        try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'anki_config'")
    }
}
