#!/usr/bin/env python3
"""Resident memory of the engine against its `hash` option, over many games.

Usage: python3 benches/memory_check.py [--binary PATH] [--newgames N] [--hash MB]
                                       [--moves N] [--threads N]

Drives the engine over AEI (no pyrimaa needed): sets `hash`, plays N
`newgame`s (each with both setups and one searched move at depth 5), then one
game against itself of --moves timed moves (0.1 s each, --threads threads: a
search allocates its root list and per-thread buffers), then changes `hash`
mid-session (down, up, back). After each phase it prints the engine's
resident memory (VmRSS) and peak (VmHWM) from /proc, and it fails (exit 1) if
memory grows across the newgames or exceeds hash + a constant, or if the
timed searches leave memory resident once they are over.
"""
import argparse
import subprocess
import sys
import time

CONSTANT_MB = 32  # code, stacks, the search's buffers (per thread) besides the TT
RETAINED_MB = 4  # what may stay resident once the searches are over


def rss(pid):
    fields = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, value = line.partition(":")
            fields[key] = value.strip()
    kb = lambda k: int(fields[k].split()[0]) // 1024
    return kb("VmRSS"), kb("VmHWM")


class Engine:
    def __init__(self, binary):
        self.p = subprocess.Popen([binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()

    def until(self, prefix, limit=60):
        end = time.time() + limit
        while time.time() < end:
            line = self.p.stdout.readline()
            if not line:
                sys.exit("engine closed its output")
            if line.startswith(prefix):
                return line.strip()
        sys.exit(f"no '{prefix}' within {limit} s")


def timed_game(e, args):
    """One game of the engine against itself at 0.1 s a move; moves played."""
    e.send("setoption name depth value 0")
    e.send(f"setoption name threads value {args.threads}")
    for name, value in (("tcmove", 0.1), ("tcreserve", 0), ("tcpercent", 0), ("tcturntime", 0.1)):
        e.send(f"setoption name {name} value {value}")
    e.send("newgame")
    played = 0
    while played < args.moves:
        e.send("go")
        move = e.until("bestmove")[len("bestmove "):]
        if move == "resign":  # the game is over: start another
            e.send("newgame")
            continue
        e.send(f"makemove {move}")
        played += 1
    return played


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/arimaa")
    ap.add_argument("--newgames", type=int, default=1000)
    ap.add_argument("--hash", type=int, default=64)
    ap.add_argument("--moves", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    e = Engine(args.binary)
    e.send("aei")
    e.until("aeiok")
    e.send(f"setoption name hash value {args.hash}")
    e.send("setoption name depth value 5")
    e.send("isready")
    e.until("readyok")
    samples = []
    for i in range(args.newgames):
        e.send("newgame")
        e.send("go")
        gold = e.until("bestmove")[len("bestmove "):]
        e.send(f"makemove {gold}")
        e.send("go")
        silver = e.until("bestmove")[len("bestmove "):]
        e.send(f"makemove {silver}")
        e.send("go")
        e.until("bestmove")
        if i in (9, args.newgames // 2, args.newgames - 1):
            samples.append((i + 1, *rss(e.p.pid)))
    for n, now, peak in samples:
        print(f"after {n:5d} newgames: rss {now} MB, peak {peak} MB (hash {args.hash} MB)")
    failed = False
    if samples[-1][1] > samples[0][1] + 4:
        print("FAIL: memory grew across the newgames")
        failed = True
    played = timed_game(e, args)
    now, peak = rss(e.p.pid)
    print(f"after {played} timed moves, {args.threads} threads: rss {now} MB, peak {peak} MB")
    if peak > args.hash + CONSTANT_MB:
        print(f"FAIL: peak above hash + {CONSTANT_MB} MB")
        failed = True
    if now > samples[-1][1] + RETAINED_MB:
        print(f"FAIL: the searches left {now - samples[-1][1]} MB resident")
        failed = True
    for mb in (args.hash // 4, args.hash * 2, args.hash):
        e.send(f"setoption name hash value {mb}")
        e.send("isready")
        e.until("readyok")
        now, peak = rss(e.p.pid)
        print(f"hash set to {mb} MB: rss {now} MB, peak so far {peak} MB")
        if now > mb + CONSTANT_MB:
            print(f"FAIL: rss above hash + {CONSTANT_MB} MB")
            failed = True
    e.send("quit")
    e.p.wait(timeout=10)
    _, peak = samples[-1][1:]
    if peak > 2 * args.hash + CONSTANT_MB:
        print("FAIL: peak above the largest hash + constant")
        failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
