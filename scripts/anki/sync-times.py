#!/usr/bin/env python3
"""Times a full sync by Anki's own client and by maeil on the same collection, against Anki's own
sync server in the same run (issue 24's speed target; `maeil bench --filter sync` runs it):

    .build/anki-venv/bin/python scripts/anki/sync-times.py MAEIL PACKAGE

Both take the package (maeil bench's: 20,000 notes, 100,000 reviews) into a collection of their
own and log in as a user of their own; then each uploads its whole collection and downloads it
again, the best of three of each, in seconds (maeil's: the whole command, as a user runs it).
Then normal syncs of 1,000 changed cards: each side sets 1,000 cards due on another day each time and syncs them up
("normal_send"); a phone (Anki's client on the same account) does the same and each side syncs
to take them ("normal_take"); then ten notes edited on the phone the same way ("note_take"), and
ten added ("add_take"), ten deleted ("delete_take"), ten moved to another deck ("move_take"), a
deck's options changed ("options_take"), a deck renamed and described ("deck_take"), a deck made
with ten notes ("made_take"), the note type of the most notes restyled ("type_take") and one of
the decks made deleted with its notes ("deck_delete_take"), a limit rule of the collection's
turned over ("settings_take") and a deck's limit raised for today by custom study
("counts_take"); the best
of three of each, and the worst of the three of each normal sync ("normal_send_worst", …). Prints one JSON object.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time

from anki.collection import Collection, ImportAnkiPackageOptions, ImportAnkiPackageRequest

maeil, package = sys.argv[1], sys.argv[2]
folder = tempfile.mkdtemp()


def best(run):
    times = []
    for _ in range(3):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


environment = dict(os.environ, SYNC_USER1="anki:secret", SYNC_USER2="maeil:secret", SYNC_HOST="127.0.0.1", SYNC_PORT="0",
                   SYNC_BASE=os.path.join(folder, "base"), NO_COLOR="1")
log_path = os.path.join(folder, "server.log")
with open(log_path, "w") as log:
    server = subprocess.Popen([sys.executable, "-m", "anki.syncserver"], env=environment, stdout=log, stderr=log)
try:
    endpoint = None
    for _ in range(300):
        found = re.search(r"listening addr=(127\.0\.0\.1:\d+)", open(log_path).read())
        if found:
            endpoint = "http://%s/" % found.group(1)
            break
        time.sleep(0.05)
    assert endpoint, open(log_path).read()

    os.makedirs(os.path.join(folder, "anki"))
    col = Collection(os.path.join(folder, "anki", "collection.anki2"))
    col.import_anki_package(ImportAnkiPackageRequest(package_path=package, options=ImportAnkiPackageOptions(
        with_scheduling=True, with_deck_configs=True)))
    auth = col.sync_login("anki", "secret", endpoint)
    counts = {table: col.db.scalar(f"select count() from {table}") for table in ("notes", "cards", "revlog")}

    def anki_full(upload):
        col.close_for_full_sync()
        col.full_upload_or_download(auth=auth, server_usn=None, upload=upload)
        col.reopen(after_full_sync=True)

    figures = {"anki_upload": best(lambda: anki_full(True)), "anki_download": best(lambda: anki_full(False))}
    col.close()

    collection = os.path.join(folder, "maeil", "collection.sqlite")
    state = dict(os.environ, XDG_STATE_HOME=os.path.join(folder, "state"), HOME=folder)

    def run(*arguments, stdin=""):
        result = subprocess.run([maeil, *arguments, "--collection", collection], input=stdin, capture_output=True, text=True, env=state)
        assert result.returncode == 0, result.stderr
        return result.stdout

    run("import", package, "--create")
    run("sync", "--login", endpoint, "--user", "maeil", stdin="secret\n")
    figures["maeil_upload"] = best(lambda: run("sync", "--upload"))
    figures["maeil_download"] = best(lambda: run("sync", "--download"))

    def phone(user):
        path = os.path.join(tempfile.mkdtemp(), "phone.anki2")
        other = Collection(path)
        login = other.sync_login(user, "secret", endpoint)
        other.sync_collection(login, False)
        other.close_for_full_sync()
        other.full_upload_or_download(auth=login, server_usn=None, upload=False)
        other.reopen(after_full_sync=True)
        return other, login

    def changed_by(other, login):
        other.sched.set_due_date(other.find_cards("")[:1000], str(next(days)))
        other.sync_collection(login, False)

    # The best of three, and the worst as "<key>_worst": a sync that is slow one time in three
    # (answers given together by the hundred once made one take seconds) shows there.
    def timed(key, change, sync):
        times = []
        for _ in range(3):
            change()
            start = time.perf_counter()
            sync()
            times.append(time.perf_counter() - start)
        figures[key], figures[key + "_worst"] = min(times), max(times)

    # Each change sets another due day, so every one changes all 1,000 cards on both sides (the
    # same day again leaves Maeil's cards as they were, and it had nothing to send).
    days = iter(range(2, 100))
    col = Collection(os.path.join(folder, "anki", "collection.anki2"))
    timed("anki_normal_send", lambda: col.sched.set_due_date(col.find_cards("")[:1000], str(next(days))), lambda: col.sync_collection(auth, False))
    anki_phone = phone("anki")
    timed("anki_normal_take", lambda: changed_by(*anki_phone), lambda: col.sync_collection(auth, False))
    cards = ["card:%d" % number for number in range(1, 1001)]
    timed("maeil_normal_send", lambda: run("set-due", str(next(days)), *cards), lambda: run("sync"))
    maeil_phone = phone("maeil")
    timed("maeil_normal_take", lambda: changed_by(*maeil_phone), lambda: run("sync"))
    # Ten notes edited on a phone (a field each), and each side syncs to take them ("note_take").
    def edited_by(other, login):
        for nid in other.find_notes("")[:10]:
            note = other.get_note(nid)
            note.fields[0] += "."
            other.update_note(note)
        other.sync_collection(login, False)

    timed("anki_note_take", lambda: edited_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_note_take", lambda: edited_by(*maeil_phone), lambda: run("sync"))

    # Ten notes added on a phone, into the deck of its first note ("add_take").
    words = iter(range(1_000_000))

    def added_by(other, login):
        deck = other.get_card(other.find_cards("")[0]).did
        for _ in range(10):
            note = other.new_note(other.models.by_name("Basic"))
            note["Front"], note["Back"] = "added %d" % next(words), "on the phone"
            other.add_note(note, deck)
        other.sync_collection(login, False)

    timed("anki_add_take", lambda: added_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_add_take", lambda: added_by(*maeil_phone), lambda: run("sync"))

    # Ten notes deleted on a phone ("delete_take").
    def deleted_by(other, login):
        other.remove_notes(other.find_notes("")[:10])
        other.sync_collection(login, False)

    timed("anki_delete_take", lambda: deleted_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_delete_take", lambda: deleted_by(*maeil_phone), lambda: run("sync"))
    # Ten notes moved on a phone to another deck and back (Anki's Change Deck), the deck made and
    # synced on both sides first ("move_take").
    def made_deck(other, login):
        other.decks.id("Moved")
        other.sync_collection(login, False)

    def moved_by(other, login):
        moved = other.decks.id_for_name("Moved")
        cards = other.db.list("select id from cards where nid in (select id from notes order by id limit 10)")
        home = other.db.scalar("select did from cards where did != ? limit 1", moved)
        other.set_deck(cards, home if other.get_card(cards[0]).did == moved else moved)
        other.sync_collection(login, False)

    made_deck(*anki_phone)
    col.sync_collection(auth, False)
    made_deck(*maeil_phone)
    run("sync")
    timed("anki_move_take", lambda: moved_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_move_take", lambda: moved_by(*maeil_phone), lambda: run("sync"))
    # The options of the deck holding the most cards changed on a phone (its desired retention,
    # another each time), and each side syncs to take them ("options_take").
    retentions = iter(range(80, 99))

    def options_changed_by(other, login):
        config = other.decks.config_dict_for_deck_id(other.db.scalar("select did from cards group by did order by count() desc limit 1"))
        config["desiredRetention"] = next(retentions) / 100
        other.decks.update_config(config)
        other.sync_collection(login, False)

    timed("anki_options_take", lambda: options_changed_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_options_take", lambda: options_changed_by(*maeil_phone), lambda: run("sync"))
    # The deck holding the most cards renamed on a phone (another name each time) and described,
    # and each side syncs to take it ("deck_take").
    names = iter(range(1, 100))

    def deck_renamed_by(other, login):
        deck = other.decks.get(other.db.scalar("select did from cards group by did order by count() desc limit 1"))
        deck["name"], deck["desc"] = "Renamed %d" % next(names), "renamed on the phone"
        other.decks.save(deck)
        other.sync_collection(login, False)

    timed("anki_deck_take", lambda: deck_renamed_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_deck_take", lambda: deck_renamed_by(*maeil_phone), lambda: run("sync"))
    # A deck made on a phone (another each time) with ten notes added to it ("made_take").
    made = iter(range(1, 100))

    def deck_made_by(other, login):
        deck = other.decks.id("Made %d" % next(made))
        for _ in range(10):
            note = other.new_note(other.models.by_name("Basic"))
            note["Front"], note["Back"] = "added %d" % next(words), "in a deck made on the phone"
            other.add_note(note, deck)
        other.sync_collection(login, False)

    timed("anki_made_take", lambda: deck_made_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_made_take", lambda: deck_made_by(*maeil_phone), lambda: run("sync"))
    # The note type of the most notes restyled on a phone (another rule added to its style each
    # time), and each side syncs to take it ("type_take").
    styles = iter(range(1, 100))

    def restyled_by(other, login):
        model = other.models.get(other.db.scalar("select mid from notes group by mid order by count() desc limit 1"))
        model["css"] += "\n.phone%d { color: teal; }" % next(styles)
        other.models.update_dict(model)
        other.sync_collection(login, False)

    timed("anki_type_take", lambda: restyled_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_type_take", lambda: restyled_by(*maeil_phone), lambda: run("sync"))
    # One of the decks made above deleted on a phone with its ten notes ("deck_delete_take").
    def deck_deleted_by(other, login):
        made = sorted(deck.id for deck in other.decks.all_names_and_ids() if deck.name.startswith("Made "))
        other.decks.remove(made[:1])
        other.sync_collection(login, False)

    timed("anki_deck_delete_take", lambda: deck_deleted_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_deck_delete_take", lambda: deck_deleted_by(*maeil_phone), lambda: run("sync"))
    # A limit rule of the collection's turned over on a phone (whether new cards ignore the
    # review limit), and each side syncs to take it ("settings_take").
    def rule_turned_by(other, login):
        other.set_config("newCardsIgnoreReviewLimit", not other.get_config("newCardsIgnoreReviewLimit", False))
        other.sync_collection(login, False)

    timed("anki_settings_take", lambda: rule_turned_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_settings_take", lambda: rule_turned_by(*maeil_phone), lambda: run("sync"))
    # A deck's limit raised for today on a phone by custom study ("increase today's new card
    # limit"), and each side syncs to take it ("counts_take").
    def limit_raised_by(other, login):
        other.decks.select(other.db.scalar("select did from cards group by did order by count() desc limit 1"))
        other.sched.extend_limits(5, 0)
        other.sync_collection(login, False)

    timed("anki_counts_take", lambda: limit_raised_by(*anki_phone), lambda: col.sync_collection(auth, False))
    timed("maeil_counts_take", lambda: limit_raised_by(*maeil_phone), lambda: run("sync"))
    figures.update({"notes": counts["notes"], "reviews": counts["revlog"]})
    print(json.dumps(figures))
finally:
    server.kill()
