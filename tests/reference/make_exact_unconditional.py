"""Regenerate exact_unconditional.json: tests/oracles.py's exact unconditional test (Suissa & Shuster 1991)
for the reference tables too large to enumerate in a unit test's time.

    python3 tests/reference/make_exact_unconditional.py > tests/reference/exact_unconditional.json

Each row: n tasks, b A only, c B only, the p-value, and the least |z| at which the test of n tasks rejects
at 95% and at 99% (ψ on 2,001 points; a few minutes).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.oracles import exact_critical, exact_p  # noqa: E402

GRID = 2000
TABLES = ((54, 0, 0), (60, 12, 3), (60, 57, 1), (86, 16, 8), (100, 7, 0), (161, 6, 16), (500, 40, 25))


def main() -> None:
    rows = [{"n": n, "b": b, "c": c, "p": exact_p(b, c, n, GRID), "critical_95": exact_critical(n, 0.05, GRID),
             "critical_99": exact_critical(n, 0.01, GRID)} for n, b, c in TABLES]
    json.dump({"source": f"tests/reference/make_exact_unconditional.py (tests/oracles.py, grid {GRID})",
               "rows": rows}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
