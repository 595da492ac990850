#!/usr/bin/env python3
"""Anki's own client, standing in for a phone in the tests that sync Maeil through Anki's sync
server (Tests/MaeilEndToEndTests/SyncTests.swift). Every command logs in, syncs as Anki's
client does, and prints one JSON object:

    phone.py download DIR ENDPOINT USER PASSWORD   a new, empty collection DIR/phone.anki2 syncs
                                                   (a full download), is read as seeded.py reads
                                                   one, checked with Check Database, and every
                                                   card Anki queues today is answered once
    phone.py upload PATH ENDPOINT USER PASSWORD    the collection at PATH syncs, choosing upload
                                                   when a full sync is needed
    phone.py sync PATH ENDPOINT USER PASSWORD      the collection at PATH syncs; what the server
                                                   asked for ("required") is printed, nothing more done
    phone.py change PATH ENDPOINT USER PASSWORD    on the collection at PATH: a note added, one edited,
                                                   one moved to another deck, one deleted, Korean's
                                                   options set to 17 new cards a day; then a normal
                                                   sync; prints the notes' guids
    phone.py move PATH ENDPOINT USER PASSWORD GUID DECK [first|last]
                                                   on the collection at PATH: the cards of note GUID
                                                   (or its first or last card alone) moved to deck
                                                   DECK, as Browse › Change Deck moves them (the
                                                   note row stays as it was); then a normal sync
    phone.py custom PATH ENDPOINT USER PASSWORD make|empty|delete [LIMIT]
                                                   on the collection at PATH: custom study (a filtered
                                                   deck of LIMIT cards) made, emptied or deleted; then
                                                   a normal sync; prints the cards it moved
    phone.py edit PATH ENDPOINT USER PASSWORD GUID TEXT TAG
                                                   on the collection at PATH: note GUID's first field
                                                   gets TEXT after it and the note the tag TAG; then
                                                   a normal sync; prints the note's fields and tags
    phone.py add PATH ENDPOINT USER PASSWORD DECK FRONT BACK
                                                   on the collection at PATH: a Basic note added to
                                                   DECK; then a normal sync; prints its guid and its
                                                   note's and card's ids
    phone.py delete PATH ENDPOINT USER PASSWORD GUID
                                                   on the collection at PATH: note GUID deleted;
                                                   then a normal sync; prints its id and its cards'
    phone.py bury PATH ENDPOINT USER PASSWORD GUID  note GUID's first card buried by hand, from the
                                                   deck list; then a normal sync; prints its id
    phone.py empty-card PATH ENDPOINT USER PASSWORD CARD
                                                   on the collection at PATH: the fields only card
                                                   CARD's front shows emptied, then Tools › Empty
                                                   Cards deletes the cards left blank; then a normal
                                                   sync; prints the cards deleted and those its note
                                                   has left
    phone.py delete-deck PATH ENDPOINT USER PASSWORD DECK
                                                   on the collection at PATH: deck DECK deleted
                                                   with its cards (and the notes whose last cards
                                                   they were), as Anki's deck list deletes it; then
                                                   a normal sync; prints the cards deleted
    phone.py delete-card PATH CARD                 on the collection at PATH, no sync: card CARD
                                                   deleted alone, whatever its front shows (as a
                                                   script can; its note goes too where it was the
                                                   last); prints the cards its note has left
    phone.py answer PATH ENDPOINT USER PASSWORD GUID...
                                                   on the collection at PATH: the cards of the notes
                                                   GUID made due today and answered Good, no other
                                                   card touched; then a normal sync; prints the
                                                   review-log ids added
    phone.py study PATH ENDPOINT USER PASSWORD DECK NEW REVIEWS
                                                   on the collection at PATH: DECK's options set to
                                                   NEW new cards and REVIEWS reviews a day more than
                                                   it counted today, and every card Anki shows in
                                                   DECK answered Good; then a normal sync; prints
                                                   the guid of a note answered today in DECK itself
    phone.py answer-new PATH ENDPOINT USER PASSWORD DECK COUNT
                                                   on the collection at PATH: COUNT of the new
                                                   cards Anki shows in DECK answered Good, the
                                                   limits as they are; then a normal sync
    phone.py extend PATH ENDPOINT USER PASSWORD DECK NEW REVIEWS
                                                   on the collection at PATH: custom study raises
                                                   DECK's limits for today by NEW new cards and
                                                   REVIEWS reviews; then a normal sync
    phone.py busy PATH ENDPOINT USER PASSWORD SEED  on the collection at PATH, what a day on the bus
                                                   does, chosen at random from SEED: cards of a deck
                                                   or two studied, notes edited, tagged, added,
                                                   deleted and moved, cards flagged, suspended,
                                                   buried, forgotten and set due; then a normal
                                                   sync; prints what it did and the review-log ids
                                                   added
    phone.py deck-list PATH                        Anki's deck list of the collection at PATH, no
                                                   sync: {deck: [reviews, new cards, and its
                                                   counters: reviews and new cards answered today]}
    phone.py buried PATH                           the ids of the cards Anki shows buried at PATH once
                                                   its deck list has unburied what a new day brings
    phone.py config PATH ENDPOINT USER PASSWORD [KEY=JSON]...
                                                   the collection's config at PATH gets each KEY
                                                   set to the JSON value, then a normal sync;
                                                   prints the whole config after it
    phone.py deck PATH ENDPOINT USER PASSWORD DECK [KEY=JSON]...
                                                   the deck DECK at PATH gets each KEY of its
                                                   legacy JSON set, then a normal sync; prints
                                                   the deck's legacy JSON after it
    phone.py preset PATH ENDPOINT USER PASSWORD DECK [KEY=JSON]...
                                                   the options DECK uses at PATH get each KEY of
                                                   their legacy JSON set, then a normal sync
    phone.py new-options PATH ENDPOINT USER PASSWORD DECK NAME [KEY=JSON]...
                                                   options named NAME made at PATH (Anki's defaults,
                                                   each KEY of their new cards' part set) and given
                                                   to DECK, then a normal sync; prints their id
    phone.py restyle PATH ENDPOINT USER PASSWORD TYPE CSS [FRONT]
                                                   note type TYPE at PATH gets CSS after its style
                                                   and, given FRONT, its first card's question made
                                                   FRONT; then a normal sync
    phone.py new-type PATH ENDPOINT USER PASSWORD TYPE DECK FRONT BACK
                                                   a note type TYPE made at PATH (Basic copied, with
                                                   a style of its own) and a note of it added to
                                                   DECK; then a normal sync; prints their ids
    phone.py note-type PATH TYPE                   note type TYPE at PATH: its id, style and first
                                                   card's question
    phone.py options PATH DECK                     the options DECK uses at PATH: new cards and
                                                   reviews a day, and their legacy JSON whole
    phone.py add-field PATH ENDPOINT USER PASSWORD  Basic gets a field "Notes" (a schema change: the
                                                   sync that follows is a full one, uploaded)
    phone.py differs BASE COLPKG                   Maeil's sync base BASE against its whole collection
                                                   COLPKG (a .colpkg Maeil exported): the cards and
                                                   notes whose columns a sync compares differ, which
                                                   the next sync that exports them sends as changed
    phone.py media PATH ENDPOINT USER PASSWORD [add:NAME:TEXT | delete:NAME]...
                                                   the media folder of PATH changes as listed (a
                                                   deletion through Anki's own trash), then media
                                                   syncs; prints each file's SHA-1 by name
    phone.py serve                                 each line of standard input a JSON array of one
                                                   of the commands above and its arguments; each
                                                   answer one line, {"error": …} for one that failed
"""
import hashlib
import json
import os
import random
import sys
import time

from answering import answer_next, answer_next_good
from seeded import read_one_open


def opened(path):
    """The collection at PATH as a person opens Anki to study: at its deck list, which on a new
    day first unburies the cards buried on an earlier one (Anki does it there, not where it
    queues cards, and marks no card changed for it). Answered without it, a card buries its
    siblings on a day Anki has not yet unburied, and the next deck list unburies them again."""
    from anki.collection import Collection

    col = Collection(path)
    col.sched.deck_due_tree()
    return col


def synced(path, endpoint, user, password, upload):
    from anki.collection import Collection

    col = Collection(path)
    auth = col.sync_login(user, password, endpoint)
    out = col.sync_collection(auth, False)
    required = out.required
    if required in (out.FULL_SYNC, out.FULL_DOWNLOAD, out.FULL_UPLOAD) and upload is not None:
        col.close_for_full_sync()
        col.full_upload_or_download(auth=auth, server_usn=out.server_media_usn, upload=upload)
        col.reopen(after_full_sync=True)
    return col, required


def sync_open(col, endpoint, user, password):
    """A normal sync of the open collection; what the server asked for."""
    auth = col.sync_login(user, password, endpoint)
    return col.sync_collection(auth, False).required


def set_keys(target, settings):
    """Each KEY=JSON of `settings` set on the dict `target`; whether there were any."""
    for setting in settings:
        key, value = setting.split("=", 1)
        target[key] = json.loads(value)
    return bool(settings)


def download(folder, endpoint, user, password):
    col, required = synced(os.path.join(folder, "phone.anki2"), endpoint, user, password, upload=False)
    read = read_one_open(col)
    read.pop("col")
    counts = {table: col.db.scalar(f"select count() from {table}") for table in ("notes", "cards", "revlog")}
    check = col.fix_integrity()[0]
    # Studied from the deck list, as a person opens Anki (`opened`). Anki queues the current
    # deck's cards: each deck in turn, so every card due today is shown.
    col.sched.deck_due_tree()
    rng, answered = random.Random(7), 0
    for deck in col.decks.all_names_and_ids():
        col.decks.select(deck.id)
        while answered < 10_000 and answer_next(col, rng):
            answered += 1
    # What Anki has left for today in each deck once it was all studied: new, learning, review.
    today = {}
    for deck in col.decks.all_names_and_ids():
        col.decks.select(deck.id)
        today[deck.name] = list(col.sched.counts())
    col.close()
    return {"required": required, "counts": counts, "check_database": check, "answered": answered, "read": read, "today": today}


def upload(path, endpoint, user, password):
    col, required = synced(path, endpoint, user, password, upload=True)
    counts = {table: col.db.scalar(f"select count() from {table}") for table in ("notes", "cards", "revlog")}
    col.close()
    return {"required": required, "counts": counts}


def sync(path, endpoint, user, password):
    import sqlite3

    def schema():
        with sqlite3.connect(path) as db:
            return db.execute("select scm from col").fetchone()[0]

    before = schema()
    col, required = synced(path, endpoint, user, password, upload=None)
    col.close()
    # Anki marks its schema changed when the sync's sanity check fails: the next sync is a full one.
    return {"required": required, "schema_changed": schema() != before}


def change(path, endpoint, user, password):
    from anki.collection import Collection

    col = Collection(path)
    decks = [deck for deck in col.decks.all_names_and_ids() if col.find_cards(f'"deck:{deck.name}" -deck:filtered')]
    notes = [col.get_note(nid) for nid in sorted(col.find_notes(""))]
    home = col.decks.name(col.get_card(notes[0].card_ids()[0]).did)
    added = col.new_note(col.models.by_name("Basic"))
    added["Front"], added["Back"] = "폰", "added on the phone"
    col.add_note(added, col.decks.id_for_name(home))
    edited = notes[0]
    edited.fields[0] += " (edited on the phone)"
    col.update_note(edited)
    moved = notes[1]
    target = next(deck for deck in decks if deck.name != col.decks.name(col.get_card(moved.card_ids()[0]).did))
    col.set_deck(moved.card_ids(), target.id)
    deleted = notes[2]
    col.remove_notes([deleted.id])
    # Korean's options changed: 17 new cards a day.
    config = col.decks.config_dict_for_deck_id(col.decks.id_for_name("Korean"))
    config["new"]["perDay"] = 17
    col.decks.update_config(config)
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "added": added.guid, "edited": [edited.guid, edited.fields[0]], "moved": [moved.guid, target.name],
            "deleted": deleted.guid}


def move(path, endpoint, user, password, guid, deck, which="all"):
    from anki.collection import Collection

    col = Collection(path)
    cards = col.db.list("select c.id from cards c join notes n on n.id = c.nid where n.guid = ? order by c.ord", guid)
    cards = {"first": cards[:1], "last": cards[-1:]}.get(which, cards)
    col.set_deck(cards, col.decks.id_for_name(deck))
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "moved": len(cards)}


def custom(path, endpoint, user, password, action, limit="4"):
    """Custom study as a learner does it on a phone: "make" a filtered deck of LIMIT cards (Anki
    moves them in and keeps their home deck), "empty" it (the cards go home) or "delete" it (the
    same, and the deck goes); then a normal sync."""
    from anki.collection import Collection

    col = Collection(path)
    filtered = [deck.id for deck in col.decks.all_names_and_ids() if col.decks.is_filtered(deck.id)]
    if action == "make":
        deck = col.sched.get_or_create_filtered_deck(0)
        deck.name = "Custom study session"
        deck.config.search_terms[0].search = "-is:suspended -is:buried"
        deck.config.search_terms[0].limit = int(limit)
        del deck.config.search_terms[1:]  # a new filtered deck comes with a second filter, of everything
        made = col.sched.add_or_update_filtered_deck(deck).id
        moved = col.find_cards(f"did:{made}")
    elif action == "empty":
        moved = col.find_cards(f"did:{filtered[0]}")
        col.sched.empty_filtered_deck(filtered[0])
    else:
        moved = col.find_cards(f"did:{filtered[0]}")
        col.decks.remove([filtered[0]])
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "cards": sorted(moved)}


def edit(path, endpoint, user, password, guid, text, tag):
    from anki.collection import Collection

    col = Collection(path)
    note = col.get_note(col.db.scalar("select id from notes where guid = ?", guid))
    note.fields[0] += text
    note.add_tag(tag)
    col.update_note(note)
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "fields": note.fields, "tags": note.tags}


def delete(path, endpoint, user, password, guid):
    from anki.collection import Collection

    col = Collection(path)
    note = col.db.scalar("select id from notes where guid = ?", guid)
    cards = col.db.list("select id from cards where nid = ?", note)
    col.remove_notes([note])
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "note": note, "cards": cards}


def bury(path, endpoint, user, password, guid):
    """Note GUID's first card buried (the reviewer's Bury Card), from the deck list; then a
    normal sync."""
    col = opened(path)
    card = col.db.scalar("select c.id from cards c join notes n on n.id = c.nid where n.guid = ? order by c.ord limit 1", guid)
    col.sched.bury_cards([card], manual=True)
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "card": card}


def delete_deck(path, endpoint, user, password, name):
    from anki.collection import Collection

    col = Collection(path)
    deck = col.decks.id_for_name(name)
    cards = col.decks.cids(deck, children=True)
    col.decks.remove([deck])
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "cards": cards}


def empty_card(path, endpoint, user, password, card):
    import re

    from anki.collection import Collection

    col = Collection(path)
    card = col.get_card(int(card))
    note = card.note()
    templates = note.note_type()["tmpls"]

    def fields(template):
        return set(re.findall(r"{{[#^/]?(?:[^:}]*:)?([^}]+)}}", template["qfmt"])) - {"FrontSide"}

    others = set().union(*(fields(t) for t in templates if t["ord"] != card.ord))
    for name in fields(templates[card.ord]) - others:
        note[name] = ""
    col.update_note(note)
    empty = [cid for entry in col.get_empty_cards().notes for cid in entry.card_ids]
    col.remove_cards_and_orphaned_notes(empty)
    required = sync_open(col, endpoint, user, password)
    left = col.db.list("select id from cards where nid = ? order by id", note.id)
    col.close()
    return {"required": required, "note": note.id, "emptied": empty, "cards_left": left}


def delete_card(path, card):
    from anki.collection import Collection

    col = Collection(path)
    note = col.db.scalar("select nid from cards where id = ?", int(card))
    col.remove_cards_and_orphaned_notes([int(card)])
    left = col.db.list("select id from cards where nid = ? order by id", note)
    col.close()
    return {"note": note, "cards_left": left}


def add(path, endpoint, user, password, deck, front, back):
    """Adds a Basic note to DECK, made first (with its parents) where there is none, then syncs."""
    return add_at(path, endpoint, user, password, None, None, deck, front, back)


def add_at(path, endpoint, user, password, note_id, card_id, deck, front, back):
    """`add`, the note and its card under the ids given (when given): a note made on the phone
    in the millisecond a note elsewhere was."""
    from anki.collection import Collection

    col = Collection(path)
    note = col.new_note(col.models.by_name("Basic"))
    note["Front"], note["Back"] = front, back
    col.add_note(note, col.decks.id(deck))
    cards = note.card_ids()
    if note_id is not None:
        col.db.execute("update cards set nid = ?, id = ? where id = ?", int(note_id), int(card_id), cards[0])
        col.db.execute("update notes set id = ? where id = ?", int(note_id), note.id)
        return {"required": sync_open(col, endpoint, user, password), "guid": note.guid, "note": int(note_id), "cards": [int(card_id)],
                "closed": col.close()}
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "guid": note.guid, "note": note.id, "cards": cards}


def restyle(path, endpoint, user, password, name, css, *front):
    """Note type NAME changed on the phone: CSS added to its style and, where FRONT is given, its
    first card's question made FRONT; then syncs."""
    from anki.collection import Collection

    col = Collection(path)
    model = col.models.by_name(name)
    model["css"] += css
    if front:
        model["tmpls"][0]["qfmt"] = front[0]
    col.models.update_dict(model)
    required = sync_open(col, endpoint, user, password)
    model = col.models.by_name(name)
    col.close()
    return {"required": required, "id": model["id"], "css": model["css"], "qfmt": model["tmpls"][0]["qfmt"]}


def new_type(path, endpoint, user, password, name, deck, front, back):
    """A note type made on the phone (Basic copied as NAME, with a style of its own) and a note of
    it added to DECK, then syncs."""
    from anki.collection import Collection

    col = Collection(path)
    model = col.models.copy(col.models.by_name("Basic"), add=False)
    model["name"], model["css"] = name, model["css"] + "\n.phone { color: teal; }"
    col.models.add_dict(model)
    model = col.models.by_name(name)
    note = col.new_note(model)
    note["Front"], note["Back"] = front, back
    col.add_note(note, col.decks.id(deck))
    cards = note.card_ids()
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "id": model["id"], "guid": note.guid, "note": note.id, "cards": cards}


def note_type(path, name):
    """Note type NAME as the phone holds it: its id, style and first card's question."""
    from anki.collection import Collection

    col = Collection(path)
    model = col.models.by_name(name)
    col.close()
    return {"id": model["id"], "css": model["css"], "qfmt": model["tmpls"][0]["qfmt"]}


def answer(path, endpoint, user, password, *guids):
    return answer_at(path, endpoint, user, password, None, *guids)


def answer_at(path, endpoint, user, password, ms, *guids):
    """`answer`, the first answer's log row under the id `ms` when given: a phone's answer in
    the millisecond an answer elsewhere was given."""
    col = opened(path)
    before = set(col.db.list("select id from revlog"))
    from anki.scheduler.v3 import CardAnswer

    cards = [cid for guid in guids for cid in col.db.list("select c.id from cards c join notes n on n.id = c.nid where n.guid = ?", guid)]
    col.sched.set_due_date(cards, "0")
    # Only these cards, Good, as the reviewer answers them: no other card changes here.
    answered = 0
    for cid in cards:
        card = col.get_card(cid)
        card.start_timer()
        states = col._backend.get_scheduling_states(cid)
        col.sched.answer_card(col.sched.build_answer(card=card, states=states, rating=CardAnswer.GOOD))
        answered += 1
    added = sorted(set(col.db.list("select id from revlog")) - before)
    if ms is not None and added:
        col.db.execute("update revlog set id = ? where id = ?", int(ms), added[0])
        added = sorted(set(col.db.list("select id from revlog")) - before)
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "answered": answered, "revlog": added}


def study(path, endpoint, user, password, deck, new, reviews):
    """DECK's options set to NEW new cards and REVIEWS reviews a day more than DECK counted
    today, then every card Anki shows in DECK answered Good, as far as those limits go; then a
    normal sync."""
    col = opened(path)
    did = col.decks.id_for_name(deck)
    counted = [count if day == col.sched.today else 0 for day, count in (col.decks.get(did)["newToday"], col.decks.get(did)["revToday"])]
    config = col.decks.config_dict_for_deck_id(did)
    config["new"]["perDay"], config["rev"]["perDay"] = counted[0] + int(new), counted[1] + int(reviews)
    col.decks.update_config(config)
    col.decks.select(did)
    answered = []
    while len(answered) < 200 and (card := answer_next_good(col)) is not None:
        answered.append(card)
    # A note whose card was answered today in DECK itself, not a subdeck: one to move.
    own = col.find_cards(f'"deck:{deck}" -"deck:{deck}::*" rated:1')
    guid = col.get_note(col.get_card(sorted(own)[0]).nid).guid if own else None
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "answered": len(answered), "guid": guid}


def answer_new(path, endpoint, user, password, deck, count):
    """COUNT of the new cards Anki shows in DECK answered Good, within the limits as they are
    (a learning card due meanwhile is left for later); then a normal sync."""
    from anki.scheduler.v3 import CardAnswer
    from anki.scheduler_pb2 import QueuedCards

    col = opened(path)
    col.decks.select(col.decks.id_for_name(deck))
    answered = 0
    while answered < int(count):
        new = [queued for queued in col.sched.get_queued_cards(fetch_limit=100).cards if queued.queue == QueuedCards.NEW]
        if not new:
            break
        card = col.get_card(new[0].card.id)
        card.start_timer()
        col.sched.answer_card(col.sched.build_answer(card=card, states=new[0].states, rating=CardAnswer.GOOD))
        answered += 1
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "answered": answered}


def extend(path, endpoint, user, password, deck, new, reviews):
    """Custom study's "increase today's new card limit" by NEW and "review limit" by REVIEWS
    on DECK; then a normal sync."""
    from anki.collection import Collection

    col = Collection(path)
    col.decks.select(col.decks.id_for_name(deck))
    col.sched.extend_limits(int(new), int(reviews))
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required}


def busy(path, endpoint, user, password, seed):
    rng = random.Random(int(seed))
    col = opened(path)
    before = set(col.db.list("select id from revlog"))
    schema = col.db.scalar("select scm from col")
    decks = [deck for deck in col.decks.all_names_and_ids()
             if not col.decks.is_filtered(deck.id) and col.find_cards(f'"deck:{deck.name}" -deck:filtered')]
    did = []

    def notes():
        return sorted(col.find_notes("-deck:filtered"))

    def cards():
        return sorted(col.find_cards("-deck:filtered"))

    for deck in rng.sample(decks, min(len(decks), rng.randint(1, 2))):
        col.decks.select(deck.id)
        answered, limit = 0, rng.randint(3, 15)
        while answered < limit and answer_next(col, rng):
            answered += 1
        did.append(f"studied {answered} in {deck.name}")
    for nid in rng.sample(notes(), rng.randint(0, 2)):
        note = col.get_note(nid)
        note.fields[0] += f" (phone {seed})"
        note.add_tag("phone")
        col.update_note(note)
        did.append(f"edited {note.guid}")
    if rng.random() < 0.5:
        deck = rng.choice(decks)
        note = col.new_note(col.models.by_name("Basic"))
        note["Front"], note["Back"] = f"폰 {seed}", "added on the phone"
        col.add_note(note, deck.id)
        did.append(f"added {note.guid} to {deck.name}")
    if rng.random() < 0.4:
        note = col.get_note(rng.choice(notes()))
        col.remove_notes([note.id])
        did.append(f"deleted {note.guid}")
    if rng.random() < 0.4 and len(decks) > 1:
        note = col.get_note(rng.choice(notes()))
        home = col.get_card(note.card_ids()[0]).did
        target = rng.choice([deck for deck in decks if deck.id != home])
        col.set_deck(note.card_ids(), target.id)
        did.append(f"moved {note.guid} to {target.name}")
    chosen = rng.sample(cards(), min(len(cards()), 6))
    actions = [
        ("flagged", lambda cid: col.set_user_flag_for_cards(rng.randint(0, 7), [cid])),
        ("suspended", lambda cid: col.sched.suspend_cards([cid])),
        ("unsuspended", lambda cid: col.sched.unsuspend_cards([cid])),
        ("buried", lambda cid: col.sched.bury_cards([cid], manual=True)),
        ("forgot", lambda cid: col.sched.schedule_cards_as_new([cid], restore_position=rng.random() < 0.5, reset_counts=rng.random() < 0.5)),
        ("set due", lambda cid: col.sched.set_due_date([cid], rng.choice(["0", "1", "2-5", "3!"]))),
    ]
    for cid in chosen:
        if rng.random() < 0.6:
            name, act = rng.choice(actions)
            act(cid)
            did.append(f"{name} card {cid}")
    # Drawn after everything above, so a seed's earlier actions stay what they were: custom
    # study as a learner does it on a phone (a filtered deck of a few cards, which Anki moves in
    # and keeps their home deck, later emptied or deleted), and now and then a deck renamed.
    filtered = [deck.id for deck in col.decks.all_names_and_ids() if col.decks.is_filtered(deck.id)]
    if filtered and rng.random() < 0.5:
        if rng.random() < 0.5:
            col.sched.empty_filtered_deck(filtered[0])
            did.append("emptied the filtered deck")
        else:
            col.decks.remove([filtered[0]])
            did.append("deleted the filtered deck")
    elif not filtered and rng.random() < 0.3:
        deck = col.sched.get_or_create_filtered_deck(0)
        deck.name = f"Custom study {seed}"
        deck.config.search_terms[0].search = "-is:suspended -is:buried"
        deck.config.search_terms[0].limit = rng.randint(2, 6)
        made = col.sched.add_or_update_filtered_deck(deck).id
        did.append(f"filtered {len(col.find_cards(f'did:{made}'))} cards into {deck.name}")
    if rng.random() < 0.15:
        deck = rng.choice(decks)
        col.decks.rename(deck.id, f"{deck.name} {seed}")
        did.append(f"renamed {deck.name}")
    # Drawn after the above, for the same reason: a deck's options changed, a note moved into a
    # deck made for it, new cards put elsewhere in the new queue.
    if rng.random() < 0.25:
        deck = rng.choice(decks)
        options = col.decks.config_dict_for_deck_id(deck.id)
        options["new"]["perDay"] = rng.randint(1, 30)
        options["rev"]["perDay"] = rng.randint(50, 300)
        options["new"]["delays"] = rng.choice([[1.0, 10.0], [2.0], [1.0, 10.0, 60.0]])
        col.decks.update_config(options)
        did.append(f"changed the options {options['name']}")
    if rng.random() < 0.15:
        name = f"{rng.choice(decks).name}::Phone {seed}"
        note = col.get_note(rng.choice(notes()))
        col.set_deck(note.card_ids(), col.decks.id(name))
        did.append(f"moved {note.guid} to the new deck {name}")
    new_cards = sorted(col.find_cards("is:new -deck:filtered"))
    if new_cards and rng.random() < 0.2:
        picked = rng.sample(new_cards, min(len(new_cards), rng.randint(1, 3)))
        col.sched.reposition_new_cards(picked, starting_from=rng.randint(0, 5), step_size=1, randomize=False, shift_existing=rng.random() < 0.5)
        did.append(f"repositioned {len(picked)} new cards")
    added = sorted(set(col.db.list("select id from revlog")) - before)
    schema_changed = col.db.scalar("select scm from col") != schema
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "did": did, "revlog": added, "schema_changed": schema_changed}


def config(path, endpoint, user, password, *settings):
    from anki.collection import Collection

    col = Collection(path)
    changed = {}
    set_keys(changed, settings)
    for key, value in changed.items():
        col.set_config(key, value)
    required = sync_open(col, endpoint, user, password)
    after = col.all_config()
    col.close()
    return {"required": required, "config": after}


def deck(path, endpoint, user, password, name, *settings):
    """Sets keys of a deck's legacy JSON (key=JSON; "name" renames it), made first when there is
    no deck of that name, then syncs."""
    from anki.collection import Collection

    col = Collection(path)
    found = col.decks.get(col.decks.id_for_name(name) or col.decks.id(name))
    if set_keys(found, settings):
        col.decks.save(found)
    required = sync_open(col, endpoint, user, password)
    after = col.decks.get(found["id"])
    col.close()
    return {"required": required, "deck": after}


def preset(path, endpoint, user, password, name, *settings):
    """Sets keys of the options a deck uses (key=JSON), then syncs."""
    from anki.collection import Collection

    col = Collection(path)
    config = col.decks.config_dict_for_deck_id(col.decks.id_for_name(name))
    set_keys(config, settings)
    col.decks.update_config(config)
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required}


def new_options(path, endpoint, user, password, deck, name, *settings):
    """Options made on the phone (Anki's defaults, named NAME, with KEY=JSON set on the new cards'
    part), given to DECK, then syncs."""
    from anki.collection import Collection

    col = Collection(path)
    config = col.decks.get_config(col.decks.add_config_returning_id(name))
    set_keys(config["new"], settings)
    col.decks.update_config(config)
    found = col.decks.get(col.decks.id_for_name(deck))
    found["conf"] = config["id"]
    col.decks.save(found)
    required = sync_open(col, endpoint, user, password)
    col.close()
    return {"required": required, "id": config["id"]}


def options(path, deck):
    """A deck's options as Anki holds them: new cards and reviews a day, and the whole."""
    from anki.collection import Collection

    col = Collection(path)
    config = col.decks.config_dict_for_deck_id(col.decks.id_for_name(deck))
    col.close()
    return {"name": config["name"], "new_per_day": config["new"]["perDay"], "reviews_per_day": config["rev"]["perDay"], "config": config}


def on_a_copy(path, read):
    """What `read` answers of the collection at PATH as a person opening Anki sees it, read from a
    copy: its deck list unburies on a new day, and that is no change to sync."""
    import shutil
    import tempfile

    from anki.collection import Collection

    folder = tempfile.mkdtemp()
    copy = os.path.join(folder, "collection.anki2")
    shutil.copy(path, copy)
    col = Collection(copy)
    tree = col.sched.deck_due_tree()
    try:
        return read(col, tree)
    finally:
        col.close()
        shutil.rmtree(folder)


def deck_list(path):
    """Anki's deck list, as a person opening Anki sees it: each deck's reviews and new cards, and
    the reviews and new cards its counters say were answered today."""
    def read(col, root):
        tree = {}

        def walk(node, prefix):
            name = prefix + node.name
            if name:
                deck = col.decks.get(node.deck_id)
                studied = [count if day == col.sched.today else 0 for day, count in (deck["revToday"], deck["newToday"])]
                tree[name] = [node.review_count, node.new_count] + studied
            for child in node.children:
                walk(child, name + "::" if name else "")
        walk(root, "")
        return tree
    return on_a_copy(path, read)


def buried(path):
    """The ids of the cards Anki shows as buried, once its deck list has unburied what a new day
    brings back."""
    return {"cards": on_a_copy(path, lambda col, _: col.db.list("select id from cards where queue in (-2, -3) order by id"))}


def memory(path, guid):
    """The FSRS memory of a note's cards as the card holds it, and as Anki computes it from the
    card's whole review log."""
    from anki.collection import Collection

    col = Collection(path)
    result = {}
    for cid in col.db.list("select c.id from cards c join notes n on n.id = c.nid where n.guid = ?", guid):
        held, computed = col.get_card(cid).memory_state, col.compute_memory_state(cid)
        result[str(cid)] = {"held": [held.stability, held.difficulty] if held else None,
                            "computed": [computed.stability, computed.difficulty] if computed.stability else None}
    col.close()
    return result


def add_field(path, endpoint, user, password):
    from anki.collection import Collection

    col = Collection(path)
    basic = col.models.by_name("Basic")
    col.models.add_field(basic, col.models.new_field("Notes"))
    col.models.update_dict(basic)
    col.close()
    col, required = synced(path, endpoint, user, password, upload=True)
    col.close()
    return {"required": required}


def differs(base, package):
    """Laid out as a sync's part is laid over its base: review due days counted from the base's
    creation day, a new card keeping the base's place."""
    import sqlite3
    from seeded import open_any

    col = open_any(package)
    path = col.path
    col.close(downgrade=False)
    db = sqlite3.connect(path)
    db.execute("ATTACH DATABASE ? AS base", (base,))

    def created_day(schema):
        crt, conf = db.execute("SELECT crt, conf FROM %s.col" % schema).fetchone()
        try:  # Anki's current schema keeps the config in a table; the legacy one, in col.conf
            offset = db.execute("SELECT val FROM %s.config WHERE key = 'creationOffset'" % schema).fetchone()
            minutes_west = json.loads(offset[0]) if offset else 0
        except sqlite3.OperationalError:
            minutes_west = json.loads(conf or "{}").get("creationOffset") or 0
        return (crt - minutes_west * 60) // 86400

    shift = created_day("main") - created_day("base")
    found = {}
    for table, columns in [("cards", ["nid", "did", "ord", "type", "queue", "due", "ivl", "factor", "reps", "lapses", "left", "odue",
                                      "odid", "flags", "data"]), ("notes", ["guid", "mid", "tags", "flds", "flags", "data"])]:
        listed = ", ".join(columns)
        rows = {}
        for side, schema in [("whole", "main"), ("base", "base")]:
            for row in db.execute("SELECT id, %s FROM %s.%s" % (listed, schema, table)):
                values = dict(zip(columns, row[1:]))
                if side == "whole" and table == "cards" and values["type"] != 0 and values["due"] < 1000000000:
                    values["due"] += shift
                rows.setdefault(row[0], {})[side] = values
        for sides in rows.values():
            if table == "cards" and all(side in sides and sides[side]["type"] == 0 for side in ("base", "whole")):
                sides["whole"]["due"] = sides["base"]["due"]
        found[table] = {str(key): {column: [sides.get("base", {}).get(column), sides.get("whole", {}).get(column)]
                                   for column in columns if sides.get("base", {}).get(column) != sides.get("whole", {}).get(column)}
                        for key, sides in rows.items() if sides.get("base") != sides.get("whole")}
    return found


def media(path, endpoint, user, password, *edits):
    from anki.collection import Collection

    col = Collection(path)
    folder = col.media.dir()
    for edit in edits:
        kind, name, *rest = edit.split(":", 2)
        if kind == "add":
            with open(os.path.join(folder, name), "w") as file:
                file.write(rest[0])
        else:
            col.media.trash_files([name])
    auth = col.sync_login(user, password, endpoint)
    # Anki's media sync runs in the background: waited for, and its error raised.
    col.sync_media(auth)
    while col.media_sync_status().active:
        time.sleep(0.05)
    files = {}
    for name in sorted(os.listdir(folder)):
        with open(os.path.join(folder, name), "rb") as file:
            files[name] = hashlib.sha1(file.read()).hexdigest()
    col.close()
    return {"files": files}


def serve(commands):
    """Runs one command per line of standard input, a JSON array [COMMAND, ARGUMENT…], and prints
    its object on one line, or {"error": …}: a test's phone stays one process, where a process
    for each command spent most of its time loading Anki's library."""
    import traceback

    for line in sys.stdin:
        command, *arguments = json.loads(line)
        try:
            answer = commands[command](*arguments)
        except Exception:
            answer = {"error": traceback.format_exc()}
        print(json.dumps(answer, ensure_ascii=False), flush=True)


if __name__ == "__main__":
    command, arguments = sys.argv[1], sys.argv[2:]
    commands = {"download": download, "upload": upload, "sync": sync, "media": media, "change": change, "move": move, "custom": custom, "edit": edit, "add": add, "add-at": add_at, "delete": delete, "bury": bury, "empty-card": empty_card, "delete-card": delete_card, "delete-deck": delete_deck, "answer": answer, "answer-at": answer_at, "study": study, "answer-new": answer_new, "extend": extend, "busy": busy, "options": options, "deck-list": deck_list, "buried": buried, "memory": memory, "config": config, "deck": deck, "preset": preset, "new-options": new_options, "restyle": restyle, "new-type": new_type, "note-type": note_type,
           "add-field": add_field, "differs": differs}
    if command == "serve":
        serve(commands)
    else:
        print(json.dumps(commands[command](*arguments), ensure_ascii=False))
