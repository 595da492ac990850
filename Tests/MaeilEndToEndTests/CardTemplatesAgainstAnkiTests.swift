import Foundation
import GRDB
import MaeilCore
import MaeilStore
import Testing
import MaeilTestSupport

/// Issue 23: a note of an Anki note type has the cards Anki would give it. scripts/anki/
/// card-templates.py makes seeded random note types (questions of fields, filters, sections
/// and negated sections, nested, special names, HTML) and notes with fields empty, blank, a
/// zero-width space, a line break's HTML or text, some tagged; Anki adds each and exports them. Maeil imports
/// the package (a note keeps exactly the cards it came with: Anki's importer makes none) and,
/// with its decks as a collection kept them before (migrations v33 and v34), adds each note
/// again by hand, where Anki's rule decides: a template makes a card when its
/// question shows a field with text through its sections, and a note none would give a card
/// gets its first template's. And each imported card's answer shows the fields Anki's answer
/// shows for that note (`CardTemplate.shown`: the sections of its question and its answer, as
/// migrations v35 and v36 give them to decks kept before), cloze types' (but their deletions) too;
/// each side shows them in Anki's order, a cloze's deletions where that side names them.
@Suite("Cards of Anki's note types against Anki's")
struct CardTemplatesAgainstAnkiTests {
    let folder = Fixture.temporaryDirectory()

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)), .timeLimit(.minutes(40)))
    func notesHaveTheCardsAnkiGivesThem() throws {
        let count = Int(ProcessInfo.processInfo.environment["MAEIL_TEMPLATE_TYPES"] ?? "") ?? 60
        let script = AnkiPython.repository.appendingPathComponent("scripts/anki/card-templates.py").path
        let made = try Binary.runProgram(AnkiPython.path!, [script, folder.path, "4100", String(count)])
        let printed = try #require(try? JSONSerialization.jsonObject(with: Data(made.stdout.utf8)) as? [String: Any], "\(made.stderr.suffix(1500))")
        let tried = try #require(printed["notes"] as? [[String: Any]])
        let path = folder.appendingPathComponent("maeil.sqlite").path
        _ = try SeededAnki(folder: folder).maeil(["import", folder.appendingPathComponent("templates.apkg").path, "--create"], path, "UTC",
                                                 at: Int(Date().timeIntervalSince1970))
        // The decks as a collection kept them before they held their questions' tags: migration
        // v33 gives them back from the note types kept, and the notes added below go by them.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            for row in try Row.fetchAll(db, sql: "SELECT id, templates FROM deck") {
                var templates = try JSONDecoder().decode([CardTemplate].self, from: Data((row["templates"] as String).utf8))
                for index in templates.indices {
                    templates[index].ankiQuestionTags = nil
                    templates[index].ankiAnswerTags = nil
                    // Shown before v34: a field named only by a section, as no field at all here.
                    templates[index].front.append("Section only")
                }
                try db.execute(sql: "UPDATE deck SET templates = ? WHERE id = ?",
                               arguments: [String(decoding: try JSONEncoder().encode(templates), as: UTF8.self), row["id"] as Int64])
            }
            try db.execute(sql: "DELETE FROM grdb_migrations WHERE identifier IN ('v33', 'v34', 'v35', 'v36')")
        }
        try queue.close()
        let collection = try Collection(path: path)
        let deck = try #require(try collection.deck(named: "Templates"))
        #expect(deck.templates.allSatisfy { $0.ankiQuestionTags != nil && $0.ankiAnswerTags != nil && !$0.front.contains("Section only") },
                "every template of Anki's has its question's and answer's tags again, and shows the fields its question shows")
        let imported = try collection.notes(deckID: deck.id)
        let byGuid = Dictionary(imported.map { ($0.guid, $0) }, uniquingKeysWith: { first, _ in first })
        var differences: [String] = [], answerDifferences: [String] = [], compared = 0, answers = 0
        // A cloze's cards by number (c1, c2…), as the script names them.
        let clozes = Set(deck.templates.filter { $0.blanks != nil }.map(\.name))
        func names(of note: Note) throws -> [String] {
            try collection.cards(noteID: note.id).map { clozes.contains($0.template) ? "c\($0.ordinal)" : $0.template }.sorted()
        }
        for entry in tried {
            let expected = (entry["cards"] as? [String] ?? []).sorted()
            let fields = entry["fields"] as? [String: String] ?? [:]
            let type = entry["notetype"] as? String ?? ""
            // Imported: the cards the package holds.
            if let guid = entry["guid"] as? String {
                let note = try #require(byGuid[guid], "note \(guid) imported")
                compared += 1
                let mine = try names(of: note)
                if mine != expected { differences.append("imported \(type) \(fields): Maeil \(mine), Anki \(expected)") }
                // What each card's question shows and its answer adds, of the fields Anki counts as
                // not empty, but a typed one (and a cloze's deletions). Maeil keeps the question
                // above the answer, where Anki shows it again only through `{{FrontSide}}`.
                // And each side's fields in the order Anki shows them, a cloze's deletions where
                // that side names them.
                for (name, sides) in entry["answers"] as? [String: [String: [String]]] ?? [:] {
                    let cloze = deck.templates.first { $0.noteType == type && $0.blanks != nil }
                    guard let template = cloze ?? deck.templates.first(where: { $0.name == name || $0.name == "\(name) (\(type))" }) else {
                        answerDifferences.append("\(type) \(name): no such template here")
                        continue
                    }
                    let shown = template.shown(for: note.fields, hasTags: !note.tags.isEmpty)
                    let counted = Set(fields.filter { !AnkiQuestionRule.isEmpty($0.value) }.keys).subtracting([template.typed, template.blanks].compactMap { $0 })
                    let (asked, added) = (Set(shown.front).intersection(counted), Set(shown.back).intersection(counted))
                    answers += 1
                    var order = shown.front.filter(asked.contains)
                    if let blanks = shown.blanks {
                        order.insert(blanks, at: shown.front.prefix(shown.deletionsAt ?? shown.front.count).filter(asked.contains).count)
                    }
                    var answerOrder = shown.back.filter(added.contains)
                    if let blanks = shown.blanks, sides["answer_order"]?.contains(blanks) == true {
                        answerOrder.insert(blanks, at: shown.back.prefix(shown.answerDeletionsAt ?? 0).filter(added.contains).count)
                    }
                    if asked != Set(sides["question"] ?? []) || added != Set(sides["answer"] ?? []) || order != sides["order"]
                        || answerOrder != sides["answer_order"] {
                        answerDifferences.append("\(type) \(name) \(fields): Maeil asks \(order) and adds \(answerOrder), Anki \(sides)")
                    }
                }
            }
            // Added by hand: shaped like the type's notes here, as `maeil add` shapes one.
            guard let model = imported.first(where: { $0.noteType == type }) else { continue }
            var draft = NoteDraft(guid: "added-\(compared)-\(UUID().uuidString)", kind: model.kind, noteType: type,
                                  fields: model.fields.map { NoteField(name: $0.name, value: fields[$0.name] ?? "") },
                                  html: true, ankiNoteTypeID: model.ankiNoteTypeID)
            draft.tags = entry["tags"] as? [String] ?? []
            let added = try collection.addNote(draft, deckID: deck.id, now: Date())
            compared += 1
            let mine = try names(of: added)
            if mine != expected { differences.append("added \(type) \(fields): Maeil \(mine), Anki \(expected)") }
        }
        #expect(compared >= tried.count, "compared \(compared) of \(tried.count) notes tried")
        #expect(differences.isEmpty, "\(differences.count) of \(compared) notes differ:\n\(differences.prefix(25).joined(separator: "\n"))")
        #expect(answers > compared / 4, "compared \(answers) answers")
        #expect(answerDifferences.isEmpty, "\(answerDifferences.count) of \(answers) answers differ:\n\(answerDifferences.prefix(25).joined(separator: "\n"))")
        print("cards of Anki's note types against Anki: \(compared) notes, \(differences.count) differ; \(answers) answers, \(answerDifferences.count) differ")
    }
}
