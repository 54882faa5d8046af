#!/usr/bin/env python3
"""Writes the project's oracle data with pyrimaa (PyPI package `aei`) as the
rules oracle, or checks a data file against it.

Usage (from anywhere; paths default to the repository's data files):
  python3 tools/oracle/generate.py [--seed N] [--only movegen,standard,tactics] [--out DIR]
  python3 tools/oracle/generate.py check MOVEGEN.jsonl [--limit N]

Writing: `crates/arimaa-core/tests/data/movegen.jsonl` (200 positions with
pyrimaa's counts), `crates/arimaa-core/tests/data/standard_position.json`
and `crates/arimaa-search/tests/data/tactics.jsonl` (40 goal-in-one, 30
stop-the-goal and 20 safe-capture puzzles). Everything random comes from
`--seed`, so the same seed and pyrimaa version write the same bytes (`--out
DIR` writes the three files to DIR instead, to compare). It takes some
minutes: pyrimaa needs about half a second per position to list turns.

Checking: recounts every record of a movegen file with the same counting
function and reports the fields that differ (exit status 1 if any do).
"""
import argparse
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import arbiter  # noqa: E402
import games  # noqa: E402
import records  # noqa: E402

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
MOVEGEN = os.path.join(ROOT, "crates", "arimaa-core", "tests", "data", "movegen.jsonl")
STANDARD = os.path.join(ROOT, "crates", "arimaa-core", "tests", "data", "standard_position.json")
TACTICS = os.path.join(ROOT, "crates", "arimaa-search", "tests", "data", "tactics.jsonl")
DEFAULT_SEED = 15
COUNTED = ("moves", "steps_from_here", "moves_goal", "moves_capture", "frozen_own", "frozen_opp", "pieces")


def say(*args):
    print(*args, file=sys.stderr, flush=True)


def write_lines(path, recs):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        for r in recs:
            f.write(json.dumps(r, separators=(",", ":")) + "\n")
    say("wrote %d records to %s" % (len(recs), path))


# ------------------------------------------------------------------ movegen

GAME_POSITIONS, PER_GAME = 150, 6
# (count, gold pieces, silver pieces) ranges for random placements.
PLACEMENTS = [(20, 8, 16), (14, 4, 10), (13, 1, 5)]
IMMOBILIZED = 3


def movegen_positions(rng):
    """(position, origin, source) for every movegen record, in order."""
    out = []
    g = 0
    while len(out) < GAME_POSITIONS:
        bias = rng.choice([1.0, 1.5, 2.0, 3.0])
        line = games.play(rng, 120, rabbit_bias=bias, standard=g < 3)
        take = min(PER_GAME, len(line), GAME_POSITIONS - len(out))
        for ply in sorted(rng.sample(range(len(line)), take)):
            out.append((line[ply], "random_game", "game %d bias %.1f ply %d" % (g, bias, ply)))
        g += 1
    for count, lo, hi in PLACEMENTS:
        made = 0
        while made < count:
            side = rng.randrange(2)
            pos = games.placement(rng, rng.randint(lo, hi), rng.randint(lo, hi), side)
            if pos is not None and not pos.is_goal():
                made += 1
                out.append((pos, "constructed", "placement %d-%d pieces a side" % (lo, hi)))
    made = 0
    while made < IMMOBILIZED:
        # A small army among many strong enemies: often frozen or walled in.
        side = rng.randrange(2)
        sizes = (rng.randint(1, 3), rng.randint(8, 16))
        pos = games.placement(rng, *(sizes if side == arbiter.GOLD else sizes[::-1]), side)
        if pos is not None and not pos.is_goal() and not pos.get_steps():
            made += 1
            out.append((pos, "constructed", "placement with no legal step"))
    return out


def make_movegen(seed, limit):
    rng = random.Random(seed)
    chosen = movegen_positions(rng)[:limit]
    recs, start = [], time.time()
    for i, (pos, origin, source) in enumerate(chosen):
        recs.append(records.movegen_record(rng, "mg-%03d" % i, pos, origin, source))
        if (i + 1) % 20 == 0:
            say("movegen %d/%d (%.0f s)" % (i + 1, len(chosen), time.time() - start))
    return recs


# ------------------------------------------------------------------ tactics

WANT = {"goal1": 40, "defend": 30, "capture": 20}
MAX_GAMES = 400


def _capture_chance(pos):
    """Cheap filter before the expensive turn list: an enemy piece on or next
    to a trap that few enemies guard, with one of ours beside it."""
    us, them = pos.color, pos.color ^ 1
    for trap in (18, 21, 42, 45):
        bit = 1 << trap
        around = arbiter.neighbours(bit)
        near = pos.placement[them] & (around | bit)
        if near and arbiter.popcount(pos.placement[them] & around) <= 2 \
                and pos.placement[us] & arbiter.neighbours(near):
            return True
    return False


def make_tactics(seed):
    rng = random.Random(seed * 1000 + 7)
    found = {k: [] for k in WANT}
    start = time.time()
    for g in range(MAX_GAMES):
        if all(len(found[k]) >= n for k, n in WANT.items()):
            break
        bias = rng.choice([2.0, 3.0, 4.0, 6.0])
        line = games.play(rng, 160, rabbit_bias=bias)
        # One puzzle of a kind per game at most: neighbouring plies of a game
        # repeat the same motif.
        done = set()
        plies = list(range(8, len(line)))
        rng.shuffle(plies)
        for ply in plies:
            pos = line[ply]
            source = "game %d bias %.1f ply %d" % (g, bias, ply)
            for kind in ("goal1", "defend", "capture"):
                if kind in done or len(found[kind]) >= WANT[kind]:
                    continue
                ident = "%s-%02d" % (kind, len(found[kind]))
                rec = _try(kind, rng, ident, pos, source)
                if rec is not None:
                    found[kind].append(rec)
                    done.add(kind)
                    say("tactics %s (%.0f s): %s" % (ident, time.time() - start, source))
                    break
    short = {k: WANT[k] - len(v) for k, v in found.items() if len(v) < WANT[k]}
    if short:
        sys.exit("tactics: %d games were not enough, missing %s" % (MAX_GAMES, short))
    return found["goal1"] + found["defend"] + found["capture"]


def _try(kind, rng, ident, pos, source):
    if kind == "goal1":
        if arbiter.goal_witness(pos) is None:
            return None
        return records.goal1(ident, pos, source)
    if kind == "defend":
        return records.defend(rng, ident, pos, source)
    if not _capture_chance(pos) or rng.random() < 0.5:
        return None
    return records.capture(ident, pos, source)


# ------------------------------------------------------------------ check


def check(path, limit):
    """Recounts a movegen file's records; prints and returns the mismatches."""
    bad, n = 0, 0
    with open(path) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    for rec in recs[:limit] if limit else recs:
        pos = arbiter.from_setposition(rec["setposition"])
        got = records.counts(pos)
        n += 1
        diff = [k for k in COUNTED if k in rec and rec[k] != got[k]]
        if diff:
            bad += 1
            print("%s: %s" % (rec.get("id", "?"), ", ".join("%s %r, pyrimaa %r" % (k, rec[k], got[k]) for k in diff)))
    print("%d positions recounted, %d agree on %s" % (n, n - bad, ", ".join(COUNTED)))
    return bad


def main(argv):
    if argv[:1] == ["check"]:
        ap = argparse.ArgumentParser(prog="generate.py check")
        ap.add_argument("file")
        ap.add_argument("--limit", type=int, default=0, help="only the first N records")
        args = ap.parse_args(argv[1:])
        return 1 if check(args.file, args.limit) else 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--positions", type=int, default=200, help="movegen records")
    ap.add_argument("--only", default="movegen,standard,tactics", help="comma-separated parts to write")
    ap.add_argument("--out", default=None, help="write the files to this folder instead of the repository")
    args = ap.parse_args(argv)
    paths = {"movegen": MOVEGEN, "standard": STANDARD, "tactics": TACTICS}
    if args.out:
        paths = {k: os.path.join(os.path.abspath(args.out), os.path.basename(p)) for k, p in paths.items()}
    parts = set(args.only.split(","))
    if parts - {"movegen", "standard", "tactics"}:
        ap.error("--only takes movegen, standard and tactics")
    if "standard" in parts:
        os.makedirs(os.path.dirname(paths["standard"]), exist_ok=True)
        with open(paths["standard"], "w") as f:
            f.write(json.dumps(records.standard_record(), indent=1) + "\n")
        say("wrote %s" % paths["standard"])
    if "movegen" in parts:
        write_lines(paths["movegen"], make_movegen(args.seed, args.positions))
    if "tactics" in parts:
        write_lines(paths["tactics"], make_tactics(args.seed))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
