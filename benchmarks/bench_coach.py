"""Load test of the coach's advice API on loopback: 200 requests from 20 concurrent clients.

    python benchmarks/bench_coach.py                 # 10 positions x 20 clients, 2 players
    python benchmarks/bench_coach.py --positions 20 --clients 20 --players 3
    python benchmarks/bench_coach.py --in-process    # the server as a thread of this process

The server is ``qwixx-math coach --no-browser --port 0`` in a process of its own on
127.0.0.1, as a player runs it (``--in-process``: the standard library's server in a
thread of this process, sharing one interpreter with the client threads).  The table is
loaded before the clock starts (one warm-up request), and win rollouts are not asked
for: the advice measured is the table EV of every plan, the tutor's classes and the win
model's chance (docs/coach.md).  For each of ``--positions`` positions (a seeded random
game's prefix, uploaded, then a roll: a decision in the action-1 phase), ``--clients``
threads start together and each asks once for the advice of one seat (seats in turn).
The clients of a position ask about one state, so the server computes each seat's
advice once and serves the others from its cache
(:class:`~qwixx_math.coach.coaching.AdviceCache`), as at a table where several tabs ask
about the same roll.  Every answer is checked against the table advisor called here
(the same plans, the same EVs); any error or mismatch is counted and makes the exit
code 1.  Printed: p50, p95 and the maximum latency; the median of 20 requests from one
client alone (the work of a request without the queue of the others), served from the
cache and, on 20 new positions, computed; and the load average (the machine is shared).
The goal of issue 35: p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import statistics
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_math.coach import CoachGame, CoachServer, make_server  # noqa: E402
from qwixx_math.model import Roll  # noqa: E402
from qwixx_math.notation import format_plan, format_roll  # noqa: E402
from qwixx_math.record import GameRecord, random_game, replay  # noqa: E402
from qwixx_math.rules import GameState, random_roll  # noqa: E402
from qwixx_math.table import TableAdvisor  # noqa: E402


def _post(url: str, body: Any) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


class _Server:
    """The coach under test: ``qwixx-math coach`` in a process of its own, as a player runs
    it (default), or (``in_process``) a server thread beside the clients."""

    def __init__(self, players: int, seed: int, in_process: bool) -> None:
        self.proc: subprocess.Popen[str] | None = None
        self.server: CoachServer | None = None
        if in_process:
            self.server = make_server(CoachGame(players, seed=seed), "127.0.0.1", 0)
            threading.Thread(target=self.server.serve_forever, daemon=True).start()
            self.base = self.server.url.rstrip("/")
            return
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "qwixx_math", "coach", "--no-browser", "--port", "0",
             "--players", str(players), "--seed", str(seed)],
            stdout=subprocess.PIPE, text=True, env=env, cwd=str(ROOT))
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        match = re.search(r"serving on (http://127\.0\.0\.1:\d+)/", line)
        if match is None:
            self.stop()
            raise SystemExit(f"the coach did not start: {line!r}")
        self.base = match.group(1)

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


def _position(players: int, seed: int, rng: random.Random) -> tuple[GameRecord, Roll, GameState]:
    """A seeded random game's prefix, a roll, and the state they make (action-1 phase)."""
    full = random_game(players=players, seed=seed)
    prefix = GameRecord(full.players, full.ruleset, full.turns[:rng.randrange(len(full.turns))])
    before = replay(prefix)[-1]
    roll = random_roll(rng, before.dice_in_play)
    return prefix, roll, before.with_roll(roll)


def _show(base: str, prefix: GameRecord, roll: Roll) -> None:
    status, view = _post(base + "/api/record", prefix.to_json())
    assert status == 200, view
    status, view = _post(base + "/api/roll", {"roll": format_roll(roll)})
    assert status == 200, view


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=35)
    ap.add_argument("--in-process", action="store_true",
                    help="run the server as a thread of this process (the clients then share "
                         "its interpreter)")
    args = ap.parse_args()

    advisor = TableAdvisor.for_ruleset(players=args.players, progress=False)
    rng = random.Random(args.seed)
    server = _Server(args.players, args.seed, args.in_process)
    base = server.base

    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    try:
        for k in range(args.positions):
            prefix, roll, state = _position(args.players, args.seed + k, rng)
            _show(base, prefix, roll)
            expected = {p: [(format_plan(r.plan), r.expected_score)
                            for r in advisor.advise_player(state, p).plans]
                        for p in range(args.players)}
            if k == 0:  # the table and the win model loaded before the clock starts
                _post(base + "/api/advice", {"player": 0})
            barrier = threading.Barrier(args.clients)

            def client(i: int, expected: dict[int, list[tuple[str, float]]] = expected,
                       barrier: threading.Barrier = barrier, k: int = k) -> None:
                player = i % args.players
                barrier.wait()
                t0 = time.perf_counter()
                try:
                    status, answer = _post(base + "/api/advice", {"player": player})
                except OSError as exc:  # a refused or reset connection is an error too
                    status, answer = 0, {"error": repr(exc)}
                dt = time.perf_counter() - t0
                got = ([(p["plan"], p["expected_score"]) for p in answer["plans"]]
                       if status == 200 else None)
                with lock:
                    latencies.append(dt)
                    if got != expected[player]:
                        errors.append(f"position {k}, seat {player}: HTTP {status} "
                                      f"{str(answer.get('error', ''))[:80]}")

            threads = [threading.Thread(target=client, args=(i,)) for i in range(args.clients)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
        cached = []  # one client alone at the last position: served from the advice cache
        for i in range(20):
            t0 = time.perf_counter()
            _post(base + "/api/advice", {"player": i % args.players})
            cached.append(1000 * (time.perf_counter() - t0))
        computed = []  # one client alone on 20 new positions: the advice computed afresh
        for i in range(20):
            _show(base, *_position(args.players, args.seed + 1000 + i, rng)[:2])
            t0 = time.perf_counter()
            _post(base + "/api/advice", {"player": i % args.players})
            computed.append(1000 * (time.perf_counter() - t0))
    finally:
        server.stop()

    ms = sorted(1000 * x for x in latencies)
    p95 = ms[max(0, round(0.95 * len(ms)) - 1)]
    where = "a thread of the clients' process" if args.in_process else "a process of its own"
    print(f"coach advice API, {args.players} players: {len(ms)} requests from {args.clients} "
          f"concurrent clients over {args.positions} positions (loopback, server in {where}, "
          "table loaded, no win rollouts)")
    print(f"  latency ms: p50 {statistics.median(ms):.1f}, p95 {p95:.1f}, max {ms[-1]:.1f} "
          f"(goal p95 <= 50)")
    print(f"  one client alone, median of 20 requests: {statistics.median(cached):.1f} ms "
          f"(answered from the advice cache), {statistics.median(computed):.1f} ms "
          "(new positions, computed)")
    print(f"  answers wrong or failed: {len(errors)}")
    for e in errors[:10]:
        print(f"    {e}")
    print(f"  load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
