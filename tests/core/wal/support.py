"""What the WAL tests share: logs written by the real IntentusNet 1.3.0 ``WALWriter``."""

from __future__ import annotations

import json
from pathlib import Path

from intentusnet.wal.writer import WALWriter

EXEC_ID = "3f2b9c1e-8d4a-4c55-9a77-1e2f3a4b5c6d"


def write_completed(wal_dir: Path, execution_id: str = EXEC_ID) -> Path:
    with WALWriter(str(wal_dir), execution_id) as w:
        w.execution_started("ab" * 32, "SearchIntent")
        w.step_started("step-1", "search-agent", "read_only", {"timeout_ms": 500}, "in-1")
        w.contract_validated("step-1", {"timeout_ms": 500})
        w.step_completed("step-1", "out-1", True)
        w.step_started("step-2", "mailer", "irreversible", {}, "in-2")
        w.step_completed("step-2", "out-2", True)
        w.execution_completed("cd" * 32)
    return wal_dir / f"{execution_id}.wal"


def write_in_flight(wal_dir: Path, side_effect: str, execution_id: str = EXEC_ID) -> Path:
    with WALWriter(str(wal_dir), execution_id) as w:
        w.execution_started("ab" * 32, "PayIntent")
        w.step_started("lookup", "ledger-reader", "read_only", {}, "in-1")
        w.step_completed("lookup", "out-1", True)
        w.step_started("charge", "payments-agent", side_effect, {"exactly_once": True}, "in-2")
    return wal_dir / f"{execution_id}.wal"


def lines_of(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def offset_of_line(path: Path, line_no: int) -> int:
    return sum(len(line) for line in lines_of(path)[: line_no - 1])


# --------------------------------------------------------------------------------------
# Five logs an operator meets after an incident, each written by the real WALWriter
# --------------------------------------------------------------------------------------

CLEAN, FAILED, KILLED, EDITED, DELETED = (
    "0a11c1ea-0000-4000-8000-000000000001",
    "0a11fa11-0000-4000-8000-000000000002",
    "0a11d1ed-0000-4000-8000-000000000003",
    "0a11ed17-0000-4000-8000-000000000004",
    "0a11de1e-0000-4000-8000-000000000005",
)


def _pay(w: WALWriter) -> None:
    """A payment: a read-only lookup, then an irreversible charge (6 entries with the end)."""
    w.execution_started("ab" * 32, "PayIntent")  # 1
    w.step_started("lookup", "ledger-reader", "read_only", {}, "in-1")  # 2
    w.step_completed("lookup", "out-1", True)  # 3
    w.step_started("charge", "payments-agent", "irreversible", {}, "in-2")  # 4
    w.step_completed("charge", "out-2", True)  # 5


# Run in a child process: the real writer appends the completion, and the process is
# SIGKILLed in the middle of that line's write (half of it reaches the file).
_KILL_MID_WRITE = """
import os, signal, sys
from intentusnet.wal.writer import WALWriter
sys.path.insert(0, {tests!r})
from tests.core.wal.support import _pay

class HalfWrite:
    def __init__(self, f):
        self.f = f
    def write(self, text):
        self.f.write(text[: len(text) // 2])
        self.f.flush()
        os.kill(os.getpid(), signal.SIGKILL)
    def __getattr__(self, name):
        return getattr(self.f, name)

with WALWriter({wal_dir!r}, {execution_id!r}) as w:
    _pay(w)
    w._file = HalfWrite(w._file)
    w.execution_completed("cd" * 32)
"""


def write_killed_mid_write(wal_dir: Path, execution_id: str = KILLED) -> Path:
    import signal
    import subprocess
    import sys

    tests = str(Path(__file__).resolve().parents[3])
    code = _KILL_MID_WRITE.format(tests=tests, wal_dir=str(wal_dir), execution_id=execution_id)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    return wal_dir / f"{execution_id}.wal"


def write_incident_logs(wal_dir: Path) -> dict[str, Path]:
    """The five logs: completed, failed, killed mid-write, one entry edited, one line deleted.

    Edited: seq 4 (the irreversible charge) claims to be read-only -- what someone hiding
    a double charge would change. Deleted: line 3 (seq 3, the lookup's completion).
    """
    wal_dir.mkdir(parents=True, exist_ok=True)
    with WALWriter(str(wal_dir), CLEAN) as w:
        _pay(w)
        w.execution_completed("cd" * 32)
    with WALWriter(str(wal_dir), FAILED) as w:
        w.execution_started("ab" * 32, "PayIntent")
        w.step_started("lookup", "ledger-reader", "read_only", {}, "in-1")
        w.step_failed("lookup", "agent_error", "ledger unreachable", False)
        w.execution_failed("agent_error", "ledger unreachable", False)
    write_killed_mid_write(wal_dir)
    for execution_id in (EDITED, DELETED):
        with WALWriter(str(wal_dir), execution_id) as w:
            _pay(w)
            w.execution_completed("cd" * 32)
    edit_entry(wal_dir / f"{EDITED}.wal", 3, "side_effect", "read_only")
    deleted = wal_dir / f"{DELETED}.wal"
    lines = lines_of(deleted)
    del lines[2]
    deleted.write_bytes(b"".join(lines))
    return {name: wal_dir / f"{execution_id}.wal" for name, execution_id in NAMES.items()}


NAMES = {"clean": CLEAN, "failed": FAILED, "killed": KILLED, "edited": EDITED, "deleted": DELETED}


# --------------------------------------------------------------------------------------
# A record whose write-ahead log was edited (the demo's exec-3580bf82)
# --------------------------------------------------------------------------------------

RECORD_WITH_EDITED_LOG = "0a11ed17-0000-4000-8000-000000000006"


def write_record_with_edited_log(base: Path, execution_id: str = RECORD_WITH_EDITED_LOG) -> Path:
    """A whole, completed record in ``base/records`` whose log in ``base/wal`` (the real
    WALWriter) had its step's completion (seq 3) edited: the record hashes fine, the chain
    breaks at line 3, and the trusted part (through seq 2) leaves the step in flight.
    Returns the record's path."""
    from tests.factories import make_record, write_record

    record = make_record(
        execution_id=execution_id, intent="ClassifyTicket", agents=(("ticket-classifier", "ok"),)
    )
    path = write_record(base / "records", record)
    wal_dir = base / "wal"
    wal_dir.mkdir(parents=True, exist_ok=True)
    with WALWriter(str(wal_dir), execution_id) as w:
        w.execution_started("ab" * 32, "ClassifyTicket")
        w.step_started("attempt-1", "ticket-classifier", "read_only", {}, "in-1")
        w.step_completed("attempt-1", "out-1", True)
        w.execution_completed("cd" * 32)
    edit_entry(wal_dir / f"{execution_id}.wal", 2, "output_hash", "out-edited")
    return path


def edit_entry(log: Path, line: int, key: str, value: object) -> None:
    """Line ``line`` (from 0) of ``log`` with its payload's ``key`` set to ``value``, its
    hashes as written: what an edit after the fact leaves."""
    lines = lines_of(log)
    entry = json.loads(lines[line])
    entry["payload"][key] = value
    lines[line] = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
    log.write_bytes(b"".join(lines))
