import Foundation
import GRDB
import MaeilCore
import MaeilSQLite

/// Anki's search over Maeil's collection (see SearchNode): the cards a search finds, or their
/// notes. Days are each deck's study days at `now` in `timeZone`.
extension Collection {
    package func findCards(_ query: String, deckIDs: [Int64]? = nil, limit: Int? = nil, now: Date, timeZone: TimeZone) throws -> [Card] {
        let node = try SearchNode.parse(query)
        return try read { db in
            try Self.searching(db, node, deckIDs: deckIDs, now: now, timeZone: timeZone) { matching, arguments in
                try db.makeStatement(sql: """
                    SELECT \(CardTable.columns) FROM card WHERE id IN (\(matching))
                    ORDER BY deck_id, new_position, id\(limit.map { " LIMIT \($0)" } ?? "")
                    """).rows(arguments, CardTable.decoder.decode)
            }
        }
    }

    /// The notes of the cards a search finds.
    package func findNotes(_ query: String, deckID: Int64? = nil, limit: Int = 100, now: Date, timeZone: TimeZone) throws -> [Note] {
        let node = try SearchNode.parse(query)
        return try read { db in
            try Self.searching(db, node, deckIDs: deckID.map { [$0] }, now: now, timeZone: timeZone) { matching, arguments in
                try db.makeStatement(sql: """
                    SELECT \(NoteTable.columns) FROM note WHERE id IN (SELECT note_id FROM card WHERE id IN (\(matching)))
                    ORDER BY deck_id, position, id LIMIT \(limit)
                    """).rows(arguments, NoteTable.decoder.decode)
            }
        }
    }

    /// Runs `body` with a query for the ids of the cards `node` finds and its arguments; the
    /// Swift matchers the query calls are on this connection only meanwhile.
    static func searching<T>(_ db: Database, _ node: SearchNode, deckIDs: [Int64]?, now: Date, timeZone: TimeZone,
                             _ body: (String, StatementArguments) throws -> T) throws -> T {
        let decks = try Row.fetchAll(db, sql: "SELECT id, name FROM deck").map { (id: $0[0] as Int64, name: $0[1] as String) }
        let clocks = try dayClocks(db, deckIDs: decks.map(\.id), timeZone: timeZone)
        let groups = Dictionary(grouping: clocks.keys.sorted()) { clocks[$0]!.rolloverHour }.sorted { $0.key < $1.key }
            .map { (clock: clocks[$0.value[0]]!, deckIDs: $0.value) }
        let noteTypes = try String.fetchAll(db, sql: "SELECT DISTINCT note_type FROM note WHERE note_type IS NOT NULL")
        var writer = SearchSQL(now: now, clocks: groups, decks: decks, noteTypes: noteTypes)
        var sql = "SELECT card.id FROM card JOIN note ON note.id = card.note_id WHERE " + writer.condition(node)
        if let deckIDs { sql += " AND card.deck_id IN (\(deckIDs.map(String.init).joined(separator: ",")))" }
        for function in writer.functions { db.add(function: function) }
        defer { for function in writer.functions { db.remove(function: function) } }
        return try body(sql, StatementArguments(writer.arguments))
    }
}
