#!/usr/bin/env python3
"""How long the engine takes to answer `go` when it has almost no time.

Usage: python3 benches/go_latency.py [--binary PATH] [--fixtures FILE] [--positions N]
                                     [--threads N] [--load N]

For the N widest fixture positions (the most root turns to order) it sets
0.1 s a move with an empty reserve, so the engine's hard limit is 20 ms, and
times `go` to `bestmove`. With --load N it first starts N busy processes, as
on a shared machine. Prints the median and the maximum; anything near 100 ms
would lose on time. No pyrimaa needed.
"""
import argparse
import json
import os
import subprocess
import time

# The repository's oracle data (tools/oracle/generate.py writes it).
MOVEGEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "arimaa-core", "tests", "data",
                       "movegen.jsonl")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/arimaa")
    ap.add_argument("--fixtures", default=MOVEGEN)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--load", type=int, default=0, help="busy processes to run meanwhile")
    args = ap.parse_args()

    recs = [json.loads(l) for l in open(args.fixtures) if l.strip()]
    recs = sorted(recs, key=lambda r: -r["moves"])[: args.positions]
    load = [subprocess.Popen(["yes"], stdout=subprocess.DEVNULL) for _ in range(args.load)]
    p = subprocess.Popen([args.binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def send(line):
        p.stdin.write(line + "\n")
        p.stdin.flush()

    def until(prefix):
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("the engine closed its output")
            if line.startswith(prefix):
                return line

    try:
        send("aei")
        until("aeiok")
        send(f"setoption name threads value {args.threads}")
        for name, value in (("tcmove", 0.1), ("tcreserve", 0), ("tcpercent", 100)):
            send(f"setoption name {name} value {value}")
        times = []
        for r in recs:
            send("newgame")
            send(r["setposition"])
            send("setoption name greserve value 0")
            send("setoption name sreserve value 0")
            send("isready")
            until("readyok")
            start = time.perf_counter()
            send("go")
            until("bestmove")
            times.append((time.perf_counter() - start) * 1000)
        send("quit")
    finally:
        for q in load:
            q.kill()
    times.sort()
    print(f"{len(times)} positions ({recs[-1]['moves']}-{recs[0]['moves']} turns), "
          f"{args.threads} thread(s), {args.load} busy process(es): "
          f"go to bestmove median {times[len(times) // 2]:.0f} ms, max {times[-1]:.0f} ms")


if __name__ == "__main__":
    main()
