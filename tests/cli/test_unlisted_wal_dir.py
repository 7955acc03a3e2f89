"""A root whose ``wal/`` directory cannot be listed (no permission) while its records can
be read: the command line said 'cannot list …/wal: permission denied: what it holds cannot
be read' and listed, verified or inspected nothing of it (exit 2). Its records are listed
now, one line says the logs cannot be read, and each verdict says its log is unchecked."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.cli.support import cli, deny_capabilities
from tests.core.wal.support import write_completed
from tests.intentusnet_world import RealWorld

UNCHECKED = "its hash chain cannot be checked"


@pytest.fixture
def root(real_world: RealWorld, tmp_path: Path) -> Iterator[Path]:
    """A copy of the real 1.3.0 records, the first with its log written by the real
    ``WALWriter``, in a log directory no one may list."""
    base = tmp_path / "world" / ".intentusnet"
    shutil.copytree(real_world.records_dir, base / "records")
    write_completed(base / "wal", real_world.success)
    (base / "wal").chmod(0)
    yield base.parent
    (base / "wal").chmod(0o755)


def run(*args: str, tmp_path: Path) -> tuple[int, str, list[str]]:
    prefix = deny_capabilities()
    if prefix is None:
        pytest.skip("root cannot shed its power to read any directory here")
    env = {**os.environ, "INTENTUS_TUI_CACHE_DIR": str(tmp_path / "cache")}
    done = cli(*args, prefix=prefix, env=env)
    return done.returncode, done.stdout, done.stderr.splitlines()


def test_the_records_are_listed_their_logs_unchecked(
    root: Path, real_world: RealWorld, tmp_path: Path
) -> None:
    code, out, err = run("inspect", "--list", "--json", str(root), tmp_path=tmp_path)
    assert code == 0, err
    [line] = err
    assert "wal: permission denied" in line and "write-ahead logs cannot be read" in line
    rows = {row["execution_id"]: row for row in json.loads(out)["executions"]}
    assert len(rows) == 4
    success = rows[real_world.success]
    assert success["integrity"] == "unverifiable"
    assert UNCHECKED in success["integrity_reason"]


def test_verify_and_inspect_say_the_log_could_not_be_checked(
    root: Path, real_world: RealWorld, tmp_path: Path
) -> None:
    code, out, err = run("verify", str(root), tmp_path=tmp_path)
    [line] = err
    assert "write-ahead logs cannot be read" in line
    assert out.splitlines()[-1].startswith("4 checked (4 records, 0 WALs)")
    success = out.split(f"{real_world.success}.json", 1)[1]
    assert f"WAL unreadable: permission denied: {UNCHECKED}" in success.split("verdict")[0]

    code, out, err = run("inspect", real_world.success[:8], "--dir", str(root), tmp_path=tmp_path)
    assert code == 0 and len(err) == 1
    assert f"  integrity   unverifiable: WAL unreadable: permission denied: {UNCHECKED}" in (
        out.splitlines()
    )
