#!/usr/bin/env python3
"""How fast the engine answers `stop`: the time from `stop` to `bestmove`.

Usage: python benches/aei_stop_latency.py [--binary PATH] [--fixtures FILE] [--positions N]

For each of N fixture positions (goal races included, where one node can
cost the most) it sends a long time control, `go`, waits --after seconds,
sends `stop`, and times the bestmove. Prints each latency and the maximum.
Needs pyrimaa (PyPI `aei`): run it with a venv's Python that has it, e.g.
target/pyrimaa-venv/bin/python, the one `cargo test` provisions.
"""
import argparse
import json
import os
import time

from pyrimaa import aei

# The repository's oracle data (tools/oracle/generate.py writes it).
MOVEGEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "crates", "arimaa-core", "tests", "data",
                       "movegen.jsonl")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/arimaa")
    ap.add_argument("--fixtures", default=MOVEGEN)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--after", type=float, default=0.5, help="seconds between go and stop")
    args = ap.parse_args()

    recs = [json.loads(l) for l in open(args.fixtures) if l.strip()]
    # Positions with a goal this turn are answered at once, before any stop.
    recs = [r for r in recs if r["moves"] > 0 and r["moves_goal"] == 0][: args.positions]
    ctl = aei.EngineController(aei.StdioEngine(args.binary))
    ctl.setoption("tcmove", 600)
    ctl.setoption("tcreserve", 600)
    lat = []
    for r in recs:
        ctl.newgame()
        ctl.engine.send(r["setposition"] + "\n")
        ctl.isready()
        ctl.go()
        time.sleep(args.after)
        t = time.perf_counter()
        ctl.stop()
        while True:
            resp = ctl.get_response(10)
            if resp.type == "bestmove":
                break
        ms = (time.perf_counter() - t) * 1e3
        lat.append(ms)
        print(f"{r['id']:<10} {','.join(r['tags']):<24} stop -> bestmove {ms:7.2f} ms")
    ctl.quit()
    ctl.cleanup()
    print(f"positions {len(lat)}  max {max(lat):.2f} ms  median {sorted(lat)[len(lat) // 2]:.2f} ms")


if __name__ == "__main__":
    main()
