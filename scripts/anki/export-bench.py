#!/usr/bin/env python3
"""Times real Anki exporting the collection `maeil bench export.apkg` exports, for README's figures.

    MAEIL_BENCH_KEEP=/tmp/bench-source.apkg .build/release/maeil bench export.apkg
    .build/anki-venv/bin/python scripts/anki/export-bench.py /tmp/bench-source.apkg

Anki imports the package (20,000 notes, 100,000 reviews) into a new collection, then exports it
as an .apkg with scheduling and media, as `maeil export` does; the best of three runs is printed.
"""
import os
import sys
import tempfile
import time

from anki.collection import Collection, ExportAnkiPackageOptions, ImportAnkiPackageOptions, ImportAnkiPackageRequest

folder = tempfile.mkdtemp()
col = Collection(os.path.join(folder, "collection.anki2"))
col.import_anki_package(ImportAnkiPackageRequest(package_path=sys.argv[1], options=ImportAnkiPackageOptions(with_scheduling=True)))
notes, reviews = col.note_count(), col.db.scalar("select count() from revlog")
best = float("inf")
for run in range(3):
    start = time.perf_counter()
    col.export_anki_package(out_path=os.path.join(folder, f"out{run}.apkg"),
                            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=False),
                            limit=None)
    best = min(best, time.perf_counter() - start)
print(f"anki {notes} notes, {reviews} reviews: export .apkg best of 3 {best:.3f} s")
col.close()
