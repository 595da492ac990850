#!/usr/bin/env python3
"""Seeded random review histories and the FSRS memory Anki's own library works out from each
(Tests/MaeilEndToEndTests/MemoryFromLogAgainstAnkiTests.swift):

    memory-histories.py DIR SEED COUNT

makes DIR/collection.anki2 with FSRS on (historical retention 0.85, 0.9 or 0.95) and COUNT cards
in review, each with a review log of every kind Anki writes, in random order: learning, review
and relearning answers, filtered-deck rows with and without a button, set due dates (manual rows
with an SM-2 ease or an FSRS difficulty in the factor column), resets (Forget) and rescheduled
rows; factors of SM-2 (1300 to 3000), of FSRS (100 to 1100) and none (0); several answers a day
and weeks between. It prints one JSON object: Anki's `compute_memory_state` of each card by card
id, [stability, difficulty] or null where Anki finds no memory, and "now" (Unix seconds) it was
worked out at. The time zone is the process's (TZ); the day starts at 0, 4 or 6, and a fifth of
the rows fall on the second it starts.
"""
import json
import os
import random
import sys
import time

from anki.collection import Collection

DAY = 86_400


def history(rng, start, rollover):
    """One card's review-log rows, oldest first: (time in ms, button, ivl, lastIvl, factor, type)."""
    rows, at, interval = [], start, 0
    for _ in range(rng.randint(1, 8)):
        # The same day (minutes later) or days on, at any hour.
        previous = at
        at += rng.choice([rng.randint(60, 3 * 3600), rng.randint(1, 40) * DAY + rng.randint(-6, 6) * 3600])
        if rng.random() < 0.2:
            # On the second the day starts: Anki counts a row's day from its id in whole seconds.
            local = time.localtime(at)
            snapped = int(time.mktime((local.tm_year, local.tm_mon, local.tm_mday, rollover, 0, 0, 0, 0, -1)))
            at = snapped if snapped > previous else snapped + DAY
        kind = rng.choice(["learn", "learn", "review", "review", "review", "relearn", "filtered", "set-due", "reset", "rescheduled"])
        button = rng.randint(1, 4)
        sm2, fsrs = rng.randint(1300, 3000), rng.randint(100, 1100)
        factor = rng.choice([sm2, fsrs, fsrs])
        if kind == "learn":
            row = (button, rng.choice([-600, -3600, -86_400, 1, 2]), rng.choice([0, -60, -600]), rng.choice([0, 0, factor]), 0)
        elif kind == "review":
            new = rng.randint(1, 120)
            row = (button, new, interval or rng.choice([0, 3]), factor, 1)
        elif kind == "relearn":
            row = (button, rng.choice([-600, -86_400, 1]), rng.choice([-600, 0]), factor, 2)
        elif kind == "filtered":
            row = (rng.choice([0, button]), rng.choice([0, 5, -600]), interval, rng.choice([0, factor]), 3)
        elif kind == "set-due":
            row = (0, rng.randint(0, 30), interval, factor, 4)
        elif kind == "reset":
            row = (0, 0, interval, 0, 4)
        else:
            row = (0, rng.randint(1, 30), interval, factor, 5)
        if row[1] > 0:
            interval = row[1]
        rows.append((at * 1000 + rng.randint(0, 999),) + row)
    return rows


def main(folder, seed, count):
    rng = random.Random(int(seed))
    os.makedirs(folder, exist_ok=True)
    col = Collection(os.path.join(folder, "collection.anki2"))
    col.set_config("fsrs", True)
    rollover = rng.choice([0, 4, 6])
    col.set_config("rollover", rollover)
    # Anki's historical retention: where a history cut short starts from SM-2's interval and ease.
    options = col.decks.get_config(1)
    options["sm2Retention"] = rng.choice([0.9, 0.85, 0.95])
    col.decks.update_config(options)
    basic = col.models.by_name("Basic")
    now = int(time.time())
    first = now - 400 * DAY
    cards, used = [], set()
    for index in range(int(count)):
        note = col.new_note(basic)
        note["Front"], note["Back"] = f"front {index}", f"back {index}"
        col.add_note(note, 1)
        cid = note.card_ids()[0]
        rows = history(rng, first + rng.randint(0, 30) * DAY, rollover)
        for at, button, ivl, last, factor, kind in rows:
            while at in used:
                at += 1
            used.add(at)
            col.db.execute("insert into revlog values (?, ?, -1, ?, ?, ?, ?, 4000, ?)", at, cid, button, ivl, last, factor, kind)
        interval = max([row[2] for row in rows if row[2] > 0] or [1])
        col.db.execute("update cards set type = 2, queue = 2, ivl = ?, factor = 2500, due = ?, reps = ? where id = ?",
                       interval, col.sched.today + rng.randint(-20, 20), len(rows), cid)
        cards.append(cid)
    memory = {}
    for cid in cards:
        state = col.compute_memory_state(cid)
        memory[str(cid)] = None if state.stability is None else [state.stability, state.difficulty]
    col.close()
    print(json.dumps({"now": now, "memory": memory}))


if __name__ == "__main__":
    main(*sys.argv[1:4])
