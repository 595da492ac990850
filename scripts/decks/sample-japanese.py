#!/usr/bin/env python3
"""Draws the review sample of the Japanese vocabulary decks: 100 entries per level, with a seed
written down, each beside EDICT's own senses for that word and reading, as a Markdown table a
reviewer fills in (docs/japanese-sample.md keeps the reviewed one).

    python3 scripts/decks/sample-japanese.py SEED > /tmp/sample.md      (needs: apt-get install edict)
"""
import csv
import os
import random
import re
import subprocess
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EDICT = "/usr/share/edict/edict"


def edict():
    text = subprocess.run(["iconv", "-f", "EUC-JP", "-t", "UTF-8", EDICT], capture_output=True, check=True).stdout.decode()
    entries = {}
    for line in text.splitlines()[1:]:
        m = re.match(r"^(\S+)(?: \[([^\]]+)\])? /(.*)/$", line)
        if m:
            head, reading, body = m.group(1), m.group(2) or "", m.group(3)
            for key in {head, reading} - {""}:
                entries.setdefault(key, []).append((head, reading, body))
    return entries


def senses(body):
    """EDICT's senses in short: the first two glosses of each, numbered, tags left out."""
    out, current = [], []
    for part in body.split("/"):
        if part in ("(P)", "") or part.startswith("EntL"):
            continue
        if re.match(r"^(\([^)]*\)\s*)*\(\d+\)", part) and current:
            out.append(current)
            current = []
        gloss = re.sub(r"\s+", " ", re.sub(r"\((?:\d+|[a-z0-9,-]+)\)", " ", part)).strip()
        if gloss:
            current.append(gloss)
    if current:
        out.append(current)
    return " ".join(f"({n}) {'/'.join(s[:2])}" for n, s in enumerate(out[:5], 1)) + (" …" if len(out) > 5 else "")


def main():
    seed = int(sys.argv[1])
    entries = edict()
    print(f"Seed {seed}: `python3 scripts/decks/sample-japanese.py {seed}`\n")
    for level in ("n5", "n4", "n3"):
        with open(os.path.join(ROOT, "Decks", f"jlpt-{level}-vocabulary", "items.tsv"), encoding="utf-8") as f:
            rows = list(csv.DictReader(f, delimiter="\t"))
        sample = random.Random(f"{seed}-{level}").sample(rows, 100)
        print(f"## {level.upper()}\n\n| # | word | kana | deck's meaning | EDICT | verdict |\n|---|---|---|---|---|---|")
        for number, row in enumerate(sample, 1):
            word, kana = row["word"].split("/")[0], row["kana"].split(" / ")
            found = [e for e in entries.get(word, []) if e[1] in kana or not e[1]] or entries.get(kana[0], [])
            source = "; ".join(f"{h} [{r}] {senses(b)}" for h, r, b in found[:2]).replace("|", "/") or "—"
            print(f"| {number} | {row['word']} | {row['kana']} | {row['meaning']} | {source} | |")
        print()


if __name__ == "__main__":
    main()
