"""A match's statistics: wins with a paired confidence interval, scores, how games ended.

**Win rate.**  A player's share of a game is 1 for a win, 1/k when k players
tie for the highest total (R18), 0 otherwise; ``wins`` is the sum of the shares
and ``win_rate`` their mean.  The ``n`` rotations of one deal (the same dice,
every player in every seat) are one **paired block**: the games of a block are
not independent (they share their luck), so the interval is computed from the
per-block shares ``x_b`` (the player's mean share over the block's ``n``
games), which are independent and identically distributed across deals.  With
``B`` blocks of mean ``m`` and sample standard deviation ``s``:

    ci95 = m -/+ t(0.975, B - 1) * s / sqrt(B)      (Student t), clipped to [0, 1].

With one block the spread is unknown and the interval is ``[0, 1]``; when every
block has the same share it is the point ``[m, m]``.  The interval is about the
win rate *under these dice-generating rules and seat rotation* -- the long-run
rate of this pairing of players; it is no statement about other opponents.

The scores' mean and standard deviation are over all games (sd with ``n - 1``).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..layouts import OFFICIAL, SheetLayout
from ..ruleset import Ruleset
from .faults import Fault
from .match import MatchResult

__all__ = ["MatchReport", "PlayerStats", "paired_ci", "report"]

#: Faults listed in the text report (all are in the JSON).
TEXT_FAULTS = 20


def paired_ci(blocks: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """The Student-t interval of the mean of the per-block shares ``blocks``, in [0, 1]."""
    b = len(blocks)
    if b < 2:
        return (0.0, 1.0)
    mean = math.fsum(blocks) / b
    var = math.fsum((x - mean) ** 2 for x in blocks) / (b - 1)
    if var == 0.0:
        return (mean, mean)
    from scipy import stats  # type: ignore[import-untyped]  # only for the t quantile

    half = float(stats.t.ppf(0.5 + level / 2, b - 1)) * math.sqrt(var / b)
    return (max(0.0, mean - half), min(1.0, mean + half))


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures over a match (see the module docstring).

    ``ended_r14``: games that ended by a second colour closed (R14) in which this
    player closed a colour in the last turn; ``ended_r13``: games ended by this
    player's fourth penalty (R13); ``rows_closed``: colours this player locked, per
    game; ``faults``: the faults charged to this player.
    """

    name: str
    wins: float
    win_rate: float
    ci95: tuple[float, float]
    mean_score: float
    sd_score: float
    ended_r14: int
    ended_r13: int
    rows_closed: float
    faults: int


@dataclass(frozen=True, slots=True)
class MatchReport:
    """The statistics of a :class:`~qwixx_math.arena.match.MatchResult`."""

    players: tuple[str, ...]
    games: int
    deals: int
    seed: int
    ruleset: Ruleset
    stats: tuple[PlayerStats, ...]
    mean_turns: float
    ended_r14: int
    ended_r13: int
    colours_closed: float
    faults: tuple[Fault, ...]
    seconds: float
    layout: SheetLayout = OFFICIAL
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """One object; lists are in the order the players were given."""
        s = self.stats
        return {
            "games": self.games, "deals": self.deals, "seed": self.seed,
            "ruleset": self.ruleset.to_json(), "layout": self.layout.key,
            "players": list(self.players),
            "notes": list(self.notes) if self.notes else [""] * len(self.players),
            "wins": [p.wins for p in s], "win_rate": [p.win_rate for p in s],
            "ci95": [list(p.ci95) for p in s], "mean_score": [p.mean_score for p in s],
            "sd_score": [p.sd_score for p in s],
            "rows_closed_per_game": [p.rows_closed for p in s],
            "ended_by_closing": [p.ended_r14 for p in s],
            "ended_by_penalty": [p.ended_r13 for p in s],
            "faults_per_player": [p.faults for p in s],
            "mean_turns": self.mean_turns,
            "ended": {"R14": self.ended_r14, "R13": self.ended_r13},
            "colours_closed_per_game": self.colours_closed,
            "faults": [f.to_json() for f in self.faults],
            "seconds": self.seconds,
        }

    def to_text(self) -> str:
        """A readable report (no timings, so that it is the same for the same seed)."""
        n = len(self.players)
        lines = [f"arena: {self.games} games ({self.deals} deals x {n} seats), seed {self.seed}, "
                 f"{_describe(self.ruleset)}{_on(self.layout)}",
                 f"{'wins':>7} {'win rate':>8}  {'95% CI':<15} {'mean score':>10} {'sd':>6} "
                 f"{'rows closed':>11} {'ended R14':>9} {'ended R13':>9} {'faults':>6}  player"]
        for p in self.stats:
            ci = f"[{100 * p.ci95[0]:.1f}, {100 * p.ci95[1]:.1f}]"
            lines.append(f"{p.wins:7.1f} {100 * p.win_rate:7.1f}%  {ci:<15} "
                         f"{p.mean_score:10.2f} {p.sd_score:6.2f} {p.rows_closed:11.2f} "
                         f"{p.ended_r14:9d} {p.ended_r13:9d} {p.faults:6d}  {p.name}")
        lines.append(f"games ended: {self.ended_r14} by a second colour closed (R14), "
                     f"{self.ended_r13} by a fourth penalty (R13); mean length "
                     f"{self.mean_turns:.1f} turns; {self.colours_closed:.2f} colours closed "
                     "per game")
        lines.extend(f"note: {name}: {note}" for name, note
                     in zip(self.players, self.notes, strict=False) if note)
        lines.append("win rate: ties shared; 95% CI in percent, paired by deal "
                     "(docs/arena.md)")
        if self.faults:
            lines.append(f"faults: {len(self.faults)}")
            lines.extend(f"  {f.describe()}" for f in self.faults[:TEXT_FAULTS])
            if len(self.faults) > TEXT_FAULTS:
                lines.append(f"  ... and {len(self.faults) - TEXT_FAULTS} more (see --json)")
        else:
            lines.append("faults: none")
        return "\n".join(lines)


def _describe(ruleset: Ruleset) -> str:
    if ruleset.is_official:
        return f"official rules for {ruleset.players} players"
    default = Ruleset(players=ruleset.players).to_json()
    # an Option's key (lg_lucky_mode, ...) is in the JSON only when it is not the default
    changed = [f"{k}={json.dumps(v)}" for k, v in ruleset.to_json().items()
               if default.get(k) != v]
    return f"{ruleset.players} players, " + ", ".join(changed)


def _on(layout: SheetLayout) -> str:
    """The layout named in the report's first line (nothing for the official sheet, as
    before layouts came to the arena)."""
    return "" if layout.is_official else f", on the {layout.key} sheet"


def report(result: MatchResult) -> MatchReport:
    """The statistics of ``result``."""
    games = result.games
    n = len(result.players)
    count = len(games)
    deals = count // n
    stats = []
    for i, name in enumerate(result.players):
        shares = [g.share(i) for g in games]
        blocks = [math.fsum(shares[d * n:(d + 1) * n]) / n for d in range(deals)]
        scores = [g.scores[i] for g in games]
        mean = math.fsum(scores) / count
        sd = (math.sqrt(math.fsum((x - mean) ** 2 for x in scores) / (count - 1))
              if count > 1 else 0.0)
        stats.append(PlayerStats(
            name=name, wins=math.fsum(shares), win_rate=math.fsum(shares) / count,
            ci95=paired_ci(blocks), mean_score=mean, sd_score=sd,
            ended_r14=sum(1 for g in games if g.ended_by == "R14" and i in g.enders),
            ended_r13=sum(1 for g in games if g.ended_by == "R13" and i in g.enders),
            rows_closed=sum(g.rows_closed[i] for g in games) / count,
            faults=sum(1 for f in result.faults if f.player == i)))
    return MatchReport(
        players=result.players, games=count, deals=deals, seed=result.seed,
        ruleset=result.ruleset, stats=tuple(stats),
        mean_turns=sum(g.turns for g in games) / count,
        ended_r14=sum(1 for g in games if g.ended_by == "R14"),
        ended_r13=sum(1 for g in games if g.ended_by == "R13"),
        colours_closed=sum(len(g.final.closed) for g in games) / count,
        faults=result.faults, seconds=result.seconds, layout=result.layout,
        notes=result.notes)
