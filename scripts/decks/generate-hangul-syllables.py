#!/usr/bin/env python3
"""Writes Decks/hangul-syllables: Hangul beyond the letters. How letters stack into syllable
blocks (consonant + vowel, + a final consonant), then the main sound changes between syllables
(linking, nasalization, tensing, aspiration, ㄹ-assimilation, ㅎ-dropping, palatalization and
ㄴ-insertion), each with textbook example words, their pronunciation and Revised Romanization (koroman, MIT; the romanization writes linking,
nasalization, assimilation and aspiration in predicates, but not tensing).

    pip install koroman==1.0.16 && python3 scripts/decks/generate-hangul-syllables.py

Blocks are composed from their letters by Unicode's own arithmetic, so a block and its parts
always agree.
"""
import os
import re

import koroman

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

INITIALS = "ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ"
VOWELS = "ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ"
FINALS = ["", "ㄱ", "ㄲ", "ㄳ", "ㄴ", "ㄵ", "ㄶ", "ㄷ", "ㄹ", "ㄺ", "ㄻ", "ㄼ", "ㄽ", "ㄾ", "ㄿ", "ㅀ", "ㅁ", "ㅂ", "ㅄ", "ㅅ", "ㅆ",
          "ㅇ", "ㅈ", "ㅊ", "ㅋ", "ㅌ", "ㅍ", "ㅎ"]


def block(initial, vowel, final=""):
    return chr(0xAC00 + (INITIALS.index(initial) * 21 + VOWELS.index(vowel)) * 28 + FINALS.index(final))


def layout(vowel, final):
    if vowel in "ㅏㅐㅑㅒㅓㅔㅕㅖㅣ":
        shape = "consonant left, vowel right"
    elif vowel in "ㅗㅛㅜㅠㅡ":
        shape = "consonant on top, vowel below"
    else:
        shape = "consonant top left, vowel wrapping below and right"
    return shape + (", final consonant underneath" if final else "")


# (initial, vowel, final, meaning of the block as a word, or "")
BLOCKS = [
    ("ㄱ", "ㅏ", "", ""), ("ㄴ", "ㅏ", "", "I (plain)"), ("ㅁ", "ㅓ", "", ""), ("ㅅ", "ㅣ", "", "o'clock; poem"),
    ("ㄱ", "ㅗ", "", ""), ("ㅁ", "ㅜ", "", "radish"), ("ㅅ", "ㅡ", "", ""), ("ㄴ", "ㅠ", "", ""),
    ("ㄱ", "ㅘ", "", "lesson; section"), ("ㅁ", "ㅝ", "", "what (spoken)"), ("ㅇ", "ㅢ", "", "of (possessive particle)"),
    ("ㅎ", "ㅚ", "", "meeting; raw fish"), ("ㄱ", "ㅏ", "ㅇ", "river"), ("ㅂ", "ㅏ", "ㅂ", "cooked rice; a meal"),
    ("ㅁ", "ㅜ", "ㄹ", "water"), ("ㄴ", "ㅜ", "ㄴ", "eye; snow"), ("ㅅ", "ㅏ", "ㄴ", "mountain"), ("ㄷ", "ㅗ", "ㄴ", "money"),
    ("ㄱ", "ㅗ", "ㅇ", "ball"), ("ㅂ", "ㅏ", "ㅁ", "night"), ("ㄷ", "ㅏ", "ㄹ", "moon; month"), ("ㄲ", "ㅗ", "ㅊ", "flower"),
    ("ㅇ", "ㅣ", "ㄹ", "one; work"), ("ㄱ", "ㅏ", "ㅄ", "price"),
]

# (rule id, rule, word, pronunciation, meaning, what happens)
CHANGES = [
    ("linking", "Linking (연음)", "음악", "[으막]", "music", "a final consonant moves on to a following vowel"),
    ("linking", "Linking (연음)", "한국어", "[한구거]", "the Korean language", "ㄱ moves on to 어"),
    ("linking", "Linking (연음)", "옷이", "[오시]", "clothes (subject)", "ㅅ moves on to 이"),
    ("linking", "Linking (연음)", "읽어요", "[일거요]", "I read", "of ㄺ, ㄱ moves on to 어"),
    ("linking", "Linking (연음)", "앉아요", "[안자요]", "I sit", "of ㄵ, ㅈ moves on to 아"),
    ("nasalization", "Nasalization (비음화)", "합니다", "[함니다]", "(formal ending: does)", "ㅂ before ㄴ sounds ㅁ"),
    ("nasalization", "Nasalization (비음화)", "감사합니다", "[감사함니다]", "thank you", "ㅂ before ㄴ sounds ㅁ"),
    ("nasalization", "Nasalization (비음화)", "작년", "[장년]", "last year", "ㄱ before ㄴ sounds ㅇ"),
    ("nasalization", "Nasalization (비음화)", "국물", "[궁물]", "broth", "ㄱ before ㅁ sounds ㅇ"),
    ("nasalization", "Nasalization (비음화)", "먹는", "[멍는]", "eating", "ㄱ before ㄴ sounds ㅇ"),
    ("nasalization", "Nasalization (비음화)", "믿는", "[민는]", "believing", "ㄷ before ㄴ sounds ㄴ"),
    ("nasalization", "Nasalization (비음화)", "종로", "[종노]", "Jongno (a Seoul district)", "ㄹ after ㅇ sounds ㄴ"),
    ("tensing", "Tensing (경음화)", "학교", "[학꾜]", "school", "ㄱ after ㄱ becomes tense ㄲ; not written in romanization"),
    ("tensing", "Tensing (경음화)", "식당", "[식땅]", "restaurant", "ㄷ after ㄱ becomes ㄸ"),
    ("tensing", "Tensing (경음화)", "국밥", "[국빱]", "rice in soup", "ㅂ after ㄱ becomes ㅃ"),
    ("tensing", "Tensing (경음화)", "잡지", "[잡찌]", "magazine", "ㅈ after ㅂ becomes ㅉ"),
    ("tensing", "Tensing (경음화)", "숙제", "[숙쩨]", "homework", "ㅈ after ㄱ becomes ㅉ"),
    ("aspiration", "Aspiration (격음화)", "좋다", "[조타]", "to be good", "ㅎ and ㄷ make ㅌ"),
    ("aspiration", "Aspiration (격음화)", "놓고", "[노코]", "putting down, and", "ㅎ and ㄱ make ㅋ"),
    ("aspiration", "Aspiration (격음화)", "많다", "[만타]", "to be many", "of ㄶ, ㅎ and ㄷ make ㅌ"),
    ("aspiration", "Aspiration (격음화)", "축하", "[추카]", "congratulations", "ㄱ and ㅎ make ㅋ"),
    ("aspiration", "Aspiration (격음화)", "입학", "[이팍]", "entering a school", "ㅂ and ㅎ make ㅍ"),
    ("liquidization", "ㄹ-assimilation (유음화)", "신라", "[실라]", "Silla (an old kingdom)", "ㄴ next to ㄹ sounds ㄹ"),
    ("liquidization", "ㄹ-assimilation (유음화)", "연락", "[열락]", "contact; getting in touch", "ㄴ next to ㄹ sounds ㄹ"),
    ("liquidization", "ㄹ-assimilation (유음화)", "설날", "[설랄]", "Lunar New Year's Day", "ㄴ after ㄹ sounds ㄹ"),
    ("h-dropping", "ㅎ-dropping (ㅎ 탈락)", "좋아요", "[조아요]", "it's good", "a final ㅎ before a vowel is not sounded"),
    ("h-dropping", "ㅎ-dropping (ㅎ 탈락)", "싫어요", "[시러요]", "I don't like it", "of ㅀ, ㅎ is silent and ㄹ moves on to 어"),
    ("h-dropping", "ㅎ-dropping (ㅎ 탈락)", "많이", "[마니]", "a lot", "of ㄶ, ㅎ is silent and ㄴ moves on to 이"),
    ("palatalization", "Palatalization (구개음화)", "같이", "[가치]", "together", "ㅌ before 이 sounds ㅊ"),
    ("palatalization", "Palatalization (구개음화)", "굳이", "[구지]", "going out of one's way to", "ㄷ before 이 sounds ㅈ"),
    ("palatalization", "Palatalization (구개음화)", "해돋이", "[해도지]", "sunrise", "ㄷ before 이 sounds ㅈ"),
    ("palatalization", "Palatalization (구개음화)", "붙이다", "[부치다]", "to stick on", "ㅌ before 이 sounds ㅊ"),
    ("n-insertion", "ㄴ-insertion (ㄴ 첨가)", "한여름", "[한녀름]", "midsummer", "a ㄴ comes in before 여 after a word ending in a consonant"),
    ("n-insertion", "ㄴ-insertion (ㄴ 첨가)", "색연필", "[생년필]", "colored pencil", "ㄴ comes in before 연, and ㄱ before it sounds ㅇ"),
    ("n-insertion", "ㄴ-insertion (ㄴ 첨가)", "담요", "[담뇨]", "blanket", "ㄴ comes in before 요"),
    ("n-insertion", "ㄴ-insertion (ㄴ 첨가)", "나뭇잎", "[나문닙]", "leaf", "ㄴ comes in before 잎, and ㅅ before it sounds ㄴ"),
]

# Romanizations that Revised Romanization writes otherwise than koroman.
OVERRIDES = {
    "축하": "chukha",  # in nouns RR keeps the ㅎ after ㄱ (rule 1.4)
    "입학": "iphak",  # likewise after ㅂ
    "한여름": "hannyeoreum",  # RR writes the inserted ㄴ (rule 1.1); koroman does not know it is there
    "담요": "damnyo",
}


def romanize(text):
    return OVERRIDES.get(text) or koroman.romanize(text)


def main():
    rows = []
    for initial, vowel, final, meaning in BLOCKS:
        syllable = block(initial, vowel, final)
        parts = " + ".join(p for p in (initial, vowel, final) if p)
        rows.append(["block-" + romanize(syllable), "blocks", syllable, parts, "", "", romanize(syllable), meaning,
                     layout(vowel, final), "block"])
    for rule_id, rule, word, pronunciation, meaning, what in CHANGES:
        rows.append([f"{rule_id}-{romanize(word)}", rule_id, word, "", rule, pronunciation, romanize(word), meaning, what,
                     "sound-change"])
    assert len({r[0] for r in rows}) == len(rows), "ids"
    folder = os.path.join(ROOT, "Decks", "hangul-syllables")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "items.tsv"), "w", encoding="utf-8") as f:
        f.write("id\tunit\tkorean\tparts\trule\tpronunciation\tromanization\tmeaning\texplanation\ttags\n")
        for row in rows:
            f.write("\t".join(row) + "\n")
    units = [("blocks", "Syllable blocks"), ("linking", "Linking (연음)"), ("nasalization", "Nasalization (비음화)"),
             ("tensing", "Tensing (경음화)"), ("aspiration", "Aspiration (격음화)"), ("liquidization", "ㄹ-assimilation (유음화)"),
             ("h-dropping", "ㅎ-dropping (ㅎ 탈락)"), ("palatalization", "Palatalization (구개음화)"), ("n-insertion", "ㄴ-insertion (ㄴ 첨가)")]
    unit_lines = "\n".join(f"  - {{id: {unit}, title: \"{title}\"}}" for unit, title in units)
    with open(os.path.join(folder, "deck.yaml"), "w", encoding="utf-8") as f:
        f.write(f"""# Generated by scripts/decks/generate-hangul-syllables.py. Edit the script, not this file.
# Written for Maeil (facts of the Korean writing system and its standard pronunciation).
format: 1
id: hangul-syllables
name: Hangul Syllables and Sound Changes
kind: word
description: >-
  How letters stack into syllable blocks, then the sound changes between syllables (linking,
  nasalization, tensing, aspiration, ㄹ-assimilation, ㅎ-dropping, palatalization, ㄴ-insertion) with
  example words, their pronunciation and romanization. After Hangul Jamo.
speak: korean
fields:
  - {{name: korean, language: ko}}
  - {{name: parts, language: ko}}
  - {{name: rule, language: en}}
  - {{name: pronunciation, language: ko}}
  - {{name: romanization, language: en}}
  - {{name: meaning, language: en}}
  - {{name: explanation, language: en}}
templates:
  - name: read
    front: korean
    back: [pronunciation, romanization, meaning, parts, rule, explanation]
preset:
  scheduler: fsrs
  new_per_day: 8
  learning_steps: 1m 10m
  desired_retention: 0.9
  curriculum_gating: true
units:
{unit_lines}
items: items.tsv
""")
    print(f"{len(rows)} items")


if __name__ == "__main__":
    main()
