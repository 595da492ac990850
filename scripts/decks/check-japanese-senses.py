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
    """(headword or reading) -> [(reading, [(first gloss, register)])] from EDICT's own lines."""
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
            entries.setdefault(key, []).append((reading, senses))
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


def main():
    entries = edict_senses()
    missing, checked, wrong_dates, dates = [], 0, [], 0
    for level in ("n5", "n4", "n3"):
        path = os.path.join(ROOT, "Decks", f"jlpt-{level}-vocabulary", "items.tsv")
        with open(path, encoding="utf-8") as f:
            for row in csv.DictReader(f, delimiter="\t"):
                word, reading, meaning = row["word"], row["kana"], row["meaning"]
                first = re.sub(r"\s*\((honorific|humble)\)", "", meaning.split(";")[0]).strip()
                for entry_reading, senses in entries.get(word, []):
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
    for line in sorted(set(missing)) + sorted(set(wrong_dates)) + kanji_problems:
        print(line)
    print(f"kanji: {kanji_checked} checked against KANJIDIC2, {len(kanji_problems)} problems")
    print(f"register: {checked} meanings from honorific or humble EDICT senses, {len(set(missing))} without their register")
    print(f"dates: {dates} days of the month, {len(set(wrong_dates))} not given first")
    return 1 if missing or wrong_dates or kanji_problems else 0


if __name__ == "__main__":
    sys.exit(main())
