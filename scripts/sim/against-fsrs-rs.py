#!/usr/bin/env python3
"""maeil sim beside the fsrs-rs simulator on the five scenarios of
Tests/MaeilSimulatorTests/Fixtures/fsrs-rs-scenarios.json (fsrs-rs-python, 400 seeds), with
both interval sources: fsrs-rs's (the learner's stability at the desired retention) and the
scheduler's (Anki's rules). Each cell is Maeil's mean over the runs and its difference from
fsrs-rs's mean, with the standard error of that difference.

    scripts/sim/against-fsrs-rs.py .build/release/maeil [runs]
"""
import json
import math
import os
import subprocess
import sys

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../Tests/MaeilSimulatorTests/Fixtures/fsrs-rs-scenarios.json")


def flags(settings):
    out = []
    for key, value in settings.items():
        out += ["--" + key.replace("_", "-"), str(int(value)) if value == int(value) else str(value)]
    return out


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    maeil, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 200
    reference = json.load(open(FIXTURE))
    print("fsrs-rs-python %s, %d seeds; maeil %d runs each" % (reference["fsrs_rs_python"], reference["seeds"], runs))
    for intervals in ("fsrs-rs", "scheduler"):
        print("\nintervals: %s" % intervals)
        for scenario in reference["scenarios"]:
            command = [maeil, "sim", "--runs", str(runs), "--seed", "1000", "--intervals", intervals, "--json"] + flags(scenario["settings"])
            ours = json.loads(subprocess.run(command, capture_output=True, text=True, check=True).stdout)
            cells = []
            for figure, key in (("reviews", "reviews_total"), ("memorized", "memorized_end")):
                theirs = scenario[figure]
                error = math.hypot(theirs["sd"] / math.sqrt(reference["seeds"]), ours[key + "_sd"] / math.sqrt(runs)) / theirs["mean"]
                cells.append("%s %9.1f %+6.2f %% ± %.2f" % (figure, ours[key], 100 * (ours[key] / theirs["mean"] - 1), 100 * error))
            print("  %-26s %s" % (scenario["name"], "   ".join(cells)))


if __name__ == "__main__":
    main()
