"""engine.Engine ends a wrapped engine whole: what a wrapper script started
is gone after kill() and after quit(). Standard library only; run with
`python3 -m unittest discover -s tools/oracle` (bin/arimaa/tests/python_tests.rs
does)."""

import os
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from engine import Engine  # noqa: E402


def running(pid):
    """True while pid runs; a zombie is dead, waiting only to be reaped."""
    try:
        with open("/proc/%d/stat" % pid) as f:
            state = f.read().rsplit(") ", 1)[1][:1]
        return state not in ("Z", "X")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the system instead
        try:
            os.kill(pid, 0)
            return True
        except ProcessLookupError:
            return False


def gone_soon(pid, seconds=5.0):
    end = time.monotonic() + seconds
    while running(pid):
        if time.monotonic() >= end:
            return False
        time.sleep(0.01)
    return True


class WrappedEngine(unittest.TestCase):
    def start(self, on_quit):
        """A shell wrapper that starts a sleeping grandchild (its pid in a
        file) and answers AEI; `on_quit` is what it does on `quit`."""
        fd, pid_file = tempfile.mkstemp(prefix="arimaa-engine-test-")
        os.close(fd)
        self.addCleanup(os.remove, pid_file)
        script = ("sleep 300 & echo $! > %s; while read -r l; do case $l in "
                  "aei) echo aeiok;; quit) %s;; esac; done" % (pid_file, on_quit))
        eng = Engine(["sh", "-c", script])
        _, line, _ = eng.handshake()
        self.assertEqual(line, "aeiok")
        with open(pid_file) as f:
            grandchild = int(f.read())
        self.assertTrue(running(grandchild))
        return eng, grandchild

    def test_kill_ends_the_grandchild(self):
        eng, grandchild = self.start("exit 0")
        eng.kill()
        self.assertTrue(gone_soon(grandchild), "grandchild %d survived kill()" % grandchild)

    def test_a_clean_quit_ends_the_grandchild(self):
        eng, grandchild = self.start("exit 0")
        self.assertIsNotNone(eng.quit())
        self.assertTrue(gone_soon(grandchild), "grandchild %d outlived quit" % grandchild)

    def test_an_ignored_quit_ends_in_a_kill_of_the_grandchild_too(self):
        eng, grandchild = self.start(":")
        self.assertIsNone(eng.quit(timeout=0.3))
        self.assertTrue(gone_soon(grandchild), "grandchild %d survived" % grandchild)


if __name__ == "__main__":
    unittest.main()
