#!/usr/bin/env python3
"""Anki's own FSRS optimizer on a collection Anki studied (OptimizerAgainstAnkiTests).

    optimizer-anki.py PYTHON FOLDER SEED

Anki 26.9.3's backend, its clock frozen and moved day by day (libfaketime), studies a deck for
a simulated learner: new cards come in each day, every card the queue shows is answered (its
learning steps too), recalled or not as the learner's own memory says (FSRS-6 with parameters
of its own, not Anki's defaults). Then Anki fits FSRS to the deck's reviews as its deck options
do (compute_fsrs_params), and the deck is exported with its review log (FOLDER/fit.apkg). The
fitted parameters and the number of reviews go to FOLDER/anki.json.
"""
import json
import math
import os
import random
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakeclock import rerun_frozen, set_clock  # noqa: E402

START = 1735732800  # 2025-01-01 12:00 UTC
DAY = 86400
DAYS = 100
NEW_PER_DAY = 10
# The learner's true memory: FSRS-6, far enough from the defaults that a fit has to move.
TRUTH = [0.3, 0.9, 1.8, 6.0, 6.8, 0.7, 2.5, 0.01, 1.6, 0.2, 0.9, 1.7, 0.08, 0.3, 1.5, 0.5, 2.2, 0.4, 0.2, 0.1, 0.25]


def initial_difficulty(w, g):
    return w[4] - math.exp(w[5] * (g - 1)) + 1


class Memory:
    """The learner's true memory of one card (FSRS-6)."""

    def __init__(self, w, first):
        self.w = w
        self.s = w[first - 1]
        self.d = min(max(initial_difficulty(w, first), 1), 10)
        self.last = None

    def recall(self, elapsed_days):
        w = self.w
        factor = 0.9 ** (-1 / w[20]) - 1
        return (1 + factor * elapsed_days / self.s) ** (-w[20])

    def answer(self, g, elapsed_days):
        w = self.w
        if elapsed_days < 1:
            self.s *= math.exp(w[17] * (g - 3 + w[18])) * self.s ** (-w[19])
        else:
            r = self.recall(elapsed_days)
            if g == 1:
                self.s = min(w[11] * self.d ** (-w[12]) * ((self.s + 1) ** w[13] - 1) * math.exp(w[14] * (1 - r)),
                             self.s / math.exp(w[17] * w[18]))
            else:
                hard = w[15] if g == 2 else 1
                easy = w[16] if g == 4 else 1
                self.s *= 1 + math.exp(w[8]) * (11 - self.d) * self.s ** (-w[9]) * (math.exp(w[10] * (1 - r)) - 1) * hard * easy
        self.s = min(max(self.s, 0.001), 36500)
        d = self.d - w[6] * (g - 3) * (10 - self.d) / 9
        d = w[7] * initial_difficulty(w, 4) + (1 - w[7]) * d
        self.d = min(max(d, 1), 10)


def child(folder, seed):
    from anki.collection import Collection, DeckIdLimit, ExportAnkiPackageOptions
    from anki.decks import DeckId
    from anki.scheduler.v3 import CardAnswer

    rng = random.Random(seed)
    clock_file = os.environ["MAEIL_CLOCK_FILE"]
    answers = {1: CardAnswer.AGAIN, 2: CardAnswer.HARD, 3: CardAnswer.GOOD, 4: CardAnswer.EASY}
    col = Collection(os.path.join(tempfile.mkdtemp(), "c.anki2"))
    col.set_config("rollover", 4)
    col.set_config("fsrs", True)
    did = col.decks.id("Fit")
    config = col.decks.config_dict_for_deck_id(did)
    config["new"]["perDay"] = NEW_PER_DAY
    config["rev"]["perDay"] = 9999
    col.decks.update_config(config)
    basic = col.models.by_name("Basic")
    for index in range(NEW_PER_DAY * DAYS):
        note = col.new_note(basic)
        note["Front"] = "card %d" % index
        note["Back"] = "back %d" % index
        col.add_note(note, did)
    col.decks.select(did)
    memories = {}
    for day in range(DAYS):
        seconds = 0
        now = START + day * DAY
        set_clock(clock_file, now)
        while True:
            queued = col.sched.get_queued_cards(fetch_limit=1).cards
            if not queued:
                break
            card = col.get_card(queued[0].card.id)
            memory = memories.get(card.id)
            elapsed = 0 if memory is None else (now + seconds - memory.last) / DAY
            if memory is None:
                grade = rng.choices([1, 2, 3, 4], weights=[0.25, 0.1, 0.5, 0.15])[0]
                memory = memories[card.id] = Memory(TRUTH, grade)
            else:
                recalled = rng.random() < memory.recall(elapsed)
                grade = rng.choices([2, 3, 4], weights=[0.2, 0.65, 0.15])[0] if recalled else 1
                memory.answer(grade, elapsed)
            memory.last = now + seconds
            card.start_timer()
            col.sched.answer_card(col.sched.build_answer(card=card, states=queued[0].states, rating=answers[grade]))
            # Learning steps come back within the learn-ahead limit: a day's answers are all
            # given at its noon (the learner's memory sees them apart by a few minutes).
            seconds += rng.randint(60, 900)
    fitted = col._backend.compute_fsrs_params(search="deck:Fit", current_params=[], ignore_revlogs_before_ms=0,
                                              num_of_relearning_steps=1, health_check=False)
    col.export_anki_package(out_path=os.path.join(folder, "fit.apkg"),
                            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=False, legacy=False),
                            limit=DeckIdLimit(DeckId(did)))
    with open(os.path.join(folder, "anki.json"), "w") as f:
        json.dump({"params": list(fitted.params), "fsrs_items": fitted.fsrs_items,
                   "reviews": col.db.scalar("select count() from revlog")}, f)
    col.close()


if __name__ == "__main__":
    if os.environ.get("MAEIL_CHILD"):
        child(sys.argv[1], int(sys.argv[2]))
    else:
        rerun_frozen(__file__, [sys.argv[2], sys.argv[3]], START, sys.argv[1], TZ="UTC", MAEIL_CHILD="1")
