#!/usr/bin/env python3
"""Checks Decks/mcheyne-reading-plan/days.tsv against the Bible's own chapters and verses.

    sudo apt-get install -y sword-text-web diatheke
    python3 scripts/decks/check-reading-plan.py

The World English Bible module gives every verse of the 66 books in order (one diatheke call).
The plan must then hold: every reference names a real passage; each of the four columns reads
on from where it stopped the day before (a column moves to another book only after a book's
last verse, and starts a book at its first); together the columns read the Old Testament once
and the New Testament and the Psalms twice; day N is dated as the Nth day of a year of 365.
Exit status 0 when all holds, 1 with each problem listed otherwise.
"""
import datetime
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
PLAN = os.path.join(ROOT, "Decks", "mcheyne-reading-plan", "days.tsv")
MODULE = "engWEB2015eb"

OLD = ["Genesis", "Exodus", "Leviticus", "Numbers", "Deuteronomy", "Joshua", "Judges", "Ruth", "1 Samuel",
       "2 Samuel", "1 Kings", "2 Kings", "1 Chronicles", "2 Chronicles", "Ezra", "Nehemiah", "Esther", "Job",
       "Psalms", "Proverbs", "Ecclesiastes", "Song of Songs", "Isaiah", "Jeremiah", "Lamentations", "Ezekiel",
       "Daniel", "Hosea", "Joel", "Amos", "Obadiah", "Jonah", "Micah", "Nahum", "Habakkuk", "Zephaniah",
       "Haggai", "Zechariah", "Malachi"]
NEW = ["Matthew", "Mark", "Luke", "John", "Acts", "Romans", "1 Corinthians", "2 Corinthians", "Galatians",
       "Ephesians", "Philippians", "Colossians", "1 Thessalonians", "2 Thessalonians", "1 Timothy", "2 Timothy",
       "Titus", "Philemon", "Hebrews", "James", "1 Peter", "2 Peter", "1 John", "2 John", "3 John", "Jude",
       "Revelation"]
# The module's names for books the plan names otherwise.
MODULE_NAMES = {"Song of Songs": "Song of Solomon", "Revelation": "Revelation of John"}
for number, roman in (("1", "I"), ("2", "II"), ("3", "III")):
    for book in OLD + NEW:
        if book.startswith(number + " "):
            MODULE_NAMES[book] = roman + book[1:]


def verse_index():
    """Every verse of the 66 books in order, as (book, chapter, verse)."""
    text = subprocess.run(["diatheke", "-b", MODULE, "-o", "f", "-f", "plain", "-k", "Genesis 1:1-Revelation 22:21"],
                          capture_output=True, text=True, check=True).stdout
    by_module_name = {MODULE_NAMES.get(book, book): book for book in OLD + NEW}
    verses = []
    for match in re.finditer(r"^\s*([1-3I]*\s?[A-Za-z][A-Za-z ]*?) (\d+):(\d+):", text, re.M):
        book = by_module_name.get(match.group(1).strip())
        if book:
            verses.append((book, int(match.group(2)), int(match.group(3))))
    if not verses:
        sys.exit(f"diatheke gave no verses; is sword-text-web installed?")
    return verses


def parse(reference):
    """'Luke 1:39–80' → ('Luke', (1, 39), (1, 80)); 'Psalms 1–2' → ('Psalms', (1, None), (2, None))."""
    match = re.fullmatch(r"(.+?) (\d+)(?::(\d+))?(?:–(\d+)(?::(\d+))?)?", reference)
    if not match:
        return None
    book, c1, v1, x, v2 = match.groups()
    book = "Psalms" if book == "Psalm" else book
    if v1 and x and not v2:   # Luke 1:1–38: the range is of verses
        return book, (int(c1), int(v1)), (int(c1), int(x))
    return book, (int(c1), int(v1) if v1 else None), (int(x) if x else int(c1), int(v2) if v2 else None)


def main():
    verses = verse_index()
    position = {verse: index for index, verse in enumerate(verses)}
    last_verse = {}
    for book, chapter, verse in verses:
        last_verse[(book, chapter)] = max(verse, last_verse.get((book, chapter), 0))
    problems = []
    columns = None
    reads = {}
    previous = None
    day_count = 0
    for number, line in enumerate(open(PLAN, encoding="utf-8"), 1):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        cells = line.split("\t")
        if columns is None:
            columns = cells[2:]
            previous = [None] * len(columns)
            read_in = [set() for _ in columns]
            continue
        day_count += 1
        day = int(cells[0])
        date = datetime.date(2025, 1, 1) + datetime.timedelta(days=day - 1)
        if day != day_count or cells[1] != f"{date:%B} {date.day}":
            problems.append(f"line {number}: day {cells[0]} {cells[1]!r} should be day {day_count}, {date:%B} {date.day}")
        for column, reference in enumerate(cells[2:]):
            # "Jeremiah 36, 45": parts after the first name only a chapter, of the same book, and
            # may run ahead; the column then passes over what it has read (45, after 44).
            parts = reference.split(", ")
            book_name = parts[0].rsplit(" ", 1)[0]
            spans = []
            for index, part in enumerate(parts):
                parsed = parse(part if index == 0 else f"{book_name} {part}")
                if not parsed:
                    problems.append(f"line {number}: cannot read {reference!r}")
                    break
                book, (c1, v1), (c2, v2) = parsed
                first = (book, c1, v1 or 1)
                last = (book, c2, v2 or last_verse.get((book, c2), 0))
                if first not in position or last not in position or position[first] > position[last]:
                    problems.append(f"line {number}: {reference} is not a passage of the World English Bible")
                    break
                spans.append((position[first], position[last]))
            else:
                start, end = spans[0]
                before = previous[column]
                expected = None if before is None else before + 1
                while expected is not None and expected in read_in[column]:
                    expected += 1
                if expected is not None and start != expected:
                    ended_book = expected >= len(verses) or verses[expected][0] != verses[before][0]
                    starts_book = start == 0 or verses[start - 1][0] != verses[start][0]
                    if not (ended_book and starts_book):
                        problems.append(f"line {number}: {columns[column]} {reference} does not follow on from "
                                        f"{' '.join(map(str, verses[before]))}")
                previous[column] = end
                for span_start, span_end in spans:
                    for index in range(span_start, span_end + 1):
                        reads[index] = reads.get(index, 0) + 1
                        read_in[column].add(index)
    if day_count != 365:
        problems.append(f"{day_count} days; the calendar has 365")
    for index, (book, chapter, verse) in enumerate(verses):
        wanted = 2 if book in NEW or book == "Psalms" else 1
        if reads.get(index, 0) != wanted:
            problems.append(f"{book} {chapter}:{verse} is read {reads.get(index, 0)} times, not {wanted}")
    for problem in problems[:50]:
        print(problem)
    if problems:
        print(f"{len(problems)} problems")
        return 1
    chapters = len({(book, chapter) for book, chapter, _ in verses})
    print(f"reading plan: {day_count} days × {len(columns)} readings; all {len(verses)} verses of {chapters} chapters "
          f"read as planned (Old Testament once; New Testament and Psalms twice)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
