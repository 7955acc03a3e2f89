"""A fork server for kill tests: one interpreter imports the code under test once, then
forks a child per request (a fresh interpreter per kill would cost ~0.2 s each).

The script given to ``Zygote`` defines ``child(*fields)`` (runs until killed) and
``report_error(fields, text)``; ``ZYGOTE_LOOP`` is appended to it. Children of the zygote
are reaped by the kernel (it ignores SIGCHLD), so ``alive`` sees them go.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from typing import Any

ZYGOTE_LOOP = r"""
signal.signal(signal.SIGCHLD, signal.SIG_IGN)
sys.stdout.write("ready\n"); sys.stdout.flush()
for line in sys.stdin:
    fields = line.split()
    pid = os.fork()
    if pid == 0:
        try:
            child(*fields)
        except BaseException:
            report_error(fields, traceback.format_exc())
        os._exit(1)
    sys.stdout.write(f"{pid}\n"); sys.stdout.flush()
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


class Zygote:
    def __init__(self, script: str, *args: str, **popen: Any) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-c", script + ZYGOTE_LOOP, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            **popen,
        )
        assert self._proc.stdin is not None and self._proc.stdout is not None
        self._stdin, self._stdout = self._proc.stdin, self._proc.stdout
        assert self._stdout.readline() == "ready\n"

    def fork(self, *fields: object) -> int:
        """Start a child running ``child(*fields)``; return its pid."""
        self._stdin.write(" ".join(map(str, fields)) + "\n")
        self._stdin.flush()
        return int(self._stdout.readline())

    @staticmethod
    def kill(pid: int) -> None:
        os.kill(pid, signal.SIGKILL)

    def close(self) -> None:
        self._stdin.close()
        self._proc.wait(timeout=10)

    def __enter__(self) -> Zygote:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
