import Foundation
import Testing
import MaeilTestSupport
import GRDB
import MaeilStore

/// Issue 23: a deck from Anki that has Maeil's own notes too (added from a CSV) goes to Anki with
/// those notes under a note type of their own fields and templates: their first field was empty
/// (the note type took the Anki notes' fields first) and their cards showed nothing.
@Suite("A deck of Anki's and Maeil's notes, exported")
struct MixedDeckExportTests {
    static let readPackage = """
        import json, sys
        sys.path.insert(0, sys.argv[2])
        from seeded import open_any
        col = open_any(sys.argv[1])
        notes = []
        for nid in col.find_notes(""):
            n = col.get_note(nid)
            notes.append({"type": n.note_type()["name"], "fields": n.fields,
                          "questions": [c.question(reload=True).split("</style>")[-1] for c in n.cards()]})
        print(json.dumps({"notes": notes, "check": col.fix_integrity()[0]}, ensure_ascii=False))
        """

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)))
    func maeilsNotesKeepTheirFieldsInAnki() throws {
        let folder = Fixture.temporaryDirectory()
        let collection = folder.appendingPathComponent("maeil.sqlite").path
        let environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.path, "MAEIL_SPEECH": "stub"]
        let fixture = AnkiPython.repository.appendingPathComponent("Tests/MaeilDecksTests/Fixtures/korean-legacy.apkg").path
        #expect(try Binary.run(["import", fixture, "--create", "--collection", collection], environment: environment).status == 0)
        let csv = folder.appendingPathComponent("extra.csv")
        try "front,back\n바다,sea\n하늘,sky\n".write(to: csv, atomically: true, encoding: .utf8)
        #expect(try Binary.run(["import", csv.path, "--deck", "Korean::Food", "--collection", collection], environment: environment).status == 0)
        let package = folder.appendingPathComponent("mixed.apkg").path
        #expect(try Binary.run(["export", "--out", package, "--collection", collection], environment: environment).status == 0)
        let read = try Binary.runProgram(AnkiPython.path!, ["-c", Self.readPackage, package, AnkiPython.repository.appendingPathComponent("scripts/anki").path])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any], "\(read.stderr)")
        let notes = try #require(object["notes"] as? [[String: Any]])
        let maeils = notes.filter { ($0["fields"] as? [String])?.contains("바다") == true || ($0["fields"] as? [String])?.contains("하늘") == true }
        #expect(maeils.count == 2)
        for note in maeils {
            let fields = note["fields"] as? [String] ?? []
            #expect(fields.count == 2 && ["바다", "하늘"].contains(fields[0]), "\(note)")
            #expect((note["questions"] as? [String] ?? []).allSatisfy { $0.contains(fields[0]) }, "\(note)")
        }
        #expect(notes.count == 9 && object["check"] as? String == "Database rebuilt and optimized.", "\(object)")
    }
}

/// Issue 23, point 7: a burial made in Maeil and still in force goes to Anki as the kind it
/// is: buried by the learner (`b` in a review) in Anki's queue -3, by an answer to a sibling in
/// -2; Anki, opening the .colpkg the same day at its deck list (which unburies what an earlier
/// day buried), finds those cards buried and no others. (Before, the file named no day Anki last
/// unburied on, and Anki's deck list unburied them all.)
@Suite("A burial in force, exported")
struct BurialExportTests {
    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)))
    func burialsGoToAnkiAsTheirKind() throws {
        let folder = Fixture.temporaryDirectory()
        let collection = folder.appendingPathComponent("maeil.sqlite").path
        let environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.path, "MAEIL_SPEECH": "stub"]
        func maeil(_ arguments: [String], input: String = "") throws -> Binary.Result {
            let result = try Binary.run(arguments + ["--collection", collection], input: input, environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result
        }
        _ = try maeil(["import", AnkiPython.repository.appendingPathComponent("Tests/MaeilDecksTests/Fixtures/korean-legacy.apkg").path, "--create"])
        _ = try maeil(["deck", "Korean::Food", "set", "bury_siblings", "true"])
        _ = try maeil(["review"], input: "b\n" + String(repeating: "\n3\n", count: 6) + "q\n")
        let now = Int64(Date().timeIntervalSince1970)
        let buried = try Collection(path: collection, readOnly: true).read { db in
            try Dictionary(uniqueKeysWithValues: Row.fetchAll(db, sql: "SELECT anki_id, buried_by_user FROM card WHERE buried_until > ? AND suspended = 0",
                                                              arguments: [now]).map { ($0[0] as Int64, $0[1] as Bool) })
        }
        #expect(Set(buried.values) == [true, false], "a burial of each kind: \(buried)")
        let package = folder.appendingPathComponent("buried.colpkg").path
        _ = try maeil(["export", "--out", package])
        let script = """
            import json, sys
            sys.path.insert(0, sys.argv[2])
            from seeded import open_any
            col = open_any(sys.argv[1])
            col.sched.deck_due_tree()
            print(json.dumps({str(cid): col.get_card(cid).queue for cid in col.find_cards("is:buried")}))
            """
        let read = try Binary.runProgram(AnkiPython.path!, ["-c", script, package, AnkiPython.repository.appendingPathComponent("scripts/anki").path])
        let queues = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Int], "\(read.stderr)")
        #expect(queues == Dictionary(uniqueKeysWithValues: buried.map { (String($0.key), $0.value ? -3 : -2) }), "Anki \(queues), Maeil \(buried)")
    }
}

/// Issue 23, point 10: Anki's text export (with its guids) imported, then the package of the
/// same notes: the notes take what Anki knows them by (note type, ids) and nothing is said to be
/// kept over Anki's copy; Maeil's package back in that collection adds no note type and no note.
@Suite("Anki's text export, then its package")
struct TextThenPackageTests {
    static let make = """
        import sys
        from anki.collection import Collection, ExportAnkiPackageOptions
        from anki.import_export_pb2 import ExportLimit
        from anki.generic_pb2 import Empty
        col = Collection(sys.argv[1] + "/c.anki2")
        for front, back in [("물", "water"), ("불", "fire")]:
            n = col.new_note(col.models.by_name("Basic")); n["Front"], n["Back"] = front, back; col.add_note(n, col.decks.id("Words"))
        col.export_note_csv(out_path=sys.argv[1] + "/notes.txt", limit=ExportLimit(whole_collection=Empty()), with_html=True,
                            with_tags=True, with_deck=True, with_notetype=True, with_guid=True)
        col.export_anki_package(out_path=sys.argv[1] + "/words.apkg", options=ExportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=True, with_media=True, legacy=False), limit=None)
        print(len(col.models.all()))
        """
    static let back = """
        import json, sys
        from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest
        col = Collection(sys.argv[1] + "/c.anki2")
        col.import_anki_package(ImportAnkiPackageRequest(package_path=sys.argv[2], options=ImportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=True)))
        print(json.dumps({"notes": len(col.find_notes("")), "types": sorted({col.get_note(n).note_type()["name"] for n in col.find_notes("")}),
                          "all_types": len(col.models.all())}))
        """

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)))
    func theSameNotesStayOneAndAnkis() throws {
        let folder = Fixture.temporaryDirectory()
        let types = try Binary.runProgram(AnkiPython.path!, ["-c", Self.make, folder.path])
        try #require(types.status == 0, "\(types.stderr)")
        let collection = folder.appendingPathComponent("maeil.sqlite").path
        let environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.path, "MAEIL_SPEECH": "stub"]
        func maeil(_ arguments: [String]) throws -> String {
            let result = try Binary.run(arguments + ["--collection", collection], environment: environment)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            return result.stdout
        }
        _ = try maeil(["import", folder.appendingPathComponent("notes.txt").path, "--create"])
        let summary = try JSONSerialization.jsonObject(with: Data(try maeil(["import", folder.appendingPathComponent("words.apkg").path, "--json"]).utf8))
        let deck = try #require((summary as? [String: Any])?["decks"] as? [[String: Any]]).first ?? [:]
        #expect(deck["added"] as? Int == 0 && deck["kept"] as? Int == 0 && deck["unchanged"] as? Int == 2, "\(deck)")
        let package = folder.appendingPathComponent("back.apkg").path
        _ = try maeil(["export", "--out", package])
        let read = try Binary.runProgram(AnkiPython.path!, ["-c", Self.back, folder.path, package])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(read.stdout.utf8)) as? [String: Any], "\(read.stderr)")
        #expect(object["notes"] as? Int == 2 && object["types"] as? [String] == ["Basic"], "\(object)")
        #expect(object["all_types"] as? Int == Int(types.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "no note type added: \(object)")
    }
}
