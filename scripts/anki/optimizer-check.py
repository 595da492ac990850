#!/usr/bin/env python3
"""Maeil's FSRS optimizer against fsrs-rs (fsrs-rs-python 0.9.3), side by side, with fsrs-rs as judge.

    .build/anki-venv/bin/python scripts/anki/optimizer-check.py .build/debug/maeil [CARDS] [--json]

For several parameter sets far from the defaults, a simulated learner (fsrs-rs's own model with
those parameters) reviews CARDS cards for two years at retention 0.9; the log is written in the
FSRS optimizer's CSV format. Maeil fits it (`maeil optimize --csv FILE --json`, which also gives
the parameters of its five time-series splits); fsrs-rs fits the same items (with card ids, as
Anki calls it). Both are scored by the same code here, from fsrs-rs's own memory states: pooled
log loss and RMSE (bins) on the five held-out sixths, and the generating parameters' log loss on
the same reviews. Prints one line per set (or JSON) and the times of the two full fits.
"""
import csv
import json
import math
import os
import random
import subprocess
import sys
import tempfile
import time

from fsrs_rs_python import FSRS, FSRSItem, FSRSReview, MemoryState, TrainingConfig

PARAMETER_SETS = {
    "slow-forgetter": [1.0, 3.0, 6.0, 20.0, 5.5, 0.6, 2.0, 0.01, 2.1, 0.1, 1.1, 1.2, 0.08, 0.3, 1.2, 0.5, 2.5, 0.4, 0.2, 0.1, 0.25],
    "fast-forgetter": [0.1, 0.6, 1.2, 4.0, 7.5, 1.0, 3.5, 0.05, 1.4, 0.25, 0.6, 2.0, 0.05, 0.2, 2.0, 0.7, 1.5, 0.7, 0.1, 0.05, 0.4],
    "steep-decay": [0.4, 1.8, 3.5, 10.0, 6.0, 0.7, 2.5, 0.02, 1.7, 0.15, 0.9, 1.6, 0.07, 0.25, 1.8, 0.55, 2.0, 0.5, 0.15, 0.08, 0.6],
}
DAY_MS = 86_400_000
START_MS = 1_700_000_000_000 + 12 * 3600 * 1000  # noon UTC: days are whole dates with rollover 4


def simulate(params, cards, seed):
    rng = random.Random(seed)
    fsrs = FSRS(params)
    rows = []
    horizon = 730
    for card in range(1, cards + 1):
        day = rng.randrange(0, horizon - 30)
        memory = None
        first = True
        elapsed = 0
        while day < horizon:
            if first:
                rating = rng.choices([1, 2, 3, 4], weights=[0.2, 0.15, 0.5, 0.15])[0]
            else:
                f = 0.9 ** (-1 / params[20]) - 1
                r = (1 + f * elapsed / memory.stability) ** (-params[20])
                rating = rng.choices([2, 3, 4], weights=[0.15, 0.75, 0.1])[0] if rng.random() < r else 1
            rows.append((card, START_MS + day * DAY_MS + rng.randrange(0, 3600_000), rating, 0 if first else 2))
            states = fsrs.next_states(memory, 0.9, 0 if first else elapsed)
            state = [states.again, states.hard, states.good, states.easy][rating - 1]
            memory = state.memory
            interval = max(1, round(state.interval * rng.uniform(0.8, 1.3)))
            day += interval
            elapsed = interval
            first = False
    return rows


def items_from(rows):
    by_card = {}
    for card, ms, rating, state in sorted(rows, key=lambda r: (r[0], r[1])):
        by_card.setdefault(card, []).append((ms, rating))
    timed = []
    for card, reviews in by_card.items():
        history = []
        previous = None
        for ms, rating in reviews:
            day = (ms - 4 * 3600 * 1000) // DAY_MS
            delta = 0 if previous is None else day - previous
            previous = day
            history.append((rating, delta))
            if len(history) > 1 and delta > 0:
                timed.append((ms, card, list(history)))
    timed.sort(key=lambda t: (t[0], t[1]))
    return [(card, history) for _, card, history in timed]


def to_item(history):
    return FSRSItem([FSRSReview(rating, delta) for rating, delta in history])


def predictions(params, histories):
    fsrs = FSRS(params)
    f = 0.9 ** (-1 / params[20]) - 1
    out = []
    for history in histories:
        memory = fsrs.memory_state(to_item(history[:-1]))
        t = history[-1][1]
        out.append((1 + f * t / memory.stability) ** (-params[20]))
    return out


def scores(params_per_split, histories_per_split):
    preds, labels, keys = [], [], []
    for params, histories in zip(params_per_split, histories_per_split):
        preds += predictions(params, histories)
        for history in histories:
            labels.append(1 if history[-1][0] > 1 else 0)
            keys.append(bin_key(history))
    loss = -sum(y * math.log(p) + (1 - y) * math.log(1 - p) for p, y in zip(preds, labels)) / len(preds)
    bins = {}
    for p, y, k in zip(preds, labels, keys):
        b = bins.setdefault(k, [0.0, 0.0, 0])
        b[0] += p; b[1] += y; b[2] += 1
    rmse = math.sqrt(sum(n * (sp / n - sy / n) ** 2 for sp, sy, n in bins.values()) / len(preds))
    return loss, rmse


def bin_key(history):
    def bucket(x, scale, base):
        return scale * base ** math.floor(math.log(x) / math.log(base))
    days = history[-1][1]
    long_term = sum(1 for _, d in history if d > 0)
    lapses = sum(1 for r, d in history[:-1] if r == 1 and d > 0)
    return (0 if days == 0 else round(bucket(days, 2.48, 3.62) * 100), round(bucket(long_term + 1, 1.99, 1.89)),
            0 if lapses == 0 else round(bucket(lapses, 1.65, 1.73)))


def main():
    maeil = sys.argv[1]
    cards = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 3000
    as_json = "--json" in sys.argv
    results = {}
    for index, (name, params) in enumerate(PARAMETER_SETS.items()):
        rows = simulate(params, cards, seed=index + 1)
        folder = tempfile.mkdtemp()
        path = os.path.join(folder, "revlog.csv")
        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["card_id", "review_time", "review_rating", "review_state", "review_duration"])
            for card, ms, rating, state in rows:
                w.writerow([card, ms, rating, state, 5000])
        items = items_from(rows)
        started = time.perf_counter()
        out = subprocess.run([maeil, "optimize", "--csv", path, "--json", "--splits", "--seed", os.environ.get("SEED", "2023"), "--epochs", "5", "--evaluate"], capture_output=True, text=True,
                             env=dict(os.environ, TZ="UTC"))
        maeil_seconds = time.perf_counter() - started
        if out.returncode != 0:
            sys.exit(out.stderr)
        maeil_result = json.loads(out.stdout)
        assert maeil_result["items"] == len(items), (maeil_result["items"], len(items))
        n = len(items)
        seg = n // 6
        train_sets = [items[: (i + 1) * seg] for i in range(5)]
        test_sets = [items[(i + 1) * seg: (n if i == 4 else (i + 2) * seg)] for i in range(5)]
        fsrs = FSRS(FSRS_DEFAULT)
        rs_splits = []
        for train in train_sets:
            rs_splits.append(fsrs.compute_parameters([to_item(h) for _, h in train], card_ids=[c for c, _ in train]))
        started = time.perf_counter()
        rs_full = fsrs.compute_parameters([to_item(h) for _, h in items], card_ids=[c for c, _ in items])
        rs_seconds = time.perf_counter() - started
        tests = [[h for _, h in test] for test in test_sets]
        maeil_scores = scores(maeil_result["splits"], tests)
        rs_scores = scores(rs_splits, tests)
        truth = scores([params] * 5, tests)
        results[name] = {"reviews": n, "maeil": maeil_scores, "fsrs_rs": rs_scores, "generating": truth,
                         "maeil_parameters": maeil_result["parameters"], "fsrs_rs_parameters": [round(x, 4) for x in rs_full],
                         "maeil_process_seconds": maeil_seconds, "maeil_fit_seconds": maeil_result["fit_seconds"],
                         "fsrs_rs_fit_seconds": rs_seconds}
        if not as_json:
            print(f"{name}: {n} reviews; held-out log loss / RMSE(bins): maeil {maeil_scores[0]:.4f} / {maeil_scores[1]*100:.2f}%, "
                  f"fsrs-rs {rs_scores[0]:.4f} / {rs_scores[1]*100:.2f}%, generating {truth[0]:.4f} / {truth[1]*100:.2f}%; "
                  f"ratios {maeil_scores[0]/rs_scores[0]:.4f} / {maeil_scores[1]/rs_scores[1]:.3f}; "
                  f"vs generating {maeil_scores[0]/truth[0]:.4f} (fsrs-rs {rs_scores[0]/truth[0]:.4f}); "
                  f"max |Δw| {max(abs(a - b) for a, b in zip(maeil_result['parameters'], rs_full)):.5f}; "
                  f"one full fit: maeil {maeil_result['fit_seconds']:.3f} s, fsrs-rs {rs_seconds:.3f} s", flush=True)
    if as_json:
        print(json.dumps(results))


FSRS_DEFAULT = [0.212, 1.2931, 2.3065, 8.2956, 6.4133, 0.8334, 3.0194, 0.001, 1.8722, 0.1666, 0.796, 1.4835, 0.0614, 0.2629,
                1.6483, 0.6014, 1.8729, 0.5425, 0.0912, 0.0658, 0.1542]

if __name__ == "__main__":
    main()
