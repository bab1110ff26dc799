"""Write ``tests/data/replay_hashes.json``: the hashes of seeded random games on every pad.

``tests/replay_cases.py`` says which games (every pad, every chooser, three rulesets);
``tests/test_rules_replay.py`` plays them again and compares, so that a change of the
rules core that changes a legal move, its order or a roll fails.  Rewrite the file only
for a deliberate change of the games (a rule fixed), and say so in the commit::

    python tests/data/make_replay_hashes.py            # rewrites the file
    python tests/data/make_replay_hashes.py --check    # only compares
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from replay_cases import game_hashes

OUT = Path(__file__).with_name("replay_hashes.json")
#: Seeded games per case (seeds 0 to GAMES - 1).
GAMES = 12


def main(argv: list[str]) -> int:
    hashes = game_hashes(GAMES)
    if "--check" in argv:
        stored = json.loads(OUT.read_text())
        differ = sorted(k for k in stored["cases"] if stored["cases"][k] != hashes.get(k))
        print("differ:", ", ".join(differ) if differ else "none")
        return 1 if differ else 0
    OUT.write_text(json.dumps({"games": GAMES, "cases": hashes}, indent=1) + "\n")
    print(f"wrote {OUT}: {len(hashes)} cases, {GAMES} games each")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
