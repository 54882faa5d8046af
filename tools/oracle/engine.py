"""A minimal AEI controller for the project's Python tools: the engine on
pipes, its lines read by a thread into a queue with their arrival times.

The tools judge moves with pyrimaa (arbiter.py) but drive the engine
themselves, so that every line sent and received is in their hands (pyrimaa's
own controller is exercised separately, as roundrobin and gameroom use it).
"""
import os
import queue
import shlex
import signal
import subprocess
import threading
import time


class EngineGone(Exception):
    pass


class Engine:
    def __init__(self, command, stderr=subprocess.DEVNULL):
        args = shlex.split(command) if isinstance(command, str) else list(command)
        # Its own session, so its own process group: kill() ends the group,
        # and with it whatever a wrapper script started, and nothing else.
        self.proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=stderr,
                                     text=True, bufsize=1, start_new_session=True)
        self.lines = queue.Queue()
        self.seen = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for line in self.proc.stdout:
            self.lines.put((time.monotonic(), line.rstrip("\n")))
        self.proc.stdout.close()
        self.lines.put((time.monotonic(), None))

    def send(self, line):
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as exc:
            raise EngineGone("cannot write %r: %s" % (line, exc)) from None

    def next(self, timeout):
        """(arrival time, line), or None on timeout; EngineGone at end of output."""
        try:
            at, line = self.lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return None
        if line is None:
            self.lines.put((at, None))
            raise EngineGone("the engine closed its output")
        self.seen.append(line)
        return at, line

    def until(self, prefix, timeout):
        """Lines up to one starting with `prefix`: (before, line, arrival) or
        (before, None, None) on timeout."""
        end = time.monotonic() + timeout
        before = []
        while True:
            got = self.next(end - time.monotonic())
            if got is None:
                return before, None, None
            at, line = got
            if line.startswith(prefix):
                return before, line, at
            before.append(line)

    def collect(self, seconds):
        """Every line written in the next `seconds`."""
        end = time.monotonic() + seconds
        out = []
        while True:
            got = self.next(end - time.monotonic())
            if got is None:
                return out
            out.append(got[1])

    def handshake(self, timeout=5.0):
        self.send("aei")
        return self.until("aeiok", timeout)

    def ready(self, timeout=15.0):
        """isready; the lines before readyok, or None without readyok."""
        self.send("isready")
        before, line, _ = self.until("readyok", timeout)
        return before if line is not None else None

    def option(self, name, value):
        self.send("setoption name %s value %s" % (name, value))

    def go(self, timeout):
        """go; (move text or None, seconds taken, lines before bestmove)."""
        start = time.monotonic()
        self.send("go")
        before, line, at = self.until("bestmove", timeout)
        if line is None:
            return None, time.monotonic() - start, before
        return line[len("bestmove"):].strip(), at - start, before

    def quit(self, timeout=2.0):
        """quit; seconds until the process ended, or None (then it is
        killed). Either way what it started ends with it."""
        start = time.monotonic()
        try:
            self.send("quit")
        except EngineGone:
            pass
        end = start + timeout
        while not self._exited():
            if time.monotonic() >= end:
                self.kill()
                return None
            time.sleep(0.01)
        took = time.monotonic() - start
        self.kill()
        return took

    def _exited(self):
        """True once the engine has exited. Where waitid exists it is left
        unreaped: its pid is its group's id, which must not be reused
        before kill() signals the group."""
        if self.proc.returncode is not None:
            return True
        if not hasattr(os, "waitid"):
            return self.proc.poll() is not None
        try:
            flags = os.WEXITED | os.WNOHANG | os.WNOWAIT
            return os.waitid(os.P_PID, self.proc.pid, flags) is not None
        except ChildProcessError:
            return True

    def kill(self):
        """Kills the engine's whole process group, then reaps the engine."""
        if self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass  # the group is empty already, or no longer ours
            self.proc.wait()
        try:
            self.proc.stdin.close()
        except OSError:
            pass  # unsent text for a process that is gone
