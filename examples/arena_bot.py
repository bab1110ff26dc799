"""A Qwixx bot for `qwixx-math arena` (docs/arena.md), plain Python, standard library only:

    qwixx-math arena greedy "exec:python examples/arena_bot.py" --games 20 --seed 1

It reads one JSON message per line and answers action1/action2 with the legal mark that
skips the fewest numbers of its row, if it skips at most one (any number at all when action
2 would otherwise cost a penalty); it finds the legal marks itself from the state and from
the sheet layout the new_game message describes (the official sheet if it names none).
"""

import json
import sys

COLOURS = ("red", "yellow", "green", "blue")
UP, DOWN = list(range(2, 13)), list(range(12, 1, -1))
OFFICIAL = {"lock_threshold": 5, "rows": [  # what a new_game message without "layout" means
    {"lock": c, "numbers": r, "colours": [c] * 11, "weights": [1] * 11}
    for c, r in zip(COLOURS, (UP, UP, DOWN, DOWN), strict=True)]}


def marks(state, seat, wanted, layout):
    """(numbers skipped, mark) of each legal mark; wanted(cell colour) lists the numbers."""
    found, sheet = [], state["sheets"][seat]
    for row in layout["rows"]:
        lock, numbers = row["lock"], row["numbers"]
        if lock in state["closed"]:
            continue  # a closed row takes no mark (R9)
        done = [numbers.index(n) for n in sheet.get(lock, [])]
        start = max(done) + 1 if done else 0  # left to right (R7)
        crosses = sum(row["weights"][p] for p in done)
        for p in range(start, len(numbers)):
            last = p == len(numbers) - 1  # the lock needs enough crosses (R8, DB2)
            if numbers[p] in wanted(row["colours"][p]) and (
                    not last or crosses >= layout["lock_threshold"]):
                found.append((p - start, f"{lock[0]}{numbers[p]}"))
    return sorted(found)


def legal(kind, seat, state, layout=OFFICIAL):
    """(numbers skipped, mark) of each legal mark of this action."""
    (w1, w2), roll = state["roll"]["white"], state["roll"]
    if kind == "action1":  # the white sum, in any cell (R5)
        return marks(state, seat, lambda c: [w1 + w2], layout)
    # white + a colour die still in play, in a cell of that colour (R6); a colour closed
    # in this turn's action 1 has left play, though the roll still shows its die (R9)
    return marks(state, seat, lambda c: [w1 + roll[c], w2 + roll[c]]
                 if roll.get(c) and c not in state["closed"] else [], layout)


def choose(kind, seat, state, layout=OFFICIAL):
    found = legal(kind, seat, state, layout)
    limit = 1 if kind == "action1" or state["action1"][seat] is not None else 10  # R11
    return found[0][1] if found and found[0][0] <= limit else None


def main():
    seen, layout = 0, OFFICIAL
    for line in sys.stdin if not sys.stdin.isatty() else ():
        seen += 1
        message = json.loads(line)
        if message["type"] == "new_game":
            layout = message.get("layout", OFFICIAL)
        elif message["type"] in ("action1", "action2"):
            mark = choose(message["type"], message["seat"], message["state"], layout)
            print(json.dumps({"mark": mark}), flush=True)
    if not seen:  # run by hand, or with no input (as the examples test does): the usage
        print(__doc__)


if __name__ == "__main__":
    main()
