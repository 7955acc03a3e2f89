"""A record is accepted wherever a snapshot is: ``intentus-tui diff`` with real 1.3.0
records on either side of a snapshot (never ``missing "stepName"``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from intentus_tui.cli import run as run_cli
from intentus_tui.cli.exit_codes import ExitCode
from tests.intentusnet_world import RealWorld


def diff_json(capsys: pytest.CaptureFixture[str], a: Path, b: Path) -> tuple[int, dict]:
    capsys.readouterr()
    code = run_cli(["diff", str(a), str(b), "--json"])
    captured = capsys.readouterr()
    assert "stepName" not in captured.err
    return code, json.loads(captured.out)


def test_records_and_their_snapshots_compare_both_ways(
    tmp_path: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    records = real_world.records_dir
    success = records / f"{real_world.success}.json"
    fallback = records / f"{real_world.fallback}.json"
    snapshot = tmp_path / "success.snapshot.json"
    assert run_cli(["snapshot", str(success), "-o", str(snapshot)]) == ExitCode.OK

    # A record against its own snapshot, either way round: Verist's comparison, equal.
    for a, b in ((success, snapshot), (snapshot, success)):
        code, doc = diff_json(capsys, a, b)
        assert (code, doc["compared"], doc["equal"]) == (ExitCode.OK, "snapshots", True)
    # Another record where the snapshot was: the differences, same both ways but mirrored.
    code, forward = diff_json(capsys, snapshot, fallback)
    assert (code, forward["compared"], forward["equal"]) == (ExitCode.PROBLEMS, "snapshots", False)
    assert "input.routing.strategy" in [e["path_text"] for e in forward["entries"]]
    code, backward = diff_json(capsys, fallback, snapshot)
    assert [e["path_text"] for e in backward["entries"]] == [
        e["path_text"] for e in forward["entries"]
    ]
    # 1.3.0's error record, cut short, where a snapshot was: what was recovered is compared.
    cut = records / f"{real_world.error_truncated}.json"
    code, doc = diff_json(capsys, snapshot, cut)
    assert (code, doc["compared"]) == (ExitCode.PROBLEMS, "snapshots")
    assert "damaged record" in doc["b"]["note"]
