import Foundation
import Testing
import MaeilTestSupport

/// Issue 25, point 7: a deck from Anki speaks as Anki does. Anki's own library makes a note type
/// whose question says `{{tts ko_KR voices=…:Front}}` and whose reverse card speaks Front only
/// on its answer; after `maeil import`, a review with speech on auto says the Korean before the
/// reveal on the forward card, and on the reverse card only once the answer is shown.
@Suite("Anki's {{tts}} in Maeil's speech")
struct AnkiSpeechTests {
    static let makePackage = """
        import sys
        from anki.collection import Collection, ExportAnkiPackageOptions
        col = Collection(sys.argv[1] + "/c.anki2")
        m = col.models.copy(col.models.by_name("Basic (and reversed card)"), add=False)
        m["name"] = "Korean TTS"
        m["tmpls"][0]["qfmt"] = "{{Front}}{{tts ko_KR voices=Apple_Yuna:Front}}"
        m["tmpls"][1]["qfmt"] = "{{Back}}"
        m["tmpls"][1]["afmt"] = "{{FrontSide}}<hr id=answer>{{Front}}{{tts ko_KR:Front}}"
        col.models.add(m)
        did = col.decks.id("Korean TTS")
        n = col.new_note(m); n["Front"], n["Back"] = "물", "water"; col.add_note(n, did)
        col.export_anki_package(out_path=sys.argv[1] + "/tts.apkg", options=ExportAnkiPackageOptions(
            with_scheduling=False, with_deck_configs=False, with_media=False, legacy=False), limit=None)
        """

    @Test(.enabled(if: AnkiPython.path != nil, Comment(rawValue: AnkiPython.missing)))
    func ttsTagsSpeakTheFrontOnly() throws {
        let folder = Fixture.temporaryDirectory()
        let made = try Binary.runProgram(AnkiPython.path!, ["-c", Self.makePackage, folder.path])
        try #require(made.status == 0, "\(made.stderr)")
        let collection = folder.appendingPathComponent("maeil.sqlite").path
        let environment = ["HOME": folder.path, "XDG_DATA_HOME": folder.path, "XDG_CONFIG_HOME": folder.path, "MAEIL_SPEECH": "stub"]
        let imported = try Binary.run(["import", folder.appendingPathComponent("tts.apkg").path, "--create", "--collection", collection], environment: environment)
        try #require(imported.status == 0, "\(imported.stderr)")
        let review = try Binary.run(["review", "--collection", collection], input: "\n3\n\n3\nq\n", environment: environment)
        let lines = review.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(Array(lines.prefix(15)) == [
            "", "── Korean TTS · 0 due · 0 learning · 2 new", "물", "🔊 ko: 물", "────────────────────────", "water", "🔊 ko: 물", "good · 10m",
            "", "── Korean TTS · 0 due · 1 learning · 1 new", "water", "────────────────────────", "물", "🔊 ko: 물", "good · 10m",
        ], "\(review.stdout)")
    }
}
