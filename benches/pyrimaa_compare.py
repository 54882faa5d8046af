#!/usr/bin/env python3
"""Turn generation speed against pyrimaa's get_moves, measured in one run.

Usage: python benches/pyrimaa_compare.py [--fixtures FILE] [--binary PATH] [--limit N] [--rounds R]

For every fixture position it times pyrimaa's Position.get_moves() (best of
--repeat runs) and `arimaa perft --file --times` (best of 5 per call, --rounds
calls spread evenly over the pyrimaa timings, best kept per position), checks
that both count the same turns, and prints the median and total speed ratios.
Needs pyrimaa (PyPI `aei`): run it with a venv's Python that has it, e.g.
target/pyrimaa-venv/bin/python, the one `cargo test` provisions.

Why rounds: on a shared VM the arimaa side swings by up to 45 % between
back-to-back runs (its hash tables compete for cache with the neighbours),
while pyrimaa's interpreter-bound timings move by about 4 %. Spreading the
arimaa calls over the run keeps one bad second from deciding the ratio.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from pyrimaa import board

# The repository's oracle data (tools/oracle/generate.py writes it).
MOVEGEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "arimaa-core", "tests", "data",
                       "movegen.jsonl")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fixtures", default=MOVEGEN)
    ap.add_argument("--binary", default="target/release/arimaa")
    ap.add_argument("--limit", type=int, default=0, help="only the first N positions")
    ap.add_argument("--repeat", type=int, default=1, help="pyrimaa runs per position (best is kept)")
    ap.add_argument("--rounds", type=int, default=5, help="arimaa calls spread over the run (best is kept)")
    args = ap.parse_args()

    recs = [json.loads(l) for l in open(args.fixtures) if l.strip()]
    if args.limit:
        recs = recs[: args.limit]
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for r in recs:
            f.write(r["setposition"] + "\n")
        path = f.name

    def arimaa_round():
        out = subprocess.run([args.binary, "perft", "--file", path, "--times"], capture_output=True, text=True, check=True)
        return [line.split() for line in out.stdout.splitlines()]

    ours = arimaa_round()
    every = max(1, len(recs) // max(1, args.rounds - 1))
    py_ms_list = []
    rounds = 1
    for i, (rec, row) in enumerate(zip(recs, ours)):
        side = board.Color.GOLD if rec["side"] == "g" else board.Color.SILVER
        pos = board.parse_short_pos(side, 4, rec["board"])
        best = float("inf")
        for _ in range(args.repeat):
            t = time.perf_counter()
            n = len(pos.get_moves())
            best = min(best, time.perf_counter() - t)
        if n != int(row[0]):
            sys.exit(f"{rec['id']}: pyrimaa counts {n}, arimaa {row[0]}")
        py_ms_list.append(best * 1e3)
        if (i + 1) % every == 0 and rounds < args.rounds:
            rounds += 1
            for j, again in enumerate(arimaa_round()):
                if again[0] != ours[j][0]:
                    sys.exit(f"{recs[j]['id']}: arimaa counted {ours[j][0]}, then {again[0]}")
                ours[j][2] = min(float(ours[j][2]), float(again[2]))

    ratios, py_total, rs_total = [], 0.0, 0.0
    for py_ms, row in zip(py_ms_list, ours):
        rs_ms = float(row[2]) / 1e3
        py_total += py_ms
        rs_total += rs_ms
        ratios.append(py_ms / rs_ms)
    print(f"positions {len(recs)}  counts agree  arimaa rounds {rounds}")
    print(f"pyrimaa get_moves: total {py_total:.0f} ms")
    print(f"arimaa turn count: total {rs_total:.1f} ms")
    print(f"speed ratio: median {statistics.median(ratios):.0f}x, total {py_total / rs_total:.0f}x, "
          f"min {min(ratios):.0f}x, max {max(ratios):.0f}x")


if __name__ == "__main__":
    main()
