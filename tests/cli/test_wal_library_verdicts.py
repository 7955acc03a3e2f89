"""``verify`` and the real IntentusNet 1.3.0 ``WALReader`` agree on two logs whose hashes
all check out: one with an integer ``timestamp_iso`` (the library reads it: no broken
chain), and one with an entry type the library does not know (it refuses the file: not
"chain verified")."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from intentusnet.wal.models import WALEntry, WALEntryType
from intentusnet.wal.reader import WALIntegrityError, WALReader

from tests.cli.support import cli
from tests.core.wal.support import EXEC_ID, lines_of, write_completed


def rewrite_rehashed(log: Path, line: int, key: str, value: object) -> None:
    """Line ``line`` (from 0) of ``log`` with ``key`` set to ``value``, and every hash from
    there on computed again by the real ``WALEntry.compute_hash``: a log whose chain holds."""
    entries = [json.loads(raw) for raw in lines_of(log)]
    entries[line][key] = value
    prev = entries[line - 1]["entry_hash"] if line else None
    for doc in entries[line:]:
        doc["prev_hash"] = prev
        known = doc["entry_type"] in {t.value for t in WALEntryType}
        kind = (
            WALEntryType(doc["entry_type"]) if known else SimpleNamespace(value=doc["entry_type"])
        )
        entry = WALEntry(
            seq=doc["seq"],
            execution_id=doc["execution_id"],
            timestamp_iso=doc["timestamp_iso"],
            entry_type=kind,  # type: ignore[arg-type]  # what the library would hash
            payload=doc["payload"],
            prev_hash=prev,
            version=doc["version"],
        )
        doc["entry_hash"] = prev = entry.compute_hash()
    log.write_text("".join(json.dumps(d) + "\n" for d in entries), encoding="utf-8")


@pytest.fixture
def wal_dir(tmp_path: Path) -> Path:
    wal = tmp_path / ".intentusnet" / "wal"
    (tmp_path / ".intentusnet" / "records").mkdir(parents=True)
    write_completed(wal)
    return wal


def test_an_integer_timestamp_the_library_reads_is_not_a_broken_chain(wal_dir: Path) -> None:
    log = wal_dir / f"{EXEC_ID}.wal"
    rewrite_rehashed(log, 2, "timestamp_iso", 12)
    assert len(WALReader(str(wal_dir), EXEC_ID).read_all()) == 7  # the library reads it

    run = cli("verify", str(log))
    assert run.returncode == 0, run.stdout
    assert "chain verified: 7 entries, completed" in run.stdout
    assert "integrity verified" in run.stdout


def test_an_entry_type_the_library_does_not_know_is_not_verified(wal_dir: Path) -> None:
    log = wal_dir / f"{EXEC_ID}.wal"
    rewrite_rehashed(log, 2, "entry_type", "no.such.type")
    with pytest.raises(WALIntegrityError, match="Corrupted WAL entry"):
        WALReader(str(wal_dir), EXEC_ID).read_all()

    run = cli("verify", str(log))
    assert run.returncode == 1, run.stdout
    assert "chain verified" not in run.stdout
    assert "'no.such.type' is one IntentusNet 1.3.0 does not know" in run.stdout
    listed = json.loads(cli("inspect", "--list", str(wal_dir.parent), "--json").stdout)
    row = listed["executions"][0]
    assert row["integrity"] != "verified"
    assert "IntentusNet 1.3.0 does not know" in row["integrity_reason"]


def test_an_entry_the_library_takes_but_this_tool_refuses_says_so(wal_dir: Path) -> None:
    """A payload that is a list, its hash holding: the library reads the log; this tool
    refuses the entry on purpose, and its reason said only 'entry has no object payload'."""
    log = wal_dir / f"{EXEC_ID}.wal"
    rewrite_rehashed(log, 2, "payload", [1, 2])
    assert len(WALReader(str(wal_dir), EXEC_ID).read_all()) == 7

    run = cli("verify", str(log), "--json")
    assert run.returncode == 1, run.stdout
    [report] = json.loads(run.stdout)["files"]
    said = "its hash checks out and IntentusNet 1.3.0's reader takes it"
    assert said in report["chain_break"]["message"]
    listed = json.loads(cli("inspect", "--list", str(wal_dir.parent), "--json").stdout)
    assert said in listed["executions"][0]["integrity_reason"]


def test_a_log_the_library_reads_whose_every_entry_this_tool_refuses_is_still_a_log(
    wal_dir: Path,
) -> None:
    """Every payload a list, every hash holding: the library reads the log, and the verdict
    began "not a write-ahead log: no line is a WAL entry", as for bytes that are no log."""
    log = wal_dir / f"{EXEC_ID}.wal"
    for line in range(len(lines_of(log))):
        rewrite_rehashed(log, line, "payload", [1, 2])
    assert len(WALReader(str(wal_dir), EXEC_ID).read_all()) == 7

    run = cli("verify", str(log))
    assert run.returncode == 1, run.stdout
    first = run.stdout.splitlines()[0]
    assert "not a write-ahead log" not in run.stdout and "no line is a WAL entry" not in first
    assert first.startswith(
        f"FAIL  {EXEC_ID}.wal  wal cannot be verified: a write-ahead log whose entries this "
        "tool refuses (line 1: entry has no object 'payload'; its hash checks out and "
        "IntentusNet 1.3.0's reader takes it"
    ), first
    listed = json.loads(cli("inspect", "--list", str(wal_dir.parent), "--json").stdout)
    reason = listed["executions"][0]["integrity_reason"]
    assert reason.startswith("a write-ahead log whose entries this tool refuses"), reason
