"""``exec:COMMAND``: an external program that plays through the arena's line protocol.

One process per player for the whole match, started from ``COMMAND`` (split
like a POSIX shell would, :func:`shlex.split`; no shell runs it).  Each message
is one JSON object on one line of the program's standard input; a reply is one
line on its standard output (its standard error passes through, see below):

* ``{"type": "new_game", "seat": P, "state": STATE, "layout": LAYOUT}`` -- no reply;
* ``{"type": "action1", "seat": P, "state": STATE}`` -- reply ``{"mark": "r8"}``
  or ``{"mark": null}``;
* ``{"type": "action2", "seat": P, "state": STATE}`` -- reply likewise;
* ``{"type": "game_over", "seat": P, "state": STATE}`` -- no reply.

``STATE`` is :meth:`GameState.to_json`; ``LAYOUT`` is the sheet every seat plays
(:func:`layout_to_json`: its name, every row's numbers, cell colours and crosses
per cell, the lock threshold; on every layout, the official sheet included, so a
bot that knows no layout names can play any; on Qwixx Longo also the dice's faces,
the lock numbers per row, the lucky numbers and the lucky Options, LG1-LG5; on Double A
the second-cross boxes, DA1, DA4; on Bonus A the boxed cells and the bar, BA1; on Bonus B
the symbols and their Options, BB1-BB3; on Connected Steps the step cells, CS2; on Connected
Chain the chain pairs, CC1; on X-Change the track's fields and the Option XC4).  A reply may
be a second cross (``"b6+"``, DA1) or an X-Change exchange (``"r3@x2"``, a field spent alone
``"x2"``, XC1, XC4), or a lucky cross on a sheet with lucky numbers (``"*y10"``,
``"r13+*y10"``, or the object form of :func:`~qwixx_math.notation.mark_to_json`), and
numbers run to the layout's top number (16 on Longo).  Every problem raises
:class:`~qwixx_math.arena.faults.PlayerFault` for the referee: a reply that is
not one JSON object ``{"mark": MARK}`` (``protocol:malformed``), no reply within
the time limit (``protocol:late``: the late reply, when it comes, is skipped;
after :data:`MAX_LATE` late replies in a row, or a program that does not read
its input for that long, the program is stopped), a program that exits or
closes its pipes (``protocol:exit``).  A stopped program's seat passes for the
rest of the match without further reports.  Whether a mark is legal is the
referee's business, not this adapter's.

Reads and writes go through :mod:`selectors` on non-blocking pipes, so nothing
blocks longer than the time limit (POSIX).

**Process groups.**  Each program is started in a session and process group of
its own, so the processes it starts (``sh -c 'helper & exec bot'``) are ended
with it: :meth:`ExternalPlayer.close` sends SIGTERM to the whole group and
SIGKILL to what is left after :data:`EXIT_GRACE` seconds.  Nothing the program
started outlives the match, and none keeps the arena's standard error (a
pipeline ``qwixx-math arena ... 2>&1 | cat``) open after it.  A terminal's
Ctrl-C reaches the arena only: the command line ends every program still
running (:func:`close_all`) before it exits.  A program that leaves its group
itself (``setsid``) is beyond the arena's reach.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shlex
import signal
import subprocess
import time
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Generic, TypeVar

from ..errors import ParseError, QwixxError
from ..layouts import OFFICIAL, SYMBOL_NAMES, SheetLayout
from ..model import Mark
from ..notation import mark_from_json, parse_lucky_mark
from ..rules import GameState
from ..ruleset import Ruleset
from .faults import EXIT, LATE, MALFORMED, PlayerFault

__all__ = ["DEFAULT_TIMEOUT", "EXIT_GRACE", "MAX_LATE", "MAX_LINE", "PREFIX", "ExternalPlayer",
           "close_all", "layout_to_json", "parse_reply"]

#: Seconds a program may take for a reply (``--timeout``).
DEFAULT_TIMEOUT = 10.0
#: Late replies in a row after which a program is stopped.
MAX_LATE = 3
#: Longest reply line read (bytes); a longer one is malformed and stops the program.
MAX_LINE = 1 << 20
#: The prefix of an external player's name.
PREFIX = "exec:"
#: Seconds a program is given to exit after its input is closed, and its process group
#: after SIGTERM, before SIGKILL.
EXIT_GRACE = 1.0

_T = TypeVar("_T")

_READ = 65536
#: Seconds between two looks at whether a process (group) has ended.
_POLL = 0.01

#: The programs started and not yet ended (:func:`close_all`).
_LIVE: set[ExternalPlayer] = set()


def close_all() -> None:
    """End every external program still running (its whole process group); for the
    command line's exit and signal handlers.  Safe to call more than once."""
    for player in list(_LIVE):
        player.close()


def layout_to_json(layout: SheetLayout, ruleset: Ruleset | None = None) -> dict[str, Any]:
    """The sheet layout as the ``new_game`` message carries it: ``name`` (a published
    name or the spelled-out :attr:`~qwixx_math.layouts.SheetLayout.key`), ``rows`` (each
    row's ``lock`` colour, its ``numbers`` left to right, the ``colours`` of those cells
    and their ``weights``, the crosses each gives: 2 for a double cell, DB1),
    ``lock_threshold`` (the crosses a row needs before its lock numbers, R8/DB2/LG2),
    ``penalty_boxes`` (R13) and ``closed_rows_to_end`` (R14).

    Only where a layout has them (so that nothing changes on the other pads): ``faces``
    (the dice's sides, 8 on Longo, LG1), ``lock_cells`` (the row's last numbers that
    each close it, 2 on Longo, LG2) and ``lucky`` (the sheet's lucky numbers, LG3) with,
    when ``ruleset`` is given, the Options ``lucky_mode`` (``instead`` or ``additional``,
    LG4) and ``lucky_candidates`` (``open_rows`` or ``open_with_next_cell``, LG5);
    ``bonus_rows`` (true on Big Points: the bonus rows RY and GB, BP1) with, when
    ``ruleset`` is given, ``bonus_trigger`` (``same_colour`` or ``either_adjacent``, BP3).
    A state's sheets then list their bonus crosses (``"bonus_rows": {"ry": [...], "gb":
    [...]}``) and a reply may cross a bonus cell (``"ry5"``, ``"gb8"``).
    ``second_crosses`` (true on Double A, DA1: each row also lists its ``second_boxes``,
    true under every number but its last) with, when ``ruleset`` is given, ``da_same_turn``
    (DA4); a state's sheets list their second crosses (``"seconds": {"blue": [6]}``) and a
    reply may be one (``"b6+"``).  ``boxed`` and ``bar`` (Bonus A, BA1: the boxed cells as
    ``[lock colour, number]`` and the bar's field colours, left to right; a state's sheets
    carry their ``"bar"``, forced crosses included in their rows).  ``symbols`` (Bonus B,
    BB1: each symbol's two cells as ``[lock colour, number]``) with, when ``ruleset`` is
    given, ``fewest_candidates`` (BB2) and ``diamond_order`` (BB3).  ``steps`` (Connected
    Steps, CS2: the step cells as ``[lock colour, number]``, ordinary cells in play that
    score a fifth group, T(step cells crossed), on top of the rows).  ``chain`` (Connected
    Chain, CC1: the pairs of chain cells, each two ``[lock colour, number]``; crossing one
    crosses its partner at once, left of the row's frontier or in a closed row too, CC2,
    moving the frontier when right of it, CC3, and counting for the lock, CC5; a state's
    sheets show the partners in their rows).  ``exchange`` (X-Change, XC1: the track's
    fields left to right, each a pair of numbers ``[8, 5]`` usable both ways) with, when
    ``ruleset`` is given, ``xc_field_without_cross`` (XC4); a state's sheets list the fields
    used (``"exchange": [0, 2]``, XC2), and an action-1 reply may exchange the white sum for
    the other number of a field's pair (``"r3@x2"``) or, under ``xc_field_without_cross``,
    spend a field alone (``"x2"``).

    >>> from qwixx_math.layouts import DOUBLE_B, LONGO
    >>> row = layout_to_json(DOUBLE_B)["rows"][0]
    >>> row["lock"], row["numbers"][:3], row["weights"][:3]
    ('red', [2, 3, 4], [1, 2, 1])
    >>> pad = layout_to_json(LONGO.with_lucky((5, 13)), Ruleset(2))
    >>> pad["faces"], pad["lock_cells"], pad["lucky"], pad["lucky_mode"]
    (8, 2, [5, 13], 'instead')
    >>> from qwixx_math.layouts import BONUS_A, BONUS_B, DOUBLE_A
    >>> pad = layout_to_json(DOUBLE_A, Ruleset(2))
    >>> pad["second_crosses"], pad["rows"][0]["second_boxes"][-2:], pad["da_same_turn"]
    (True, [True, False], True)
    >>> pad = layout_to_json(BONUS_A)
    >>> pad["boxed"][:2], pad["bar"][:3]
    ([['red', 3], ['red', 6]], ['red', 'yellow', 'green'])
    >>> layout_to_json(BONUS_B)["symbols"]["circle"]
    [['yellow', 11], ['green', 9]]
    >>> from qwixx_math.layouts import CONNECTED_CHAIN, CONNECTED_STEPS, X_CHANGE
    >>> layout_to_json(CONNECTED_STEPS)["steps"][:3]
    [['red', 2], ['red', 5], ['red', 10]]
    >>> layout_to_json(CONNECTED_CHAIN)["chain"][0]
    [['red', 6], ['yellow', 6]]
    >>> pad = layout_to_json(X_CHANGE, Ruleset(2))
    >>> pad["exchange"][:3], pad["xc_field_without_cross"]
    ([[8, 5], [9, 7], [11, 3]], False)
    """
    out: dict[str, Any] = {
        "name": layout.key,
        "rows": [{"lock": lock.value, "numbers": list(numbers),
                  "colours": [c.value for c in colours], "weights": list(weights)}
                 for lock, numbers, colours, weights
                 in zip(layout.locks, layout.numbers, layout.colours, layout.weights,
                        strict=True)],
        "lock_threshold": layout.lock_threshold,
        "penalty_boxes": layout.penalty_boxes,
        "closed_rows_to_end": layout.closed_rows_to_end,
    }
    if layout.faces != OFFICIAL.faces:
        out["faces"] = layout.faces
    if layout.lock_cells != OFFICIAL.lock_cells:
        out["lock_cells"] = layout.lock_cells
    if layout.lucky:
        out["lucky"] = list(layout.lucky)
        if ruleset is not None:
            out["lucky_mode"] = ruleset.lg_lucky_mode.value
            out["lucky_candidates"] = ruleset.lg_lucky_candidates.value
    if layout.bonus_rows:  # Big Points (BP1, BP3)
        out["bonus_rows"] = True
        if ruleset is not None:
            out["bonus_trigger"] = ruleset.bp_colour_trigger.value
    if layout.second_crosses:  # Double A: a box under every number but a row's last (DA1)
        out["second_crosses"] = True
        for row in out["rows"]:
            row["second_boxes"] = [True] * (len(row["numbers"]) - 1) + [False]
        if ruleset is not None:
            out["da_same_turn"] = ruleset.da_same_turn
    if layout.steps:  # Connected Steps: the step cells, a fifth scoring group (CS2)
        out["steps"] = [_cell(layout, cell) for cell in layout.steps]
    if layout.chain:  # Connected Chain: the pairs whose partner is crossed at once (CC1)
        out["chain"] = [[_cell(layout, cell) for cell in pair] for pair in layout.chain]
    if layout.exchange:  # X-Change: the track's fields (XC1, XC2) and the Option XC4
        out["exchange"] = [list(pair) for pair in layout.exchange]
        if ruleset is not None:
            out["xc_field_without_cross"] = ruleset.xc_field_without_cross
    if layout.boxed:  # Bonus A: the boxed cells and the bonus bar (BA1)
        out["boxed"] = [_cell(layout, cell) for cell in layout.boxed]
        out["bar"] = [colour.value for colour in layout.bar]
    if layout.symbols:  # Bonus B: each symbol's two cells (BB1), the Options (BB2, BB3)
        out["symbols"] = {name: [_cell(layout, cell) for cell in cells]
                          for name, cells in zip(SYMBOL_NAMES, layout.symbols, strict=True)}
        if ruleset is not None:
            out["fewest_candidates"] = ruleset.bb_fewest_candidates.value
            out["diamond_order"] = ruleset.bb_diamond_order.value
    return out


def _cell(layout: SheetLayout, cell: tuple[int, int]) -> list[object]:
    """A cell ``(row index, position)`` as the protocol names it: ``[lock colour, number]``
    (``["red", 3]``), the row and number a mark names."""
    row, position = cell
    return [layout.locks[row].value, layout.numbers[row][position]]


@lru_cache(maxsize=8)
def _layout_text(layout: SheetLayout, ruleset: Ruleset) -> str:
    """The JSON text of the ``new_game`` message's layout (a match plays one layout)."""
    return json.dumps(layout_to_json(layout, ruleset))


class _LastText(Generic[_T]):
    """The JSON text of the last value serialised (every seat is shown the same state)."""

    def __init__(self, to_json: Callable[[_T], object]) -> None:
        self._to_json = to_json
        self._value: _T | None = None
        self._text = ""

    def of(self, value: _T) -> str:
        if value is not self._value:
            self._text = json.dumps(self._to_json(value))
            self._value = value
        return self._text


_STATE_TEXT = _LastText[GameState](GameState.to_json)


class _Late(Exception):
    """No complete line before the deadline."""


class ExternalPlayer:
    """A player that is an external program (``exec:COMMAND``); :meth:`close` ends it.

    Raises :class:`~qwixx_math.errors.ParseError` when ``command`` is empty or
    unbalanced and :class:`~qwixx_math.errors.QwixxError` when the program cannot
    be started.
    """

    def __init__(self, command: str, timeout: float = DEFAULT_TIMEOUT) -> None:
        if not (isinstance(timeout, (int, float)) and not isinstance(timeout, bool)
                and 0 < timeout < float("inf")):
            raise ParseError(f"a time limit is a number of seconds > 0, not {timeout!r}")
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise ParseError(f"{PREFIX}{command}: cannot read the command: {exc}") from None
        if not argv:
            raise ParseError(f"{PREFIX}: the command is empty (expected {PREFIX}PROGRAM [ARG ...])")
        self.name = PREFIX + command
        self.timeout = float(timeout)
        self._buffer = bytearray()
        self._eof = False
        self._stale = 0  # late replies still to come (skipped when they do)
        self._late_in_a_row = 0
        #: Why the program no longer plays (None while it does).
        self.stopped: str | None = None
        self._ended = False
        try:
            self._proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                          bufsize=0, start_new_session=True)
        except (OSError, ValueError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
            raise QwixxError(f"{EXIT}: {self.name}: cannot start {argv[0]!r}: {reason}"
                             ) from None
        self._selector = selectors.DefaultSelector()
        _LIVE.add(self)  # at once: a signal from here on finds the program in close_all()
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._in = self._proc.stdin.fileno()
        self._out = self._proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)

    # -- the Player protocol ------------------------------------------------------------------
    def new_game(self, seat: int, state: GameState) -> None:
        self._send("new_game", seat, state,
                   f', "layout": {_layout_text(state.layout, state.ruleset)}')

    def action1(self, seat: int, state: GameState) -> Mark | None:
        return self._ask("action1", seat, state)

    def action2(self, seat: int, state: GameState) -> Mark | None:
        return self._ask("action2", seat, state)

    def game_over(self, seat: int, state: GameState) -> None:
        self._send("game_over", seat, state)

    # -- messages -----------------------------------------------------------------------------
    def _send(self, kind: str, seat: int, state: GameState, more: str = "") -> bool:
        """Write one message (``more``: further fields, as JSON text after a comma); False
        (silently) when the program was stopped before."""
        if self.stopped is not None:
            return False
        line = f'{{"type": "{kind}", "seat": {seat}, "state": {_STATE_TEXT.of(state)}{more}}}\n'
        data = memoryview(line.encode())
        deadline = time.monotonic() + self.timeout
        while data:
            try:
                written = os.write(self._in, data)
            except BlockingIOError:
                if not self._wait(self._in, selectors.EVENT_WRITE, deadline):
                    self._stop(f"it did not read its input for {self.timeout:g} s")
                    raise PlayerFault(LATE, f"the program did not read its input for "
                                            f"{self.timeout:g} s; it was stopped") from None
                continue
            except OSError:
                raise self._exited() from None
            data = data[written:]
        return True

    def _ask(self, kind: str, seat: int, state: GameState) -> Mark | None:
        if not self._send(kind, seat, state):
            return None
        deadline = time.monotonic() + self.timeout
        try:
            while self._stale:
                self._readline(deadline)
                self._stale -= 1
            line = self._readline(deadline)
        except _Late:
            self._stale += 1
            self._late_in_a_row += 1
            message = f"no reply to {kind} within {self.timeout:g} s"
            if self._late_in_a_row >= MAX_LATE:
                self._stop(f"{MAX_LATE} late replies in a row")
                message += f"; stopped after {MAX_LATE} late replies in a row"
            raise PlayerFault(LATE, message) from None
        self._late_in_a_row = 0
        return parse_reply(line, state.layout)

    def _readline(self, deadline: float) -> str:
        """The next reply line (without its end); raises _Late, or PlayerFault at the end."""
        buffer = self._buffer
        while True:
            end = buffer.find(b"\n")
            if end >= 0:
                line = bytes(buffer[:end])
                del buffer[:end + 1]
                return line.decode("utf-8", errors="replace").rstrip("\r")
            if self._eof:
                raise self._exited()
            if len(buffer) > MAX_LINE:
                self._stop("a reply line too long")
                raise PlayerFault(MALFORMED, f"a reply line longer than {MAX_LINE} bytes; "
                                             "the program was stopped")
            if not self._wait(self._out, selectors.EVENT_READ, deadline):
                raise _Late
            try:
                chunk = os.read(self._out, _READ)
            except BlockingIOError:
                continue
            except OSError:
                chunk = b""
            if chunk:
                buffer += chunk
            else:
                self._eof = True

    def _wait(self, fd: int, event: int, deadline: float) -> bool:
        """Whether ``fd`` is ready for ``event`` before ``deadline``."""
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        self._selector.register(fd, event)
        try:
            return bool(self._selector.select(remaining))
        finally:
            self._selector.unregister(fd)

    def _exited(self) -> PlayerFault:
        try:
            code = self._proc.wait(timeout=EXIT_GRACE)
            how = f"exited with code {code}"
        except subprocess.TimeoutExpired:
            how = "closed its output"
        self._stop(how)
        return PlayerFault(EXIT, f"the program {how}; its seat passes for the rest of the match")

    def _stop(self, reason: str) -> None:
        if self.stopped is None:
            self.stopped = reason
            self._kill()

    # -- the end ------------------------------------------------------------------------------
    def close(self) -> None:
        """Close the program's input, give it :data:`EXIT_GRACE` seconds to exit, then end
        its process group (SIGTERM, SIGKILL after :data:`EXIT_GRACE` seconds).  Calling it
        again (also after an interrupted call) finishes the job."""
        if self._ended:
            return
        if self.stopped is None:
            with contextlib.suppress(OSError):
                assert self._proc.stdin is not None
                self._proc.stdin.close()
            _exited_within(self._proc, EXIT_GRACE)
        self._kill()
        self.stopped = self.stopped or "the match is over"

    def _kill(self) -> None:
        """End the program's process group, reap the program, close the pipes."""
        if self._ended:
            return
        proc = self._proc
        _end_group(proc)
        for pipe in (proc.stdin, proc.stdout):
            if pipe is not None:
                with contextlib.suppress(OSError):
                    pipe.close()
        self._selector.close()
        self._ended = True
        _LIVE.discard(self)

    def __enter__(self) -> ExternalPlayer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _exited_within(proc: subprocess.Popen[bytes], seconds: float) -> bool:
    """Whether ``proc`` has exited within ``seconds``, without reaping it where the
    platform allows (a zombie keeps its process group's id from being reused)."""
    deadline = time.monotonic() + seconds
    while proc.returncode is None:
        if not hasattr(os, "waitid"):  # pragma: no cover - macOS: reaping is the only way
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            break
        try:
            if os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOHANG | os.WNOWAIT):
                return True
        except ChildProcessError:  # reaped elsewhere
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(_POLL)
    return proc.returncode is not None


def _signal_group(pgid: int, sig: int) -> bool:
    """Send ``sig`` to the process group ``pgid``; False when it has no process left."""
    try:
        os.killpg(pgid, sig)
    except ProcessLookupError:
        return False
    except PermissionError:  # pragma: no cover - a member changed its user; nothing to do
        return False
    return True


def _end_group(proc: subprocess.Popen[bytes]) -> None:
    """SIGTERM to the process group ``proc`` leads, SIGKILL to whatever is left of it after
    :data:`EXIT_GRACE` seconds, and ``proc`` reaped."""
    pgid = proc.pid  # start_new_session: the program leads a group of its own id
    deadline = time.monotonic() + EXIT_GRACE
    if _signal_group(pgid, signal.SIGTERM):
        _exited_within(proc, EXIT_GRACE)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        # the program is reaped (or hangs on): wait for the rest of its group, if any
        while proc.returncode is not None and _signal_group(pgid, 0):
            if time.monotonic() >= deadline:
                break
            time.sleep(_POLL)
        _signal_group(pgid, signal.SIGKILL)
    proc.wait()


def parse_reply(line: str, layout: SheetLayout = OFFICIAL) -> Mark | None:
    """The mark of a reply line ``{"mark": MARK}`` (MARK null, ``"r8"`` or
    ``{"colour": "red", "number": 8}``, numbers 2 to the ``layout``'s top number; a
    lucky cross ``"*y10"``, ``"r13+*y10"`` or its object form, LG3-LG4; an X-Change
    exchange ``"r3@x2"`` or ``{"colour": "red", "number": 3, "field": 2}``, a field spent
    alone ``"x2"`` or ``{"field": 2}``, XC1, XC4);
    :class:`PlayerFault` with ``protocol:malformed`` for anything else, JSON nested too
    deeply included.  Whether the mark is legal is the referee's business.

    >>> parse_reply('{"mark": "r8"}')
    Mark(colour=<Colour.RED: 'red'>, number=8)
    >>> from qwixx_math.layouts import LONGO
    >>> parse_reply('{"mark": "r15"}', LONGO), str(parse_reply('{"mark": "r13+*y10"}', LONGO))
    (Mark(colour=<Colour.RED: 'red'>, number=15), 'r13+*y10')
    >>> from qwixx_math.layouts import X_CHANGE
    >>> str(parse_reply('{"mark": "r3@x2"}', X_CHANGE)), str(parse_reply('{"mark": "x2"}'))
    ('r3@x2', 'x2')
    >>> parse_reply('[' * 100_000)
    Traceback (most recent call last):
    ...
    qwixx_math.arena.faults.PlayerFault: protocol:malformed: ... is not JSON (nested too deeply)
    """
    try:
        data: Any = json.loads(line)
    except ValueError as exc:  # JSONDecodeError, or a number too long to convert
        raise PlayerFault(MALFORMED, f"the reply {_clip(line)} is not JSON ({exc})") from None
    except RecursionError:
        raise PlayerFault(MALFORMED, f"the reply {_clip(line)} is not JSON "
                                     "(nested too deeply)") from None
    if not isinstance(data, dict) or set(data) != {"mark"}:
        raise PlayerFault(MALFORMED, f'the reply {_clip(line)} is not {{"mark": MARK}}')
    try:
        return _mark(data["mark"], layout.top_number)
    except ParseError as exc:
        raise PlayerFault(MALFORMED, f"the reply {_clip(line)} has no mark: {exc}") from None


def _mark(data: object, top: int) -> Mark | None:
    """:func:`~qwixx_math.notation.mark_from_json` with numbers 2 to ``top``, the text form
    included (``"r15"`` on Longo, whose plain text marks the notation reads only to 12)."""
    try:
        mark = mark_from_json(data, top)
    except ParseError:
        if not (isinstance(data, str) and top > 12 and "*" not in data):
            raise
        try:  # the plain mark read as the cell of a lucky cross: numbers 2..16 (LG1)
            cell = parse_lucky_mark("*" + data)
        except ParseError:
            cell = None
        if cell is None or cell.first is not None or cell.number > top:
            raise
        return Mark(cell.colour, cell.number)
    first = getattr(mark, "first", None)
    for number in (mark.number if mark is not None else 2,
                   first.number if isinstance(first, Mark) else 2):
        if number > top:  # a lucky cross's text reads numbers to 16 on any layout
            raise ParseError(f"a row holds the numbers 2 to {top}, not {number}", rule="R2")
    return mark


def _clip(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")
