"""``verify``'s label on a record agrees with the execution's verdict: a record whose own
checks pass but whose write-ahead log's hash chain is broken is untrusted, so its line is
FAIL with the reason (text), ``ok: false`` (JSON), and verify exits 1."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from intentusnet.wal.writer import WALWriter

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld


@pytest.fixture
def broken(real_world: RealWorld, tmp_path: Path) -> Path:
    """An ``.intentusnet`` whose success record is intact and whose WAL, written by the
    real 1.3.0 ``WALWriter``, lost its first entry (the chain breaks at line 1)."""
    records = tmp_path / ".intentusnet" / "records"
    records.mkdir(parents=True)
    name = f"{real_world.success}.json"
    shutil.copy(real_world.records_dir / name, records / name)
    wal_dir = records.parent / "wal"
    with WALWriter(str(wal_dir), real_world.success) as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.execution_completed("cd" * 32)
    wal = wal_dir / f"{real_world.success}.wal"
    wal.write_text(wal.read_text("utf-8").splitlines()[1] + "\n", "utf-8")
    return records.parent


def test_a_record_with_a_broken_wal_chain_is_a_failing_line(
    broken: Path, real_world: RealWorld
) -> None:
    run = cli("verify", str(broken))
    assert run.returncode == ExitCode.PROBLEMS, run.stderr
    lines = run.stdout.splitlines()
    name = f"{real_world.success}.json"
    index = lines.index(f"FAIL  {name}  hash match")
    assert lines[index + 1].startswith("      - WAL hash chain broken at line 1"), lines
    assert "integrity chain_broken; not replayable (untrusted)" in lines[index + 2]
    assert not any(line.startswith("ok") for line in lines), run.stdout
    assert lines[-1] == "2 checked (1 records, 1 WALs), 2 failed"

    doc = json.loads(cli("verify", str(broken), "--json").stdout)
    (record,) = [f for f in doc["files"] if f["kind"] == "record"]
    assert record["ok"] is False
    assert record["verdict"]["integrity"] == "chain_broken"
    assert (doc["ok"], doc["failed"]) == (False, 2)


def test_the_record_file_alone_fails_too(broken: Path, real_world: RealWorld) -> None:
    # Its WAL beside it is read for the verdict, though only the record is verified.
    record = broken / "records" / f"{real_world.success}.json"
    run = cli("verify", str(record))
    assert run.returncode == ExitCode.PROBLEMS, run.stdout
    assert run.stdout.startswith(f"FAIL  {record.name}  hash match\n")
    assert run.stdout.rstrip().endswith("1 checked (1 records, 0 WALs), 1 failed")
    doc = json.loads(cli("verify", str(record), "--json").stdout)
    assert doc["files"][0]["ok"] is False and doc["ok"] is False
