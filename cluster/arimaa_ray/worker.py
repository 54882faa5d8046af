"""The Ray task: one game pair played on a worker node by the driver's own
`arimaa` binary (`arimaa match-pair`, spec on stdin, outcome on stdout).

The binary travels through Ray's object store and is cached on each node
under its sha256, checked against the driver's before it is run. A pair
that fails for a reason of its own (an engine that cannot start there) is
returned as a failure naming the node: Ray must not retry it. A worker that
dies is Ray's business: it runs the task again elsewhere."""

import ctypes
import hashlib
import json
import os
import signal
import subprocess
import tempfile
import time

# Paths already checked in this worker process.
_checked = set()


def _sha256_file(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def node_name():
    import ray

    ctx = ray.get_runtime_context()
    return f"{ctx.get_node_id()[:12]} ({ray.util.get_node_ip_address()})"


def local_binary(sha256, blob):
    """The driver's binary on this node, fetched once and checked."""
    import ray

    path = os.path.join(tempfile.gettempdir(), "arimaa-ray", sha256, "arimaa")
    if path in _checked:
        return path
    if not (os.path.isfile(path) and _sha256_file(path) == sha256):
        data = ray.get(blob[0])
        if hashlib.sha256(data).hexdigest() != sha256:
            raise RuntimeError("the shipped binary's sha256 differs from the driver's")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o755)
        os.replace(tmp, path)
        if _sha256_file(path) != sha256:
            raise RuntimeError(f"{path}: its sha256 differs from the driver's binary")
    _checked.add(path)
    return path


def _die_with_parent():
    # The pair's process must not outlive a worker that Ray killed or
    # cancelled (Linux only; elsewhere it simply plays on alone).
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def play_pair(spec_json, sha256, blob, fault):
    """Plays the pair; returns {"ok": True, "outcome": ...} or
    {"ok": False, "message": ...}, with the node either way."""
    node = node_name()
    try:
        exe = local_binary(sha256, blob)
    except (OSError, RuntimeError) as e:
        return {"ok": False, "node": node, "message": f"cannot install the arimaa binary: {e}"}
    proc = subprocess.Popen(
        [exe, "match-pair"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=_die_with_parent,
    )
    if fault and not os.path.exists(fault):
        # Test hook (ARIMAA_RAY_TEST_KILL): this worker dies mid-pair, once.
        open(fault, "w").close()
        proc.stdin.write(spec_json)
        proc.stdin.close()
        time.sleep(0.5)
        os._exit(1)
    out, err = proc.communicate(spec_json)
    if proc.returncode != 0:
        lines = [line.strip().removeprefix("error: ") for line in err.splitlines() if line.strip()][-5:]
        message = "; ".join(lines) or f"arimaa match-pair exited with status {proc.returncode}"
        return {"ok": False, "node": node, "message": message}
    try:
        outcome = json.loads(out)
    except ValueError as e:
        return {"ok": False, "node": node, "message": f"arimaa match-pair printed no outcome ({e})"}
    return {"ok": True, "node": node, "outcome": outcome}
