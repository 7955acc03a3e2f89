"""Hash-chain breaks in WALs written by the real IntentusNet 1.3.0 ``WALWriter``.

Each case breaks one real log the way a bad disk, a crash or a person would, and checks
that the reader names the first entry that no longer holds -- its line, byte offset and
seq -- and says nothing about the entries the change did not touch. The real library's own
check (``WALReader.read_all(verify_integrity=True)``) is asked too: it must also refuse
each broken log and accept the intact one, so both sides agree on what "broken" means.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from intentusnet.wal.reader import WALIntegrityError, WALReader
from intentusnet.wal.writer import WALWriter

from intentus_tui.core.wal.read import WalLog, compute_entry_hash, read_wal

EXEC_ID = "7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f"
ENTRIES = 8


def write_real_wal(wal_dir: Path) -> Path:
    """Eight entries, with non-ASCII text (written raw, hashed escaped: the chain's subtlety)."""
    with WALWriter(str(wal_dir), EXEC_ID) as w:
        w.execution_started("ab" * 32, "Übersetzen ☂")  # 1
        w.step_started("s1", "translator-a", "read_only", {"timeout_ms": 500}, "in-1")  # 2
        w.step_failed("s1", "agent_error", "délai dépassé après 30 s", True)  # 3
        w.fallback_triggered("translator-a", "translator-b", "agent_error")  # 4
        w.step_started("s2", "translator-b", "reversible", {}, "in-2")  # 5
        w.contract_validated("s2", {"max_latency_ms": 900})  # 6
        w.step_completed("s2", "out-2", True)  # 7
        w.execution_completed("cd" * 32)  # 8
    return wal_dir / f"{EXEC_ID}.wal"


def entry_line(entry: dict[str, Any]) -> bytes:
    """A line as the real writer writes it."""
    return (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")


def rehash(entry: dict[str, Any]) -> str:
    """The entry_hash a forger who knows the scheme would write for ``entry``'s content."""
    hashed = ("seq", "execution_id", "timestamp_iso", "entry_type", "payload", "prev_hash")
    return compute_entry_hash(**{key: entry[key] for key in hashed}, version=entry["version"])


Lines = list[bytes]


def _edit(line_index: int, change: Callable[[dict[str, Any]], None]) -> Callable[[Lines], None]:
    def edit(lines: Lines) -> None:
        entry = json.loads(lines[line_index])
        change(entry)
        lines[line_index] = entry_line(entry)

    return edit


def _edit_payload(entry: dict[str, Any]) -> None:
    entry["payload"]["to_agent"] = "translator-evil"


def _edit_payload_and_rehash(entry: dict[str, Any]) -> None:
    _edit_payload(entry)
    entry["entry_hash"] = rehash(entry)


def _forge_hash(entry: dict[str, Any]) -> None:
    entry["entry_hash"] = hashlib.sha256(b"forged").hexdigest()  # well-formed, but wrong


def _change_prev_hash(entry: dict[str, Any]) -> None:
    entry["prev_hash"] = hashlib.sha256(b"another history").hexdigest()


def _delete(line_index: int) -> Callable[[Lines], None]:
    def delete(lines: Lines) -> None:
        del lines[line_index]

    return delete


def _swap(line_index: int) -> Callable[[Lines], None]:
    def swap(lines: Lines) -> None:
        lines[line_index], lines[line_index + 1] = lines[line_index + 1], lines[line_index]

    return swap


def _duplicate(line_index: int) -> Callable[[Lines], None]:
    def duplicate(lines: Lines) -> None:
        lines.insert(line_index + 1, lines[line_index])

    return duplicate


def _truncate_last(lines: Lines) -> None:
    lines[-1] = lines[-1][: len(lines[-1]) // 2]  # the crash came mid-append


@dataclass(frozen=True)
class Break:
    name: str
    change: Callable[[Lines], None]
    # Every issue the reader must report, as (kind, line number, seq), in order.
    issues: list[tuple[str, int, int | None]]
    entries: int = ENTRIES  # complete entries left


BREAKS = [
    Break(
        "an edited entry payload",
        _edit(3, _edit_payload),
        [("hash_mismatch", 4, 4)],  # the next entry still links to the stored hash
    ),
    Break(
        "an edited payload with its entry_hash recomputed",
        _edit(3, _edit_payload_and_rehash),
        [("broken_link", 5, 5)],  # the hash holds; the next link no longer does
    ),
    Break(
        "a deleted middle line",
        _delete(3),
        [("broken_link", 4, 5), ("seq_gap", 4, 5)],
        entries=ENTRIES - 1,
    ),
    Break(
        "a reordered pair",
        _swap(3),
        [
            ("broken_link", 4, 5),
            ("seq_gap", 4, 5),
            ("broken_link", 5, 4),
            ("seq_order", 5, 4),
            ("broken_link", 6, 6),
            ("seq_gap", 6, 6),
        ],
    ),
    Break(
        "a forged entry_hash",
        _edit(3, _forge_hash),
        [("hash_mismatch", 4, 4), ("broken_link", 5, 5)],
    ),
    Break(
        "a changed prev_hash",
        _edit(3, _change_prev_hash),
        [("broken_link", 4, 4), ("hash_mismatch", 4, 4)],  # prev_hash is hashed too
    ),
    Break(
        "a duplicated line",
        _duplicate(3),
        [("broken_link", 5, 4), ("seq_order", 5, 4)],  # the copy; the next links to it
        entries=ENTRIES + 1,
    ),
    Break(
        "a truncated last line",
        _truncate_last,
        [("torn_last_line", ENTRIES, None)],
        entries=ENTRIES - 1,
    ),
]


@pytest.fixture
def real_wal(tmp_path: Path) -> Path:
    return write_real_wal(tmp_path)


def _offset_of_line(data: bytes, line_no: int) -> int:
    return sum(len(line) for line in data.splitlines(keepends=True)[: line_no - 1])


def _real_reader_accepts(path: Path) -> bool:
    try:
        WALReader(str(path.parent), EXEC_ID).read_all(verify_integrity=True)
    except WALIntegrityError:
        return False
    return True


def test_an_intact_real_wal_is_not_reported_broken(real_wal: Path) -> None:
    assert _real_reader_accepts(real_wal)
    assert "Übersetzen ☂".encode() in real_wal.read_bytes()  # written raw, not escaped

    log = read_wal(real_wal)

    assert log.file_status == "ok"
    assert log.issues == () and log.first_issue is None
    assert log.chain_valid and not log.torn
    assert [e.seq for e in log.entries] == list(range(1, ENTRIES + 1))
    assert all(e.hash_ok for e in log.entries)
    assert log.state == "completed"
    assert "line" not in log.message  # the one-line summary names no broken line


@pytest.mark.parametrize("broken", BREAKS, ids=[b.name for b in BREAKS])
def test_a_broken_real_wal_is_reported_at_the_entry_that_broke(
    real_wal: Path, broken: Break
) -> None:
    lines = real_wal.read_bytes().splitlines(keepends=True)
    assert len(lines) == ENTRIES
    broken.change(lines)
    data = b"".join(lines)
    real_wal.write_bytes(data)
    assert not _real_reader_accepts(real_wal), "the real library accepts this log"

    log = read_wal(real_wal)

    assert [(i.kind, i.line_no, i.seq) for i in log.issues] == broken.issues
    for issue in log.issues:
        assert issue.byte_offset == _offset_of_line(data, issue.line_no)
    first = log.first_issue
    assert first is not None
    seq = f" (seq {first.seq})" if first.seq is not None else ""
    # what the list shows: the kind in words, not its code
    words = (
        "last line torn (a crash while appending, not tampering)"
        if first.kind == "torn_last_line"
        else first.kind.replace("_", " ")
    )
    assert f"line {first.line_no}{seq}: {words}" in log.message
    assert len(log.entries) == broken.entries
    _assert_verdict(log, torn=broken.issues[0][0] == "torn_last_line")


def _assert_verdict(log: WalLog, *, torn: bool) -> None:
    if torn:
        # A crash mid-append, not tampering: the durable entries still verify.
        assert log.torn and log.chain_valid
        assert log.state == "in_flight"  # the completion never became durable
    else:
        assert not log.chain_valid and not log.torn
