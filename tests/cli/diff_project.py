"""What the ``diff`` and ``snapshot`` command tests share: a project of four records (two
equal but for their ids, one drifted, one direct) and the command run in-process."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from intentus_tui.cli import run
from tests.factories import make_record, write_record

FALLBACK = (("agent-a", "error"), ("agent-b", "ok"))


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write_diff_project(tmp_path: Path) -> Path:
    """``.intentusnet/records`` under ``tmp_path`` with exec-a, exec-same (exec-a under
    another id), exec-drift (another exception) and exec-direct (no fallback)."""
    records = tmp_path / ".intentusnet" / "records"
    base = make_record(execution_id="exec-a", agents=FALLBACK)
    write_record(records, base)
    same = copy.deepcopy(base)
    same["header"]["executionId"] = "exec-same"
    write_record(records, same)
    drift = copy.deepcopy(base)
    drift["header"]["executionId"] = "exec-drift"
    drift["events"][2]["payload"]["exception"] = "agent-a timed out"
    write_record(records, drift)
    write_record(records, make_record(execution_id="exec-direct", agents=(("agent-a", "ok"),)))
    return tmp_path
