#!/usr/bin/env python3
"""Times Anki's own simulator (fsrs-rs, given the deck's cards as they are) on the deck
`maeil bench --filter million` builds, beside `maeil sim --deck` on the same cards.

    MAEIL_BENCH_KEEP_FOLDER=1 .build/release/maeil bench --filter million
    .build/anki-venv/bin/python scripts/anki/sim-deck-bench.py /tmp/maeil-bench-import-*/million.apkg [DAYS]

fsrs-rs's Python binding simulates new cards only; Anki's backend hands fsrs-rs the cards a
search finds, with their memory states, as `sim --deck` starts from a deck's cards. Anki imports
the package into a new collection, turns FSRS on, and simulates the deck with its own limits
(20 new and 200 reviews a day) twice: the first call also works out every card's memory from its
log, the second is the simulation alone. Prints the seconds of each and the totals simulated.
"""
import os
import sys
import tempfile
import time

from anki import scheduler_pb2
from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

package, days = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 30
col = Collection(os.path.join(tempfile.mkdtemp(), "collection.anki2"))
start = time.perf_counter()
col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=ImportAnkiPackageOptions(with_scheduling=True)))
print(f"anki import of {col.card_count()} cards: {time.perf_counter() - start:.1f} s")
config = col.decks.config_dict_for_deck_id(col.decks.id_for_name("Bench"))
col.set_config("fsrs", True)
request = scheduler_pb2.SimulateFsrsReviewRequest(
    params=config.get("fsrsParams6") or [], desired_retention=config.get("desiredRetention", 0.9), deck_size=col.card_count(),
    days_to_simulate=days, new_limit=config["new"]["perDay"], review_limit=config["rev"]["perDay"], max_interval=config["rev"]["maxIvl"],
    search='deck:"Bench"', new_cards_ignore_review_limit=True)
for call in ("first", "second"):
    start = time.perf_counter()
    result = col._backend.simulate_fsrs_review(request)
    print(f"anki simulate_fsrs_review {days} days, {call} call: {time.perf_counter() - start:.2f} s "
          f"({sum(result.daily_review_count)} reviews, {sum(result.daily_new_count)} new)")
col.close()
