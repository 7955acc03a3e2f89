"""The real program in a real pseudo-terminal: hostile record text never reaches it raw."""

from __future__ import annotations

import contextlib
import fcntl
import os
import pty
import select
import signal
import struct
import sys
import termios
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.factories import make_record, write_record

HOSTILE_INTENT = "X\x1b]0;PWNED\x07 \x1b[2J \x9b31m [b]bold[/b] \u202etxt"


def _read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    out = b""
    deadline = time.monotonic() + timeout
    while needle not in out and time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            out += chunk
    return out


@contextlib.contextmanager
def _debugger_in_pty(records_dir: Path, env: dict[str, str]) -> Iterator[tuple[int, int]]:
    """The real command line on ``records_dir`` in a 160x45 pseudo-terminal: yields the
    terminal's fd and the program's pid; afterwards the program is gone (``q``, or killed
    if it hangs)."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: the real command line
        os.execvpe(
            sys.executable, [sys.executable, "-m", "intentus_tui.cli", str(records_dir)], env
        )
    try:
        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 45, 160, 0, 0))
        yield fd, pid
    finally:
        for _ in range(50):
            try:
                done, _status = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:  # the test waited for it already
                break
            if done:
                break
            time.sleep(0.1)
        else:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        os.close(fd)


def _quit(fd: int) -> bytes:
    """Press ``q``; what the terminal gets until the program has gone (end of file)."""
    os.write(fd, b"q")
    return _read_until(fd, b"\x00never", timeout=10)


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_no_escape_sequence_from_a_record_reaches_the_terminal(
    records_dir: Path, tmp_path: Path
) -> None:
    write_record(
        records_dir,
        make_record(
            execution_id="evil-1",
            intent=HOSTILE_INTENT,
            agents=(("\x1b[31mred", "error"), ("ok-agent", "ok")),
        ),
    )
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
        "INTENTUS_TUI_KEYMAP": str(tmp_path / "none.toml"),
    }
    shown_agent = "␛[31mred".encode()  # in the timeline: the selected execution's detail
    with _debugger_in_pty(records_dir, env) as (fd, _pid):
        output = _read_until(fd, b"PWNED", timeout=30)
        output += _read_until(fd, shown_agent, timeout=30)
        output += _quit(fd)
    assert b"PWNED" in output, "the record was never shown"
    assert shown_agent in output, "its detail was never shown"
    assert "␛]0;PWNED␇".encode() in output  # shown, made visible
    assert b"\x1b]0;PWNED" not in output  # never sent as a title-setting sequence
    assert b"\x1b[31mred" not in output
    assert "\u202e".encode() not in output
    assert "\x9b".encode() not in output  # C1 CSI, UTF-8 encoded


@pytest.mark.slow
@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_a_directory_big_enough_for_worker_processes_opens_completely(tmp_path: Path) -> None:
    """At ``PARALLEL_THRESHOLD`` files the scan summarizes in a process pool, started from
    inside the running app (Textual holds stdio then: what the pool needs is prepared
    before). The first rows show before the index is complete; it then completes."""
    from intentus_tui.core.index.scan import PARALLEL_THRESHOLD

    records = tmp_path / "records"
    for n in range(PARALLEL_THRESHOLD):
        write_record(records, make_record(execution_id=f"exec-{n:05d}"))
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache"),
        "INTENTUS_TUI_KEYMAP": str(tmp_path / "none.toml"),
    }
    done = f"{PARALLEL_THRESHOLD:,} executions".encode()
    with _debugger_in_pty(records, env) as (fd, _pid):
        first = _read_until(fd, b"exec-", timeout=30)
        output = first + _read_until(fd, done, timeout=60)
        output += _quit(fd)
    assert b"exec-" in first, "no row was shown"
    assert done in output, "the index never completed"
    assert b"failed" not in output  # "indexing failed (...)" in the header


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
@pytest.mark.parametrize(
    ("signum", "when"),
    [
        (signal.SIGTERM, b"evidence.tar.gz"),
        (signal.SIGHUP, b"evidence.tar.gz"),
        (signal.SIGTERM, b""),
    ],
    ids=["term", "hup", "term-at-once"],
)
def test_killed_or_hung_up_it_closes_as_q_does(tmp_path: Path, signum: int, when: bytes) -> None:
    """``kill`` or a closed terminal: the debugger died where it stood, the terminal left in
    its alternate screen and a bundle's private copy left in the temporary directory. It
    closes as ``q`` does, and exits 128 + the signal's number, as a shell reports it; also
    at once, while it starts (its panes still being built: a traceback and exit 1 in 1 of
    4 such kills)."""
    from tests.cli.support import cli

    demo = tmp_path / "demo"
    assert cli("demo", str(demo), "--count", "3").returncode == 0
    ids = [p.stem for p in (demo / ".intentusnet" / "records").glob("*.json")]
    bundle = tmp_path / "evidence.tar.gz"
    made = cli("bundle", *ids, "--dir", str(demo), "-o", str(bundle))
    assert made.returncode == 0, made.stderr
    private = tmp_path / "tmp"
    private.mkdir()
    env = {
        **os.environ,
        "TERM": "xterm-256color",
        "TMPDIR": str(private),
        "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache"),
    }
    with _debugger_in_pty(bundle, env) as (fd, pid):
        shown = _read_until(fd, when, timeout=30) if when else os.read(fd, 1)
        assert shown and when in shown, "the debugger never drew"
        if when:
            assert len(os.listdir(private)) == 1  # its private copy of the bundle
        os.kill(pid, signum)
        after = _read_until(fd, b"\x00never", timeout=15)
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 128 + signum, after[-3000:]
    if when:
        assert b"\x1b[?1049l" in after  # the alternate screen left: the terminal as it was
    assert os.listdir(private) == []
