#!/usr/bin/env python3
"""Seeded random Anki collections for the tests that hold Maeil's collection against Anki's
(Tests/MaeilEndToEndTests/OneCollectionTests.swift). Anki's own backend (the `anki` package that
scripts/setup installs into .build/anki-venv) makes and reads every file:

    seeded.py make DIR ZONE SEED...   one collection per seed, made in time zone ZONE under a
                                      frozen clock: DIR/SEED/collection.anki2, anki.apkg and
                                      anki.colpkg, and DIR/SEED/made.json
    seeded.py study DIR DAYS SEED[:CARD]...
                                      Anki studies each collection SEED on for DAYS more days, moves
                                      one note to another deck, edits and tags the note second in
                                      id order, sets Korean's options to 17 new cards a day, forgets
                                      card CARD (Anki's id) last, and exports DIR/SEED/later.apkg;
                                      what it did, by seed
    seeded.py occlusion DIR           DIR/occlusion.apkg: one image occlusion note of three masks
    seeded.py positions DIR           Anki's new queue of a deck and its subdeck by each card's own
                                      position, for each gather order (`positions`)
    seeded.py read PATH...            the cards and review log of each collection, or of each
                                      package Anki opens in a new collection (a .colpkg replaces
                                      it), by path
    seeded.py set-due PATH AT SPEC... Anki's Set Due Date with each SPEC ("0", "3", "1-7", "5!") on
                                      every card of a copy of PATH at Unix time AT: each card's
                                      type, interval, ease and due date afterwards, by card id
    seeded.py queue PATH AT ORDERS    Anki's study queue of deck Korean in a copy of collection PATH at
                                      Unix time AT, once for each set of display options in the JSON
                                      file ORDERS (set on every preset with its burying switches and
                                      limits by preset name, else lifted; filtered decks emptied
                                      first): the cards in the order Anki
                                      shows them, with what each order sorts by, and
                                      Anki's deck list (each deck's reviews and new cards)
    seeded.py search PATH AT QUERIES  Anki's search of a copy of collection PATH at Unix time AT
                                      (after Anki's deck list, which unburies on a new day): the
                                      ids of the cards each query in the JSON file QUERIES finds
    seeded.py mirror JOBS             for each job of the JSON file JOBS ({"path", "out", "actions"}):
                                      a copy of collection PATH at OUT, on which Anki does each
                                      action at its time (`mirror_action`), read as `read` reads
                                      a collection, by OUT; Anki's .apkg of it beside OUT, mirror.apkg

A seed picks the collection's rollover hour (0, 4 or 6; at 0 the creation time falls at
midnight, as in collections made by older Anki), SM-2 or FSRS, a deck and two subdecks (two of
them sharing options with a third, Unseen, that holds one new card and is not studied when
made; random burial switches), notes of three note types (some marked),
answers over several weeks, forgotten cards (reset rows), set due dates (manual rows),
suspended cards, cards buried by hand and as siblings, flagged cards, cards with custom data,
a deck description, in half the seeds an image occlusion note, notes added last that are
still new or mid-step in learning, a card mid-step in relearning and, in half the seeds, a
filtered deck holding some of them, a deck's limits raised for the last day by custom study,
and a card answered that day moved to another deck. Dates are printed as calendar dates, counted the way Anki counts
them, so a time zone cannot hide a shift. Every command prints one JSON object.

The collections start 60 days before today (UTC); MAEIL_SEEDED_TODAY=YYYY-MM-DD names another
today, so that a failure seen on one day can be run again on the next (a day past the real one
makes times Anki's Check Database finds in the future). A seed and a day make the
same collection every time, whatever the machine's load (but for the notes' guids, which Anki
draws): the clock stands still while it is studied.
"""
import atexit
import datetime
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time

from answering import answer_next
from fakeclock import freeze_clock, rerun_frozen, set_clock, set_clock_exactly

DAY = 86400
WORDS = ["물", "불", "집", "책", "나무", "사과", "학교", "김치", "바다", "하늘", "산", "강", "눈", "비", "꽃", "달", "별", "밥",
         "차", "문", "손", "발", "귀", "코", "입", "길", "돈", "옷", "빵", "술"]


def seeded_start():
    """10:00 UTC, 60 days before today (MAEIL_SEEDED_TODAY, else the clock's)."""
    named = os.environ.get("MAEIL_SEEDED_TODAY")
    today = (datetime.date.fromisoformat(named) - datetime.date(1970, 1, 1)).days if named else int(time.time()) // DAY
    return (today - 60) * DAY + 10 * 3600


def make(folder, zone, *seeds):
    """Re-runs itself in `zone` under libfaketime; the clock starts at `seeded_start()`."""
    start = seeded_start()
    rerun_frozen(__file__, ["make-child", folder, *seeds], start, sys.executable, SEEDED_START=str(start), TZ=zone)


def local_midnight(seconds):
    moment = datetime.datetime.fromtimestamp(seconds).replace(hour=0, minute=0, second=0, microsecond=0)
    return int(moment.timestamp())


def make_child(folder, *seeds):
    from anki.collection import Collection

    clock_file, start = os.environ["MAEIL_CLOCK_FILE"], int(os.environ["SEEDED_START"])
    made = {}
    for seed in seeds:
        rng = random.Random(int(seed))
        freeze_clock(clock_file, start)
        path = os.path.join(folder, seed)
        os.makedirs(path, exist_ok=True)
        col = Collection(os.path.join(path, "collection.anki2"))
        rollover = rng.choice([0, 4, 6])
        col.set_config("rollover", rollover)
        if rollover == 0:
            col.db.execute("update col set crt = ?", local_midnight(col.crt))
        fsrs = rng.random() < 0.5
        col.set_config("fsrs", fsrs)
        decks = [col.decks.id(name) for name in ["Korean", "Korean::Food", "Korean::Phrases"]]
        shared = col.decks.add_config_returning_id("Shared")
        for did in decks[:2]:
            deck = col.decks.get(did)
            col.decks.set_config_id_for_deck_dict(deck, shared)
        # Anki's stock types: a type-in template ({{type:Back}}) and a conditional one (the reverse
        # card only where "Add Reverse" has text: {{#Add Reverse}}…{{/Add Reverse}}).
        types = [col.models.by_name(name) for name in ["Basic", "Basic (and reversed card)", "Cloze", "Basic (type in the answer)",
                                                       "Basic (optional reversed card)"]]
        words = rng.sample(WORDS, rng.randint(10, 20))
        for index, word in enumerate(words):
            model = rng.choice(types)
            note = col.new_note(model)
            if model["name"] == "Cloze":
                note["Text"] = "{{c1::%s}} and {{c2::%s::hint}}" % (word, index)
            else:
                note["Front"], note["Back"] = word, "meaning %d" % index
            if model["name"] == "Basic (optional reversed card)" and rng.random() < 0.5:
                note["Add Reverse"] = "y"
            note.tags = rng.sample(["food", "nature", "basics", "hard"], rng.randint(0, 2)) + (["marked"] if rng.random() < 0.15 else [])
            col.add_note(note, rng.choice(decks))
        if rng.random() < 0.5:
            add_occlusion_note(col, rng.choice(decks), occlusions(rng))
        number_cards_by_template(col)
        # A note's last card moved alone to another deck (Browse › Change Deck), then studied
        # there, as in Anki. A generator of its own keeps the other draws as they were. (A card
        # answered on the last day and moved after is drawn below.)
        split_rng = random.Random(int(seed) * 6700417)
        several = col.db.list("select nid from cards group by nid having count() > 1 order by nid")
        if several and split_rng.random() < 0.5:
            cards = sorted(col.get_note(split_rng.choice(several)).card_ids())
            home = col.get_card(cards[0]).did
            col.set_deck([cards[-1]], split_rng.choice([did for did in decks if did != home]))
        col.decks.select(decks[0])
        answered, last = study(col, rng, clock_file, start, rng.randint(20, 40))
        # A note studied, then deleted: Anki keeps its cards' answers in the review log. A
        # generator of its own keeps the rest of the collection as it was drawn before.
        studied = sorted(col.db.list("select distinct n.id from notes n join cards c on c.nid = n.id join revlog r on r.cid = c.id"))
        if studied:
            col.remove_notes([random.Random(int(seed) * 31337).choice(studied)])
        # Cards whose note no longer gives them, studied: a cloze number taken out, an optional
        # reverse emptied. Anki keeps them, with their answers, until Empty Cards deletes them.
        empty_rng = random.Random(int(seed) * 2750159)
        for kind, model in [("cloze", types[2]), ("reverse", types[4])]:
            candidates = col.db.list("select distinct c.nid from cards c join revlog r on r.cid = c.id join notes n on n.id = c.nid "
                                     "where c.ord = 1 and n.mid = ? order by c.nid", model["id"])
            if candidates and empty_rng.random() < 0.5:
                note = col.get_note(empty_rng.choice(candidates))
                if kind == "cloze":
                    note["Text"] = re.sub(r"\{\{c2::(.*?)(::[^}]*)?\}\}", r"\1", note["Text"])
                else:
                    note["Add Reverse"] = ""
                col.update_note(note)
        # Notes added last are still new: some wait in a filtered deck, their place in the new queue in odue.
        for index, word in enumerate(rng.sample([w for w in WORDS if w not in words], 4)):
            note = col.new_note(types[0])
            note["Front"], note["Back"] = word, "late %d" % index
            col.add_note(note, rng.choice(decks))
        answer_once(col, col.find_cards("late -is:suspended")[:2] + rng.sample(col.find_cards("is:review -is:suspended -is:buried"), 1))
        # A deck never studied, sharing Korean's options: it holds new cards only, and no card of
        # it tells the scheduler (an .apkg leaves FSRS's switch out; Anki takes the collection's).
        unseen = col.decks.id("Korean::Unseen")
        col.decks.set_config_id_for_deck_dict(col.decks.get(unseen), shared)
        note = col.new_note(types[0])
        note["Front"], note["Back"] = rng.choice([w for w in WORDS if w not in words]) + " (unseen)", "unseen"
        col.add_note(note, unseen)
        # A description, as Anki's deck overview shows it: HTML.
        deck = col.decks.get(rng.choice(decks))
        deck["desc"] = rng.choice(["Words for <b>food</b>: 음식 &amp; 밥", "Phrases<br>to say \"hello\""])
        col.decks.save(deck)
        if rng.random() < 0.5:
            filtered = col.decks.new_filtered("Filtered")
            deck = col.decks.get(filtered)
            deck["terms"] = [["is:new", 2, 0]]
            col.decks.save(deck)
            col.sched.rebuild_filtered_deck(filtered)
        # Burial options set after studying: Anki's Python queue does not follow burials it makes itself.
        config = col.decks.get_config(shared)
        config["new"]["bury"], config["rev"]["bury"] = rng.random() < 0.5, rng.random() < 0.5
        config["buryInterdayLearning"] = rng.random() < 0.5
        # Every other option of the shared preset drawn too, once the cards were studied (a generator
        # of their own keeps the collections as they were made before).
        options_rng = random.Random(int(seed) * 15485863)
        new, rev, lapse = config["new"], config["rev"], config["lapse"]
        new["delays"] = options_rng.choice([[1.0, 10.0], [2.0, 15.0, 60.0], [5.0]])
        new["ints"] = [options_rng.randint(1, 3), options_rng.randint(4, 7), 0]
        new["initialFactor"] = options_rng.choice([2100, 2500, 2800])
        rev["ease4"] = options_rng.choice([1.2, 1.3, 1.5])
        rev["hardFactor"] = options_rng.choice([1.1, 1.2])
        rev["ivlFct"] = options_rng.choice([0.9, 1.0, 1.1])
        rev["maxIvl"] = options_rng.choice([365, 3650, 36500])
        lapse["delays"] = options_rng.choice([[10.0], [5.0, 20.0]])
        lapse["mult"] = options_rng.choice([0.0, 0.2, 0.5])
        lapse["minInt"] = options_rng.randint(1, 3)
        lapse["leechFails"] = options_rng.choice([5, 8, 12])
        lapse["leechAction"] = options_rng.choice([0, 1])
        config["desiredRetention"] = options_rng.choice([0.85, 0.9, 0.92])
        config["easyDaysPercentages"] = [options_rng.choice([0.0, 0.5, 1.0]) for _ in range(7)]
        config["maxTaken"] = options_rng.choice([30, 60, 90])
        config["autoplay"], config["replayq"] = options_rng.random() < 0.5, options_rng.random() < 0.5
        config["timer"] = options_rng.choice([0, 1])
        config["newMix"], config["interdayLearningMix"] = options_rng.randint(0, 2), options_rng.randint(0, 2)
        config["reviewOrder"] = options_rng.randint(0, 8)
        config["newGatherPriority"], config["newSortOrder"] = options_rng.randint(0, 5), options_rng.randint(0, 4)
        if options_rng.random() < 0.5:
            config["ignoreRevlogsBeforeDate"] = "2025-01-0%d" % options_rng.randint(1, 9)
        config["questionAction"], config["answerAction"] = options_rng.randint(0, 1), options_rng.randint(0, 3)
        config["secondsToShowQuestion"], config["secondsToShowAnswer"] = options_rng.choice([0.0, 5.0]), options_rng.choice([0.0, 3.0])
        config["waitForAudio"], config["stopTimerOnAnswer"] = options_rng.random() < 0.5, options_rng.random() < 0.5
        config["newPerDayMinimum"] = options_rng.choice([0, 5])
        if options_rng.random() < 0.5:
            config["addon:seeded"] = {"preset": True, "n": options_rng.randint(1, 99)}
        col.decks.update_config(config)
        # Limits outside the options: each deck's own ("This deck", "Today only") and the
        # collection's rules for counting them. A generator of their own keeps the rest as it was.
        limits_rng = random.Random(int(seed) * 7919)
        for did in decks + [unseen]:
            deck = col.decks.get(did)
            deck["newLimit"], deck["reviewLimit"] = [limits_rng.choice([None, None, limits_rng.randint(3, 30)]) for _ in range(2)]
            for key in ["newLimitToday", "reviewLimitToday"]:
                if limits_rng.random() < 0.3:
                    deck[key] = {"limit": limits_rng.randint(3, 30), "today": col.sched.today}
            col.decks.save(deck)
        col.set_config("newCardsIgnoreReviewLimit", limits_rng.random() < 0.5)
        col.set_config("applyAllParentLimits", limits_rng.random() < 0.5)
        # Settings of the collection's that Maeil has no use for, and a key of an add-on's: kept whole.
        config_rng = random.Random(int(seed) * 104729)
        for did in decks + [unseen]:
            deck = col.decks.get(did)
            deck["collapsed"], deck["browserCollapsed"] = config_rng.random() < 0.5, config_rng.random() < 0.5
            deck["extendNew"], deck["extendRev"] = config_rng.choice([0, 0, 5, 20]), config_rng.choice([0, 0, 10, 50])
            if config_rng.random() < 0.5:
                deck["addon:seeded"] = {"deck": deck["name"], "n": config_rng.randint(1, 99)}
            col.decks.save(deck)
        col.set_config("sortType", config_rng.choice(["noteFld", "noteCrt", "cardDue", "noteMod"]))
        col.set_config("sortBackwards", config_rng.random() < 0.5)
        col.set_config("collapseTime", config_rng.choice([600, 1200, 2400]))
        col.set_config("addon:seeded", {"seed": int(seed), "words": ["김치", "밥"], "ratio": round(config_rng.random(), 3)})
        # Custom study's "increase today's limit" on a deck, and a card answered on the last day
        # moved to another deck after: Anki counts both below its log (the answer in the deck the
        # card was in). A generator of its own keeps the rest as it was.
        custom_rng = random.Random(int(seed) * 1299709)
        if custom_rng.random() < 0.5:
            col.decks.select(custom_rng.choice(decks))
            col.sched.extend_limits(custom_rng.randint(1, 5), custom_rng.randint(0, 5))
        answered_today = sorted(col.find_cards("rated:1 -deck:Filtered"))
        if answered_today and custom_rng.random() < 0.5:
            card = col.get_card(custom_rng.choice(answered_today))
            col.set_deck([card.id], custom_rng.choice([did for did in decks if did != card.did]))
        made[seed] = {"rollover": rollover, "fsrs": fsrs, "answers": answered, "last": last, "crt": col.crt,
                      "creation_offset": col.get_config("creationOffset", None)}
        export(col, path)
        col.close()
        with open(os.path.join(path, "made.json"), "w") as f:
            json.dump(made[seed], f)
    print(json.dumps(made))


# A 1×1 PNG: the picture an image occlusion note covers.
PICTURE = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000001e221bc330000000049454e44ae426082")


def occlusions(rng):
    """Two to four masks of Anki's kinds at random places, one of them sometimes two shapes."""
    masks = []
    for number in range(1, rng.randint(2, 4) + 1):
        left, top = round(rng.random() * 0.7, 4), round(rng.random() * 0.7, 4)
        shape = rng.choice(["rect", "ellipse", "polygon", "text"])
        if shape == "polygon":
            spec = "polygon:points=%s,%s %s,%s %s,%s" % (left, top, left + 0.2, top, left + 0.1, top + 0.2)
        elif shape == "text":
            spec = "text:left=%s:top=%s:text=%s:scale=1:fs=.05" % (left, top, rng.choice(WORDS))
        else:
            spec = "%s:left=%s:top=%s:width=.2:height=.1" % (shape, left, top)
        masks.append("{{c%d::image-occlusion:%s:oi=1}}" % (number, spec))
    return "<br>".join(masks)


def add_occlusion_note(col, deck_id, occlusion, header="", name="picture.png"):
    """An image occlusion note as Anki's editor makes one: the stock note type, the picture in
    the media folder, the masks as clozes of shapes."""
    if not col.models.by_name("Image Occlusion"):
        col._backend.add_image_occlusion_notetype()
    with open(os.path.join(col.media.dir(), name), "wb") as f:
        f.write(PICTURE)
    note = col.new_note(col.models.by_name("Image Occlusion"))
    note["Occlusion"], note["Image"], note["Header"], note["Back Extra"] = occlusion, '<img src="%s">' % name, header, "extra"
    col.add_note(note, deck_id)


def occlusion(folder):
    """occlusion.apkg in FOLDER: one image occlusion note of three masks, a rectangle, an
    ellipse and a text, under the header "The heart"."""
    from anki.collection import Collection

    col = Collection(os.path.join(folder, "occlusion.anki2"))
    add_occlusion_note(col, 1, "{{c1::image-occlusion:rect:left=.1:top=.2:width=.3:height=.1:oi=1}}<br>"
                               "{{c2::image-occlusion:ellipse:left=.5:top=.5:width=.2:height=.2:oi=1}}<br>"
                               "{{c3::image-occlusion:text:left=.6:top=.1:text=Aorta:scale=1:fs=.05:oi=1}}", header="The heart", name="heart.png")
    export(col, folder, "occlusion")
    col.close()
    print(json.dumps({"package": os.path.join(folder, "occlusion.apkg")}))


ANSWER_SECONDS = 7


def number_cards_by_template(col):
    """Anki numbers a cloze or image occlusion note's cards in a hash set's order, which changes
    from run to run (and with it which card a queue shows first, and so every answer after).
    Renumbered in template order, a seed makes the same collection every time."""
    for (nid,) in col.db.all("select distinct nid from cards"):
        rows = col.db.all("select id, ord from cards where nid = ? order by id", nid)
        ids, by_template = [row[0] for row in rows], [row[0] for row in sorted(rows, key=lambda row: row[1])]
        if ids == by_template:
            continue
        for cid in ids:
            col.db.execute("update cards set id = ? where id = ?", -cid, cid)
        for new, old in zip(ids, by_template):
            col.db.execute("update cards set id = ? where id = ?", new, -old)


def study(col, rng, clock_file, start, days, first_day=0):
    """Answers what is due a few times a day; now and then forgets a card, sets a due date,
    suspends or buries one. Returns the answers given and the time of the last burials."""
    answered = 0
    for day in range(first_day, first_day + days):
        for hour in sorted(rng.sample(range(0, 24), 3)):
            # Each answer 7 s after the last, on a stopped clock: the same seed, the same collection.
            now = start + day * DAY + hour * 3600 + rng.randint(0, 3599 - 8 * ANSWER_SECONDS)
            for _ in range(rng.randint(2, 8)):
                freeze_clock(clock_file, now)
                if not answer_next(col, rng):
                    break
                answered += 1
                now += ANSWER_SECONDS
            cards = col.find_cards("")
            roll = rng.random()
            if roll < 0.04:
                col.sched.schedule_cards_as_new([rng.choice(cards)], restore_position=True, reset_counts=False)
            elif roll < 0.08:
                # A range's day Anki would draw itself: drawn here, so the seed decides it.
                spec = rng.choice(["0", "1", "2-5", "3!"])
                col.sched.set_due_date([rng.choice(cards)], str(rng.randint(2, 5)) if spec == "2-5" else spec)
    # After every answer above (the last day's run up to its final second): time never goes back.
    last = start + (first_day + days) * DAY
    freeze_clock(clock_file, last)
    # Anki's deck list first, as a person opening Anki sees it: on a new day it unburies
    # what earlier days buried, never what is buried after it.
    col.sched.deck_due_tree()
    cards = col.find_cards("")
    chosen = rng.sample(cards, min(6, len(cards)))
    col.sched.suspend_cards(chosen[:1])
    col.sched.bury_cards(chosen[1:2], manual=True)
    col.sched.bury_cards(chosen[5:6], manual=False)
    # One flag of each third of Anki's seven, so every seed holds each kind of flag a search asks for.
    for cid, flag in zip(chosen[2:5], [rng.randint(1, 3), rng.randint(4, 5), rng.randint(6, 7)]):
        col.set_user_flag_for_cards(flag, [cid])
    # Custom data, as custom scheduling code keeps it on a card: numbers, quotes, Hangul.
    for cid in rng.sample(cards, min(3, len(cards))):
        card = col.get_card(cid)
        card.custom_data = json.dumps(rng.choice([{"n": rng.randint(0, 99)}, {"v": rng.random()},
                                                  {"t": "물 \"%d\" \\ 불" % rng.randint(0, 9), "n": first_day + days}]), ensure_ascii=False)
        col.update_card(card)
    return answered, last


def answer_once(col, cards):
    """Again to the first card, Good to the second, Again to the third: cards left mid-step,
    in learning and relearning, when the collection is read."""
    from anki.scheduler.v3 import CardAnswer

    for cid, rating in zip(cards, [CardAnswer.AGAIN, CardAnswer.GOOD, CardAnswer.AGAIN]):
        card = col.get_card(cid)
        card.start_timer()
        states = col._backend.get_scheduling_states(cid)
        col.sched.answer_card(col.sched.build_answer(card=card, states=states, rating=rating))


def export(col, path, name="anki"):
    from anki.collection import ExportAnkiPackageOptions

    col.export_anki_package(out_path=os.path.join(path, name + ".apkg"),
                            options=ExportAnkiPackageOptions(with_scheduling=True, with_deck_configs=True, with_media=True, legacy=False),
                            limit=None)
    if name == "anki":
        col.export_collection_package(os.path.join(path, name + ".colpkg"), include_media=True, legacy=False)


def study_more(folder, days, *specs):
    """Each `seed` or `seed:forget` (a card id) studies on for `days` in one run: a process
    each cost more than the study itself in a suite of hundreds of seeds."""
    start = seeded_start()
    rerun_frozen(__file__, ["study-child", folder, days, *specs], start, sys.executable, SEEDED_START=str(start))


def study_child(folder, days, *specs):
    clock_file, start = os.environ["MAEIL_CLOCK_FILE"], int(os.environ["SEEDED_START"])
    studied = {}
    for spec in specs:
        seed, _, forget = spec.partition(":")
        # Each collection opens on the clock its own run would have had.
        set_clock(clock_file, start)
        studied[seed] = study_one(folder, seed, int(days), forget or None, clock_file, start)
    print(json.dumps(studied))


def study_one(folder, seed, days, forget, clock_file, start):
    from anki.collection import Collection

    rng = random.Random(int(seed) + 1)
    path = os.path.join(folder, seed)
    col = Collection(os.path.join(path, "collection.anki2"))
    col.decks.select(col.decks.id("Korean"))
    answered, _ = study(col, rng, clock_file, start, days, first_day=45)
    # A note moved to another deck, as Browse › Change Deck does it: every card of it.
    note = col.get_note(rng.choice(col.find_notes("-deck:filtered")))
    home = col.decks.name(note.cards()[0].did)
    target = rng.choice([name for name in ["Korean", "Korean::Food", "Korean::Phrases"] if name != home])
    col.set_deck(note.card_ids(), col.decks.id(target))
    # The note second in id order edited and tagged, after Maeil edited it: Anki's is newer.
    edited = col.get_note(sorted(col.find_notes(""))[1])
    edited.fields[0] = "edited in Anki later"
    edited.add_tag("anki-edit")
    col.update_note(edited)
    # Korean's options changed: 17 new cards a day.
    config = col.decks.config_dict_for_deck_id(col.decks.id("Korean"))
    config["new"]["perDay"] = 17
    col.decks.update_config(config)
    # Forgotten last, as Forget in Browse does it (counts kept): nothing Anki does after says more.
    if forget:
        col.sched.schedule_cards_as_new([int(forget)], restore_position=True, reset_counts=False)
    export(col, path, "later")
    col.close()
    return {"answers": answered, "moved": {"guid": note.guid, "from": home, "to": target}}


def scratch_folder():
    """A folder of this process's own, removed when it exits."""
    folder = tempfile.mkdtemp()
    atexit.register(shutil.rmtree, folder, True)
    return folder


def open_any(path):
    """A collection, or a new one that has imported the package (a .colpkg replaces it)."""
    from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

    if path.endswith(".anki2"):
        return Collection(path)
    target = os.path.join(scratch_folder(), "collection.anki2")
    col = Collection(target)
    if path.endswith(".colpkg"):
        media_folder, media_db = col.media.dir(), target.replace(".anki2", ".media.db2")
        col.close(downgrade=False)
        col._backend.import_collection_package(col_path=target, backup_path=os.path.abspath(path),
                                               media_folder=media_folder, media_db=media_db)
        return Collection(target)
    col.import_anki_package(ImportAnkiPackageRequest(package_path=path, options=ImportAnkiPackageOptions(
        with_scheduling=True, with_deck_configs=True)))
    return col


def read(*paths):
    print(json.dumps({path: read_one(path) for path in paths}, ensure_ascii=False))


def read_one(path):
    result = read_one_open(open_any(path))
    result["check_database"], result["check_changed"] = check_database(result.pop("col"))
    return result


def check_database(col):
    """Anki's Check Database, and the cards whose data it changed."""
    data = dict(col.db.all("select id, data from cards"))
    check = col.fix_integrity()[0]
    changed = {str(cid): [data.get(cid), after] for cid, after in col.db.all("select id, data from cards") if data.get(cid) != after}
    col.close()
    return check, changed


def read_one_open(col):
    offset = col.get_config("creationOffset", None)
    if offset is None:
        offset = -int(datetime.datetime.now().astimezone().utcoffset().total_seconds()) // 60
    created = (datetime.datetime.fromtimestamp(col.crt, datetime.timezone.utc) - datetime.timedelta(minutes=offset)).date()
    cards = {}
    for cid in col.find_cards(""):
        card = col.get_card(cid)
        note = card.note()
        due = card.odue if card.odid else card.due
        by_day = card.type == 2 or card.queue == 3 or (card.queue in (-1, -2, -3) and card.type in (1, 3) and due < 1_000_000_000)
        memory = card.memory_state
        cards["%s/%d" % (note.guid, card.ord)] = {
            "id": cid, "note_id": note.id, "type": card.type, "new_position": (card.odue if card.odid else card.due) if card.type == 0 else None, "queue": card.queue, "interval": card.ivl, "ease": card.factor,
            "reps": card.reps, "lapses": card.lapses, "flags": card.flags, "deck": col.decks.name(card.odid or card.did),
            "due_date": (created + datetime.timedelta(days=due)).isoformat() if by_day and card.type != 0 else None,
            "due_at": due if card.type in (1, 3) and not by_day else None,
            "stability": round(memory.stability, 4) if memory else None, "difficulty": round(memory.difficulty, 3) if memory else None,
            "fields": note.fields, "tags": sorted(note.tags), "note_mod": note.mod, "mod": card.mod, "custom_data": card.custom_data,
            "original_position": card.original_position,
            "filtered": bool(card.odid),
            # The card's data as Anki keeps it (FSRS's memory, decay and retention, last review, position…).
            "data": json.loads(col.db.scalar("select data from cards where id = ?", cid) or "{}"),
            "revlog": [list(row) for row in col.db.all(
                "select id, ease, ivl, lastIvl, factor, time, type from revlog where cid = ? order by id", cid)],
        }
    decks = {}
    for entry in col.decks.all_names_and_ids():
        if entry.name == "Default" and not col.find_cards("deck:Default -deck:Default::*") or col.decks.is_filtered(entry.id):
            continue
        conf = col.decks.config_dict_for_deck_id(entry.id)
        deck = col.decks.get(entry.id)

        def today_only(key):
            limit = deck.get(key)
            return limit["limit"] if limit and limit.get("today") == col.sched.today else None
        # The rest of the deck as Anki's legacy JSON, but for what changes with each save and each
        # day (its counts of the day, and a day limit's day counted from the creation date).
        rest = {key: value for key, value in deck.items() if key not in (
            "mod", "usn", "newToday", "revToday", "lrnToday", "timeToday", "newLimitToday", "reviewLimitToday")}
        # Its options as Anki holds them, every key but when they were saved.
        options = {key: value for key, value in conf.items() if key not in ("mod", "usn")}
        decks[entry.name] = {"id": entry.id, "description": deck.get("desc", ""), "rest": rest, "options": options,
                             "config_id": conf["id"], "config_name": conf["name"], "bury_new": conf["new"]["bury"],
                             "bury_reviews": conf["rev"]["bury"], "bury_interday": conf.get("buryInterdayLearning", False),
                             "limits": [deck.get("newLimit"), deck.get("reviewLimit"), today_only("newLimitToday"), today_only("reviewLimitToday")]}
    options = col.decks.get_deck_configs_for_update(1)
    # The collection's config, but for what a file made at another time or place says of when it
    # was made and when Anki last unburied (day numbers from the creation date) or looked at it.
    config = {key: value for key, value in col.all_config().items()
              if key not in ("creationOffset", "localOffset", "lastUnburied", "nextPos", "curDeck", "activeDecks")}
    # Answers of cards that are gone (their notes deleted), by card id: Anki keeps them.
    gone = {}
    for row in col.db.all("select cid, id, ease, ivl, lastIvl, factor, time, type from revlog where cid not in (select id from cards) order by cid, id"):
        gone.setdefault(str(row[0]), []).append(list(row[1:]))
    # Each note type some note uses, by name: what Anki shows of it (its style, fields and cards).
    note_types = {}
    for model in col.models.all():
        if col.db.scalar("select exists (select 1 from notes where mid = ?)", model["id"]):
            note_types[model["name"]] = {"id": model["id"], "css": model["css"], "fields": [field["name"] for field in model["flds"]],
                                         "templates": [[template["name"], template["qfmt"], template["afmt"]] for template in model["tmpls"]]}
    return {"cards": cards, "gone_revlog": gone, "decks": decks, "note_types": note_types, "config": config, "rollover": col.get_config("rollover", 4), "fsrs": col.get_config("fsrs", False), "today": col.sched.today,
            "created": created.isoformat(), "limit_rules": [options.new_cards_ignore_review_limit, options.apply_all_parent_limits], "col": col}


def set_due(path, at, *specs):
    rerun_frozen(__file__, ["set-due-child", path, *specs], int(at), sys.executable)


def set_due_child(path, *specs):
    from anki.collection import Collection

    result = {}
    for spec in specs:
        copy = os.path.join(scratch_folder(), "collection.anki2")
        shutil.copy(path, copy)
        col = Collection(copy)
        col.sched.deck_due_tree()
        col.sched.set_due_date(col.find_cards(""), spec)
        cards = read_one_open(col)["cards"]
        result[spec] = {str(card["id"]): {key: card[key] for key in ["type", "queue", "interval", "ease", "due_date"]} for card in cards.values()}
        col.close()
    print(json.dumps(result))


def queue(path, at, orders):
    rerun_frozen(__file__, ["queue-child", path, orders], int(at), sys.executable)


def queue_child(path, orders):
    """For each options set: Anki's queue (card ids, first to last, with the queue each is in) and
    the cards intraday learning holds for later (due past the learn-ahead limit), which Anki's
    queue leaves out. Every card is given what the orders sort by, so a test can hold another
    queue against this one where Anki breaks ties at random."""
    from anki.collection import Collection

    with open(orders) as f:
        options = json.load(f)
    result = []
    for option in options:
        copy = os.path.join(scratch_folder(), "collection.anki2")
        shutil.copy(path, copy)
        col = Collection(copy)
        for deck in col.decks.all_names_and_ids():
            if col.decks.is_filtered(deck.id):
                col.sched.empty_filtered_deck(deck.id)
        for config in col.decks.all_config():
            config.update({key: option[key] for key in ["newMix", "interdayLearningMix", "reviewOrder", "newGatherPriority", "newSortOrder"]})
            config["new"]["perDay"], config["rev"]["perDay"] = option.get("limits", {}).get(config["name"], [9999, 9999])
            config["new"]["bury"], config["rev"]["bury"] = option.get("buryNew", False), option.get("buryReviews", False)
            config["buryInterdayLearning"] = option.get("buryInterday", False)
            col.decks.update_config(config)
        # The collection's rules for limits, and limits of a deck's own ("This deck", "Today only").
        col.set_config("newCardsIgnoreReviewLimit", option.get("ignoreReviews", False))
        col.set_config("applyAllParentLimits", option.get("allParents", False))
        korean = col.decks.id("Korean")
        food = col.decks.get(col.decks.id("Korean::Food"))
        food["newLimit"], food["reviewLimit"] = option.get("foodLimits", [None, None])
        col.decks.save(food)
        deck = col.decks.get(korean)
        for key, limit in zip(["newLimitToday", "reviewLimitToday"], option.get("koreanToday", [None, None])):
            deck[key] = None if limit is None else {"limit": limit, "today": col.sched.today}
        col.decks.save(deck)
        col.decks.select(col.decks.id(option.get("studied", "Korean")))
        col.sched.deck_due_tree()
        queued = col.sched.get_queued_cards(fetch_limit=5000).cards
        names = sorted(name for name in (d.name for d in col.decks.all_names_and_ids()) if name == "Korean" or name.startswith("Korean::"))
        cutoff = int(time.time()) + col.get_preferences().scheduling.learn_ahead_secs
        later = [cid for cid in col.find_cards("deck:Korean is:learn") if col.get_card(cid).queue == 1 and col.get_card(cid).due > cutoff]
        facts = {}
        for cid in col.find_cards("deck:Korean"):
            card = col.get_card(cid)
            memory = card.memory_state
            facts[str(cid)] = {"queue": card.queue, "due": card.due, "ivl": card.ivl, "factor": card.factor, "ord": card.ord, "nid": card.nid,
                               "deck": names.index(col.decks.name(card.did)) if col.decks.name(card.did) in names else -1,
                               "difficulty": memory.difficulty if memory else None}
        # Anki's deck list: each deck's reviews and new cards as reviewing it would show them.
        tree = {}

        def walk(node, prefix):
            name = prefix + node.name
            if name:
                tree[name] = [node.review_count, node.new_count]
            for child in node.children:
                walk(child, name + "::" if name else "")
        walk(col.sched.deck_due_tree(), "")
        result.append({"queue": [[entry.card.id, entry.queue] for entry in queued], "later": later, "facts": facts,
                       "today": col.sched.today, "deck_list": tree})
        col.close()
    print(json.dumps(result))


def search(path, at, queries):
    rerun_frozen(__file__, ["search-child", path, queries], int(at), sys.executable)


def search_child(path, queries):
    from anki.collection import Collection

    copy = os.path.join(scratch_folder(), "collection.anki2")
    shutil.copy(path, copy)
    col = Collection(copy)
    col.sched.deck_due_tree()
    with open(queries) as f:
        found = {query: sorted(col.find_cards(query)) for query in json.load(f)}
    col.close()
    print(json.dumps(found, ensure_ascii=False))


def mirror(jobs):
    with open(jobs) as f:
        first = min((action["at"] for job in json.load(f) for action in job["actions"]), default=int(time.time()))
    # Fuzz on: Maeil fuzzes as Anki does (by card id and reps), and balances the load as Anki does.
    rerun_frozen(__file__, ["mirror-child", jobs], first, sys.executable, fuzz=True)


def mirror_child(jobs):
    from anki.collection import Collection

    clock_file = os.environ["MAEIL_CLOCK_FILE"]
    result = {}
    with open(jobs) as f:
        for job in json.load(f):
            shutil.copy(job["path"], job["out"])
            set_clock_exactly(clock_file, job["actions"][0]["at"])
            col = Collection(job["out"])
            added = {}
            for action in job["actions"]:
                set_clock_exactly(clock_file, action["at"])
                mirror_action(col, action, added)
            # Anki's own .apkg of its copy: what an .apkg of Maeil's is held against.
            export(col, os.path.dirname(job["out"]), "mirror")
            found = read_one_open(col)
            found["check_database"], found["check_changed"] = check_database(found.pop("col"))
            if "text" in job:
                found["text"] = text_into_copy(job["path"], job["text"])
            result[job["out"]] = found
    print(json.dumps(result, ensure_ascii=False))


def text_into_copy(path, text):
    """Maeil's text export imported by Anki into a copy of the collection it came from, as
    Anki's Import File does (notes matched by the guid column, updated): each note's fields and
    tags afterwards, by guid, and what the import said."""
    from anki.collection import Collection
    from anki.import_export_pb2 import ImportCsvRequest

    copy = os.path.join(scratch_folder(), "collection.anki2")
    shutil.copy(path, copy)
    col = Collection(copy)
    log = col.import_csv(ImportCsvRequest(path=text, metadata=col.get_csv_metadata(path=text, delimiter=None))).log
    notes = {}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        notes[note.guid] = {"fields": note.fields, "tags": sorted(note.tags)}
    col.close()
    return {"notes": notes, "updated": len(log.updated), "new": len(log.new), "conflicting": len(log.conflicting),
            "missing_notetype": len(log.missing_notetype)}


def mirror_action(col, action, added):
    """One thing a person does in Anki, as Anki's screens do it. `added`: the cards of the note
    added, by ordinal, for the answers that name them so."""
    from anki.scheduler.v3 import CardAnswer

    kind = action["do"]
    if kind == "open":
        # The deck list, as a person opening Anki sees it first: on a new day it unburies.
        col.sched.deck_due_tree()
    elif kind in ("edit", "tag", "star"):
        note = col.get_note(action["note"])
        if kind == "edit":
            note.fields[action["field"]] = action["value"]
        else:
            note.add_tag(action.get("tag", "marked"))
        col.update_note(note)
    elif kind == "flag":
        col.set_user_flag_for_cards(action["flag"], [action["card"]])
    elif kind == "suspend":
        col.sched.suspend_cards(col.get_note(action["note"]).card_ids())
    elif kind == "forget":
        # The Forget dialog as it opens: back to its old place in the new queue, counts kept.
        col.sched.schedule_cards_as_new([action["card"]], restore_position=True, reset_counts=False)
    elif kind == "set-due":
        col.sched.set_due_date([action["card"]], action["days"])
    elif kind == "move":
        col.set_deck(col.get_note(action["note"]).card_ids(), col.decks.id_for_name(action["deck"]))
    elif kind == "unsuspend":
        col.sched.unsuspend_cards(col.get_note(action["note"]).card_ids())
    elif kind == "unbury":
        col.sched.unbury_cards(col.get_note(action["note"]).card_ids())
    elif kind == "delete":
        col.remove_notes([action["note"]])
    elif kind == "add":
        note = col.new_note(col.models.get(action["notetype"]))
        for index, value in enumerate(action["fields"][:len(note.fields)]):
            note.fields[index] = value
        col.add_note(note, col.decks.id_for_name(action["deck"]))
        added.update({card.ord: card.id for card in note.cards()})
    elif kind == "options":
        config = col.decks.config_dict_for_deck_id(col.decks.id_for_name(action["deck"]))
        config["new"]["perDay"] = action["new_per_day"]
        col.decks.update_config(config)
    elif kind == "answer":
        card = col.get_card(action["card"] if "card" in action else added[action["added_ordinal"]])
        card.start_timer()
        states = col._backend.get_scheduling_states(card.id)
        rating = [CardAnswer.AGAIN, CardAnswer.HARD, CardAnswer.GOOD, CardAnswer.EASY][action["rating"] - 1]
        col.sched.answer_card(col.sched.build_answer(card=card, states=states, rating=rating))
    else:
        raise ValueError("no such action: " + kind)


def positions(folder):
    """Anki's new queue across a deck and its subdeck, by each card's own position: notes added
    to Korean and Korean::Sub in turn (Maeil's import numbers them deck by deck), a note of two
    cards, and a card answered and forgotten to the end of the new queue (its sibling keeps its
    place). One collection for each new-card gather order (0 deck, 1 ascending and 2 descending
    position): DIR/GATHER.colpkg, and the id of every card Anki shows from Korean, in order."""
    from anki.collection import Collection

    shown = {}
    for gather in [0, 1, 2]:
        path = os.path.join(folder, "positions-%d.anki2" % gather)
        col = Collection(path)
        korean, sub = col.decks.id("Korean"), col.decks.id("Korean::Sub")
        basic, reversed_ = col.models.by_name("Basic"), col.models.by_name("Basic (and reversed card)")
        for index, did in enumerate([korean, sub, korean, sub, sub, korean]):
            note = col.new_note(reversed_ if index == 2 else basic)
            note["Front"], note["Back"] = "w%d" % index, "b%d" % index
            col.add_note(note, did)
        config = col.decks.config_dict_for_deck_id(korean)
        config["newGatherPriority"] = gather
        config["new"]["perDay"] = 50
        col.decks.update_config(config)
        first, second = [col.find_cards("Front:w0")[0], sorted(col.find_cards("Front:w2"))[0]]
        col.sched.schedule_cards_as_new([first, second], restore_position=False, reset_counts=False)
        col.decks.select(korean)
        cards = col.sched.get_queued_cards(fetch_limit=50).cards
        shown[str(gather)] = [c.card.id for c in cards]
        col.export_collection_package(os.path.join(folder, "%d.colpkg" % gather), include_media=False, legacy=False)
        col.close()
    print(json.dumps(shown))


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    {"make": make, "make-child": make_child, "study": study_more, "study-child": study_child, "read": read,
     "search": search, "search-child": search_child, "queue": queue, "queue-child": queue_child, "set-due": set_due, "set-due-child": set_due_child,
     "mirror": mirror, "mirror-child": mirror_child,
     "occlusion": occlusion, "positions": positions}[command](*arguments)
