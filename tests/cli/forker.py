"""The command line as a real process, without an interpreter start per command.

A fresh ``python -m intentus_tui.cli`` spends about 0.25 s of CPU starting Python and
importing the program before it does anything; the suite runs the command line several
hundred times. A forker (one per test process) imports the program once; each command is
a child forked from it, with the caller's working directory and environment, and its
standard output and error on pipes the caller reads: the same entry point
(``intentus_tui.cli.__main__``), a real process and real file descriptors, as
``subprocess.run`` gives.

What a fork cannot give is what the interpreter does before and after the program: its
start (an environment variable read when a module is imported, such as the one that turns
the native helpers off) and its last flush at exit. Commands whose environment changes
an import-time setting run fresh; tests about the interpreter's exit run fresh
(``cli(..., fresh=True)``).
"""

from __future__ import annotations

import json
import locale
import os
import selectors
import signal
import socket
import subprocess
import sys
import time

from intentus_tui.core.native import PURE_PYTHON_ENV

# Read when a module is imported: a command whose value differs from the forker's runs in
# a fresh interpreter.
IMPORT_TIME_ENV = (PURE_PYTHON_ENV, "PYTHONPATH", "PYTHONHASHSEED", "PYTHONUTF8", "LANG", "LC_ALL")

_FORKER = r"""
import atexit, json, os, runpy, signal, socket, sys, tempfile, traceback
import importlib, pkgutil
import intentus_tui, intentus_tui.cli  # the program, imported once, with what its commands import
for module in pkgutil.walk_packages(intentus_tui.__path__, "intentus_tui."):
    if not module.name.startswith("intentus_tui.tui") and not module.name.endswith("__main__"):
        try:
            importlib.import_module(module.name)
        except ImportError:  # an optional extra that is not installed
            pass

ENTRY = os.path.join(os.path.dirname(intentus_tui.cli.__file__), "__main__.py")

channel = socket.socket(fileno=int(sys.argv[1]))
signal.signal(signal.SIGCHLD, signal.SIG_DFL)
channel.sendall(b"ready\n")
while True:
    message, fds, _, _ = socket.recv_fds(channel, 1 << 20, 2)
    if not message:
        break
    request = json.loads(message)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            channel.close()
            os.dup2(fds[0], 1)
            os.dup2(fds[1], 2)
            null = os.open(os.devnull, os.O_RDONLY)
            os.dup2(null, 0)
            for fd in (*fds, null):
                os.close(fd)
            os.chdir(request["cwd"])
            os.environ.clear()
            os.environ.update(request["env"])
            tempfile.tempdir = None  # TMPDIR is read again, as a fresh start would
            sys.argv = [ENTRY, *request["args"]]
            try:
                runpy.run_module("intentus_tui.cli", run_name="__main__", alter_sys=True)
                code = 0
            except SystemExit as exc:
                if exc.code is None:
                    code = 0
                elif isinstance(exc.code, int):
                    code = exc.code
                else:
                    print(exc.code, file=sys.stderr)
                    code = 1
            except BaseException:
                traceback.print_exc()
                code = 1
            atexit._run_exitfuncs()
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    code = code or 120  # as the interpreter exits when its last flush fails
        finally:
            os._exit(code)
    for fd in fds:
        os.close(fd)
    channel.sendall(f"{pid}\n".encode())
    _, status = os.waitpid(pid, 0)
    channel.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
"""


class Forker:
    """A process that has imported the command line and forks a child per command."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair()
        self.env = {k: os.environ[k] for k in IMPORT_TIME_ENV if k in os.environ}
        self._proc = subprocess.Popen(
            [sys.executable, "-c", _FORKER, str(theirs.fileno())],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
        )
        theirs.close()
        self._channel = ours
        self._lines = ours.makefile("rb")
        if self._lines.readline() != b"ready\n":
            raise RuntimeError("the command-line forker did not start")

    def usable_for(self, env: dict[str, str]) -> bool:
        return self._proc.poll() is None and all(
            env.get(k) == self.env.get(k) for k in IMPORT_TIME_ENV
        )

    def run(
        self, args: tuple[str, ...], cwd: str, env: dict[str, str], timeout: float
    ) -> subprocess.CompletedProcess[str]:
        out_r, out_w = os.pipe()
        err_r, err_w = os.pipe()
        request = json.dumps({"args": list(args), "cwd": cwd, "env": env}).encode()
        try:
            socket.send_fds(self._channel, [request], [out_w, err_w])
        finally:
            os.close(out_w)
            os.close(err_w)
        pid = int(self._lines.readline())
        try:
            out, err = _read_both(out_r, err_r, time.monotonic() + timeout)
        except subprocess.TimeoutExpired:
            os.kill(pid, signal.SIGKILL)
            self._lines.readline()
            raise subprocess.TimeoutExpired(["intentus-tui", *args], timeout) from None
        code = int(self._lines.readline())
        return subprocess.CompletedProcess(
            [sys.executable, "-m", "intentus_tui.cli", *args], code, _text(out), _text(err)
        )


def _read_both(out_r: int, err_r: int, deadline: float) -> tuple[bytes, bytes]:
    """Both pipes to their end, read together (a child may fill either first)."""
    chunks: dict[int, list[bytes]] = {out_r: [], err_r: []}
    with selectors.DefaultSelector() as selector:
        for fd in chunks:
            selector.register(fd, selectors.EVENT_READ)
        try:
            while selector.get_map():
                left = deadline - time.monotonic()
                if left <= 0:
                    raise subprocess.TimeoutExpired("intentus-tui", 0)
                for key, _ in selector.select(left):
                    data = os.read(key.fd, 1 << 16)
                    if data:
                        chunks[key.fd].append(data)
                    else:
                        selector.unregister(key.fd)
        finally:
            os.close(out_r)
            os.close(err_r)
    return b"".join(chunks[out_r]), b"".join(chunks[err_r])


def _text(data: bytes) -> str:
    """As ``subprocess.run(text=True)`` decodes: the locale's encoding, universal newlines."""
    text = data.decode(locale.getpreferredencoding(False))
    return text.replace("\r\n", "\n").replace("\r", "\n")


_forker: Forker | None = None


def forked_cli(
    args: tuple[str, ...], cwd: str, env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess[str] | None:
    """The command's result from this process's forker; None where it cannot stand in for
    a fresh interpreter (an import-time setting differs)."""
    global _forker
    if _forker is None:
        _forker = Forker()
    if not _forker.usable_for(env):
        return None
    return _forker.run(args, cwd, env, timeout)
