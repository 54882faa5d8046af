#!/usr/bin/env python3
"""Plays the tactics suite through AEI and scores the answers with pyrimaa.

Usage: python3 tools/score_tactics.py [--engine CMD] [--movetime S | --depth N]
                                      [--kinds goal1,defend,capture] [--per-kind N]
                                      [--option NAME=VALUE ...] [--exhaustive] [--min-score KIND=N ...]
                                      [--judge CMD [--judge-depth N]]

The suite (crates/arimaa-search/tests/data/tactics.jsonl, written and proved
by tools/oracle/generate.py) has three kinds of puzzle:

  goal1    the side to move can reach goal: the move must do it;
  defend   the opponent threatens a goal: the move must not lose at once and
           must leave the opponent no turn that reaches goal;
  capture  a capture is on: the move must not lose at once, must capture, and
           must leave the opponent no goal (soft: a strong move may decline).

For each position the engine gets `newgame`, `setposition`, the time (tcmove
S with no reserve) or `depth N`, and `go`. The move must be legal by pyrimaa
(strict notation, replayed step by step); "no goal for the opponent" comes
from the oracle's goal search over pyrimaa's steps, confirmed with pyrimaa's
full turn list when --exhaustive is given.

Prints a line per position and a score per kind, e.g. `goal1 40/40`. Exit
status 1 if a --min-score is not reached or the engine misbehaved, 0 else.

A capture puzzle only proves that a capture is safe from an immediate goal,
not that it is the best move: the capture may cost a piece back, or a strong
move may defer it and win more a turn later. `--judge CMD` asks a second
engine (e.g. an older build, so the judge is not the player) to search the
position after the engine's declining move and after the capturing turns to
`--judge-depth` steps: every capture when there are at most 12, else the
suite's examples and the first captures in pyrimaa's order. A decline whose
score is at least the best capture's is counted as sound, and the summary
adds `capture judged N/M`: captures plus sound declines.
"""
import argparse
import json
import os
import sys
from collections import OrderedDict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "oracle"))

import arbiter  # noqa: E402
from arbiter import IllegalMove  # noqa: E402
from engine import Engine, EngineGone  # noqa: E402

ROOT = os.path.dirname(HERE)
SUITE = os.path.join(ROOT, "crates", "arimaa-search", "tests", "data", "tactics.jsonl")
KINDS = ("goal1", "defend", "capture")
JUDGED_CAPTURES = 12


def opponent_goals(res, exhaustive):
    if arbiter.goal_witness(res) is not None:
        return True
    if exhaustive:
        return any(arbiter.has_goal(r, res.color) for r in arbiter.turns(res))
    return False


def judge(rec, move, exhaustive):
    """(passed, why) for the engine's move on a suite record."""
    pos = arbiter.from_setposition(rec["setposition"])
    mover = pos.color
    try:
        res = arbiter.check_move(pos, move)
    except IllegalMove as exc:
        return False, "illegal: %s" % exc
    verdict = arbiter.outcome(res, mover)
    if rec["kind"] == "goal1":
        return (True, "goal") if arbiter.has_goal(res, mover) else (False, "no goal")
    if verdict == "loss":
        return False, "loses at once"
    if rec["kind"] == "capture" and not arbiter.takes_piece(pos, res):
        return False, "no capture"
    if verdict == "win":
        return True, "wins at once"
    if opponent_goals(res, exhaustive):
        return False, "the opponent can still reach goal"
    return True, "stops every goal" if rec["kind"] == "defend" else "safe capture"


def ask(eng, rec, args):
    """The engine's move for one record, or None with the reason."""
    eng.send("newgame")
    eng.send(rec["setposition"])
    if args.depth:
        eng.option("depth", args.depth)
        limit = 120
    else:
        eng.option("tcmove", args.movetime)
        for name in ("tcreserve", "greserve", "sreserve"):
            eng.option(name, 0)
        limit = args.movetime * 3 + 5
    move, took, before = eng.go(limit)
    if move is None:
        # Late: stop the search and drop its answer, or the next puzzle would
        # read it as its own.
        eng.send("stop")
        eng.until("bestmove", 10)
        return None, took, "no bestmove within %.0f s" % limit
    errors = [line for line in before if line.startswith("log Error")]
    return move, took, ("engine said %s" % errors[0]) if errors else None


def capture_turns(pos, rec):
    """The capturing turns the judge compares a decline with: all of them
    when there are few, else the suite's examples and the first others."""
    moves = [arbiter.canonical(pos, steps) for res, steps in arbiter.turns(pos).items()
             if arbiter.takes_piece(pos, res) and arbiter.outcome(res, pos.color) != "loss"]
    if len(moves) <= JUDGED_CAPTURES:
        return moves
    chosen = list(rec["answer"]["examples"])
    chosen += [m for m in moves if m not in chosen][:max(0, JUDGED_CAPTURES - len(chosen))]
    return chosen


def judge_score(referee, cache, pos, move, depth):
    """The judge's score of the position after `move`, from the mover's side
    (its search of the opponent's turn, negated); None if it gave none."""
    after = arbiter.aei(arbiter.check_move(pos, move))
    if after not in cache:
        referee.send("newgame")
        referee.send("setposition " + after)
        referee.option("depth", depth)
        reply, _, before = referee.go(600)
        if reply is None:
            referee.send("stop")
            referee.until("bestmove", 10)
        scores = [ln.split()[2] for ln in before if ln.startswith("info score ")]
        cache[after] = -int(scores[-1]) if reply is not None and scores else None
    return cache[after]


def judge_decline(referee, cache, rec, move, depth):
    """(sound, text) for a capture puzzle the engine declined with `move`."""
    pos = arbiter.from_setposition(rec["setposition"])
    mine = judge_score(referee, cache, pos, move, depth)
    best, best_move = None, None
    for cap in capture_turns(pos, rec):
        got = judge_score(referee, cache, pos, cap, depth)
        if got is not None and (best is None or got > best):
            best, best_move = got, cap
    if mine is None or best is None:
        return False, "judge gave no score"
    sound = mine >= best
    return sound, "judged %s: %d after it, %d after the best capture %s" % (
        "sound" if sound else "unsound", mine, best, best_move)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "arimaa"), help="engine command")
    ap.add_argument("--suite", default=SUITE)
    time_or_depth = ap.add_mutually_exclusive_group()
    time_or_depth.add_argument("--movetime", type=float, default=2.0, help="tcmove in seconds (default 2)")
    time_or_depth.add_argument("--depth", type=int, default=0, help="fixed depth in steps instead")
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--per-kind", type=int, default=0, help="only the first N puzzles of each kind")
    ap.add_argument("--option", action="append", default=[], metavar="NAME=VALUE", help="setoption after the handshake")
    ap.add_argument("--exhaustive", action="store_true", help="confirm 'no goal' with pyrimaa's full turn list")
    ap.add_argument("--min-score", action="append", default=[], metavar="KIND=N", help="fail below N passes of KIND")
    ap.add_argument("--judge", default=None, metavar="CMD", help="engine that judges the capture puzzles' declines")
    ap.add_argument("--judge-depth", type=int, default=7, help="the judge's search depth in steps (default 7)")
    args = ap.parse_args(argv)
    if args.judge_depth < 1:
        ap.error("--judge-depth must be at least 1")
    kinds = [k for k in args.kinds.split(",") if k]
    if set(kinds) - set(KINDS):
        ap.error("--kinds takes %s" % ", ".join(KINDS))
    minimum = {}
    for m in args.min_score:
        kind, _, n = m.partition("=")
        if kind not in KINDS or not n.isdigit():
            ap.error("--min-score wants KIND=N, got %r" % m)
        minimum[kind] = int(n)
    with open(args.suite) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    chosen = []
    for kind in kinds:
        of_kind = [r for r in recs if r["kind"] == kind]
        chosen += of_kind[: args.per_kind] if args.per_kind else of_kind
    if not chosen:
        sys.exit("no puzzles of kinds %s in %s" % (kinds, args.suite))

    score = OrderedDict((k, [0, 0]) for k in kinds)
    broken = 0
    sound = 0
    referee, cache = None, {}
    eng = Engine(args.engine)
    try:
        if eng.handshake()[1] is None:
            sys.exit("the engine did not answer aei")
        if args.judge and "capture" in kinds:
            referee = Engine(args.judge)
            if referee.handshake()[1] is None:
                sys.exit("the judge did not answer aei")
        for opt in args.option:
            name, _, value = opt.partition("=")
            eng.option(name, value)
        for rec in chosen:
            move, took, trouble = ask(eng, rec, args)
            if move is None:
                passed, why = False, trouble
            else:
                passed, why = judge(rec, move, args.exhaustive)
            broken += trouble is not None or why.startswith("illegal")
            score[rec["kind"]][0] += passed
            score[rec["kind"]][1] += 1
            if referee is not None and why == "no capture":
                ok, verdict = judge_decline(referee, cache, rec, move, args.judge_depth)
                sound += ok
                why = "%s; %s" % (why, verdict)
            print("%s %-11s %-7s %-28s %s (%.2f s)" % ("ok  " if passed else "MISS", rec["id"], rec["kind"],
                                                        move or "-", why, took), flush=True)
        eng.quit()
        if referee is not None:
            referee.quit()
    except EngineGone as exc:
        sys.exit("the engine or the judge went away: %s" % exc)
    finally:
        eng.kill()
        if referee is not None:
            referee.kill()
    how = ("depth %d" % args.depth) if args.depth else ("movetime %g s" % args.movetime)
    print("score at %s: %s" % (how, ", ".join("%s %d/%d" % (k, p, n) for k, (p, n) in score.items())))
    if referee is not None:
        p, n = score["capture"]
        print("capture judged %d/%d: %d captures, %d declines the judge scores at least as well as the best capture"
              " (depth %d)" % (p + sound, n, p, sound, args.judge_depth))
    short = [k for k, n in minimum.items() if score.get(k, [0, 0])[0] < n]
    if short or broken:
        print("below the minimum: %s; engine faults: %d" % (", ".join(short) or "none", broken))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
