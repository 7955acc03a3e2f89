"""``verify``'s label on a record agrees with the execution's verdict: a record whose own
checks pass but whose write-ahead log's hash chain is broken is untrusted, so its line is
FAIL with the reason (text), ``ok: false`` (JSON), and verify exits 1."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from intentusnet.wal.writer import WALWriter

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.intentusnet_world import RealWorld, with_broken_wal_chain


@pytest.fixture
def broken(real_world: RealWorld, tmp_path: Path) -> Path:
    return with_broken_wal_chain(real_world, tmp_path)


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
    assert lines[-1] == "2 checked (1 record, 1 WAL), 2 failed"

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
    assert run.stdout.rstrip().endswith("1 checked (1 record, 0 WALs), 1 failed")
    doc = json.loads(cli("verify", str(record), "--json").stdout)
    assert doc["files"][0]["ok"] is False and doc["ok"] is False


def test_a_log_of_another_execution_under_this_ones_name_fails_the_record(
    real_world: RealWorld, tmp_path: Path
) -> None:
    # The real 1.3.0 WALWriter's log of the fallback execution, renamed to the success's.
    root = with_broken_wal_chain(real_world, tmp_path)
    wal_dir = root / "wal"
    (wal_dir / f"{real_world.success}.wal").unlink()
    with WALWriter(str(wal_dir), real_world.fallback) as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.execution_completed("cd" * 32)
    (wal_dir / f"{real_world.fallback}.wal").rename(wal_dir / f"{real_world.success}.wal")
    run = cli("verify", str(root))
    assert run.returncode == ExitCode.PROBLEMS, run.stdout
    lines = run.stdout.splitlines()
    assert f"FAIL  {real_world.success}.json  hash match" in lines
    assert f"FAIL  {real_world.success}.wal  wal chain broken at line 1 (seq 1): " in "\n".join(
        lines
    )
    assert f"belongs to execution '{real_world.fallback}'" in run.stdout
    assert "integrity chain_broken; not replayable (untrusted)" in run.stdout
    listing = json.loads(cli("inspect", "--list", str(root), "--json").stdout)
    (row,) = listing["executions"]
    assert (row["outcome"], row["integrity"]) == ("unknown", "chain_broken")
    assert "the WAL is another execution's log" in row["integrity_reason"]


def test_an_execution_id_of_the_current_directory_is_verified(tmp_path: Path) -> None:
    """``verify ID`` (or a unique prefix), as ``inspect ID`` takes it, in a project's
    directory: it said "no such file or directory"."""
    from tests.factories import make_record, write_record

    records = tmp_path / ".intentusnet" / "records"
    write_record(records, make_record(execution_id="exec-good-1"))
    done = cli("verify", "exec-good", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("ok    exec-good-1.json  hash match")
    missing = cli("verify", "exec-nope", cwd=tmp_path)
    assert missing.returncode == 2
    assert missing.stderr == "intentus-tui: no such file or directory: exec-nope\n"
