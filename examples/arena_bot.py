"""A Qwixx bot for `qwixx-math arena` (docs/arena.md), plain Python, standard library only:

    qwixx-math arena greedy "exec:python examples/arena_bot.py" --games 20 --seed 1

It reads one JSON message per line and answers action1/action2 with the legal mark that
skips the fewest numbers of its row, if it skips at most one (any number at all when action
2 would otherwise cost a penalty); it finds the legal marks itself from the state.
"""

import json
import sys


def marks(state, seat, numbers):
    """(numbers skipped, mark) of each legal mark; numbers(colour) lists the candidates."""
    found, sheet = [], state["sheets"][seat]
    for colour in ("red", "yellow", "green", "blue"):
        row = list(range(2, 13)) if colour in ("red", "yellow") else list(range(12, 1, -1))
        done = sheet[colour]
        start = row.index(done[-1]) + 1 if done else 0  # left to right (R7)
        for n in numbers(colour) if colour not in state["closed"] else ():
            if row.index(n) >= start and (n != row[-1] or len(done) >= 5):  # lock (R8)
                found.append((row.index(n) - start, f"{colour[0]}{n}"))
    return sorted(found)


def choose(kind, seat, state):
    (w1, w2), roll = state["roll"]["white"], state["roll"]
    if kind == "action1":
        found, limit = marks(state, seat, lambda c: [w1 + w2]), 1
    else:  # only the active player is asked; white + a colour still in play (R6)
        found = marks(state, seat, lambda c: [w1 + roll[c], w2 + roll[c]] if c in roll else [])
        limit = 1 if state["action1"][seat] is not None else 10  # no penalty (R11)
    return found[0][1] if found and found[0][0] <= limit else None


def main():
    seen = 0
    for line in sys.stdin if not sys.stdin.isatty() else ():
        seen += 1
        message = json.loads(line)
        if message["type"] in ("action1", "action2"):
            mark = choose(message["type"], message["seat"], message["state"])
            print(json.dumps({"mark": mark}), flush=True)
    if not seen:  # run by hand, or with no input (as the examples test does): the usage
        print(__doc__)


if __name__ == "__main__":
    main()
