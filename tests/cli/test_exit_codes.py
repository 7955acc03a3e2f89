"""The exit codes are part of the interface: the README's table and ``ExitCode`` agree."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode

README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_numbers_are_the_documented_ones() -> None:
    assert {code.name: int(code) for code in ExitCode} == {
        "OK": 0,
        "PROBLEMS": 1,
        "USAGE": 2,
        "NOT_REPLAYABLE": 3,
        "MISMATCH": 4,
        "UNTRUSTED": 5,
        "INTERRUPTED": 130,
        "READER_LEFT": 141,
    }


def test_the_readme_table_lists_every_code() -> None:
    text = README.read_text("utf-8")
    section = text[text.index("### Exit codes") :]
    section = section[: section.index("\n### ", 1)]
    documented = {int(n) for n in re.findall(r"^\| (\d+) \|", section, flags=re.M)}
    assert documented == {int(code) for code in ExitCode}


def test_ctrl_c_exits_130_with_one_line_and_the_json_error(tmp_path: Path) -> None:
    """Interrupted, a command exited 1 with "Aborted!": verify's and diff's code for a
    result, so a script took the interruption for one; and ``--json`` left stdout empty.
    The command is held in a real wait (opening a FIFO no one reads) and sent SIGINT."""
    from tests.tui.app_support import write_world

    records = tmp_path / ".intentusnet" / "records"
    world = write_world(records)
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    execution = next(iter(world.values()))
    command = ["snapshot", execution, "--dir", str(records), "-o", str(fifo), "--json"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "intentus_tui.cli", *command],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        # Ctrl-C as a terminal delivers it: a suite started in the background by a shell
        # without job control hands its children SIGINT ignored (this test then hung).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    wchan = Path(f"/proc/{proc.pid}/wchan")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and proc.poll() is None:
        try:
            if wchan.read_text() == "wait_for_partner":  # in the FIFO's open, waiting
                break
        except OSError:
            pytest.skip("no /proc/PID/wchan to see the command waiting")
        time.sleep(0.05)
    else:
        proc.kill()
        pytest.fail(f"never waited on the FIFO: {proc.communicate()}")
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == ExitCode.INTERRUPTED == 130
    assert err.strip().splitlines() == ["intentus-tui: interrupted"]
    assert json.loads(out) == {"error": "interrupted", "exit_code": 130}


def test_verify_of_a_lone_link_leading_nowhere_exits_as_the_readme_says(tmp_path: Path) -> None:
    """A link named alone exits 1 (a file that names a record but cannot be read: failed),
    a missing path or an empty directory alone 2 (nothing to verify). The README's verify
    row said "such paths alone: exit 2" of the link too, and its table's 1 did not name it."""
    from tests.cli.support import cli

    (tmp_path / "dangling.json").symlink_to("nowhere.json")
    (tmp_path / "empty").mkdir()
    codes = {
        name: cli("verify", name, cwd=tmp_path).returncode
        for name in ("dangling.json", "missing.json", "empty")
    }
    assert codes == {"dangling.json": 1, "missing.json": 2, "empty": 2}
    text = README.read_text("utf-8")
    row = next(line for line in text.splitlines() if line.startswith("| `intentus-tui verify "))
    assert "leads nowhere" in row and "such paths alone: exit 2" not in row
    link = row[row.index("a link named that loops or leads nowhere") :]
    assert link.index("(exit 1)") < link.index("(exit 2)")
    table = text[text.index("### Exit codes") :]
    problems = next(line for line in table.splitlines() if line.startswith("| 1 |"))
    assert "leads nowhere" in problems
