"""The worker's binary cache is pruned: binaries unused for a day go, and
all but the 8 most recently used, never the one about to run and nothing
not named by a sha256; a binary already in it is never replaced under a
pair running from it. Standard library only (ray is imported only when a
task runs); run with `python3 -m unittest discover -s cluster/tests`
(bin/arimaa/tests/python_tests.rs does)."""

import hashlib
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from arimaa_ray import worker  # noqa: E402

NOW = 1_700_000_000.0
HOUR = 3600


def sha(n):
    return "%064x" % n


class PruneCache(unittest.TestCase):
    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="arimaa-ray-cache-test-")
        self.addCleanup(tmp.cleanup)
        self.root = tmp.name

    def entry(self, name, hours_ago):
        folder = os.path.join(self.root, name)
        os.makedirs(folder)
        with open(os.path.join(folder, "arimaa"), "w") as f:
            f.write("binary")
        t = NOW - hours_ago * HOUR
        os.utime(folder, (t, t))

    def left(self):
        return sorted(os.listdir(self.root))

    def test_binaries_unused_for_a_day_go(self):
        self.entry(sha(1), 1)
        self.entry(sha(2), 23)
        self.entry(sha(3), 25)
        removed = worker.prune_cache(self.root, sha(1), now=NOW)
        self.assertEqual(removed, [sha(3)])
        self.assertEqual(self.left(), [sha(1), sha(2)])

    def test_only_the_8_most_recent_stay(self):
        for n in range(12):
            self.entry(sha(n), n)  # sha(0) the most recent
        worker.prune_cache(self.root, sha(0), now=NOW)
        self.assertEqual(self.left(), [sha(n) for n in range(worker.CACHE_KEEP)])

    def test_the_binary_about_to_run_stays_however_old(self):
        for n in range(10):
            self.entry(sha(n), 1)
        self.entry(sha(99), 48)
        worker.prune_cache(self.root, sha(99), now=NOW)
        self.assertIn(sha(99), self.left())
        self.assertEqual(len(self.left()), worker.CACHE_KEEP + 1)

    def test_other_files_are_left_alone(self):
        self.entry("notes", 100)
        self.entry(sha(0xABC).upper(), 100)
        with open(os.path.join(self.root, sha(2)), "w") as f:
            f.write("a file, not a cached binary")
        os.utime(os.path.join(self.root, sha(2)), (NOW - 100 * HOUR,) * 2)
        worker.prune_cache(self.root, sha(3), now=NOW)
        self.assertEqual(self.left(), sorted(["notes", sha(0xABC).upper(), sha(2)]))

    def test_a_missing_cache_is_nothing_to_prune(self):
        self.assertEqual(worker.prune_cache(os.path.join(self.root, "none"), sha(1)), [])


class Install(unittest.TestCase):
    """Several workers may fetch a new build at once: the first copy stays
    (a pair may be running from it), a broken one is replaced."""

    def setUp(self):
        tmp = tempfile.TemporaryDirectory(prefix="arimaa-ray-install-test-")
        self.addCleanup(tmp.cleanup)
        self.path = os.path.join(tmp.name, sha(7), "arimaa")
        self.data = b"the driver's binary"
        self.sha = hashlib.sha256(self.data).hexdigest()

    def test_a_second_install_keeps_the_first_copy(self):
        worker.install(self.path, self.data, self.sha)
        first = os.stat(self.path).st_ino
        worker.install(self.path, self.data, self.sha)
        self.assertEqual(os.stat(self.path).st_ino, first)
        self.assertEqual(os.listdir(os.path.dirname(self.path)), ["arimaa"])
        self.assertTrue(os.access(self.path, os.X_OK))

    def test_a_broken_copy_is_replaced(self):
        os.makedirs(os.path.dirname(self.path))
        with open(self.path, "wb") as f:
            f.write(b"half a binary")
        worker.install(self.path, self.data, self.sha)
        with open(self.path, "rb") as f:
            self.assertEqual(f.read(), self.data)
        self.assertEqual(os.listdir(os.path.dirname(self.path)), ["arimaa"])

    def test_data_that_is_not_the_binary_named_is_refused(self):
        with self.assertRaises(RuntimeError):
            worker.install(self.path, b"something else", self.sha)


if __name__ == "__main__":
    unittest.main()
