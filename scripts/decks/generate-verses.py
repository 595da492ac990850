#!/usr/bin/env python3
"""Rebuilds Decks/memory-verses from the World English Bible (public domain) in Debian.

    sudo apt-get install -y sword-text-web diatheke
    python3 scripts/decks/generate-verses.py            (--check: compare the committed deck instead)

The text is the WEB's as diatheke prints it, quotation marks included (one may open a speech
that goes on past the passage), except that footnotes are left out and poetry lines are joined
with spaces; a verse that ends mid-clause runs on to the clause's end (Ephesians 2:8–9), and a
few verses are learned with the one before them, where their sentence begins (UNITS).
("World English Bible" is a trademark for the unmodified text; this deck names it as its source
and changes no words or marks.)
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MODULE = "engWEB2015eb"

# Well-known verses to memorize, in six sets of ten.
VERSES = [
    # Set 1: God's love and the good news
    "John 3:16", "Romans 5:8", "Romans 6:23", "Romans 3:23", "Ephesians 2:8", "John 14:6", "John 1:1", "1 John 4:8",
    "2 Corinthians 5:17", "John 11:25",
    # Set 2: Trust
    "Proverbs 3:5", "Proverbs 3:6", "Psalms 23:1", "Psalms 46:10", "Isaiah 41:10", "Jeremiah 29:11", "Joshua 1:9",
    "Deuteronomy 31:6", "1 Peter 5:7", "Romans 8:28",
    # Set 3: Strength and peace
    "Isaiah 40:31", "Philippians 4:13", "Philippians 4:6", "Philippians 4:7", "Matthew 11:28", "John 16:33",
    "2 Timothy 1:7", "Psalms 118:24", "Psalms 37:4", "Lamentations 3:23",
    # Set 4: The way to live
    "Micah 6:8", "Matthew 22:37", "John 13:34", "Matthew 5:14", "Matthew 6:33", "Matthew 7:7", "Colossians 3:23",
    "Galatians 5:22", "Romans 12:2", "James 1:5",
    # Set 5: Love, faith and hope
    "1 Corinthians 13:4", "1 Corinthians 13:13", "Hebrews 11:1", "Hebrews 13:8", "John 15:13", "Galatians 2:20",
    "1 John 1:9", "John 8:32", "Psalms 139:14", "Revelation 21:4",
    # Set 6: The word, creation and blessing
    "Genesis 1:1", "Psalms 119:105", "2 Timothy 3:16", "Isaiah 53:5", "Matthew 28:19", "1 Thessalonians 5:18",
    "Ecclesiastes 3:1", "Numbers 6:24", "Joshua 24:15", "Psalms 121:1",
]


def verse(reference):
    output = subprocess.run(["diatheke", "-b", MODULE, "-o", "f", "-f", "plain", "-k", reference],
                            capture_output=True, text=True, check=True).stdout
    # "Book c:v: text", possibly after a section heading, then "(module)". Diatheke names
    # numbered books in Roman numerals ("I John"), so match on the chapter and verse.
    chapter_verse = reference.rsplit(" ", 1)[1]
    match = re.search(re.escape(chapter_verse) + r": ", output)
    if not match:
        sys.exit(f"diatheke gave nothing for {reference}; is sword-text-web installed?")
    text = output[match.end():]
    text = text.split(f"({MODULE})")[0]
    text = re.sub(r"\[[^\]]*\]", "", text)          # footnotes
    text = text.replace("¶", "")
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"\s+([,.;:!?’”])", r"\1", text)
    return text


def complete(text):
    """Whether a passage ends a sentence or a clause (Romans 3:23 ends with ";"), or the clause
    that opens a list (with a colon)."""
    return re.search(r"[.!?:;][’”)]*$", text) is not None


# Where the unit a learner memorizes is not the verse and its sentence: the question of Psalm
# 121:1 is answered in 121:2; Lamentations 3:23 ("They are new every morning") continues 3:22;
# Isaiah 40:31 ("but those who wait for Yahweh…") ends the sentence 40:30 begins.
UNITS = {"Psalms 121:1": (1, 2), "Lamentations 3:23": (22, 23), "Isaiah 40:31": (30, 31)}


def passage(reference):
    """The verse, and the next ones while the sentence or a quotation runs on (at most three
    more): a learner memorizes whole sentences. Returns the reference as it reads then
    ("Ephesians 2:8–9") and the text."""
    book, chapter_verse = reference.rsplit(" ", 1)
    chapter, first = chapter_verse.split(":")
    if reference in UNITS:
        start, end = UNITS[reference]
        text = " ".join(verse(f"{book} {chapter}:{number}") for number in range(start, end + 1))
        return f"{book} {chapter}:{start}–{end}", text
    text = verse(reference)
    last = int(first)
    while not complete(text) and last < int(first) + 3:
        following = f"{book} {chapter}:{last + 1}"
        try:
            text = text + " " + verse(following)
        except SystemExit:
            break
        last += 1
    return (reference if last == int(first) else f"{reference}–{last}"), text


def main():
    assert len(VERSES) == len(set(VERSES)) >= 50
    rows = []
    for index, reference in enumerate(VERSES):
        shown, text = passage(reference)
        # The id stays the first verse's, so a re-import updates the note a learner has.
        key = re.sub(r"[^a-z0-9]+", "-", reference.lower()).strip("-")
        rows.append((key, f"set-{index // 10 + 1}", shown.replace("Psalms", "Psalm"), text))
    folder = os.path.join(ROOT, "Decks", "memory-verses")
    lines = "id\tunit\treference\ttext\n" + "".join("\t".join(cell.replace("\t", " ") for cell in row) + "\n" for row in rows)
    if "--check" in sys.argv:
        # The deck as committed against the WEB as diatheke prints it now: every verse, every mark.
        with open(os.path.join(folder, "items.tsv"), encoding="utf-8") as f:
            committed = f.read().splitlines()
        differing = [(old, new) for old, new in zip(committed, lines.splitlines()) if old != new]
        for old, new in differing:
            print(f"deck:   {old}\nsource: {new}")
        print(f"{len(rows)} verses, {len(differing) + abs(len(committed) - len(lines.splitlines()))} differing from the WEB as diatheke prints it")
        sys.exit(1 if differing or len(committed) != len(lines.splitlines()) else 0)
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "items.tsv"), "w", encoding="utf-8") as f:
        f.write(lines)
    print(f"{len(rows)} verses")


if __name__ == "__main__":
    main()
