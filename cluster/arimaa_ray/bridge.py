"""The bridge between the Rust match runner and Ray: JSON lines in on
stdin (init, pair, cancel), JSON lines out on stdout (ready, done, failed,
cancelled, error). Ray does the scheduling, the retries of a task whose
worker died, and the cancellation; the runner does all the counting.

Anything else written to stdout (Ray's own messages) is sent to stderr, so
the protocol stream holds only events."""

import json
import logging
import os
import queue
import sys
import threading

# The raylet as subreaper: it kills every descendant a worker left behind
# when the worker exits, however it died (Linux). Ray 2.60 turns per-worker
# process-group cleanup on by default, and while that is on the subreaper
# is not used; that cleanup kills only the worker's own group, which our
# engines, leading groups of their own, are not in. So it is turned off.
RAY_CLEANUP = {
    "RAY_kill_child_processes_on_worker_exit_with_raylet_subreaper": "true",
    "RAY_process_group_cleanup_enabled": "false",
}


class Bridge:
    def __init__(self, out):
        self.out = out
        self.requests = queue.Queue()
        self.pending = {}  # ObjectRef -> key
        self.ray = None
        self.task = None
        self.blob = None
        self.sha256 = None
        self.private = False
        self.max_retries = 3
        self.fault = None

    def send(self, **event):
        self.out.write(json.dumps(event) + "\n")
        self.out.flush()

    def read_stdin(self):
        for line in sys.stdin:
            if line.strip():
                self.requests.put(line)
        self.requests.put(None)

    def init(self, msg):
        import hashlib

        try:
            import ray
            from ray import cloudpickle

            import arimaa_ray.worker as worker
        except ImportError as e:
            self.send(event="error", message=f"cannot import ray ({e}): pip install ray, or pip install ./cluster")
            return False
        self.ray = ray
        # Workers need not have this package installed: the task goes by value.
        cloudpickle.register_pickle_by_value(worker)
        address = msg.get("address")
        kwargs = {"logging_level": logging.WARNING, "log_to_driver": False}
        if address == "local":
            self.private = True
            kwargs.update(address="local", include_dashboard=False, object_store_memory=256 << 20)
            # The Ray started here inherits this environment: a cancelled
            # pair's engines die with its worker (see docs/matches.md).
            # Values set by the user win.
            for name, value in RAY_CLEANUP.items():
                os.environ.setdefault(name, value)
            if os.environ.get("ARIMAA_RAY_TEMP_DIR"):
                kwargs["_temp_dir"] = os.environ["ARIMAA_RAY_TEMP_DIR"]
        elif address:
            kwargs["address"] = address
        try:
            ray.init(**kwargs)
            with open(msg["binary"], "rb") as f:
                data = f.read()
            self.sha256 = hashlib.sha256(data).hexdigest()
            self.blob = ray.put(data)
        except Exception as e:  # any failure to connect is reported, not raised
            self.send(event="error", message=f"cannot connect to Ray at {address or 'its default address'}: {e}")
            return False
        self.max_retries = int(msg.get("max_retries", 3))
        self.task = ray.remote(worker.play_pair)
        # Test hook: "PAIR_INDEX:MARKER_FILE" kills the worker of that pair
        # once, mid-pair (see bin/arimaa/tests/match_ray.rs).
        self.fault = os.environ.get("ARIMAA_RAY_TEST_KILL")
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        cpus = ray.cluster_resources().get("CPU", 0)
        self.send(event="ready", nodes=len(nodes), cpus=cpus, sha256=self.sha256)
        return True

    def submit(self, msg):
        spec = msg["spec"]
        fault = None
        if self.fault:
            index, _, marker = self.fault.partition(":")
            if index == str(spec["index"]):
                fault = marker
        ref = self.task.options(num_cpus=msg["num_cpus"], max_retries=self.max_retries).remote(
            json.dumps(spec), self.sha256, [self.blob], fault
        )
        self.pending[ref] = msg["key"]

    def cancel(self):
        for ref in list(self.pending):
            self.ray.cancel(ref, force=True)
        self.pending.clear()

    def collect(self):
        ready, _ = self.ray.wait(list(self.pending), num_returns=len(self.pending), timeout=0.05)
        for ref in ready:
            key = self.pending.pop(ref, None)
            if key is None:
                continue
            try:
                r = self.ray.get(ref)
            except self.ray.exceptions.TaskCancelledError:
                continue
            except Exception as e:  # retries used up, or the task itself raised
                text = str(e).strip().splitlines()
                self.send(event="failed", key=key, node="unknown", message=(text[-1] if text else repr(e)))
                continue
            if r.get("ok"):
                self.send(event="done", key=key, node=r["node"], outcome=r["outcome"])
            else:
                self.send(event="failed", key=key, node=r["node"], message=r["message"])

    def run(self):
        threading.Thread(target=self.read_stdin, daemon=True).start()
        first = self.requests.get()
        if first is None:
            return 0
        try:
            msg = json.loads(first)
        except ValueError as e:
            self.send(event="error", message=f"bad request ({e})")
            return 1
        if msg.get("op") != "init" or not self.init(msg):
            if msg.get("op") != "init":
                self.send(event="error", message="the first request must be init")
            return 1
        try:
            while True:
                try:
                    line = self.requests.get(timeout=0.2) if not self.pending else self.requests.get_nowait()
                except queue.Empty:
                    line = ""
                if line is None:
                    break
                if line:
                    msg = json.loads(line)
                    op = msg.get("op")
                    if op == "pair":
                        self.submit(msg)
                    elif op == "cancel":
                        self.cancel()
                        self.send(event="cancelled")
                    else:
                        self.send(event="error", message=f"unknown request {op!r}")
                    continue
                if self.pending:
                    self.collect()
        finally:
            if self.pending:
                self.cancel()
            self.ray.shutdown()
        return 0


def main():
    # The protocol keeps the real stdout; fd 1 becomes stderr for the rest.
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return Bridge(out).run()
