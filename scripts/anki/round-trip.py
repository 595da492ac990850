#!/usr/bin/env python3
"""Anki's side of Maeil's round-trip tests (Tests/MaeilEndToEndTests/AnkiRoundTripTests.swift).

Anki's own backend (the `anki` package from PyPI, installed by scripts/setup into
.build/anki-venv) writes the collections Maeil imports and reads what Maeil exports:

    round-trip.py make DIR            two collections made by Anki over 36 days (a frozen clock
                                      moved day by day with libfaketime), exported by Anki:
                                      DIR/sm2.apkg (SM-2 deck "Korean": HTML, a cloze note, an
                                      image, a sound, tags, a suspended and a buried card) and
                                      DIR/fsrs.apkg (FSRS deck "Japanese", retention 0.85, its own
                                      parameters); 150 reviews in all
    round-trip.py update DIR NAME PKG Anki imports Maeil's package into collection NAME ("sm2" or
                                      "fsrs") with "update notes: always"
    round-trip.py replace DIR NAME PKG Anki replaces collection NAME with Maeil's collection package
    round-trip.py import-text DIR TXT  a new Anki collection imports Maeil's text export
    round-trip.py dump DIR NAME       the collection's cards, review log and Check Database result
    round-trip.py split DIR           a collection DIR/split whose notes' cards are in two decks:
                                      Browse › Change Deck on reverse cards, and a card type's deck
                                      override; exported as DIR/split.apkg and DIR/split.colpkg
    round-trip.py move-back DIR       in DIR/split, one of those cards changed back to its note's
                                      deck; exported as DIR/split-again.apkg
    round-trip.py custom-study DIR SEED
                                      two decks sharing tight limits, studied up to them today,
                                      a card answered today moved to the other deck, then each
                                      deck's limit raised for today by custom study; exported
                                      as DIR/custom-SEED.colpkg
    round-trip.py decks PKG           a new collection imports PKG (a .colpkg replaces it): each
                                      card's deck ("guid ord"), Anki's deck list and Check
                                      Database's result

Every command prints one JSON object. Times are the test's: TZ and the real clock, except in make.
"""
import json
import os
import random
import sys
import tempfile
import time

from answering import answer_next, answer_next_good
from fakeclock import rerun_frozen, set_clock

DAY = 86400
DAYS = 36
REVIEWS = {"sm2": 90, "fsrs": 60}
# FSRS-6 parameters far enough from Anki's defaults that a deck using the defaults shows.
FSRS_PARAMS = [0.3, 1.4, 3.0, 12.0, 6.8, 0.6, 2.1, 0.01, 1.6, 0.2, 0.9, 1.9, 0.12, 0.28, 2.2, 0.2, 2.9, 0.5, 0.3, 0.1, 0.2]


def make(folder):
    """Re-runs itself under libfaketime, the clock starting DAYS days ago at noon UTC."""
    start = (int(time.time()) // DAY - DAYS) * DAY + 12 * 3600
    rerun_frozen(__file__, ["make-child", folder], start, sys.executable, ROUND_TRIP_START=str(start))


def make_child(folder):
    from anki.collection import Collection, ExportAnkiPackageOptions

    clock_file, start = os.environ["MAEIL_CLOCK_FILE"], int(os.environ["ROUND_TRIP_START"])
    summary = {}
    for name in ["sm2", "fsrs"]:
        set_clock(clock_file, start)
        os.makedirs(os.path.join(folder, name), exist_ok=True)
        col = Collection(os.path.join(folder, name, "collection.anki2"))
        basic, reversed_ = col.models.by_name("Basic"), col.models.by_name("Basic (and reversed card)")

        def add(model, fields, tags, deck):
            note = col.new_note(model)
            for key, value in fields.items():
                note[key] = value
            note.tags = tags
            col.add_note(note, deck)
            return note

        if name == "sm2":
            deck = col.decks.id("Korean")
            picture = os.path.join(folder, "dot.png")
            with open(picture, "wb") as f:
                f.write(bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000"
                                      "1f15c4890000000d49444154789c6360000002000105fe02fea70000000049454e44ae426082"))
            sound = os.path.join(folder, "hello.mp3")
            with open(sound, "wb") as f:
                f.write(b"ID3\x03\x00\x00\x00\x00\x00\x00" + bytes(64))
            col.media.add_file(picture)
            col.media.add_file(sound)
            add(reversed_, {"Front": "<b>김치</b>", "Back": "kimchi <i>(fermented cabbage)</i>"}, ["food", "spicy"], deck)
            add(basic, {"Front": "물", "Back": "water"}, ["basics"], deck)
            add(basic, {"Front": "<u>불</u>", "Back": "fire"}, ["basics"], deck)
            add(reversed_, {"Front": "학교", "Back": "school"}, ["places"], deck)
            add(col.models.by_name("Cloze"), {"Text": "{{c1::서울}} is the capital of {{c2::Korea}}", "Back Extra": "수도"},
                ["places", "cloze"], deck)
            add(basic, {"Front": "사진", "Back": 'photo <img src="dot.png">'}, ["media"], deck)
            add(basic, {"Front": "안녕하세요 [sound:hello.mp3]", "Back": "hello"}, ["media", "phrases"], deck)
            add(basic, {"Front": "<ruby>漢字<rt>한자</rt></ruby>", "Back": "Chinese characters"}, ["words"], deck)
            for front, back in [("사과", "apple"), ("책", "book"), ("집", "house"), ("나무", "tree")]:
                add(basic, {"Front": front, "Back": back}, ["words"], deck)
        else:
            deck = col.decks.id("Japanese")
            col.set_config("fsrs", True)
            config_id = col.decks.add_config_returning_id("Japanese FSRS")
            config = col.decks.get_config(config_id)
            config["desiredRetention"] = 0.85
            config["fsrsParams6"] = FSRS_PARAMS
            col.decks.update_config(config)
            deck_dict = col.decks.get(deck)
            col.decks.set_config_id_for_deck_dict(deck_dict, config_id)
            for word, meaning in [("食[た]べる", "to eat"), ("飲[の]む", "to drink"), ("見[み]る", "to see"), ("行[い]く", "to go"),
                                  ("来[く]る", "to come"), ("水[みず]", "water"), ("山[やま]", "mountain"), ("川[かわ]", "river"),
                                  ("<b>大[おお]きい</b>", "big"), ("小[ちい]さい", "small"),
                                  ("花[はな]", "flower"), ("雨[あめ]", "rain"), ("本[ほん]", "book"), ("<i>書[か]く</i>", "to write"),
                                  ("話[はな]す", "to speak")]:
                add(basic, {"Front": word, "Back": meaning}, ["jlpt", "n5"], deck)

        rng = random.Random(12 if name == "sm2" else 34)
        col.decks.select(deck)
        answered = 0
        for day in range(DAYS):
            for hour in range(0, 8):
                set_clock(clock_file, start + day * DAY + hour * 1800)
                while answered < REVIEWS[name] and answer_next(col, rng):
                    answered += 1
        set_clock(clock_file, start + (DAYS - 1) * DAY + 6 * 3600)
        cards = col.find_cards("")
        if name == "sm2":
            col.sched.suspend_cards([cards[1]])
            col.sched.bury_cards([cards[2]])
        col.export_anki_package(out_path=os.path.join(folder, name + ".apkg"),
                                options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True,
                                                                 legacy=False), limit=None)
        summary[name] = {"notes": col.note_count(), "cards": col.card_count(), "reviews": col.db.scalar("select count() from revlog")}
        col.close()
    print(json.dumps(summary))


def open_collection(folder, name):
    from anki.collection import Collection
    return Collection(os.path.join(folder, name, "collection.anki2"))


def update(folder, name, package):
    from anki.collection import ImportAnkiPackageOptions, ImportAnkiPackageRequest
    from anki.import_export_pb2 import ImportAnkiPackageUpdateCondition as Condition

    col = open_collection(folder, name)
    options = ImportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, merge_notetypes=False,
                                       update_notes=Condition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_ALWAYS,
                                       update_notetypes=Condition.IMPORT_ANKI_PACKAGE_UPDATE_CONDITION_IF_NEWER)
    log = col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=options)).log
    result = {"new": len(log.new), "updated": len(log.updated), "duplicate": len(log.duplicate),
              "conflicting": len(log.conflicting), "first_field_match": len(log.first_field_match),
              "missing_notetype": len(log.missing_notetype), "missing_deck": len(log.missing_deck), "empty_first_field": len(log.empty_first_field)}
    col.close()
    print(json.dumps(result))


def replace_collection(path, package):
    """The collection at PATH replaced by the collection package PACKAGE, as Anki's File ›
    Import replaces it: decks, and their counts of the day, as the package has them."""
    from anki.collection import Collection

    col = Collection(path)
    media_folder, media_db = col.media.dir(), path.replace(".anki2", ".media.db2")
    col.close(downgrade=False)
    col._backend.import_collection_package(col_path=path, backup_path=os.path.abspath(package),
                                           media_folder=media_folder, media_db=media_db)


def replace(folder, name, package):
    replace_collection(os.path.join(folder, name, "collection.anki2"), package)
    print(json.dumps({"replaced": True}))


def import_text(folder, text):
    from anki.collection import Collection

    from anki.import_export_pb2 import ImportCsvRequest

    os.makedirs(os.path.join(folder, "text"), exist_ok=True)
    col = Collection(os.path.join(folder, "text", "collection.anki2"))
    metadata = col.get_csv_metadata(path=text, delimiter=None)
    request = ImportCsvRequest(path=text, metadata=metadata)
    log = col.import_csv(request).log
    result = {"new": len(log.new), "updated": len(log.updated), "duplicate": len(log.duplicate), "conflicting": len(log.conflicting),
              "missing_notetype": len(log.missing_notetype), "missing_deck": len(log.missing_deck),
              "empty_first_field": len(log.empty_first_field), "notes": col.note_count(), "cards": col.card_count(),
              "note_types": sorted(m["name"] for m in col.models.all()), "decks": sorted(d.name for d in col.decks.all_names_and_ids())}
    col.close()
    print(json.dumps(result))


def sort_fields_anki_would_change(folder, name):
    """Notes whose sort field or checksum (as the package wrote them) Anki would compute
    otherwise: on a copy of the collection, every note is saved by Anki and compared."""
    import shutil
    from anki.collection import Collection

    copy = tempfile.mkdtemp()
    shutil.copy(os.path.join(folder, name, "collection.anki2"), os.path.join(copy, "collection.anki2"))
    col = Collection(os.path.join(copy, "collection.anki2"))
    stored = {row[0]: (row[1], row[2]) for row in col.db.all("select id, sfld, csum from notes")}
    for nid in stored:
        note = col.get_note(nid)
        note.fields[0] += " "
        col.update_note(note)
        note.fields[0] = note.fields[0][:-1]
        col.update_note(note)
    recomputed = {row[0]: (row[1], row[2]) for row in col.db.all("select id, sfld, csum from notes")}
    col.close()
    return sum(1 for nid in stored if stored[nid] != recomputed[nid])


def dump(folder, name):
    changed = sort_fields_anki_would_change(folder, name)
    col = open_collection(folder, name)
    today = col.sched.today
    cards = []
    for cid in col.find_cards(""):
        card = col.get_card(cid)
        note = card.note()
        due = card.odue if card.odid else card.due
        memory = card.memory_state
        cards.append({
            "guid": note.guid, "ordinal": card.ord, "type": card.type, "queue": card.queue, "interval": card.ivl,
            # Review cards are due on a day (counted from today); learning cards at a second.
            "due_in_days": due - today if card.type == 2 or card.queue == 3 else None,
            "due_at": due if card.queue in (1, 4) or (card.type in (1, 3) and card.queue != 3 and due > 1_000_000_000) else None,
            "ease": card.factor, "lapses": card.lapses, "reps": card.reps,
            "stability": round(memory.stability, 4) if memory else None, "difficulty": round(memory.difficulty, 3) if memory else None,
            "desired_retention": card.desired_retention, "deck": col.decks.name(card.did),
            "fields": note.fields, "note_type": note.note_type()["name"], "tags": sorted(note.tags),
            "reviews": col.db.scalar("select count() from revlog where cid = ?", cid),
        })
    # The deck list as Anki shows it today: what it counts as studied today is in it.
    due_tree = deck_counts(col)
    problems, _ = col.fix_integrity()
    media = col.media.check()
    decks = {}
    for entry in col.decks.all_names_and_ids():
        conf = col.decks.config_dict_for_deck_id(entry.id)
        deck = col.decks.get(entry.id)

        def studied(key):
            day, amount = deck.get(key, [0, 0])
            return amount if day == today else 0
        decks[entry.name] = {"desired_retention": conf.get("desiredRetention"), "fsrs_params": conf.get("fsrsParams6"),
                             "new_per_day": conf["new"]["perDay"], "reviews_per_day": conf["rev"]["perDay"],
                             "steps": conf["new"]["delays"], "relearning_steps": conf["lapse"]["delays"],
                             "studied_today": {"new": studied("newToday"), "review": studied("revToday"), "milliseconds": studied("timeToday")},
                             "due_tree": due_tree.get(entry.name)}
    result = {"sort_fields_anki_would_change": changed, "fsrs": bool(col.get_config("fsrs", False)), "notes": col.note_count(), "reviews": col.db.scalar("select count() from revlog"),
              "cards": cards, "check_database": problems, "media_missing": list(media.missing), "media_unused": list(media.unused),
              "media_files": sorted(os.listdir(col.media.dir())), "decks": decks, "today": today}
    col.close()
    print(json.dumps(result, ensure_ascii=False))


def deck_counts(col):
    """Anki's deck list today, by deck name: its new, review and learning counts."""
    counts = {}

    def walk(node, prefix):
        name = prefix + node.name
        if name:
            counts[name] = {"new": node.new_count, "review": node.review_count, "learning": node.learn_count}
        for child in node.children:
            walk(child, name + "::" if name else "")
    walk(col.sched.deck_due_tree(), "")
    return counts


def card_decks(col):
    return {"%s %d" % (col.get_note(col.get_card(cid).nid).guid, col.get_card(cid).ord): col.decks.name(col.get_card(cid).did)
            for cid in col.find_cards("")}


def export_split(col, folder, name):
    from anki.collection import ExportAnkiPackageOptions

    col.export_anki_package(out_path=os.path.join(folder, name + ".apkg"), limit=None, options=ExportAnkiPackageOptions(
        with_scheduling=True, with_deck_configs=True, with_media=False, legacy=False))


def split(folder):
    from anki.collection import Collection

    os.makedirs(os.path.join(folder, "split"), exist_ok=True)
    col = Collection(os.path.join(folder, "split", "collection.anki2"))
    words, reverse = col.decks.id("Words"), col.decks.id("Words::Reverse")
    for number in range(3):
        note = col.new_note(col.models.by_name("Basic (and reversed card)"))
        note["Front"], note["Back"] = "front %d" % number, "back %d" % number
        col.add_note(note, words)
        col.set_deck([note.card_ids()[1]], reverse)
    model = col.models.copy(col.models.by_name("Basic (and reversed card)"), add=False)
    model["name"] = "Reversed elsewhere"
    model["tmpls"][1]["did"] = col.decks.id("Words::Elsewhere")
    col.models.add_dict(model)
    note = col.new_note(col.models.by_name("Reversed elsewhere"))
    note["Front"], note["Back"] = "front elsewhere", "back elsewhere"
    col.add_note(note, words)
    export_split(col, folder, "split")
    col.close()
    col = Collection(os.path.join(folder, "split", "collection.anki2"))
    decks = card_decks(col)
    col.export_collection_package(os.path.join(folder, "split.colpkg"), include_media=False, legacy=False)
    print(json.dumps({"decks": decks}))


def move_back(folder):
    from anki.collection import Collection

    col = Collection(os.path.join(folder, "split", "collection.anki2"))
    moved = sorted(col.find_cards('"deck:Words::Reverse" -"deck:Words::Reverse::*"'))[0]
    col.set_deck([moved], col.decks.id("Words"))
    export_split(col, folder, "split-again")
    decks = card_decks(col)
    col.close()
    print(json.dumps({"decks": decks}))


def custom_study(folder, seed):
    """Two decks sharing tight daily limits, studied today up to them in Anki; one card answered
    today moved to the other deck; then custom study's "increase today's limit" on each deck
    (sizes by SEED). Exported as DIR/custom-SEED.colpkg; prints Anki's deck list."""
    from anki.collection import Collection

    rng = random.Random(int(seed))
    os.makedirs(os.path.join(folder, "custom-" + seed), exist_ok=True)
    col = Collection(os.path.join(folder, "custom-" + seed, "collection.anki2"))
    top, sub = col.decks.id("Study"), col.decks.id("Study::More")
    config = col.decks.config_dict_for_deck_id(top)
    config["new"]["perDay"], config["rev"]["perDay"] = rng.randint(1, 3), rng.randint(2, 4)
    col.decks.update_config(config)
    for deck, name in ((top, "study"), (sub, "more")):
        cards = []
        for number in range(8):
            note = col.new_note(col.models.by_name("Basic"))
            note["Front"], note["Back"] = "%s %d" % (name, number), "back %d" % number
            col.add_note(note, deck)
            cards += note.card_ids()
        col.sched.set_due_date(cards[:5], "0")
    # Studied up to the limits, Good every time, as far as Anki shows cards.
    for deck in (top, sub):
        col.decks.select(deck)
        for _ in range(60):
            if answer_next_good(col) is None:
                break
    moved = sorted(col.find_cards('deck:Study -deck:Study::More rated:1'))[:1]
    col.set_deck(moved, sub)
    extended = {}
    for deck, name in ((sub, "Study::More"), (top, "Study")):
        col.decks.select(deck)
        extended[name] = [rng.randint(0, 3), rng.randint(0, 3)]
        col.sched.extend_limits(*extended[name])
    counts = deck_counts(col)
    # Exporting a collection package closes the collection.
    col.export_collection_package(os.path.join(folder, "custom-%s.colpkg" % seed), include_media=False, legacy=False)
    print(json.dumps({"counts": counts, "extended": extended, "moved": len(moved)}))


def decks(package):
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    path = os.path.join(tempfile.mkdtemp(), "collection.anki2")
    if package.endswith(".colpkg"):
        replace_collection(path, package)
        col = Collection(path)
    else:
        col = Collection(path)
        col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=ImportAnkiPackageOptions(
            with_scheduling=True, with_deck_configs=True)))
    counts = deck_counts(col)
    problems, _ = col.fix_integrity()
    result = {"decks": card_decks(col), "check": problems, "counts": counts}
    col.close()
    print(json.dumps(result))


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    {"make": make, "make-child": make_child, "update": update, "replace": replace, "import-text": import_text, "dump": dump,
     "split": split, "move-back": move_back, "custom-study": custom_study, "decks": decks}[command](*arguments)
