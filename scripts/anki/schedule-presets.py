#!/usr/bin/env python3
"""`maeil schedule` with every setting that changes a card's schedule, against Anki 26.9.3's own
scheduler. Random presets (anki-sm2 or FSRS; steps, graduating and easy intervals, starting
ease, easy bonus, hard interval, interval modifier, lapse interval and minimum, maximum
interval, leech threshold and action, rollover hour, desired retention, FSRS parameters, short
term with steps) and random answers: maeil replays each with `--set`, Anki answers the same card
under the same preset with its clock frozen at the moments `maeil schedule` says it answers
(libfaketime; fuzz off). After every answer the phase, the interval (seconds in steps, days on a
day or in review), the ease or the stored memory, the lapses and whether the card became a
leech are compared.

    scripts/anki/schedule-presets.py PYTHON MAEIL CASES SEED

Prints a JSON object: cases, answers compared, and the first differences (none when they agree).
"""
import calendar
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fakeclock import rerun_frozen, set_clock  # noqa: E402

DAY = 86400
JAN_5_2026 = 1767571200  # 2026-01-05 00:00 UTC, the study day maeil schedule starts on
LAST_ANSWER = 2_100_000_000  # Anki keeps a learning card's due second in 32 bits
DEFAULTS = [0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629,
            1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542]
BOUNDS = [(0.001, 100), (0.001, 100), (0.001, 100), (0.001, 100), (1, 10), (0.001, 4), (0.001, 4), (0.001, 0.75), (0, 4.5),
          (0, 0.8), (0.001, 3.5), (0.001, 5), (0.001, 0.25), (0.001, 0.9), (0, 4), (0, 1), (1, 6), (0, 2), (0, 2), (0, 0.8), (0.1, 0.8)]
STEPS = {"1m": 1, "5m": 5, "10m": 10, "30m": 30, "1h": 60, "6h": 360, "1d": 1440, "2d": 2880}


def noon_after_rollover(hour):
    """Seconds from a study day's start to the noon within it."""
    return (12 - hour) % 24 * 3600


def random_case(rng):
    kind = rng.choice(["anki-sm2", "fsrs"])
    learning = sorted(rng.sample(list(STEPS), rng.randint(0, 3)), key=STEPS.get)
    relearning = sorted(rng.sample(["1m", "5m", "10m", "1h", "1d"], rng.randint(0, 2)), key=STEPS.get)
    settings = {
        "learning_steps": " ".join(learning) or "none",
        "relearning_steps": " ".join(relearning) or "none",
        "maximum_interval": rng.choice([36500, 365, 60, 12]),
        "leech_threshold": rng.randint(2, 6),
        "leech_action": rng.choice(["tag", "suspend"]),
        "rollover_hour": rng.randint(0, 23),
    }
    if kind == "anki-sm2":
        graduating = rng.randint(1, 4)
        settings.update({
            "graduating_interval": graduating, "easy_interval": graduating + rng.randint(0, 4),
            "starting_ease": round(rng.uniform(1.31, 3.5), 2), "easy_bonus": round(rng.uniform(1.0, 2.0), 2),
            "hard_interval": round(rng.uniform(0.5, 1.3), 2), "interval_modifier": round(rng.uniform(0.5, 2.0), 2),
            "lapse_new_interval": round(rng.uniform(0.0, 1.0), 2), "minimum_lapse_interval": rng.randint(1, 4),
        })
    else:
        params = DEFAULTS if rng.random() < 0.4 else [
            round(min(max(w * rng.uniform(0.7, 1.3), low), high), 4) for w, (low, high) in zip(DEFAULTS, BOUNDS)]
        settings.update({
            "desired_retention": rng.choice([0.8, 0.85, 0.9, 0.95]),
            "fsrs_parameters": ",".join(str(w) for w in params),
            "short_term_with_steps": rng.choice(["true", "false"]),
        })
    length = rng.randint(3, 14)
    ratings = [rng.choices([1, 2, 3, 4], weights=[0.3, 0.15, 0.4, 0.15])[0] for _ in range(length)]
    late = [0 if rng.random() < 0.7 else rng.randint(1, 12) for _ in range(length)]
    return {"scheduler": kind, "settings": settings, "ratings": ratings, "late": late}


def maeil_replay(maeil, case):
    arguments = [maeil, "schedule", "--json", "--scheduler", case["scheduler"], "--ratings", ",".join(map(str, case["ratings"])),
                 "--late", ",".join(map(str, case["late"]))]
    for key, value in case["settings"].items():
        arguments += ["--set", "%s=%s" % (key, value)]
    result = subprocess.run(arguments, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("maeil schedule failed: %s\n%s" % (" ".join(arguments), result.stderr))
    return json.loads(result.stdout)


def anki_replay(case, clock_file):
    """What Anki does with the case's answers, until one would fall where the frozen clock cannot go."""
    from anki.collection import Collection
    from anki.config import Config
    from anki.scheduler.v3 import CardAnswer

    settings, fsrs = case["settings"], case["scheduler"] == "fsrs"
    hour = settings["rollover_hour"]
    now = JAN_5_2026 + hour * 3600 + noon_after_rollover(hour)
    set_clock(clock_file, now)
    col = Collection(os.path.join(tempfile.mkdtemp(), "c.anki2"))
    # Anki counts days from the calendar date of the collection's creation, and no day before
    # it: created ten days earlier, every study day is a whole day, as in Maeil.
    col.db.execute("update col set crt = ?", JAN_5_2026 - 10 * DAY)
    col.set_config("rollover", hour)
    col.set_config("fsrs", fsrs)
    did = col.decks.id("Schedule")
    conf = col.decks.config_dict_for_deck_id(did)
    conf["new"]["delays"] = [float(STEPS[s]) for s in settings["learning_steps"].split() if s != "none"]
    conf["lapse"]["delays"] = [float(STEPS[s]) for s in settings["relearning_steps"].split() if s != "none"]
    conf["rev"]["maxIvl"] = settings["maximum_interval"]
    conf["lapse"]["leechFails"] = settings["leech_threshold"]
    conf["lapse"]["leechAction"] = 0 if settings["leech_action"] == "suspend" else 1
    if fsrs:
        conf["desiredRetention"] = settings["desired_retention"]
        conf["fsrsParams6"] = [float(w) for w in settings["fsrs_parameters"].split(",")]
        col.set_config_bool(Config.Bool.FSRS_SHORT_TERM_WITH_STEPS_ENABLED, settings["short_term_with_steps"] == "true")
    else:
        conf["new"]["ints"] = [settings["graduating_interval"], settings["easy_interval"], 0]
        conf["new"]["initialFactor"] = round(settings["starting_ease"] * 1000)
        conf["rev"]["ease4"] = settings["easy_bonus"]
        conf["rev"]["hardFactor"] = settings["hard_interval"]
        conf["rev"]["ivlFct"] = settings["interval_modifier"]
        conf["lapse"]["mult"] = settings["lapse_new_interval"]
        conf["lapse"]["minInt"] = settings["minimum_lapse_interval"]
    col.decks.update_config(conf)
    note = col.new_note(col.models.by_name("Basic"))
    note["Front"], note["Back"] = "case", "x"
    col.add_note(note, did)
    cid = col.find_cards("nid:%d" % note.id)[0]
    answers = {1: CardAnswer.AGAIN, 2: CardAnswer.HARD, 3: CardAnswer.GOOD, 4: CardAnswer.EASY}
    steps = []
    for rating, days_late in zip(case["ratings"], case["late"]):
        card = col.get_card(cid)
        if card.type != 0:
            if card.queue == 1:  # within the day: its due second
                now = max(now, card.due)
            else:  # due on a day: noon within that study day, late days after it in review
                start = col.sched.day_cutoff - (col.sched.today + 1 - card.due) * DAY
                now = max(now, start + noon_after_rollover(hour))
                if card.type == 2:
                    now += days_late * DAY
        if now > LAST_ANSWER or 2 <= time.gmtime(now).tm_hour < 4:
            break  # ANKI_TEST_MODE sets Anki's clock two hours back between 02:00 and 04:00
        set_clock(clock_file, now)
        tagged = note.has_tag("leech")
        try:
            states = col._backend.get_scheduling_states(cid)
        except BaseException as panic:  # pyo3's PanicException is a BaseException
            # With fuzz off, Anki clamps to [minimum, maximum] and panics when good's minimum
            # (hard's interval + 1) passes the maximum interval; with fuzz on, and in Maeil,
            # the minimum gives way. The case ends there.
            if "min > max" not in str(panic):
                raise
            return steps  # its backend is poisoned now: left unclosed
        card.start_timer()
        col.sched.answer_card(col.sched.build_answer(card=card, states=states, rating=answers[rating]))
        card = col.get_card(cid)
        note.load()
        step = {"state": {1: "learning", 2: "review", 3: "relearning"}.get(card.type, "new"), "lapses": card.lapses,
                "suspended": card.queue == -1, "newly_tagged": note.has_tag("leech") and not tagged}
        if card.queue == -1:
            col.sched.unsuspend_cards([cid])  # to go on answering it
            card = col.get_card(cid)
        # When it is due: a second within the day, or the start of a study day.
        step["due"] = card.due if card.queue == 1 else col.sched.day_cutoff - (col.sched.today + 1 - card.due) * DAY
        if card.type == 2:
            step["days"] = card.ivl
        if fsrs:
            step["s"], step["d"] = round(card.memory_state.stability, 4), round(card.memory_state.difficulty, 3)
        else:
            step["ease"] = card.factor / 1000
        steps.append(step)
    col.close()
    return steps


def differences(case, ours, anki):
    found = []
    leeched = False
    for index, (mine, theirs) in enumerate(zip(ours, anki)):
        def differ(what, a, b):
            found.append({"case": case, "answer": index + 1, "what": what, "maeil": a, "anki": b})
        if mine["state"] != theirs["state"]:
            differ("state", mine["state"], theirs["state"])
        due = calendar.timegm(time.strptime(mine["due"], "%Y-%m-%dT%H:%M:%SZ"))
        if due != theirs["due"]:
            differ("due", mine["due"], time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(theirs["due"])))
        if "days" in theirs and mine["interval_days"] != theirs["days"]:
            differ("interval", mine["interval_days"], theirs["days"])
        if mine["lapses"] != theirs["lapses"]:
            differ("lapses", mine["lapses"], theirs["lapses"])
        # Anki keeps no ease before a card graduates.
        if "ease" in theirs and theirs["state"] != "learning" and abs(mine["ease"] - theirs["ease"]) > 1e-9:
            differ("ease", mine["ease"], theirs["ease"])
        if "s" in theirs and (abs(mine["stability"] - theirs["s"]) > 1e-4 or abs(mine["difficulty"] - theirs["d"]) > 1e-3):
            differ("memory", [mine["stability"], mine["difficulty"]], [theirs["s"], theirs["d"]])
        # A suspending preset suspends at every leech; a tagging one tags the note the first time.
        if mine["suspended"] != theirs["suspended"] or (mine["leech"] and not leeched) != theirs["newly_tagged"]:
            differ("leech", [mine["leech"], mine["suspended"]], [theirs["newly_tagged"], theirs["suspended"]])
        leeched = leeched or mine["leech"]
        if found:
            break
    return found


def main():
    python, maeil, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    rng = random.Random(seed)
    cases = [random_case(rng) for _ in range(count)]
    folder = tempfile.mkdtemp()
    with open(os.path.join(folder, "cases.json"), "w") as f:
        json.dump(cases, f)
    rerun_frozen(__file__, [folder], JAN_5_2026 + 12 * 3600, python, TZ="UTC", MAEIL_CHILD="1")
    with open(os.path.join(folder, "anki.json")) as f:
        anki = json.load(f)
    found, answers = [], 0
    for index, case in enumerate(cases):
        ours = maeil_replay(maeil, case)
        answers += len(anki[index])
        found += differences(index, ours[:len(anki[index])], anki[index])
    if os.environ.get("SHOW_CASE"):
        index = int(os.environ["SHOW_CASE"])
        print(json.dumps(cases[index]))
        for mine, theirs in zip(maeil_replay(maeil, cases[index]), anki[index] + [None] * 20):
            print(mine, "\n   ", theirs)
    print(json.dumps({"cases": count, "answers": answers, "differences": found[:10], "different_cases": len({d["case"] for d in found}),
                      "first_case": cases[found[0]["case"]] if found else None}))


def child(folder):
    with open(os.path.join(folder, "cases.json")) as f:
        cases = json.load(f)
    results = [anki_replay(case, os.environ["MAEIL_CLOCK_FILE"]) for case in cases]
    with open(os.path.join(folder, "anki.json"), "w") as f:
        json.dump(results, f)


if __name__ == "__main__":
    if os.environ.get("MAEIL_CHILD"):
        child(sys.argv[1])
    else:
        main()
