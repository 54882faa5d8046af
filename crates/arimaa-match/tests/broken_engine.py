#!/usr/bin/env python3
"""A deliberately broken AEI engine for the match runner's tests.

Usage: broken_engine.py MODE [MOVE ...]

It answers the handshake, plays the standard setup when asked (not after a
`setposition`, which starts it past the setups), and then, at its first real
turn, misbehaves according to MODE:

  illegal  sends a move with a wrong piece letter (Hd2n / hd7s: d2 and d7
           hold the camels)
  hang     never answers `go` nor `stop` (but keeps reading its input)
  slow     answers 1.5 s after the deadline would allow, then plays legally
  exit     exits at once
  resign   sends `bestmove resign`
  play     plays the given moves in turn, cycling (no rules check)
  nostart  never sends `aeiok`

In every mode it answers `eval` as sharp's developer build does, with a
static evaluation in log lines: 100 per piece more than the other side has,
from the side to move's view, plus a NumStepsScore of 200 (the test of
`arimaa label --ask` checks both).

Standard library only, so it runs with any python3.
"""

import sys
import time

GOLD = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2"
SILVER = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7"


def send(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def main():
    mode = sys.argv[1] if len(sys.argv) > 1 else "illegal"
    script = sys.argv[2:]
    moves_seen = 0
    own_turns = 0
    tcmove = 1.0
    position = None
    for raw in sys.stdin:
        line = raw.strip()
        cmd = line.split(" ", 1)[0]
        if cmd == "aei":
            send("protocol-version 1")
            send("id name broken-" + mode)
            send("id author tests")
            if mode != "nostart":
                send("aeiok")
        elif cmd == "isready":
            send("readyok")
        elif cmd == "newgame":
            moves_seen = 0
            own_turns = 0
        elif cmd == "makemove":
            moves_seen += 1
        elif cmd == "setposition":
            moves_seen = max(moves_seen, 2)
            position = line.split(" ", 1)[1]
        elif cmd == "eval":
            side, board = position.split(" ", 1)
            balance = sum(c.isupper() for c in board) - sum(c.islower() for c in board)
            send("log Material: ignored 1")
            send("log NumStepsScore: 200")
            send("log Final Score: %d" % (100 * balance * (1 if side == "g" else -1) + 200))
        elif line.startswith("setoption name tcmove value "):
            tcmove = float(line.rsplit(" ", 1)[1])
        elif cmd == "quit":
            return
        elif cmd == "go":
            gold = moves_seen % 2 == 0
            if moves_seen < 2:
                send("bestmove " + (GOLD if gold else SILVER))
                continue
            own_turns += 1
            if mode == "illegal":
                send("bestmove " + ("Hd2n" if gold else "hd7s"))
            elif mode == "hang":
                pass
            elif mode == "slow":
                time.sleep(tcmove + 1.5)
                send("bestmove " + ("Ee2n" if gold else "ee7s"))
            elif mode == "exit":
                sys.exit(3)
            elif mode == "resign":
                send("bestmove resign")
            elif mode == "play" and script:
                send("bestmove " + script[(own_turns - 1) % len(script)])


if __name__ == "__main__":
    main()
