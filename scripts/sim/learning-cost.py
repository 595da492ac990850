#!/usr/bin/env python3
"""Expected seconds and steps to learn a new card under the simulator's learner model
(LearnerModel in Sources/MaeilSimulator), exactly, by walking the Markov chain of step ratings.

Two step rules are compared, with learning steps 1m 10m and at most 5 step answers:
  fsrs-rs: the number of successes needed is fixed by the first rating (1 after good, else 2);
  anki:    the scheduler's own rule: again goes back to the first step, hard stays, good moves on.
The simulator drives Maeil's scheduler, so its figure is the anki one.
"""
FIRST = [0.24, 0.094, 0.495, 0.171]
STEPS = [[0.3686, 0.0628, 0.5108, 0.0577], [0.0442, 0.4553, 0.4457, 0.0549], [0.0519, 0.0470, 0.8462, 0.0550]]
COST = [19.58, 18.79, 13.78, 10.71]
MAX_STEPS = 5


def expected(next_state, done, start):
    """(seconds, steps) expected from each first rating, weighted by FIRST."""
    def walk(previous, state, taken):
        if previous == 4 or done(state) or taken == MAX_STEPS:
            return 0.0, 0.0
        seconds = steps = 0.0
        for rating in range(1, 5):
            p = STEPS[previous - 1][rating - 1]
            more_seconds, more_steps = walk(rating, next_state(state, rating), taken + 1)
            seconds += p * (COST[rating - 1] + more_seconds)
            steps += p * (1 + more_steps)
        return seconds, steps

    total_seconds = total_steps = 0.0
    for first in range(1, 5):
        seconds, steps = walk(first, start(first), 0)
        total_seconds += FIRST[first - 1] * (COST[first - 1] + seconds)
        total_steps += FIRST[first - 1] * steps
    return total_seconds, total_steps


# fsrs-rs: state = (successes in a row, successes needed).
fsrs_rs = expected(lambda s, g: (s[0] + 1 if g >= 3 else (0 if g == 1 else s[0]), s[1]),
                   lambda s: s[0] >= s[1], lambda g: (0, 1 if g >= 3 else 2))
# anki: state = index of the current step; past the last one the card graduates.
anki = expected(lambda step, g: 0 if g == 1 else (step if g == 2 else step + 1),
                lambda step: step >= 2, lambda g: {1: 0, 2: 0, 3: 1, 4: 2}[g])
print(f"fsrs-rs rule: {fsrs_rs[0]:.3f} s, {fsrs_rs[1]:.4f} steps per new card")
print(f"anki rule:    {anki[0]:.3f} s, {anki[1]:.4f} steps per new card")
