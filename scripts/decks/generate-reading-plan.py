#!/usr/bin/env python3
"""Rebuilds Decks/mcheyne-reading-plan/days.tsv from two independent public transcriptions of
M'Cheyne's calendar (1842, public domain), kept in Tests/MaeilDecksTests/Fixtures/mcheyne:

    willswire.tsv   willswire/mcheyne, Shared/Model/Data.swift (day of the year, explicit ranges)
    speric.tsv      speric/mcheyne-api, plan.json (month and day; "12:22ff" for "to the chapter's end")

    python3 scripts/decks/generate-reading-plan.py

The two are compared reading by reading once their notations are made one (Psalm/Psalms,
"36 & 45"/"36,45", "11-12:21"/"11:1-12:21"; "12:22ff" matches "12:22-51"); the plan is written only when they agree on
all 1,460 readings, in the deck's notation (en dashes, "Psalm 9" for one psalm). Prints each
disagreement and exits 1 if there is one. scripts/decks/check-reading-plan.py then checks the
plan against the Bible's verses.
"""
import datetime
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCES = os.path.join(ROOT, "Tests", "MaeilDecksTests", "Fixtures", "mcheyne")
PLAN = os.path.join(ROOT, "Decks", "mcheyne-reading-plan", "days.tsv")


def rows(name):
    with open(os.path.join(SOURCES, name), encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]


def canonical(reading):
    """One notation for both: 'Psalm' is 'Psalms', 'Jeremiah 36 & 45' is 'Jeremiah 36,45',
    'Exodus 11-12:21' is 'Exodus 11:1-12:21'."""
    text = re.sub(r"\s+", " ", reading.strip()).replace(" & ", ",").replace("Psalm ", "Psalms ")
    return re.sub(r"^(.+? )(\d+)-(\d+):(\d+)$", r"\g<1>\2:1-\3:\4", text)


def agree(a, b):
    """The same reading: equal once in one notation, or one ends 'ff' (to the chapter's end)
    where the other gives that end as a verse."""
    a, b = canonical(a), canonical(b)
    if a == b:
        return True
    for open_end, explicit in ((a, b), (b, a)):
        if open_end.endswith("ff") and re.fullmatch(re.escape(open_end[:-2]) + r"-\d+", explicit):
            return True
    return False


def shown(reading):
    """The plan's notation: en dashes, 'Psalm' for one psalm, ', ' between parts."""
    text = reading.replace(",", ", ").replace("-", "–")
    if text.startswith("Psalms ") and "–" not in text:
        text = "Psalm " + text[len("Psalms "):]
    if re.match(r"Psalms \d+:\d+–\d+$", text):
        text = "Psalm " + text[len("Psalms "):]
    return text


def main():
    first = rows("willswire.tsv")
    second = {row[0]: row[1:] for row in rows("speric.tsv")}
    assert len(first) == 365 and len(second) == 365
    problems, lines = [], []
    for row in first:
        day = int(row[0])
        date = datetime.date(2025, 1, 1) + datetime.timedelta(days=day - 1)
        other = second.get(f"{date:%m%d}")
        for column, (a, b) in enumerate(zip(row[1:], other or [])):
            if not agree(a, b):
                problems.append(f"day {day} ({date:%B} {date.day}), reading {column + 1}: {a!r} and {b!r}")
        lines.append([str(day), f"{date:%B} {date.day}"] + [shown(reading) for reading in row[1:]])
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} readings on which the transcriptions disagree; the plan is unchanged")
        return 1
    with open(PLAN, "w", encoding="utf-8") as f:
        f.write("# Robert Murray M'Cheyne's calendar of daily readings (1842, public domain), one line a day.\n")
        f.write("# Written by scripts/decks/generate-reading-plan.py from two public transcriptions that agree on every\n")
        f.write("# reading; checked against the World English Bible's chapters and verses by scripts/decks/check-reading-plan.py.\n")
        f.write("day\tdate\tfamily 1\tfamily 2\tsecret 1\tsecret 2\n")
        for line in lines:
            f.write("\t".join(line) + "\n")
    print(f"reading plan: 365 days; the two transcriptions agree on all {365 * 4} readings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
