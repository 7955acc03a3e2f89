"""What the WAL tests share: logs written by the real IntentusNet 1.3.0 ``WALWriter``."""

from __future__ import annotations

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
