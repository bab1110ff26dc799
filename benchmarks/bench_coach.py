"""Load test of the coach's advice API on loopback: 200 requests from 20 concurrent clients.

    python benchmarks/bench_coach.py                 # 10 positions x 20 clients, 2 players
    python benchmarks/bench_coach.py --positions 20 --clients 20 --players 3

The server runs in this process on an ephemeral port of 127.0.0.1 (the standard
library's ThreadingHTTPServer, as ``qwixx-math coach`` runs it).  The table is loaded
before the clock starts (one warm-up request), and win rollouts are not asked for: the
advice measured is the table EV of every plan, the tutor's classes and the win model's
chance (docs/coach.md).  For each of ``--positions`` positions (a seeded random game's
prefix, uploaded, then a roll: a decision in the action-1 phase), ``--clients`` threads
start together and each asks once for the advice of one seat (seats in turn).  Every
answer is checked against the table advisor called directly (the same plans, the same
EVs); any error or mismatch is counted and makes the exit code 1.  Printed: p50, p95 and
the maximum latency, the median of 20 requests from one client alone (the work of a
request, without the queue of the others), and the load average (the machine is
shared).  The goal of issue 35: p95 <= 50 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from qwixx_math.coach import CoachGame, make_server  # noqa: E402
from qwixx_math.notation import format_plan, format_roll  # noqa: E402
from qwixx_math.record import GameRecord, random_game  # noqa: E402
from qwixx_math.rules import random_roll  # noqa: E402
from qwixx_math.table import TableAdvisor  # noqa: E402


def _post(url: str, body: Any) -> tuple[int, Any]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            return res.status, json.loads(res.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--positions", type=int, default=10)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--seed", type=int, default=35)
    args = ap.parse_args()

    game = CoachGame(args.players, seed=args.seed)
    server = make_server(game, "127.0.0.1", 0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = server.url.rstrip("/")
    advisor = TableAdvisor.for_ruleset(players=args.players, progress=False)
    rng = random.Random(args.seed)

    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()
    warmed = False
    for k in range(args.positions):
        full = random_game(players=args.players, seed=args.seed + k)
        cut = rng.randrange(len(full.turns))
        prefix = GameRecord(full.players, full.ruleset, full.turns[:cut])
        status, view = _post(base + "/api/record", prefix.to_json())
        assert status == 200, view
        roll = random_roll(rng, game.state.dice_in_play)
        status, view = _post(base + "/api/roll", {"roll": format_roll(roll)})
        assert status == 200, view
        state = game.state
        expected = {p: [(format_plan(r.plan), r.expected_score)
                        for r in advisor.advise_player(state, p).plans]
                    for p in range(args.players)}
        if not warmed:  # the table and the win model loaded before the clock starts
            _post(base + "/api/advice", {"player": 0})
            warmed = True
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
    serial = []  # one client alone at the last position: the compute without the queue
    for i in range(20):
        t0 = time.perf_counter()
        _post(base + "/api/advice", {"player": i % args.players})
        serial.append(1000 * (time.perf_counter() - t0))
    server.shutdown()
    server.server_close()

    ms = sorted(1000 * x for x in latencies)
    p95 = ms[max(0, round(0.95 * len(ms)) - 1)]
    print(f"coach advice API, {args.players} players: {len(ms)} requests from {args.clients} "
          f"concurrent clients over {args.positions} positions (loopback, table loaded, "
          "no win rollouts)")
    print(f"  latency ms: p50 {statistics.median(ms):.1f}, p95 {p95:.1f}, max {ms[-1]:.1f} "
          f"(goal p95 <= 50)")
    print(f"  one client alone, 20 requests: median {statistics.median(serial):.1f} ms")
    print(f"  answers wrong or failed: {len(errors)}")
    for e in errors[:10]:
        print(f"    {e}")
    print(f"  load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} cores")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
