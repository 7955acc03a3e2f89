"""A watched records directory that cannot be listed for a while (``chmod 000``), with real
permissions: the debugger runs without root's power to read any file (``setpriv``, as the
command line's hostile tests do), while the test, as root, changes the records meanwhile."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.cli.support import deny_capabilities
from tests.factories import make_record, write_record
from tests.tui.app_support import created, fixed_id, write_world

ROOT = Path(__file__).parents[2]


class Debugger:
    """The debugger in its own process (``tests.tui.live_without_root``), step by step."""

    def __init__(self, prefix: list[str], project: Path, opened: str) -> None:
        self.proc = subprocess.Popen(
            [*prefix, sys.executable, "-m", "tests.tui.live_without_root", str(project), opened],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    def seen(self, step: str) -> dict[str, Any]:
        """What it shows at ``step`` (its report: see ``live_without_root.report``)."""
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            self.proc.wait(timeout=30)
            assert self.proc.stderr is not None
            raise AssertionError(f"the debugger ended before {step}:\n{self.proc.stderr.read()}")
        said: dict[str, Any] = json.loads(line)
        assert said["step"] == step
        return said

    def go(self, answer: str = "go") -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(answer + "\n")
        self.proc.stdin.flush()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(timeout=30)


def _inspect_rows(project: Path) -> dict[str, list[object]]:
    listing = ["inspect", "--list", str(project), "--json", "--no-cache"]
    run = subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", *listing],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    return {
        row["file"]: [row["outcome"], row["integrity"], row["replayable"]]
        for row in json.loads(run.stdout)["executions"]
    }


def test_records_that_cannot_be_listed_are_kept_said_and_caught_up(tmp_path: Path) -> None:
    # While the records directory was unreadable the header said "● live", a record
    # changed meanwhile left the list, one added never came, even once access was back.
    prefix = deny_capabilities()
    if prefix is None or os.geteuid() != 0:
        pytest.skip("needs root (to change what the debugger cannot read) and setpriv")
    project = tmp_path / "p"
    records = project / ".intentusnet" / "records"
    records.mkdir(parents=True)
    world = write_world(records)
    debugger = Debugger(prefix, project, f"{world['ok2']}.json")
    try:
        listed = debugger.seen("listed")
        assert "● live" in listed["header"] and len(listed["rows"]) == 6
        records.chmod(0)
        debugger.go()
        unlistable = debugger.seen("unlistable")
        # A long path is cut at its start: what it is and why stay in sight.
        said = unlistable["header"].split("✗ cannot list ")[1]
        assert "/p/.intentusnet/records: permission denied" in said
        assert "● live" not in unlistable["header"]
        assert unlistable["rows"] == listed["rows"]
        # As root: a byte of a record's envelope changed, and a record added.
        tampered = records / f"{world['ok']}.json"
        record = json.loads(tampered.read_text())
        record["envelope"]["payload"] = {"edited": True}
        tampered.write_text(json.dumps(record, indent=2))
        added = fixed_id(90)
        write_record(records, make_record(execution_id=added, created=created(90)))
        debugger.go()
        opened = debugger.seen("opened")
        # Kept as they were: not dropped, not judged by a read that was refused.
        assert opened["rows"] == listed["rows"]
        assert "cannot list" in opened["header"] and opened["detail"] == "unreadable"
        replay = opened["toasts"][-1]  # it said "Nothing to replay: ... has no record"
        assert "Cannot replay" in replay and "cannot be read" in replay, replay
        assert "no record" not in replay
        records.chmod(0o755)
        expected = _inspect_rows(project)
        assert expected[f"{world['ok']}.json"][1] == "tampered" and f"{added}.json" in expected
        debugger.go(json.dumps(expected))
        back = debugger.seen("back")
        assert back["rows"] == expected
        assert "● live" in back["header"] and "cannot list" not in back["header"]
        assert back["counts"].startswith(" 7 executions")
        # The execution shown, read while it could not be, is read again (it stayed
        # "cannot be read" until the cursor left it and came back).
        assert back["detail"] == "ok"
    finally:
        records.chmod(0o755)
        debugger.close()
