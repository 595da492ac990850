#!/usr/bin/env python3
"""Checks the Japanese vocabulary decks against EDICT, class by class of what went wrong before:

- register: a word whose meaning is an EDICT sense tagged honorific (hon) or humble (hum) says
  so in its meaning ("to do (humble)"), or なさる and 致す are both "to do" and a learner takes
  one for the other;
- dates: a word EDICT gives as a day of the month (二日 ふつか) means that first ("second day of
  the month; two days"), not only the count of days;
- kanji (against KANJIDIC2): a kanji that is a counter says so (本), the zodiac signs and hours
  never crowd out what a kanji means (子, 午), and no on reading is the spelling of a foreign
  unit (米: メエトル).

    python3 scripts/decks/check-japanese-senses.py      (needs: apt-get install edict)

Reads EDICT on its own (not through the generator) and each deck's items.tsv; prints every
word that fails and exits 1 if there is one.
"""
import csv
import gzip
import os
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EDICT = "/usr/share/edict/edict"
KANJIDIC = "/usr/share/edict/kanjidic2.xml.gz"
REGISTERS = {"hon": "honorific", "hum": "humble"}


def edict_senses():
    """(headword or reading) -> [(reading, [(first gloss, register)], common)] from EDICT's own lines."""
    text = subprocess.run(["iconv", "-f", "EUC-JP", "-t", "UTF-8", EDICT], capture_output=True, check=True).stdout.decode()
    entries = {}
    for line in text.splitlines()[1:]:
        m = re.match(r"^(\S+)(?: \[([^\]]+)\])? /(.*)/$", line)
        if not m:
            continue
        head, reading, body = m.group(1), m.group(2) or "", m.group(3)
        senses, register, first = [], None, None
        for part in body.split("/"):
            if re.match(r"^(\([^)]*\)\s*)*\(\d+\)", part) and first is not None:
                senses.append((first, register))
                register, first = None, None
            tags = {t for group in re.findall(r"\(([^()]*)\)", part) for t in group.split(",")}
            register = register or next((REGISTERS[t] for t in REGISTERS if t in tags), None)
            gloss = re.sub(r"\s+", " ", re.sub(r"\([^()]*\)|\{[^}]*\}", " ", part)).strip()
            if first is None and gloss and gloss != "P" and not part.startswith("EntL"):
                first = gloss
        if first is not None:
            senses.append((first, register))
        for key in {head, reading} - {""}:
            entries.setdefault(key, []).append((reading, senses, "/(P)/" in f"/{body}/"))
    return entries


def check_kanji():
    import xml.etree.ElementTree as ET
    with gzip.open(KANJIDIC) as f:
        root = ET.parse(f).getroot()
    source = {}
    for character in root.iter("character"):
        group = character.find("reading_meaning/rmgroup")
        if group is None:
            continue
        source[character.findtext("literal")] = (
            [m.text for m in group.findall("meaning") if m.get("m_lang") is None],
            [r.text for r in group.findall("reading") if r.get("r_type") == "ja_on"])
    problems, checked = [], 0
    zodiac = re.compile(r"sign of the|Chinese zodiac|\d(AM|PM)\b")
    for level in ("n5", "n4", "n3"):
        with open(os.path.join(ROOT, "Decks", f"jlpt-{level}-kanji", "items.tsv"), encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                meanings, on = source[row["kanji"]]
                shown = row["meaning"].split("; ")
                checked += 1
                counter = next((m for m in meanings if m.startswith("counter for")), None)
                if counter and counter not in shown:
                    problems.append(f"{level} {row['kanji']}: '{row['meaning']}' lacks '{counter}'")
                if any(zodiac.search(m) for m in shown) and any(not zodiac.search(m) for m in meanings):
                    problems.append(f"{level} {row['kanji']}: '{row['meaning']}' gives the zodiac before what it means")
                for reading in filter(None, row["onyomi"].split("、")):
                    if reading not in on or len(reading) > 3:
                        problems.append(f"{level} {row['kanji']}: on reading {reading} is not one to learn")
    return problems, checked


def vocabulary():
    """Every level's words: (level, row of items.tsv)."""
    words = []
    for level in ("n5", "n4", "n3"):
        with open(os.path.join(ROOT, "Decks", f"jlpt-{level}-vocabulary", "items.tsv"), encoding="utf-8") as f:
            words += [(level, row) for row in csv.DictReader(f, delimiter="\t")]
    return words


def plain(text):
    """A meaning as a learner reads it: lower case, without what parentheses add."""
    return re.sub(r"\s*\([^)]*\)", "", text).strip().lower()


def unexampled(text):
    """A meaning without the examples parentheses give ("(e.g. doors)", "(a door, etc.)")."""
    return re.sub(r"\s*\((?:e\.g\.|i\.e\.|esp\.)[^)]*\)|\s*\([^)]*\betc\.?\)", "", text).strip().lower()


# Reviewed: words whose EDICT first sense is not what the level teaches, each given its meaning
# by hand in the generator's CORRECTIONS, which say why (為 ため is not "good", 唯 not "ordinary").
NOT_FIRST = {"渡す", "余り", "方", "先", "空く", "為", "訳", "調子", "一体", "得意", "実際", "式", "収める", "移す", "所為", "唯", "溺れる", "曇る"}


def check_main_senses(entries, words):
    """A word of a common EDICT entry (kanji spelling and reading both EDICT's) gives that
    entry's first sense: 消す "to turn off" was missing, 解ける "to be solved", 急 "sudden"."""
    problems, checked = [], 0
    for level, row in words:
        word, kana, meaning = row["word"], row["kana"].split(" / "), row["meaning"]
        if not re.search(r"[\u4e00-\u9fff]", word) or word in NOT_FIRST:
            continue
        common = [senses for reading, senses, is_common in entries.get(word, []) if is_common and reading in kana and senses]
        if len(common) != 1:
            continue
        checked += 1
        first = plain(common[0][0][0])
        shown = [plain(part) for part in meaning.split(";")]
        if not any(first in part or part in first for part in shown):
            problems.append(f"{level} {word} [{row['kana']}]: '{meaning}' lacks EDICT's first sense '{common[0][0][0]}'")
    return problems, checked


def check_alike_prompts(words):
    """Two recall prompts that ask the same (the same first meaning, parentheses aside, or one's
    meanings all among the other's), at any level, accept each other's word: 開く "to open (e.g.
    doors)" refused 開ける, each "corner" refused the others."""
    problems, pairs = [], 0
    meanings = [[unexampled(part) for part in row["meaning"].split(";") if unexampled(part)] for _, row in words]
    for i, (level, row) in enumerate(words):
        for j in range(i + 1, len(words)):
            a, b = meanings[i], meanings[j]
            if not a or not b or not (a[0] == b[0] or set(a) <= set(b) or set(b) <= set(a)):
                continue
            pairs += 1
            other_level, other = words[j]
            for x, y, lx in ((row, other, level), (other, row, other_level)):
                if y["word"].split("/")[0] not in x["answer"].split(" / "):
                    problems.append(f"{lx} {x['word']} '{x['meaning']}' refuses {y['word']} '{y['meaning']}'")
    return problems, pairs


def check_spellings(entries, words):
    """No word is shown only in a spelling of no common EDICT entry when a common one has the
    same reading, the same first meaning and the same kanji or some of them (落す for 落とす,
    二十 for 二十歳; 舟 and 船 are two words)."""
    problems = []
    kanji = lambda text: {ch for ch in text if "\u4e00" <= ch <= "\u9fff"}
    heads = {}
    for key, items in entries.items():
        for r, senses, common in items:
            if common and senses and kanji(key):
                heads.setdefault(r, []).append((key, senses[0][0]))
    for level, row in words:
        forms = row["word"].split("/")
        word, reading = forms[0], row["kana"].split(" / ")[0]
        own = [senses for r, senses, common in entries.get(word, []) if r == reading and senses]
        if not own or not kanji(word) or any(common for r, _, common in entries.get(word, []) if r == reading):
            continue
        for head, first in heads.get(reading, []):
            if head not in forms and first == own[0][0][0] and (kanji(head) <= kanji(word) or kanji(word) <= kanji(head)):
                problems.append(f"{level} {row['word']} [{reading}]: EDICT's common spelling of '{first}' is {head}")
                break
    return problems


def main():
    entries = edict_senses()
    missing, checked, wrong_dates, dates = [], 0, [], 0
    for level in ("n5", "n4", "n3"):
        path = os.path.join(ROOT, "Decks", f"jlpt-{level}-vocabulary", "items.tsv")
        with open(path, encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                word, reading, meaning = row["word"], row["kana"], row["meaning"]
                first = re.sub(r"\s*\((honorific|humble)\)", "", meaning.split(";")[0]).strip()
                for entry_reading, senses, _ in entries.get(word, []):
                    if reading and entry_reading and entry_reading not in reading.split(" / "):
                        continue
                    # A date is a kanji word whose first sense is the day of the month (一日 いちにち
                    # is "one day" first; いつか "someday" shares 五日's reading).
                    date = senses[0][0] if senses and "day of the month" in senses[0][0] and re.search(r"[\u4e00-\u9fff]", word) else None
                    if date:
                        dates += 1
                        if not meaning.startswith(date):
                            wrong_dates.append(f"{level} {word} [{reading}]: '{meaning}' before EDICT's '{date}'")
                    for gloss, register in senses:
                        if register and gloss == first:
                            checked += 1
                            if f"({register})" not in meaning and register not in meaning:
                                missing.append(f"{level} {word} [{reading}]: '{meaning}' is EDICT's {register} sense")
    kanji_problems, kanji_checked = check_kanji()
    words = vocabulary()
    main_problems, main_checked = check_main_senses(entries, words)
    alike_problems, alike_pairs = check_alike_prompts(words)
    spelling_problems = check_spellings(entries, words)
    for line in sorted(set(missing)) + sorted(set(wrong_dates)) + kanji_problems + main_problems + alike_problems + spelling_problems:
        print(line)
    print(f"main senses: {main_checked} words of a common EDICT entry, {len(main_problems)} without its first sense")
    print(f"alike prompts: {alike_pairs} pairs of recall prompts that ask the same, {len(alike_problems)} refusing each other's answer")
    print(f"spellings: {len(spelling_problems)} shown in a rarer spelling than EDICT's common one")
    print(f"kanji: {kanji_checked} checked against KANJIDIC2, {len(kanji_problems)} problems")
    print(f"register: {checked} meanings from honorific or humble EDICT senses, {len(set(missing))} without their register")
    print(f"dates: {dates} days of the month, {len(set(wrong_dates))} not given first")
    return 1 if missing or wrong_dates or kanji_problems or main_problems or alike_problems or spelling_problems else 0


if __name__ == "__main__":
    sys.exit(main())
