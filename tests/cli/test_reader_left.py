"""A reader of standard output that leaves early (``intentus-tui ... | head``) did not get
the whole answer: the command exits 141 (128 + SIGPIPE, as ``cat`` and ``git`` do), or the
non-zero code it had already decided, and says nothing on stderr: no traceback, no
"Exception ignored" at interpreter exit. Real processes, a real pipe closed early."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from tests.factories import make_record, write_record

PIPE_BUFFER = 1 << 16  # Linux's default: more output than this blocks until it is read


def read_a_little_then_leave(*args: str) -> tuple[int, bytes, str]:
    """Run ``intentus-tui ARGS``, read its first line, close the pipe: (code, line, stderr)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "intentus_tui.cli", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": ""},
    )
    assert proc.stdout is not None and proc.stderr is not None
    first = proc.stdout.readline()
    proc.stdout.close()
    stderr = proc.stderr.read().decode("utf-8", "replace")
    return proc.wait(timeout=120), first, stderr


@pytest.fixture(scope="module")
def big_directory(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Records enough for any listing of them to overflow a pipe's buffer, the last of
    them tampered: ``verify`` finds a problem (exit 1) and has far more to say."""
    from intentus_tui.demo.writer import build_demo_world

    base = build_demo_world(tmp_path_factory.mktemp("reader-left"), count=3).root
    records = base / "records"
    good = sorted(records.glob("*.json"))[0].read_bytes()
    for n in range(1200):
        (records / f"copy-{n:04}.json").write_bytes(good)
    record = make_record()
    record["envelope"]["payload"] = {"edited": True}  # after it was hashed: tampered
    write_record(records, record)
    shutil.rmtree(base / "wal")
    return base


def test_a_reader_that_leaves_early_is_exit_141_quietly(big_directory: Path) -> None:
    for args in (
        ("export", "--format", "otlp", str(big_directory), "-o", "-"),
        ("inspect", "--list", str(big_directory), "--json"),
        ("inspect", "--list", str(big_directory)),
    ):
        code, first, stderr = read_a_little_then_leave(*args)
        assert first, args
        assert code == ExitCode.READER_LEFT == 141, (args, code, stderr)
        assert stderr == "", (args, stderr)


def test_a_code_already_decided_is_kept_when_the_reader_leaves(big_directory: Path) -> None:
    """``verify DIR | head -1`` exits 1 as ``verify DIR`` does: its verdict is not lost."""
    whole = subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", "verify", str(big_directory)],
        capture_output=True,
        timeout=120,
    )
    assert whole.returncode == ExitCode.PROBLEMS and len(whole.stdout) > 2 * PIPE_BUFFER
    for args in (("verify", str(big_directory)), ("verify", str(big_directory), "--json")):
        code, first, stderr = read_a_little_then_leave(*args)
        assert first and code == ExitCode.PROBLEMS, (args, code, stderr)
        assert stderr == "", (args, stderr)


def run_with_closed(closed: str, *args: str, cwd: Path | None = None) -> tuple[int, str, str]:
    """Run ``intentus-tui ARGS`` with standard output (``closed`` = "1") or error ("2")
    closed, as ``>&-`` and ``2>&-`` leave them: (code, stdout, stderr)."""
    close = int(closed)
    proc = subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        preexec_fn=lambda: os.close(close),  # a real closed descriptor, as the shell leaves it
        timeout=120,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_a_closed_standard_output_or_error_is_never_a_traceback(
    big_directory: Path, tmp_path: Path
) -> None:
    """``>&-``: a command that writes standard output ends as when its reader left (it
    was a traceback, exit 1); one that writes a file does its work. ``2>&-``: the error
    still has its code and its JSON document (exit 1, nothing on stdout)."""
    code, _, err = run_with_closed("1", "inspect", "--list", str(big_directory))
    assert code == ExitCode.READER_LEFT and "Traceback" not in err, err
    code, _, err = run_with_closed("1", "--version")
    assert code == ExitCode.READER_LEFT and "Traceback" not in err, err
    out = tmp_path / "all.jsonl"
    code, _, err = run_with_closed(
        "1", "export", "--format", "json", "-o", str(out), str(big_directory)
    )
    assert code == ExitCode.OK and "Traceback" not in err, err
    assert len(out.read_bytes().splitlines()) == len(
        list((big_directory / "records").glob("*.json"))
    )
    code, stdout, _ = run_with_closed(
        "2", "inspect", "nosuch", "--dir", str(big_directory), "--json"
    )
    assert code == ExitCode.USAGE
    assert '"exit_code": 2' in stdout and "no execution 'nosuch'" in stdout
