#!/usr/bin/env python3
"""Wall time to complete a search depth on the bench positions, one thread,
for several arimaa builds measured in the same run.

Usage: python3 benches/time_to_depth.py [--depth 8] [--rounds 1] [--timeout S]
                                        [--params NAME=FILE ...]
                                        BINARY[=NAME] [BINARY[=NAME] ...]

Each round runs `BINARY bench --depth D` for every binary in turn (alternating,
so all meet the same moments of a shared machine) and reads the per-position
times it prints; the table gives, per binary, each position's best time over
the rounds, their sum and nodes, and the ratio to the first binary. A binary
that exceeds --timeout on a round is reported as such and the rest go on.
`--params NAME=FILE` runs the binary named NAME with `bench --params FILE`
(the same binary may appear twice under two names, with and without).
Measure on a quiet machine: nothing else may use the CPU meanwhile.
"""
import argparse
import subprocess
import sys


def run(binary, depth, timeout, params=None):
    """[(nodes, ms)] per bench position, or None on timeout."""
    extra = ["--params", params] if params else []
    try:
        out = subprocess.run([binary, "bench", "--depth", str(depth)] + extra, capture_output=True,
                             text=True, timeout=timeout, check=True).stdout
    except subprocess.TimeoutExpired:
        return None
    rows = []
    for line in out.splitlines():
        parts = line.split()
        if len(parts) > 4 and parts[1] == "nodes" and parts[3] == "ms":
            rows.append((int(parts[0]), float(parts[2])))
    if not rows:
        sys.exit(f"error: no bench lines from {binary}:\n{out}")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("binaries", nargs="+", help="arimaa binaries, optionally BINARY=NAME")
    ap.add_argument("--depth", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--timeout", type=float, default=1800.0, help="seconds per bench run")
    ap.add_argument("--params", action="append", default=[], metavar="NAME=FILE",
                    help="run binary NAME with `bench --params FILE`")
    args = ap.parse_args()
    params = dict(p.split("=", 1) for p in args.params)
    named = [(b.split("=", 1) + [b])[:2] for b in args.binaries]
    best = {name: None for _, name in named}
    nodes = {}
    for _ in range(args.rounds):
        for binary, name in named:
            rows = run(binary, args.depth, args.timeout, params.get(name))
            if rows is None:
                print(f"{name}: over {args.timeout:.0f} s at depth {args.depth}", file=sys.stderr)
                continue
            nodes[name] = sum(n for n, _ in rows)
            times = [ms for _, ms in rows]
            best[name] = times if best[name] is None else [min(a, b) for a, b in zip(best[name], times)]
    print(f"depth {args.depth}, best of {args.rounds} round(s), one thread")
    first = None
    for _, name in named:
        if best[name] is None:
            print(f"{name:>16}: timed out")
            continue
        total = sum(best[name]) / 1000
        first = first or total
        per = " ".join(f"{ms / 1000:.2f}" for ms in best[name])
        print(f"{name:>16}: {total:8.2f} s  {nodes[name]:>12,} nodes  x{total / first:.3f}   [{per}]")


if __name__ == "__main__":
    main()
