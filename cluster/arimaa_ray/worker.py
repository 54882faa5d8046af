"""The Ray task: one game pair played on a worker node by the driver's own
`arimaa` binary (`arimaa match-pair`, spec on stdin, outcome on stdout).

The binary travels through Ray's object store and is cached on each node
under its sha256, checked against the driver's before it is run. Every
build shipped would stay there, so the cache keeps only binaries used in
the last day, and at most the 8 most recently used. A pair
that fails for a reason of its own (an engine that cannot start there) is
returned as a failure naming the node: Ray must not retry it. A worker that
dies is Ray's business: it runs the task again elsewhere."""

import ctypes
import hashlib
import json
import os
import re
import shutil
import signal
import stat
import subprocess
import tempfile
import time

# Paths already checked in this worker process.
_checked = set()

# The cache keeps binaries used within this many seconds...
CACHE_MAX_AGE = 24 * 3600
# ...and at most this many of them, the most recently used.
CACHE_KEEP = 8
_SHA256 = re.compile(r"[0-9a-f]{64}")


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


def cache_root():
    return os.path.join(tempfile.gettempdir(), "arimaa-ray")


def prune_cache(root, keep, now=None):
    """Removes the cached binaries under `root` last used more than
    CACHE_MAX_AGE ago or beyond the CACHE_KEEP most recent, never `keep`
    (the sha256 about to run). Only folders named by a sha256 are touched;
    a folder another worker is filling is recent, so it stays. Returns the
    names removed."""
    now = time.time() if now is None else now
    try:
        names = [n for n in os.listdir(root) if _SHA256.fullmatch(n)]
    except OSError:
        return []
    used = []
    for name in names:
        try:
            st = os.stat(os.path.join(root, name))
        except OSError:
            continue  # removed meanwhile by another worker
        if stat.S_ISDIR(st.st_mode):
            used.append((st.st_mtime, name))
    used.sort(reverse=True)
    removed = []
    for rank, (mtime, name) in enumerate(used):
        if name != keep and (rank >= CACHE_KEEP or now - mtime > CACHE_MAX_AGE):
            shutil.rmtree(os.path.join(root, name), ignore_errors=True)
            removed.append(name)
    return removed


def local_binary(sha256, blob):
    """The driver's binary on this node, fetched once and checked."""
    import ray

    folder = os.path.join(cache_root(), sha256)
    path = os.path.join(folder, "arimaa")
    if path in _checked and os.path.isfile(path):
        _mark_used(folder)
        return path
    if not (os.path.isfile(path) and _sha256_file(path) == sha256):
        data = ray.get(blob[0])
        if hashlib.sha256(data).hexdigest() != sha256:
            raise RuntimeError("the shipped binary's sha256 differs from the driver's")
        install(path, data, sha256)
    _checked.add(path)
    _mark_used(folder)
    # Once per binary and worker process: when the cache may have grown.
    prune_cache(cache_root(), sha256)
    return path


def install(path, data, sha256):
    """Writes `data` (whose sha256 the caller checked) at `path`, unless
    another worker on this node got there first: then its copy stays.
    Replacing a file a pair is running from would leave that process
    with a '(deleted)' path to itself, from which it cannot start the
    engines that are itself (seen with a fresh build shipped to several
    workers at once). A copy that is not the driver's binary is
    replaced: nothing runs from it."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = f"{path}.{os.getpid()}.tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.chmod(tmp, 0o755)
    try:
        os.link(tmp, path)  # creates `path` only if it is absent
    except FileExistsError:
        if _sha256_file(path) == sha256:
            return  # another worker's copy, already checked
        os.replace(tmp, path)
    except OSError:
        os.replace(tmp, path)  # a filesystem without hard links
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
    if _sha256_file(path) != sha256:
        raise RuntimeError(f"{path}: its sha256 differs from the driver's binary")


def _mark_used(folder):
    # The folder's time is its last use, which the pruning goes by: a long
    # match keeps its binary however old the build.
    try:
        os.utime(folder)
    except OSError:
        pass


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
    # The exit status alone cannot tell: with the raylet as subreaper (see
    # bridge.py), Ray's workers ignore SIGCHLD, so every child is reaped by
    # the kernel and Python reports status 0. An outcome is printed only on
    # success, so its absence is the failure, told by stderr.
    try:
        outcome = json.loads(out) if proc.returncode == 0 else None
    except ValueError:
        outcome = None
    if outcome is None:
        lines = [line.strip().removeprefix("error: ") for line in err.splitlines() if line.strip()][-5:]
        status = f"exited with status {proc.returncode}" if proc.returncode else "printed no outcome"
        message = "; ".join(lines) or f"arimaa match-pair {status}"
        return {"ok": False, "node": node, "message": message}
    return {"ok": True, "node": node, "outcome": outcome}
