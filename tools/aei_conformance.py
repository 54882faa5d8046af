#!/usr/bin/env python3
"""AEI conformance checks that need the rules oracle (pyrimaa, PyPI `aei`).

Usage: python3 tools/aei_conformance.py [--engine CMD] [--positions N] [--movetime S]
                                        [--turns N] [--seed N] [-v]

The protocol itself (handshake, options, stop and quit latency, malformed
lines) is checked without Python by `bin/arimaa/tests/aei_conformance.rs`.
Here pyrimaa is the judge:

  * pyrimaa's own controller (what roundrobin, analyze and gameroom use)
    opens the engine, sets a position and gets a move;
  * setups for both colours, then a game the engine plays against itself,
    every move legal per pyrimaa and sent back with makemove;
  * random pyrimaa turns, capture tokens included, accepted by makemove,
    and the engine's next move legal in the position they lead to;
  * positions of both colours from the oracle data: every move legal per
    pyrimaa (strict notation, and among pyrimaa's distinct turns), a goal
    taken wherever pyrimaa finds one;
  * turns that pyrimaa rules illegal (a wrong piece letter, a push left
    unfinished, a wrong capture token) refused with one `log Error`, after
    which the engine still answers in the unchanged position.

One line per check, PASS or FAIL; the last line is `N passed, M failed`, and
the exit status is 1 if anything failed.
"""
import argparse
import json
import os
import random
import shlex
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "oracle"))

import arbiter  # noqa: E402
import games  # noqa: E402
from arbiter import IllegalMove  # noqa: E402
from engine import Engine, EngineGone  # noqa: E402

ROOT = os.path.dirname(HERE)
MOVEGEN = os.path.join(ROOT, "crates", "arimaa-core", "tests", "data", "movegen.jsonl")


class Checks:
    def __init__(self, args):
        self.args = args
        self.passed = self.failed = 0
        self.rng = random.Random(args.seed)

    def check(self, name, ok, detail=""):
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print("%s %s%s" % ("PASS" if ok else "FAIL", name, " - " + detail if detail else ""), flush=True)
        return ok

    def start(self):
        eng = Engine(self.args.engine)
        before, line, _ = eng.handshake()
        if line is None:
            raise EngineGone("no aeiok: %r" % before)
        eng.option("tcmove", self.args.movetime)
        for name in ("tcreserve", "greserve", "sreserve"):
            eng.option(name, 0)
        return eng

    def judged_move(self, name, eng, pos, legal=None):
        """go; the move checked by pyrimaa; the position after it, or None."""
        move, took, before = eng.go(self.args.movetime * 4 + 5)
        errors = [line for line in before if line.startswith("log Error")]
        if not self.check(name + ": bestmove", move is not None and not errors,
                          "%.2f s" % took if move is not None and not errors else repr(errors or before[-5:])):
            return None
        try:
            res = arbiter.check_move(pos, move, arbiter.turns(pos) if legal is None else legal)
        except IllegalMove as exc:
            self.check(name + ": legal per pyrimaa", False, "%s: %s in %s" % (move, exc, arbiter.aei(pos)))
            return None
        self.check(name + ": legal per pyrimaa", True, move)
        return res

    # ------------------------------------------------------------ the checks

    def pyrimaa_controller(self, recs):
        from pyrimaa import aei

        rec = recs[0]
        pos = arbiter.from_setposition(rec["setposition"])
        ctl = aei.EngineController(aei.StdioEngine(" ".join(shlex.quote(a) for a in shlex.split(self.args.engine))))
        try:
            self.check("pyrimaa controller: handshake and isready", True, repr(ctl.ident))
            ctl.newgame()
            ctl.setoption("tcmove", self.args.movetime)
            ctl.setoption("tcreserve", 0)
            ctl.setposition(pos)
            ctl.isready()
            ctl.go()
            end = time.monotonic() + self.args.movetime * 4 + 5
            move = None
            while move is None and time.monotonic() < end:
                resp = ctl.get_response(max(0.01, end - time.monotonic()))
                if resp.type == "bestmove":
                    move = resp.move
            try:
                arbiter.check_move(pos, move or "")
                self.check("pyrimaa controller: setposition and go give a legal move", True, move)
            except IllegalMove as exc:
                self.check("pyrimaa controller: setposition and go give a legal move", False, "%r: %s" % (move, exc))
            ctl.quit()
        except Exception as exc:  # pyrimaa raises its own and socket exceptions
            self.check("pyrimaa controller", False, "%s: %s" % (type(exc).__name__, exc))
        finally:
            ctl.cleanup()

    def setups_and_a_game(self, eng):
        eng.send("newgame")
        pos = arbiter.empty_board()
        for color in ("gold", "silver"):
            move, _, before = eng.go(10)
            try:
                pos = arbiter.check_setup(pos, move or "")
                self.check("setup for %s legal per pyrimaa" % color, True, move)
            except IllegalMove as exc:
                return self.check("setup for %s legal per pyrimaa" % color, False, "%r: %s" % (move, exc))
            eng.send("makemove " + move)
        for turn in range(self.args.turns):
            res = self.judged_move("self-play turn %d (%s)" % (turn + 1, "gs"[pos.color]), eng, pos)
            if res is None:
                return
            eng.send("makemove " + eng.seen[-1][len("bestmove"):].strip())
            pos = res
            if games.game_over(pos):
                break
        said = eng.ready()
        self.check("self-play: every makemove of the engine's own moves accepted", said is not None and not [
            line for line in said if line.startswith("log Error")], repr(said))

    def random_turns(self, eng):
        eng.send("newgame")
        pos = games.opening(self.rng)
        eng.send("setposition " + arbiter.aei(pos))
        sent, captures = 0, 0
        while captures < 2 and sent < 60 and not games.game_over(pos):
            steps, res = games.random_turn(self.rng, pos, rabbit_bias=1.5)
            text = arbiter.canonical(pos, steps)
            eng.send("makemove " + text)
            said = eng.ready()
            if not self.check_quiet(said, "makemove %s" % text):
                return
            sent += 1
            captures += "x" in text
            pos = res
        self.check("random pyrimaa turns accepted by makemove", True, "%d turns, %d with capture tokens" % (sent, captures))
        if not games.game_over(pos):
            self.judged_move("after random turns", eng, pos)

    def check_quiet(self, said, what):
        """A silent answer, or a FAIL line for `what`."""
        if said is None or any(line.startswith("log Error") for line in said):
            return self.check(what, False, repr(said))
        return True

    def positions(self, eng, recs):
        for rec in recs:
            pos = arbiter.from_setposition(rec["setposition"])
            legal = arbiter.turns(pos)
            eng.send("newgame")
            eng.send(rec["setposition"])
            name = "position %s (%s to move, %s)" % (rec["id"], rec["side"], ",".join(rec["tags"]))
            res = self.judged_move(name, eng, pos, legal)
            if res is not None and any(arbiter.has_goal(r, pos.color) for r in legal):
                self.check(name + ": goal taken", arbiter.has_goal(res, pos.color))

    def refusals(self, eng, recs, count=3):
        """Turns the oracle rules out, each answered with one log Error, in
        the first `count` positions that offer all three kinds of fault."""
        done = 0
        for rec in recs:
            if done == count:
                break
            pos = arbiter.from_setposition(rec["setposition"])
            bad = self.broken_turns(pos)
            if len(bad) < 3:
                continue
            done += 1
            eng.send("newgame")
            eng.send(rec["setposition"])
            for why, text in bad:
                try:
                    arbiter.check_move(pos, text)
                    continue  # the corruption happened to stay legal: not a test
                except IllegalMove as exc:
                    reason = str(exc)
                eng.send("makemove " + text)
                said = eng.ready() or []
                errors = [line for line in said if line.startswith("log Error")]
                self.check("refused (%s: %s): %s" % (why, reason, text), len(errors) == 1 and len(said) == 1,
                           repr(said))
            self.judged_move("position %s after the refusals" % rec["id"], eng, pos)

    def broken_turns(self, pos):
        out = []
        moves = list(arbiter.turns(pos).values())
        plain = next((s for s in moves if len(s) >= 2), None)
        if plain:
            toks = arbiter.canonical(pos, plain).split()
            letter = toks[0][0]
            other = "E" if letter.upper() != "E" else "M"
            out.append(("wrong piece letter", " ".join([(other if letter.isupper() else other.lower()) + toks[0][1:]] + toks[1:])))
        for steps in moves:
            text = arbiter.canonical(pos, steps).split()
            # The first half of a push: an enemy piece stepped and nothing followed.
            first = text[0]
            if (first[0].isupper()) != (pos.color == arbiter.GOLD) and len(text) >= 2:
                out.append(("push left unfinished", first))
                break
        with_capture = next((arbiter.canonical(pos, s) for s in moves if "x" in arbiter.canonical(pos, s)), None)
        if with_capture:
            toks = with_capture.split()
            i = next(k for k, t in enumerate(toks) if t.endswith("x"))
            wrong = ("c" if toks[i][0] != "c" else "d") if toks[i][0].islower() else ("C" if toks[i][0] != "C" else "D")
            toks[i] = wrong + toks[i][1:]
            out.append(("wrong capture token", " ".join(toks)))
        return out


def pick(recs, n):
    """A spread of positions: each tag once where possible, both colours, then in order."""
    chosen = []
    for tag in ("opening", "middle", "late", "sparse", "trap", "frozen", "goal_race", "constructed"):
        for color in "gs":
            r = next((r for r in recs if tag in r["tags"] and r["side"] == color and r["moves"] > 0 and r not in chosen), None)
            if r is not None and len(chosen) < n:
                chosen.append(r)
    chosen += [r for r in recs if r["moves"] > 0 and r not in chosen][: max(0, n - len(chosen))]
    return chosen


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--engine", default=os.path.join(ROOT, "target", "release", "arimaa"), help="engine command")
    ap.add_argument("--data", default=MOVEGEN, help="movegen JSON lines")
    ap.add_argument("--positions", type=int, default=12)
    ap.add_argument("--movetime", type=float, default=0.5, help="tcmove for every go (s)")
    ap.add_argument("--turns", type=int, default=10, help="self-play turns after the setups")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    with open(args.data) as f:
        recs = [json.loads(line) for line in f if line.strip()]
    checks = Checks(args)
    eng = None
    try:
        checks.pyrimaa_controller(recs)
        eng = checks.start()
        checks.setups_and_a_game(eng)
        checks.random_turns(eng)
        chosen = pick(recs, args.positions)
        checks.positions(eng, chosen)
        checks.refusals(eng, chosen)
        took = eng.quit()
        checks.check("quit", took is not None, "%.2f s" % took if took is not None else "still running")
    except EngineGone as exc:
        checks.check("engine still there", False, str(exc))
    finally:
        if eng is not None:
            eng.kill()
    print("%d passed, %d failed" % (checks.passed, checks.failed))
    return 1 if checks.failed or not checks.passed else 0


if __name__ == "__main__":
    sys.exit(main())
