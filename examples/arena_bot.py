"""A Qwixx bot for `qwixx-math arena` (docs/arena.md), plain Python, standard library only:

    qwixx-math arena greedy "exec:python examples/arena_bot.py" --games 20 --seed 1

It reads one JSON message per line and answers action1/action2 with the legal mark that
skips the fewest numbers of its row, if it skips at most one (any number at all when action
2 would otherwise cost a penalty); it finds the legal marks itself from the state and from
the sheet layout the new_game message describes (the official sheet if it names none).
On Qwixx Longo it knows the two lock numbers of each row and, with lucky numbers, takes a
lucky cross ("*y10"; "r13+*y10" after its white-sum mark under lucky_mode additional)
like any mark that skips nothing.  On Qwixx Big Points it also crosses the bonus rows
("ry5", "gb8": a cell beside an earlier cross of its column, left to right, BP1-BP4).
On Qwixx Double A it takes second crosses ("b6+": the box under a row's rightmost crossed
number, once, DA1-DA5) like a mark that skips nothing; on Bonus A and B it prefers, among
equal marks, a boxed cell or a symbol's cell (the layout's "boxed" and "symbols"; the
forced crosses that follow are the referee's, and the next state shows them).  On Qwixx
X-Change it also exchanges the white sum on the layout's "exchange" track ("r3@x2": the
pair's other number through a field right of the last one its sheet used, XC1-XC2),
counting each field it skips as half a number and preferring a plain mark at equal cost;
under xc_field_without_cross it spends a field alone ("x2", XC4) when, active, it has no
mark in either action (a field rather than a penalty).  On Connected Chain it counts the
numbers a chain cell's partner (crossed at once, CC1-CC3) skips in its row and prefers the
free partner cross; on Connected Steps it prefers, among equal marks, a step cell ("steps").
"""

import json
import sys

COLOURS = ("red", "yellow", "green", "blue")
UP, DOWN = list(range(2, 13)), list(range(12, 1, -1))
OFFICIAL = {"lock_threshold": 5, "rows": [  # what a new_game message without "layout" means
    {"lock": c, "numbers": r, "colours": [c] * 11, "weights": [1] * 11}
    for c, r in zip(COLOURS, (UP, UP, DOWN, DOWN), strict=True)]}


def cells(row, sheet, layout):
    """(first free position right of the last mark, crosses, lock reached?) of a row."""
    done = [row["numbers"].index(n) for n in sheet.get(row["lock"], [])]
    start = max(done) + 1 if done else 0  # left to right (R7)
    ends = len(row["numbers"]) - layout.get("lock_cells", 1)  # lock numbers (R8, LG2)
    seconds = len(sheet.get("seconds", {}).get(row["lock"], []))  # they count too (DA5)
    return start, sum(row["weights"][p] for p in done) + seconds, start > ends


def open_cell(row, p, crosses, layout):
    """Whether position p may be crossed: a lock number needs enough crosses (R8, DB2, LG2)."""
    return p < len(row["numbers"]) - layout.get("lock_cells", 1) or \
        crosses >= layout["lock_threshold"]


def marks(state, seat, wanted, layout, sheet=None):
    """(numbers skipped, mark) of each legal mark; wanted(cell colour) lists the numbers."""
    found, sheet = [], sheet or state["sheets"][seat]
    for row in layout["rows"]:
        lock, numbers = row["lock"], row["numbers"]
        start, crosses, locked = cells(row, sheet, layout)
        if lock in state["closed"] or locked:
            continue  # a closed row takes no mark (R9)
        for p in range(start, len(numbers)):
            if numbers[p] in wanted(row["colours"][p]) and open_cell(row, p, crosses, layout):
                found.append((p - start, f"{lock[0]}{numbers[p]}"))
        last = numbers[start - 1] if start else None  # the rightmost crossed number
        if start and row.get("second_boxes", [False] * start)[start - 1] and \
                last not in sheet.get("seconds", {}).get(lock, []) and \
                last in wanted(row["colours"][start - 1]):  # its second box, once (DA1, DA3)
            found.append((0, f"{lock[0]}{last}+"))
    return sorted(found)


def lucky(state, sheet, layout):
    """The lucky crosses (LG3, LG5): the next cell of a row with the fewest crosses."""
    rows = [(row, *cells(row, sheet, layout)) for row in layout["rows"]
            if row["lock"] not in state["closed"]]
    free = [r for r in rows if not r[3] and r[1] < len(r[0]["numbers"])
            and open_cell(r[0], r[1], r[2], layout)]
    if state["ruleset"].get("lg_lucky_candidates") == "open_with_next_cell":
        rows = free
    fewest = min((r[2] for r in rows), default=None)
    return [f"*{r[0]['lock'][0]}{r[0]['numbers'][r[1]]}" for r in free if r[2] == fewest]


def after(sheet, mark):
    """The sheet with the plain mark crossed (numbers as text: 'r13')."""
    colour = next(c for c in COLOURS if c[0] == mark[0])
    return {**sheet, colour: [*sheet.get(colour, []), int(mark[1:])]}


def bonus(sheet, layout, sums):
    """(bonus cells skipped, mark) of each bonus cross (Big Points, BP1-BP4); sums(colour)
    lists the numbers a cross may show beside a crossed cell of that colour's row."""
    found = []
    for name, (a, b) in (("ry", ("red", "yellow")), ("gb", ("green", "blue"))):
        numbers = UP if name == "ry" else DOWN
        done = [numbers.index(n) for n in sheet.get("bonus_rows", {}).get(name, [])]
        start = max(done) + 1 if done else 0  # each bonus row left to right (BP4)
        for p in range(start, 11):
            n = numbers[p]
            crossed = [c for c in (a, b) if n in sheet.get(c, [])]  # the column's cells (BP1)
            if any(n in sums(c, crossed) for c in (a, b)):
                found.append((p - start, f"{name}{n}"))
    return found


def exchanges(state, seat, layout, white):
    """(numbers skipped + half the fields lost, mark) of each X-Change mark (XC1, XC2, XC4):
    through a field right of the last one used whose pair holds the white sum, its other
    number in any row ("r3@x2"), or, under xc_field_without_cross, the field alone ("x2",
    costed 99: only ever a way out of a penalty)."""
    found, last = [], max(state["sheets"][seat].get("exchange", []), default=-1)
    for k, (a, b) in enumerate(layout.get("exchange", [])):
        if k > last and white in (a, b):
            lost = (k - last - 1) / 2  # the fields skipped are lost (XC2)
            found += [(skip + lost, f"{m}@x{k}") for skip, m in
                      marks(state, seat, lambda c, n=b if a == white else a: [n], layout)]
            if layout.get("xc_field_without_cross"):
                found.append((99, f"x{k}"))
    return found


def legal(kind, seat, state, layout=OFFICIAL):
    """(numbers skipped, mark) of each legal mark of this action."""
    (w1, w2), roll = state["roll"]["white"], state["roll"]
    if kind == "action1":  # the white sum, in any cell (R5), or a lucky cross (LG3, LG4)
        plain = marks(state, seat, lambda c: [w1 + w2], layout)
        if layout.get("exchange"):  # or exchanged on the X-Change track (XC1)
            plain = sorted(plain + exchanges(state, seat, layout, w1 + w2))
        if layout.get("bonus_rows"):  # the white sum in a bonus cell (BP2)
            plain = sorted(plain + bonus(state["sheets"][seat], layout,
                                         lambda c, crossed: [w1 + w2] if crossed else []))
        if w1 + w2 not in layout.get("lucky", ()):
            return plain
        sheet = state["sheets"][seat]
        found = plain + [(0, m) for m in lucky(state, sheet, layout)]
        if state["ruleset"].get("lg_lucky_mode") == "additional":
            found += [(k, f"{m}+{x}") for k, m in plain
                      for x in lucky(state, after(sheet, m), layout)]
        return sorted(found)
    # white + a colour die still in play, in a cell of that colour (R6); a colour closed
    # in this turn's action 1 has left play, though the roll still shows its die (R9)
    def made(c):
        return [w1 + roll[c], w2 + roll[c]] if roll.get(c) and c not in state["closed"] else []

    found = marks(state, seat, made, layout)
    first = state["action1"][seat]  # DA4: no second cross under this turn's action-1 number
    if first and not layout.get("da_same_turn", True) and not first.get("second"):
        found = [km for km in found if km[1] != f"{first['colour'][0]}{first['number']}+"]
    if layout.get("bonus_rows"):  # white + a die of the row's colours (BP3)
        either = layout.get("bonus_trigger") == "either_adjacent"
        found += bonus(state["sheets"][seat], layout,
                       lambda c, crossed: made(c) if c in crossed or (either and crossed)
                       else [])
    return sorted(found)


def special(layout):
    """The boxed cells (Bonus A), symbol cells (Bonus B) and step cells (Connected Steps,
    CS2) as marks ("r3")."""
    cells = [*layout.get("boxed", []), *(c for two in layout.get("symbols", {}).values()
                                           for c in two), *layout.get("steps", [])]
    return {f"{lock[0]}{number}" for lock, number in cells}


def partner(state, seat, layout, mark):
    """(numbers the chain partner skips, crosses it adds) of a mark on a chain cell
    (Connected Chain, CC1-CC3): the partner, crossed at once, moves its row's frontier
    when it lies right of it; left of it, or in a closed row, it is a free cross."""
    cell = mark.partition("@")[0]
    for pair in layout.get("chain", []):
        for (lock, number), (other, n) in (pair, pair[::-1]):
            if cell == f"{lock[0]}{number}" and not mark.startswith(("ry", "gb")):
                sheet = state["sheets"][seat]
                if n in sheet.get(other, []):
                    return 0, 0
                if other in state["closed"]:  # crossed all the same (CC2)
                    return 0, 1
                row = next(r for r in layout["rows"] if r["lock"] == other)
                start = cells(row, sheet, layout)[0]
                return max(0, row["numbers"].index(n) - start), 1
    return 0, 0


def choose(kind, seat, state, layout=OFFICIAL):
    found, good = legal(kind, seat, state, layout), special(layout)
    limit = 1 if kind == "action1" or state["action1"][seat] is not None else 10  # R11
    ranked = []
    for skip, mark in found:
        lost, gained = partner(state, seat, layout, mark)
        extra = mark.count("*") + mark.count("+") + gained  # crosses beyond the one
        ranked.append(((skip + lost, -extra, "@" in mark, mark not in good), mark))
    ranked.sort()
    if ranked and ranked[0][0][0] <= limit:
        return ranked[0][1]
    alone = [m for _, m in found if m.startswith("x")]  # X-Change fields spent alone (XC4)
    if alone and kind == "action1" and seat == state["active"] and not legal(
            "action2", seat, {**state, "action1": [None] * len(state["sheets"])}, layout):
        return alone[0]  # no mark now nor in action 2: a field rather than a penalty (V6)
    return None


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
