#!/usr/bin/env python3
"""Writes Decks/kana: hiragana and katakana (46 + 46 basic, 25 + 25 with dakuten and handakuten,
33 + 33 combinations), then small っ/ッ and the long vowel ー in ten words and 23 katakana for
loanword sounds, in eight units, gated like Hangul: each unit opens when the one before is
learned. Romanization is Hepburn (the system of Japanese passports and most courses). Facts,
no source text: the table below is the whole of it.

    python3 scripts/decks/generate-kana.py
    kakasi -Ha -Ka (Debian's kakasi) checks each romanization: see the end of main().
"""
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

BASIC = [
    ("あ", "a"), ("い", "i"), ("う", "u"), ("え", "e"), ("お", "o"),
    ("か", "ka"), ("き", "ki"), ("く", "ku"), ("け", "ke"), ("こ", "ko"),
    ("さ", "sa"), ("し", "shi"), ("す", "su"), ("せ", "se"), ("そ", "so"),
    ("た", "ta"), ("ち", "chi"), ("つ", "tsu"), ("て", "te"), ("と", "to"),
    ("な", "na"), ("に", "ni"), ("ぬ", "nu"), ("ね", "ne"), ("の", "no"),
    ("は", "ha"), ("ひ", "hi"), ("ふ", "fu"), ("へ", "he"), ("ほ", "ho"),
    ("ま", "ma"), ("み", "mi"), ("む", "mu"), ("め", "me"), ("も", "mo"),
    ("や", "ya"), ("ゆ", "yu"), ("よ", "yo"),
    ("ら", "ra"), ("り", "ri"), ("る", "ru"), ("れ", "re"), ("ろ", "ro"),
    ("わ", "wa"), ("を", "wo / o"), ("ん", "n"),
]
VOICED = [
    ("が", "ga"), ("ぎ", "gi"), ("ぐ", "gu"), ("げ", "ge"), ("ご", "go"),
    ("ざ", "za"), ("じ", "ji"), ("ず", "zu"), ("ぜ", "ze"), ("ぞ", "zo"),
    ("だ", "da"), ("ぢ", "ji"), ("づ", "zu"), ("で", "de"), ("ど", "do"),
    ("ば", "ba"), ("び", "bi"), ("ぶ", "bu"), ("べ", "be"), ("ぼ", "bo"),
    ("ぱ", "pa"), ("ぴ", "pi"), ("ぷ", "pu"), ("ぺ", "pe"), ("ぽ", "po"),
]
COMBINED = [
    ("きゃ", "kya"), ("きゅ", "kyu"), ("きょ", "kyo"), ("しゃ", "sha"), ("しゅ", "shu"), ("しょ", "sho"),
    ("ちゃ", "cha"), ("ちゅ", "chu"), ("ちょ", "cho"), ("にゃ", "nya"), ("にゅ", "nyu"), ("にょ", "nyo"),
    ("ひゃ", "hya"), ("ひゅ", "hyu"), ("ひょ", "hyo"), ("みゃ", "mya"), ("みゅ", "myu"), ("みょ", "myo"),
    ("りゃ", "rya"), ("りゅ", "ryu"), ("りょ", "ryo"), ("ぎゃ", "gya"), ("ぎゅ", "gyu"), ("ぎょ", "gyo"),
    ("じゃ", "ja"), ("じゅ", "ju"), ("じょ", "jo"), ("びゃ", "bya"), ("びゅ", "byu"), ("びょ", "byo"),
    ("ぴゃ", "pya"), ("ぴゅ", "pyu"), ("ぴょ", "pyo"),
]
# Small っ/ッ doubles the consonant after it, and ー lengthens the vowel before it: neither has a
# sound of its own, so each is learned in words, with the Hepburn spelling (long vowels with a
# macron; typing them doubled is accepted too). Meanings are the words' everyday ones.
SMALL = [
    ("きって", "kitte", "stamp"), ("ざっし", "zasshi", "magazine"), ("まっちゃ", "matcha", "powdered green tea"),
    ("がっこう", "gakkō / gakkou", "school"), ("カップ", "kappu", "cup"), ("ベッド", "beddo", "bed"),
    ("コーヒー", "kōhī / koohii", "coffee"), ("ケーキ", "kēki / keeki", "cake"), ("ノート", "nōto / nooto", "notebook"),
    ("スーパー", "sūpā / suupaa", "supermarket"),
]
# Katakana for sounds Japanese took from other languages: a kana and a small vowel read as one
# sound, in the Hepburn spellings of the government's loanword table (1991).
EXTENDED = [
    ("ファ", "fa"), ("フィ", "fi"), ("フェ", "fe"), ("フォ", "fo"), ("フュ", "fyu"),
    ("ティ", "ti"), ("ディ", "di"), ("トゥ", "tu"), ("ドゥ", "du"), ("デュ", "dyu"),
    ("ウィ", "wi"), ("ウェ", "we"), ("ウォ", "wo"), ("イェ", "ye"),
    ("シェ", "she"), ("ジェ", "je"), ("チェ", "che"), ("ツァ", "tsa"),
    ("ヴ", "vu"), ("ヴァ", "va"), ("ヴィ", "vi"), ("ヴェ", "ve"), ("ヴォ", "vo"),
]
# The recall prompt tells the two spellings of ji and of zu apart; the usual one is じ/ず.
SOUNDS = {
    "じ": "ji (the usual one)", "ぢ": "ji (the rare one: the voiced form of chi)",
    "ず": "zu (the usual one)", "づ": "zu (the rare one: the voiced form of tsu)",
}
NOTES = {
    "を": "the object particle; today read o",
    "ん": "the only kana that is a consonant alone",
    "ぢ": "rare; sounds as じ, written where ち is voiced (はなぢ, ちぢむ)",
    "づ": "rare; sounds as ず, written where つ is voiced (つづく, みかづき)",
    "じ": "the usual spelling of ji; ぢ is the rare one",
    "ず": "the usual spelling of zu; づ is the rare one",
    "し": "not si", "ち": "not ti", "つ": "not tu", "ふ": "between h and f",
}


def katakana(text):
    return "".join(chr(ord(ch) + 0x60) if "ぁ" <= ch <= "ゖ" else ch for ch in text)


def main():
    units = [("hiragana", "Hiragana", BASIC), ("hiragana-voiced", "Hiragana with dakuten and handakuten", VOICED),
             ("hiragana-combined", "Hiragana combinations", COMBINED), ("katakana", "Katakana", BASIC),
             ("katakana-voiced", "Katakana with dakuten and handakuten", VOICED),
             ("katakana-combined", "Katakana combinations", COMBINED)]
    more_units = [("small-kana", "Small っ and the long vowel ー in words"), ("katakana-extended", "Katakana for sounds from other languages")]
    rows = []
    for unit, _, table in units:
        script = "katakana" if unit.startswith("katakana") else "hiragana"
        for hira, romaji in table:
            kana = katakana(hira) if script == "katakana" else hira
            other = hira if script == "katakana" else katakana(hira)
            identifier = f"{script}-{romaji.split(' / ')[0]}" + ("-d" if hira in ("ぢ", "づ") else "")
            sound = SOUNDS.get(hira, romaji.split(' / ')[0])
            rows.append([identifier, unit, kana, romaji, script, f"{script}: {sound}", other, NOTES.get(hira, ""), script])
    for word, romaji, meaning in SMALL:
        script = "katakana" if "ァ" <= word[0] <= "ヺ" else "hiragana"
        mark = "ー lengthens the vowel before it" if "ー" in word else "small っ doubles the consonant after it"
        if "ッ" in word:
            mark = "small ッ doubles the consonant after it"
        rows.append([f"small-{romaji.split(' / ')[1] if ' / ' in romaji else romaji}", "small-kana", word, romaji, script,
                     f"{script}: {romaji.split(' / ')[0]} ({meaning})", "", f"{meaning}; {mark}", script])
    for kana, romaji in EXTENDED:
        rows.append([f"katakana-extended-{romaji}", "katakana-extended", kana, romaji, "katakana", f"katakana: {romaji}", "",
                     "a sound from other languages", "katakana"])
    assert len(rows) == 2 * (46 + 25 + 33) + len(SMALL) + len(EXTENDED), len(rows)
    assert len({r[0] for r in rows}) == len(rows)
    folder = os.path.join(ROOT, "Decks", "kana")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "items.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tunit\tkana\tromaji\tscript\tsound\tother_script\tnote\ttags\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    unit_lines = "\n".join(f"  - {{id: {unit}, title: {title}}}" for unit, title in [(u, t) for u, t, _ in units] + more_units)
    with open(os.path.join(folder, "deck.yaml"), "w", encoding="utf-8") as f:
        f.write(f"""# Generated by scripts/decks/generate-kana.py. Edit the script, not this file.
# Hepburn romanization; facts, no source text (see Decks/ATTRIBUTION.md).
format: 1
id: kana
name: Kana
kind: kana
description: >-
  Hiragana and katakana: the 46 basic kana of each, 25 with dakuten and handakuten, 33
  combinations, small っ and the long vowel ー in ten words, and 23 katakana for sounds from
  other languages, in Hepburn romanization, unit by unit.
speak: kana
fields:
  - {{name: kana, language: ja}}
  - {{name: romaji, language: en}}
  - {{name: script, language: en}}
  - {{name: sound, language: en}}
  - {{name: other_script, language: ja}}
  - {{name: note, language: en}}
templates:
  - name: recognize
    front: kana
    back: [romaji, other_script, note]
    typed: romaji
  - name: recall
    front: sound
    back: [kana, other_script, note]
preset:
  scheduler: fsrs
  new_per_day: 15
  learning_steps: 1m 10m
  relearning_steps: 10m
  desired_retention: 0.9
  curriculum_gating: true
  bury_siblings: true
units:
{unit_lines}
items: items.tsv
""")
    # Each romanization against kakasi's, where kakasi is installed (it writes を as "wo" and
    # ぢ/づ as "di"/"du": those are the table's own choices, said in their notes).
    try:
        for row in rows:
            out = subprocess.run(["kakasi", "-Ha", "-Ka", "-iutf8", "-outf8"], input=row[2], capture_output=True, text=True).stdout.strip()
            # kakasi writes a long vowel as "o^" and knows no loanword kana (ティ is "tei" to it).
            doubled = "".join(out[i - 1] if ch == "^" and i else ch for i, ch in enumerate(out))
            if row[1] == "katakana-extended":
                continue
            if not {out, doubled} & set(row[3].split(" / ")) and row[2] not in ("ぢ", "づ", "ヂ", "ヅ"):
                print(f"kakasi reads {row[2]} as {out}, the table says {row[3]}")
    except FileNotFoundError:
        print("kakasi not installed: romanizations not cross-checked")
    print(f"{len(rows)} kana")


if __name__ == "__main__":
    main()
