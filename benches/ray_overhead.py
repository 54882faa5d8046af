#!/usr/bin/env python3
"""Games per hour of `arimaa match` played locally and through Ray on this
machine, and their ratio (the Ray executor's overhead).

The Ray cluster is two nodes of one CPU each started on this machine with
ray.cluster_utils (the processes `ray start --head` and `ray start
--address` run), stopped again at the end. Both runs play the same match:
two copies of the binary at a fixed depth or time control, colours swapped by pairs, two
games at a time (locally two threads; on Ray one pair per node).

    benches/ray_overhead.py --binary target/release/arimaa --games 16 --tc 0.1s/1s/100
(run it with the Python that has ray, e.g. ARIMAA_PYTHON)
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time


def play(binary, games, limit, max_turns, cluster):
    args = [binary, "match", "--quiet", "--games", str(games), "--concurrency", "2",
            "--max-turns", str(max_turns), "--cluster", cluster]
    for name in ("one", "two"):
        args += ["--engine", f"name={name}", f"cmd={binary}", limit, "option.hash=16"]
    env = dict(os.environ, ARIMAA_PYTHON=sys.executable)
    start = time.monotonic()
    out = subprocess.run(args, capture_output=True, text=True, env=env)
    took = time.monotonic() - start
    if out.returncode != 0 or f"{games} of {games} games finished" not in out.stdout:
        sys.exit(f"{cluster}: the match failed:\n{out.stdout}\n{out.stderr}")
    return took


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", default="target/release/arimaa")
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--depth", type=int, default=2)
    ap.add_argument("--tc", help="a time control instead of --depth: game lengths then do not depend on the load")
    ap.add_argument("--max-turns", type=int, default=16)
    a = ap.parse_args()
    binary = os.path.abspath(a.binary)
    limit = f"tc={a.tc}" if a.tc else f"depth={a.depth}"
    local = play(binary, a.games, limit, a.max_turns, "local")
    print(f"local: {a.games} games in {local:.1f} s = {a.games * 3600 / local:.0f} games/hour", flush=True)

    with tempfile.TemporaryDirectory(prefix="rayb") as tmp:
        # All of this cluster's files, its address file included, stay in
        # tmp: another Ray on the machine is neither found nor disturbed.
        os.environ["RAY_TMPDIR"] = tmp
        os.makedirs(os.path.join(tmp, "ray"))
        from ray.cluster_utils import Cluster

        cluster = Cluster(initialize_head=True,
                          head_node_args={"num_cpus": 1, "include_dashboard": False, "temp_dir": tmp})
        cluster.add_node(num_cpus=1)
        try:
            cluster.wait_for_nodes()
            on_ray = play(binary, a.games, limit, a.max_turns, f"ray:{cluster.address}")
        finally:
            cluster.shutdown()
    print(f"ray (2 nodes x 1 CPU): {a.games} games in {on_ray:.1f} s = {a.games * 3600 / on_ray:.0f} games/hour "
          f"(connecting and shipping the binary included)")
    print(f"ratio local/ray: {on_ray / local:.2f} (time through Ray per local time)")


if __name__ == "__main__":
    main()
