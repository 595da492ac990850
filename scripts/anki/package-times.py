#!/usr/bin/env python3
"""Times real Anki on the package `maeil bench export.apkg` keeps, for the figures Maeil's are
held against (issue 23's speed targets):

    MAEIL_BENCH_KEEP=/tmp/bench-source.apkg .build/release/maeil bench --filter export
    .build/anki-venv/bin/python scripts/anki/package-times.py /tmp/bench-source.apkg

Anki imports the package (20,000 notes, 100,000 reviews) into a new collection, imports it
again into that collection, exports it as an .apkg with scheduling and as a .colpkg; the best
of three runs of each is printed as JSON, in seconds.
"""
import json
import os
import sys
import tempfile
import time

from anki.collection import Collection, ExportAnkiPackageOptions, ImportAnkiPackageOptions, ImportAnkiPackageRequest

package = sys.argv[1]
options = ImportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True)


def best(run):
    return min(run(index) for index in range(3))


def timed(action):
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def first_import(index):
    col = Collection(os.path.join(tempfile.mkdtemp(), "collection.anki2"))
    seconds = timed(lambda: col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=options)))
    col.close()
    return seconds


folder = tempfile.mkdtemp()
path = os.path.join(folder, "collection.anki2")
col = Collection(path)
col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=options))
figures = {"import": best(first_import),
           "import_again": best(lambda index: timed(lambda: col.import_anki_package(
               ImportAnkiPackageRequest(package_path=package, options=options)))),
           "export_apkg": best(lambda index: timed(lambda: col.export_anki_package(
               out_path=os.path.join(folder, f"out{index}.apkg"),
               options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=False), limit=None))),
           "notes": col.note_count(), "reviews": col.db.scalar("select count() from revlog")}
col.close()


def export_collection(index):
    # Exporting a collection package closes the collection: each run opens it again.
    again = Collection(path)
    return timed(lambda: again.export_collection_package(os.path.join(folder, f"out{index}.colpkg"), include_media=True, legacy=False))


figures["export_colpkg"] = best(export_collection)
print(json.dumps(figures))
