#!/usr/bin/env python3
"""Anki's load balancer on the same cards Maeil balances (LoadBalanceAgainstAnkiTests).

    load-balance.py PYTHON FOLDER

Anki 26.9.3's backend, with the clock frozen at 2026-01-05 12:00 UTC (the study day starts at
04:00) and fuzz on (no ANKI_TEST_MODE), makes three decks of review cards due today:

- "Spread": 2,000 cards with interval 10 and ease 2.50; answered good, each lands 22–28 days
  out (an interval of 25 and its fuzz range), where 400 other cards are due on each of days
  20–30 (so the days' weights, not only their counts, decide where cards go).
- "Siblings", and "Siblings unburied" with its own preset that buries nothing: 1,400 notes of
  two cards each, the first due today (interval 10), the second due on day 25; the first
  answered good lands beside its sibling or away from it.

Load balancing is on. Each deck is exported before any answer (FOLDER/DECK.apkg, with its
schedule and preset); then every card due today is answered good in Anki, and each one's due
day, counted from today, goes to FOLDER/anki.json by the note's guid and the card's ordinal
(the cards due later only as the cards a sibling was answered beside).
"""
import json
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from answering import answer_next_good  # noqa: E402
from fakeclock import rerun_frozen  # noqa: E402

START = 1767614400  # 2026-01-05 12:00 UTC
DECKS = {"Spread": (2000, False, True), "Siblings": (1400, True, True), "Siblings unburied": (1400, True, False)}
BACKGROUND = {"Spread": (400, range(20, 31))}


def child(folder):
    from anki.collection import Collection, DeckIdLimit, ExportAnkiPackageOptions
    from anki.decks import DeckId

    col = Collection(os.path.join(tempfile.mkdtemp(), "c.anki2"))
    col.set_config("rollover", 4)
    col.load_balancer_enabled = True
    today = col.sched.today
    basic, reversed_ = col.models.by_name("Basic"), col.models.by_name("Basic (and reversed card)")

    def review(card_id, interval, due):
        col.db.execute("update cards set type = 2, queue = 2, ivl = ?, due = ?, factor = 2500, reps = 3, left = 0, mod = ? where id = ?",
                       interval, due, START, card_id)
    for name, (count, siblings, bury) in DECKS.items():
        did = col.decks.id(name)
        config_id = col.decks.add_config_returning_id(name)
        config = col.decks.get_config(config_id)
        config["rev"]["perDay"] = 9999
        config["new"]["perDay"] = 0
        config["new"]["bury"] = bury
        config["rev"]["bury"] = bury
        config["buryInterdayLearning"] = bury
        col.decks.update_config(config)
        col.decks.set_config_id_for_deck_dict(col.decks.get(did), config_id)
        for index in range(count):
            note = col.new_note(reversed_ if siblings else basic)
            note["Front"] = "%s %d" % (name, index)
            note["Back"] = "back %d" % index
            col.add_note(note, did)
            first, *others = sorted(note.cards(), key=lambda card: card.ord)
            for card, interval, due in [(first, 10, today)] + [(other, 40, today + 25) for other in others]:
                review(card.id, interval, due)
        per_day, days = BACKGROUND.get(name, (0, []))
        for day in days:
            for index in range(per_day):
                note = col.new_note(basic)
                note["Front"] = "%s load %d %d" % (name, day, index)
                col.add_note(note, did)
                review(note.cards()[0].id, 40, today + day)
    for name in DECKS:
        did = col.decks.id(name)
        col.export_anki_package(out_path=os.path.join(folder, name + ".apkg"),
                                options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=False, legacy=False),
                                limit=DeckIdLimit(DeckId(did)))
    result = {}
    for name in DECKS:
        did = col.decks.id(name)
        col.decks.select(did)
        answered = []
        while (card := answer_next_good(col)) is not None:
            answered.append(card)
        siblings = [other.id for cid in answered for other in col.get_card(cid).note().cards() if other.id != cid]
        dues = {}
        for cid in answered + siblings:
            card = col.get_card(cid)
            dues["%s/%d" % (card.note().guid, card.ord)] = card.due - today
        result[name] = dues
    with open(os.path.join(folder, "anki.json"), "w") as f:
        json.dump(result, f, sort_keys=True)
    col.close()


if __name__ == "__main__":
    if os.environ.get("MAEIL_CHILD"):
        child(sys.argv[1])
    else:
        rerun_frozen(__file__, [sys.argv[2]], START, sys.argv[1], fuzz=True, TZ="UTC", MAEIL_CHILD="1")
