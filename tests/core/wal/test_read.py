"""WAL reading against logs written by the real IntentusNet 1.3.0 WALWriter: the hash chain,
broken and torn logs, files that are not logs."""

from __future__ import annotations

import builtins
import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from intentusnet.wal.models import WALEntry, WALEntryType
from intentusnet.wal.reader import WALIntegrityError, WALReader
from intentusnet.wal.writer import WALWriter

from intentus_tui.core.wal.read import compute_entry_hash, read_wal, scan_wal_dir
from tests.core.wal.support import (
    EXEC_ID,
    lines_of,
    offset_of_line,
    write_completed,
    write_in_flight,
)

# ---------------------------------------------------------------------------------------
# Clean logs


def test_clean_completed_chain_verifies_like_the_real_reader(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    WALReader(str(tmp_path), EXEC_ID).read_all(verify_integrity=True)  # the real check agrees

    log = read_wal(path)

    assert log.file_status == "ok"
    assert log.execution_id == EXEC_ID
    assert log.issues == ()
    assert log.chain_valid
    assert [e.entry_type for e in log.entries] == [
        "execution.started",
        "step.started",
        "contract.validated",
        "step.completed",
        "step.started",
        "step.completed",
        "execution.completed",
    ]
    assert log.state == "completed"
    assert log.intent_name == "SearchIntent"
    assert log.envelope_hash == "ab" * 32
    assert log.in_flight_step is None
    step1, step2 = log.steps
    assert (step1.step_id, step1.agent, step1.status, step1.side_effect) == (
        "step-1",
        "search-agent",
        "completed",
        "read_only",
    )
    assert step1.contracts_validated and step1.success is True
    assert step2.side_effect == "irreversible"
    assert log.side_effects_completed is True
    assert log.hint.verdict == "do_not_retry"


# ---------------------------------------------------------------------------------------
# Broken logs: first broken entry, why, where


def test_tampered_payload_is_a_hash_mismatch_at_that_line(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    lines = lines_of(path)
    entry = json.loads(lines[3])
    entry["payload"]["success"] = False  # step-1 now "failed" -- but the hash says otherwise
    lines[3] = (json.dumps(entry, ensure_ascii=False) + "\n").encode()
    path.write_bytes(b"".join(lines))
    with pytest.raises(WALIntegrityError, match="Hash mismatch"):
        WALReader(str(tmp_path), EXEC_ID).read_all(verify_integrity=True)

    log = read_wal(path)

    assert not log.chain_valid
    issue = log.first_issue
    assert issue is not None
    assert (issue.kind, issue.line_no, issue.seq) == ("hash_mismatch", 4, 4)
    assert issue.byte_offset == offset_of_line(path, 4)
    assert "changed after it was written" in issue.message
    assert len(log.issues) == 1  # the next entry still links to the stored hash
    assert not log.entries[3].hash_ok and log.entries[4].hash_ok


def test_removed_entry_is_a_broken_link_and_a_seq_gap(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    lines = lines_of(path)
    del lines[2]
    path.write_bytes(b"".join(lines))

    log = read_wal(path)

    kinds = [(i.kind, i.line_no) for i in log.issues]
    assert kinds == [("broken_link", 3), ("seq_gap", 3)]
    assert log.first_issue is not None and log.first_issue.byte_offset == offset_of_line(path, 3)
    assert "seq 4" in log.issues[0].message and "seq 2" in log.issues[0].message
    assert not log.chain_valid


def test_repeated_entry_is_out_of_order(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    lines = lines_of(path)
    lines.insert(3, lines[2])
    path.write_bytes(b"".join(lines))

    log = read_wal(path)

    assert {i.kind for i in log.issues if i.line_no == 4} == {"seq_order", "broken_link"}


def test_missing_start_of_log(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    path.write_bytes(b"".join(lines_of(path)[2:]))

    first = read_wal(path).first_issue

    assert first is not None and first.line_no == 1
    assert first.kind == "broken_link" and "start of the log is missing" in first.message


def test_torn_last_line_is_a_crash_not_tampering(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    data = path.read_bytes()
    cut = len(data) - 40  # inside the execution.completed line
    path.write_bytes(data[:cut])

    log = read_wal(path)

    assert [(i.kind, i.line_no) for i in log.issues] == [("torn_last_line", 7)]
    assert log.issues[0].byte_offset == offset_of_line(path, 7)
    assert log.torn and log.chain_valid  # everything durable verifies
    assert len(log.entries) == 6
    assert log.state == "in_flight"  # the completion never became durable
    assert log.in_flight_step is None
    assert log.hint.verdict == "investigate_first"  # an irreversible step completed


def test_zero_filled_tail_after_crash_is_torn(tmp_path: Path) -> None:
    path = write_in_flight(tmp_path, "reversible")
    path.write_bytes(path.read_bytes() + b"\x00" * 300)

    log = read_wal(path)

    assert [i.kind for i in log.issues] == ["torn_last_line"]
    assert log.in_flight_step is not None and log.in_flight_step.step_id == "charge"
    assert log.hint.verdict == "investigate_first"


def test_complete_last_entry_without_newline_is_kept(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    path.write_bytes(path.read_bytes().rstrip(b"\n"))

    log = read_wal(path)

    assert log.issues == () and log.state == "completed" and log.missing_final_newline


def test_garbage_middle_lines(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    lines = lines_of(path)
    lines[1] = b"not json at all\n"
    lines[2] = b"\xff\xfe\x00garbage\n"
    lines[4] = b'["a", "list"]\n'
    path.write_bytes(b"".join(lines))

    log = read_wal(path)

    assert [(i.kind, i.line_no) for i in log.issues] == [
        ("not_json", 2),
        ("not_json", 3),
        ("bad_entry", 5),
    ]
    assert "UTF-8" in log.issues[1].message
    assert log.issues[2].message == "entry is a JSON array, not an object"  # JSON names, not Python
    # The lines around them still parse and are not blamed for the lost neighbours.
    assert [e.seq for e in log.entries] == [1, 4, 6, 7]
    # Nothing from the first lost line on can be believed: the completion is only a claim.
    assert log.claimed_state == "completed" and not log.chain_valid
    assert log.trusted_count == 1 and log.state == "in_flight"
    assert log.hint.verdict == "investigate_first" and "line 2" in log.hint.reason


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda e: e.update(seq="3"), "integer 'seq'"),
        (lambda e: e.update(payload=[1]), "object 'payload'"),
        (lambda e: e.pop("entry_type"), "string 'entry_type'"),
        (lambda e: e.update(prev_hash=7), "'prev_hash' is not a string"),
        # A 401-digit seq was echoed in full in every line that named it.
        (lambda e: e.update(seq=10**400), "'seq' is out of range (over 2**63)"),
        (lambda e: e.update(seq=-1), "'seq' is out of range (negative)"),
    ],
)
def test_wrong_types_are_bad_entries(tmp_path: Path, mutate: Any, message: str) -> None:
    path = write_completed(tmp_path)
    lines = lines_of(path)
    entry = json.loads(lines[2])
    mutate(entry)
    lines[2] = (json.dumps(entry) + "\n").encode()
    path.write_bytes(b"".join(lines))

    issue = read_wal(path).first_issue

    assert issue is not None and issue.kind == "bad_entry" and message in issue.message
    assert issue.seq is None or 0 <= issue.seq < 2**63


def test_entry_from_another_execution(tmp_path: Path) -> None:
    path = write_completed(tmp_path)
    other = tmp_path / "other-id.wal"
    shutil.copy(path, other)

    log = read_wal(other)

    assert log.execution_id == "other-id"
    assert {i.kind for i in log.issues} == {"execution_id_mismatch"}
    # Its chain holds, but it is another execution's log (renamed, moved or mixed with
    # another): nothing in it is this execution's evidence.
    assert not log.chain_valid and log.trusted_count == 0
    described = log.describe_break()
    assert described is not None and described.startswith("another execution's log from line 1")
    assert log.hint.verdict == "investigate_first"
    assert "renamed, moved or mixed with another log" in log.hint.reason


# ---------------------------------------------------------------------------------------
# Files that are not logs at all


def test_missing_empty_directory_and_unreadable(tmp_path: Path, monkeypatch: Any) -> None:
    assert read_wal(tmp_path / "nope.wal").file_status == "missing"

    (tmp_path / "empty.wal").write_bytes(b"")
    empty = read_wal(tmp_path / "empty.wal")
    # No complete entry proves nothing: not in flight, no "safe to retry", no chain.
    assert (empty.file_status, empty.state, empty.hint.verdict) == (
        "empty",
        "unknown",
        "investigate_first",
    )
    assert not empty.checkable and not empty.chain_valid and empty.chain_break is None
    assert empty.message == "WAL is empty: no complete entry: nothing to check"

    blank = tmp_path / "blank.wal"
    blank.write_bytes(b"\n\n  \n")
    assert read_wal(blank).file_status == "empty"

    (tmp_path / "dir.wal").mkdir()
    assert read_wal(tmp_path / "dir.wal").file_status == "is_directory"

    locked = tmp_path / "locked.wal"
    locked.write_bytes(b"{}\n")
    real_open = builtins.open

    def deny(file: Any, *args: Any, **kwargs: Any) -> Any:
        if Path(str(file)) == locked:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", deny)
    denied = read_wal(locked)
    assert (denied.file_status, denied.state) == ("permission_denied", "unknown")
    assert denied.hint.verdict == "investigate_first"


def test_binary_garbage_file(tmp_path: Path) -> None:
    # Random bytes on one line once read as "last line torn: a crash mid-append", the
    # "0 complete entries" verifying: a verified, in-flight execution out of noise.
    path = tmp_path / "x.wal"
    path.write_bytes(os.urandom(2000).replace(b"\n", b"\r"))
    log = read_wal(path)
    assert log.file_status == "no_entry"
    assert [i.kind for i in log.issues] == ["torn_last_line"]
    assert log.entries == ()
    assert log.message.startswith("not a write-ahead log: no line is a WAL entry (line 1: ")
    assert log.message.endswith("; nothing to check")
    assert (log.state, log.claimed_state, log.in_flight_step) == ("unknown", "unknown", None)
    assert not log.checkable and not log.chain_valid and not log.torn
    assert log.chain_break is None and log.describe_break() is None
    assert log.hint.verdict == "investigate_first"


@pytest.mark.parametrize(
    "content",
    [
        b"\xff\xfe garbage\n\x00\x01 more\nand a torn tail",  # lines, none of them JSON
        b'{}\n[1, 2]\n{"seq": "one"}\n',  # JSON, but no line a WAL entry
        b"hello\n",
    ],
)
def test_lines_none_of_them_an_entry_are_not_a_log(tmp_path: Path, content: bytes) -> None:
    # Several such lines once made a "broken chain" (tampering) of a file that never was one.
    path = tmp_path / "x.wal"
    path.write_bytes(content)
    log = read_wal(path)
    assert log.file_status == "no_entry", log.message
    assert log.message.startswith("not a write-ahead log: ")
    assert log.chain_break is None and not log.chain_valid and log.state == "unknown"


def test_a_first_append_cut_short_is_no_entry_not_a_crash_mid_log(tmp_path: Path) -> None:
    real = write_completed(tmp_path / "real")
    first = lines_of(real)[0]
    path = tmp_path / "x.wal"
    path.write_bytes(first[: len(first) // 2])
    log = read_wal(path)
    assert log.file_status == "no_entry" and log.state == "unknown"
    assert log.message == (
        "no complete entry (its only line, line 1, is torn: cut short before it became an "
        "entry): nothing to check"
    )


def test_a_real_log_torn_after_good_entries_is_still_a_crash(tmp_path: Path) -> None:
    real = write_in_flight(tmp_path / "real", "irreversible")
    lines = lines_of(real)
    real.write_bytes(b"".join(lines[:2]) + lines[2][:20])
    log = read_wal(real)
    assert (log.file_status, log.torn, log.chain_valid, log.state) == (
        "ok",
        True,
        True,
        "in_flight",
    )
    assert len(log.entries) == 2


# A whole line (it ends with its newline) that does not parse: not cut short, so not torn.
UNREADABLE = {
    "nested too deeply": b'{"seq": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
    "a number too long to read": b'{"seq": ' + b"9" * 10_000 + b"}",
}


@pytest.mark.parametrize("why", list(UNREADABLE))
def test_a_whole_last_line_that_does_not_parse_is_malformed_not_torn(
    tmp_path: Path, why: str
) -> None:
    path = write_completed(tmp_path)
    path.write_bytes(path.read_bytes() + UNREADABLE[why] + b"\n")
    log = read_wal(path)
    # classified as before: the chain holds, the last line is not an entry
    assert [(i.kind, i.line_no) for i in log.issues] == [("torn_last_line", 8)]
    assert (log.file_status, log.torn, log.chain_valid, len(log.entries)) == ("ok", True, True, 7)
    # and worded as what it is: whole, malformed, and why
    issue = log.issues[0]
    assert issue.whole and not log.cut_short
    assert issue.message.startswith(f"last line is malformed (line is not JSON ({why})): ")
    assert "written whole, not cut short" in issue.message
    assert "died while appending" not in issue.message
    assert issue.describe() == issue.message  # not called torn_last_line in text
    assert log.message.endswith("line 8: malformed last line")


@pytest.mark.parametrize("why", list(UNREADABLE))
def test_the_same_line_without_its_newline_is_torn(tmp_path: Path, why: str) -> None:
    path = write_completed(tmp_path)
    path.write_bytes(path.read_bytes() + UNREADABLE[why])
    log = read_wal(path)
    issue = log.issues[0]
    assert (issue.kind, issue.whole, log.torn, log.cut_short) == (
        "torn_last_line",
        False,
        True,
        True,
    )
    assert "the process died while appending it" in issue.message
    assert log.message.endswith("line 8: last line torn (a crash while appending, not tampering)")


@pytest.mark.parametrize("why", list(UNREADABLE))
def test_an_only_line_whole_but_unreadable_is_no_entry_not_torn(tmp_path: Path, why: str) -> None:
    path = tmp_path / "x.wal"
    path.write_bytes(UNREADABLE[why] + b"\n")
    log = read_wal(path)
    assert (log.file_status, log.state, log.torn) == ("no_entry", "unknown", False)  # as before
    assert log.message == (
        f"no complete entry (its only line, line 1, is whole but unreadable: line is not "
        f"JSON ({why})): nothing to check"
    )


def test_scan_wal_dir(tmp_path: Path) -> None:
    write_completed(tmp_path, "aaa")
    write_in_flight(tmp_path, "irreversible", "bbb")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "ccc.wal.tmp").write_text("x")

    logs = scan_wal_dir(tmp_path)

    assert list(logs) == ["aaa", "bbb"]
    assert logs["aaa"].state == "completed" and logs["bbb"].state == "in_flight"
    assert scan_wal_dir(tmp_path / "missing") == {}


# ---------------------------------------------------------------------------------------
# Hash equivalence with the real library


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    payload=st.dictionaries(
        st.text(max_size=8),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
            lambda inner: (
                st.lists(inner, max_size=3)
                | st.dictionaries(st.text(max_size=5), inner, max_size=3)
            ),
            max_leaves=8,
        ),
        max_size=4,
    )
)
def test_any_payload_the_real_writer_writes_verifies(
    tmp_path: Path, payload: dict[str, Any]
) -> None:
    wal_dir = tmp_path / "h"
    shutil.rmtree(wal_dir, ignore_errors=True)
    with WALWriter(str(wal_dir), EXEC_ID) as w:
        w.append(WALEntryType.CHECKPOINT, payload)
        w.append(WALEntryType.STEP_STARTED, payload)
    log = read_wal(wal_dir / f"{EXEC_ID}.wal")
    assert log.issues == ()
    assert len(log.entries) == 2


def test_compute_entry_hash_matches_real_compute_hash() -> None:
    entry = WALEntry(
        seq=3,
        execution_id="e",
        timestamp_iso="2025-01-01T00:00:00+00:00",
        entry_type=WALEntryType.STEP_COMPLETED,
        payload={"ü": ["✓", 1.5, None, {"b": 1, "a": 2}]},
        prev_hash="ff" * 32,
    )
    assert (
        compute_entry_hash(
            seq=3,
            execution_id="e",
            timestamp_iso="2025-01-01T00:00:00+00:00",
            entry_type="step.completed",
            payload={"ü": ["✓", 1.5, None, {"b": 1, "a": 2}]},
            prev_hash="ff" * 32,
        )
        == entry.compute_hash()
    )


def test_encoded_lines_are_byte_identical_to_the_real_writer(tmp_path: Path) -> None:
    from intentus_tui.core.wal.read import encode_wal_line, make_wal_entry

    with WALWriter(str(tmp_path), EXEC_ID) as w:
        real = [
            w.execution_started("ab" * 32, "Übersetzen ✓"),
            w.step_started("s1", "agent-ü", "read_only", {"x": [1, 2.5]}, "in"),
        ]
    ours = b""
    prev = None
    for entry in real:
        made = make_wal_entry(
            seq=entry.seq,
            execution_id=entry.execution_id,
            timestamp_iso=entry.timestamp_iso,
            entry_type=entry.entry_type.value,
            payload=entry.payload,
            prev_hash=prev,
        )
        prev = made["entry_hash"]
        ours += encode_wal_line(made)
    assert ours == (tmp_path / f"{EXEC_ID}.wal").read_bytes()
