"""A file that cannot be read at all (no permission, a FIFO named like a record) is said in
one sentence: "nothing to check: Cannot read: Permission denied" said it twice."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from tests.cli.support import cli, deny_capabilities
from tests.intentusnet_world import RealWorld


def test_inspect_says_once_that_a_file_cannot_be_read(
    real_world: RealWorld, tmp_path: Path
) -> None:
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    os.mkfifo(records / "5a000001-0000-4000-8000-000000000000.json")
    shown = cli("inspect", "5a000001", "--dir", str(records)).stdout.splitlines()
    why = "Named like a record but is a FIFO (named pipe)"
    assert shown[2] == f"status      not read: {why}"
    assert (
        f"  integrity   unverifiable: nothing to check: the file cannot be read (n{why[1:]})"
        in shown
    )

    prefix = deny_capabilities()
    if prefix is None:
        pytest.skip("root cannot shed its power to read any file here")
    denied = records / "5a000002-0000-4000-8000-000000000000.json"
    shutil.copy(real_world.records_dir / f"{real_world.success}.json", denied)
    denied.chmod(0)
    env = {**os.environ, "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache")}
    run = cli("inspect", "5a000002", "--dir", str(records), prefix=prefix, env=env)
    assert run.returncode == 0, run.stderr
    shown = run.stdout.splitlines()
    assert shown[2] == "status      not read: Permission denied"
    verdict = shown[shown.index("verdict") + 1 : shown.index("verdict") + 4]
    assert verdict == [
        "  outcome     unknown: the file cannot be read: permission denied",
        "  integrity   unverifiable: nothing to check: the file cannot be read (permission denied)",
        "  replayable  no (record_corrupted): the file cannot be read (permission denied): no "
        "response to replay from it",
    ]
    assert "problem     Cannot read: Permission denied" in shown  # the loader's own words


def test_a_file_listed_when_it_could_be_read_is_not_listed_from_the_cache_when_it_cannot(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """The index cache knew the file from a listing by a user who could read it: listed by
    one who cannot (its stat unchanged), it kept "succeeded, verified, replayable" while
    ``verify`` said it cannot be read."""
    prefix = deny_capabilities()
    if prefix is None:
        pytest.skip("root cannot shed its power to read any file here")
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    denied = records / f"{real_world.success}.json"
    denied.chmod(0)
    env = {**os.environ, "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache")}

    def row(**how: list[str]) -> dict[str, object]:
        run = cli("inspect", "--list", str(records), "--json", env=env, **how)  # type: ignore[arg-type]
        assert run.returncode == 0, run.stderr
        rows = json.loads(run.stdout)["executions"]
        (found,) = [r for r in rows if r["execution_id"] == real_world.success]
        return found

    first = row()  # as root: read, and the cache written
    assert first["integrity"] == "verified"
    then = row(prefix=prefix)
    assert then["integrity"] != "verified", then
    assert "permission denied" in str(then["integrity_reason"]), then
    assert row()["integrity"] == "verified"  # as root again: read again
