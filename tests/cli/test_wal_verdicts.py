"""The command line on five WAL-only executions written by the real IntentusNet 1.3.0
``WALWriter`` (completed, failed, killed mid-write, an entry edited, a line deleted): the
listing's verdict (text and JSON), ``inspect ID`` (text and JSON) and ``verify`` (exit code,
text and JSON) all tell the same story, and ``verify`` agrees with the real library's
reader on which logs hold."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from intentusnet.wal.reader import WALIntegrityError, WALReader

from tests.cli.support import cli
from tests.core.wal.support import (
    NAMES,
    RECORD_WITH_EDITED_LOG,
    write_completed,
    write_incident_logs,
    write_record_with_edited_log,
)
from tests.intentusnet_world import RealWorld

# name -> (outcome, integrity, replay code) the listing must show
EXPECTED = {
    "clean": ("succeeded", "verified", "no_record"),
    "failed": ("failed", "verified", "no_record"),
    "killed": ("in_flight", "verified", "no_record"),
    "edited": ("unknown", "chain_broken", "untrusted"),
    "deleted": ("unknown", "chain_broken", "untrusted"),
}


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("walcli") / ".intentusnet"
    (base / "records").mkdir(parents=True)
    write_incident_logs(base / "wal")
    return base


def listed_as_expected(where: Path) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """``inspect --list --json`` of ``where`` (its document, its rows by id), each log's row
    with the verdict ``EXPECTED`` says."""
    run = cli("inspect", "--list", str(where), "--json", "--no-cache")
    assert run.returncode == 0, run.stderr
    doc = json.loads(run.stdout)
    rows = {row["execution_id"]: row for row in doc["executions"]}
    for name, (outcome, integrity, replay) in EXPECTED.items():
        row = rows[NAMES[name]]
        assert (row["outcome"], row["integrity"], row["replayable_reason"]) == (
            outcome,
            integrity,
            replay,
        ), name
        assert row["replayable"] is False
    return doc, rows


def test_the_listing_shows_each_wal_only_outcome(root: Path) -> None:
    doc, rows = listed_as_expected(root)
    assert "line 4 (seq 4)" in rows[NAMES["edited"]]["integrity_reason"]
    assert "no record" in rows[NAMES["clean"]]["replayable_detail"]
    counts = doc["counts"]
    assert counts["integrity.chain_broken"] == 2 and counts["replay.no_record"] == 3

    text = cli("inspect", "--list", str(root), "--no-cache").stdout.splitlines()
    header = text[0].split()
    for name, (outcome, integrity, replay) in EXPECTED.items():
        line = next(line for line in text if line.startswith(NAMES[name]))
        cells = re.split(" {2,}", line)  # columns are two spaces apart at least
        # The text says why an outcome is not known (the JSON keeps the bare value).
        shown = f"{outcome} (untrusted)" if replay == "untrusted" else outcome
        assert cells[header.index("OUTCOME")] == shown, name
        assert cells[header.index("INTEGRITY")] == integrity, name
        assert f"no ({replay})" in line, name
    edited = next(line for line in text if line.startswith(NAMES["edited"]))
    assert "completed (claimed; chain broken)" in edited


def test_inspect_one_wal_only_execution(root: Path) -> None:
    clean = cli("inspect", NAMES["clean"], "--dir", str(root))
    assert clean.returncode == 0, clean.stderr
    assert "  outcome     succeeded" in clean.stdout
    assert "  replayable  no (no_record): no record file was written" in clean.stdout
    assert "Replay the recorded response" not in clean.stdout

    edited = cli("inspect", NAMES["edited"], "--dir", str(root))
    out = edited.stdout
    assert "  outcome     unknown (untrusted): " in out and "  integrity   chain_broken" in out
    untrusted = "  untrusted        the write-ahead log fails its integrity check: hash chain"
    assert f"{untrusted} broken at line 4 (seq 4): hash_mismatch" in out
    postmortem = out.split("\npost-mortem\n", 1)[1]
    assert postmortem.count("hash_mismatch") == 1  # what broke is said once, first
    assert "hint             investigate first: The log was changed" in out
    assert "Replay the recorded response" not in out

    doc = json.loads(cli("inspect", NAMES["deleted"], "--dir", str(root), "--json").stdout)
    assert doc["verdict"]["integrity"] == "chain_broken"
    assert doc["postmortem"]["chain_break"]["line"] == 3
    assert doc["postmortem"]["chain_break"]["seq"] == 4
    failed = json.loads(cli("inspect", NAMES["failed"], "--dir", str(root), "--json").stdout)
    assert failed["status"] == "completed" and failed["verdict"]["outcome"] == "failed"


def _library_accepts(path: Path) -> bool:
    try:
        WALReader(str(path.parent), path.name.removesuffix(".wal")).read_all()
    except WALIntegrityError:
        return False
    return True


def test_verify_checks_every_wal_chain_under_the_root(root: Path) -> None:
    run = cli("verify", str(root), "--json")
    assert run.returncode == 1, run.stderr
    doc = json.loads(run.stdout)
    assert (doc["records"], doc["wals"], doc["failed"], doc["crashed"]) == (0, 5, 2, 1)
    files = {Path(f["file"]).name.removesuffix(".wal"): f for f in doc["files"]}
    assert {f["kind"] for f in doc["files"]} == {"wal"}
    status = {name: files[execution_id]["status"] for name, execution_id in NAMES.items()}
    assert status == {
        "clean": "verified",
        "failed": "verified",
        "killed": "crashed",
        "edited": "chain_broken",
        "deleted": "chain_broken",
    }
    for name, execution_id in NAMES.items():
        report = files[execution_id]
        # Intact where the real reader accepts it; a torn tail is refused by the library
        # but is a crash, not a failure, here (the report says so).
        path = root / "wal" / f"{execution_id}.wal"
        assert report["ok"] == (_library_accepts(path) or name == "killed"), name
        assert report["verdict"]["outcome"] == EXPECTED[name][0], name
    assert files[NAMES["edited"]]["chain_break"]["line"] == 4
    assert files[NAMES["deleted"]]["chain_break"]["seq"] == 4
    assert files[NAMES["killed"]]["torn_last_line"]["line"] == 6

    text = cli("verify", str(root)).stdout
    assert f"FAIL  {NAMES['edited']}.wal  wal chain broken at line 4 (seq 4): hash_mismatch" in (
        text
    )
    assert f"FAIL  {NAMES['deleted']}.wal  wal chain broken at line 3 (seq 4)" in text
    assert f"torn  {NAMES['killed']}.wal  wal last line torn (line 6)" in text
    assert "not tampering" in text and "'Corrupted WAL entry'" in text
    assert text.rstrip().endswith("2 failed, 1 crashed mid-write (not failures)")


def test_verify_one_wal_file(root: Path) -> None:
    wal = root / "wal"
    assert cli("verify", str(wal / f"{NAMES['clean']}.wal")).returncode == 0
    killed = cli("verify", str(wal / f"{NAMES['killed']}.wal"))
    assert killed.returncode == 0 and "crash mid-append" in killed.stdout
    edited = cli("verify", str(wal / f"{NAMES['edited']}.wal"))
    assert edited.returncode == 1 and "line 4 (seq 4)" in edited.stdout
    # The WAL directory itself is a place to verify too.
    assert cli("verify", str(wal)).returncode == 1


def test_verify_with_nothing_to_verify_exits_2_with_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "readme.txt").write_text("no records here")
    for args, cwd in (
        ((str(empty),), None),
        ((str(tmp_path / "notes"),), None),
        ((str(tmp_path / "mistyped"),), None),
        ((), empty),
    ):
        run = cli("verify", *args, cwd=cwd)
        assert run.returncode == 2, (args, run.stdout)
        assert run.stdout == "" and len(run.stderr.splitlines()) == 1, args
        assert run.stderr.startswith("intentus-tui: ")


def test_inspect_a_record_whose_log_was_edited_leads_its_post_mortem_with_the_verdict(
    tmp_path: Path,
) -> None:
    """The record is whole and complete; its WAL's chain breaks. ``inspect`` says so before
    anything the evidence claims, as the debugger's Post-mortem tab does."""
    base = tmp_path / ".intentusnet"
    write_record_with_edited_log(base)
    result = cli("inspect", RECORD_WITH_EDITED_LOG[:8], "--dir", str(base))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert "status      completed (claimed; not believed: see the verdict)" in lines
    pm = lines[lines.index("post-mortem") + 1 :]
    assert pm[0].startswith("  untrusted        the write-ahead log fails its integrity check:")
    assert "hash chain broken at line 3 (seq 3)" in pm[0]
    assert pm[1].startswith("  hint             investigate first:")
    assert pm[3].startswith("  last event ")
    assert "  in flight        step attempt-1 (ticket-classifier) [side effect: read_only]" in pm
    assert sum(line.startswith("  hint ") for line in pm) == 1


def test_a_log_that_cannot_be_read_is_unchecked_not_broken(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # A directory where the log should be: its chain cannot be read, let alone found broken.
    base = tmp_path / ".intentusnet"
    shutil.copytree(real_world.records_dir, base / "records")
    (base / "wal" / f"{real_world.success}.wal").mkdir(parents=True)  # beside its record
    (base / "wal" / "0f0f0f0f-0000-4000-8000-00000000000f.wal").mkdir()  # a log alone
    doc = json.loads(cli("inspect", "--list", str(base), "--json", "--no-cache").stdout)
    rows = {row["execution_id"]: row for row in doc["executions"]}
    for execution_id in (real_world.success, "0f0f0f0f-0000-4000-8000-00000000000f"):
        row = rows[execution_id]
        assert row["integrity"] == "unverifiable", row
        assert row["integrity_reason"].endswith(": its hash chain cannot be checked")
        assert "WAL unreadable" in row["integrity_reason"]
    # the record's own answers stand: it is not "cannot be believed"
    assert rows[real_world.success]["outcome"] == "succeeded"
    assert rows[real_world.success]["replayable"] is True
    assert doc["counts"]["integrity.chain_broken"] == 0


def test_verify_gives_a_log_alone_that_cannot_be_read_the_listing_s_verdict(
    tmp_path: Path,
) -> None:
    # verify said only "wal cannot be checked: a directory, not a WAL file", no verdict
    # (null in --json), where inspect --list and inspect ID said unknown, unverifiable,
    # not replayable (no_record).
    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    (base / "wal" / "0f0f0f0f-0000-4000-8000-00000000000f.wal").mkdir(parents=True)
    doc = json.loads(cli("inspect", "--list", str(base), "--json", "--no-cache").stdout)
    (row,) = doc["executions"]
    listed = {k: row[k] for k in ("outcome", "outcome_reason", "integrity", "integrity_reason")}
    listed |= {"replay": row["replayable_reason"], "replay_reason": row["replayable_detail"]}
    report = json.loads(cli("verify", str(base), "--json").stdout)
    (file,) = report["files"]
    assert {k: file["verdict"][k] for k in listed} == listed
    text = cli("verify", str(base))
    assert text.returncode == 1
    assert text.stdout.splitlines()[1] == (
        "      verdict: outcome unknown, integrity unverifiable; not replayable (no_record): "
        "no record file was written: there is no recorded response"
    )


def test_a_log_with_no_complete_entry_proves_nothing(tmp_path: Path) -> None:
    """Random bytes and an empty file in the WAL directory beside real logs: neither is a
    verified execution in flight, nor safe to retry, nor an ``ok`` for ``verify``."""
    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    write_incident_logs(base / "wal")
    (base / "wal" / "garb.wal").write_bytes(bytes(range(256)) + b"\x8f\x00 no log")
    (base / "wal" / "zero.wal").write_bytes(b"")

    doc = json.loads(cli("inspect", "--list", str(base), "--json", "--no-cache").stdout)
    rows = {row["execution_id"]: row for row in doc["executions"]}
    reasons = {
        "garb": "not a write-ahead log: no line is a WAL entry",
        "zero": "WAL is empty: no complete entry: nothing to check",
    }
    for name, reason in reasons.items():
        row = rows[name]
        assert (row["outcome"], row["integrity"], row["replayable_reason"]) == (
            "unknown",
            "unverifiable",
            "no_record",
        ), row
        assert reason in row["integrity_reason"] and row["integrity_reason"].endswith(
            "nothing to check"
        )
    assert doc["counts"]["outcome.in_flight"] == 1  # the one killed mid-write, only

    for name in reasons:
        out = cli("inspect", name, "--dir", str(base)).stdout
        assert "hint             investigate first:" in out, out
        assert "safe to retry" not in out and "in_flight" not in out

        alone = cli("verify", str(base / "wal" / f"{name}.wal"), "--json")
        assert alone.returncode == 1, alone.stdout  # fails, as an empty record file does
        report = json.loads(alone.stdout)
        assert report["ok"] is False and report["crashed"] == 0
        (file,) = report["files"]
        assert (file["ok"], file["status"], file["torn_last_line"]) == (
            False,
            "unverifiable",
            None,
        )
        assert file["verdict"]["integrity"] == "unverifiable"
        text = cli("verify", str(base / "wal" / f"{name}.wal"))
        assert text.returncode == 1 and text.stdout.startswith(f"FAIL  {name}.wal  wal cannot")
        assert "crash mid-append" not in text.stdout


def test_an_empty_log_beside_a_record_is_unchecked_not_a_broken_chain(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # An empty WAL is not "hash chain broken (entries edited or removed)": the record's
    # answer is replayed as one that cannot be fully checked (the verdict's unverifiable),
    # never as one whose chain breaks.
    base = tmp_path / ".intentusnet"
    shutil.copytree(real_world.records_dir, base / "records")
    (base / "wal").mkdir()
    (base / "wal" / f"{real_world.success}.wal").write_bytes(b"")
    doc = json.loads(cli("inspect", "--list", str(base), "--json", "--no-cache").stdout)
    row = next(r for r in doc["executions"] if r["execution_id"] == real_world.success)
    assert (row["outcome"], row["integrity"], row["replayable"]) == (
        "succeeded",
        "unverifiable",
        True,
    )
    assert row["integrity_reason"] == "WAL is empty: no complete entry: nothing to check"
    run = cli("replay", real_world.success, "--dir", str(base / "records"), "--json")
    assert run.returncode == 0, run.stderr
    replayed = json.loads(run.stdout)
    assert [problem["kind"] for problem in replayed["integrity"]] == ["wal_unchecked"]
    assert "broken" not in run.stdout + run.stderr
    assert "cannot be fully checked" in run.stderr


def test_verify_calls_a_whole_unreadable_last_line_malformed_not_torn(tmp_path: Path) -> None:
    """A last line that ends with its newline was not cut short: ``verify`` says it is
    malformed (and why), not torn, and classifies it as before (not a failure; an only
    line: nothing to check)."""
    wal = tmp_path / ".intentusnet" / "wal"
    (tmp_path / ".intentusnet" / "records").mkdir(parents=True)
    deep = b'{"seq": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    tail = write_completed(wal, "deep-tail")
    tail.write_bytes(tail.read_bytes() + deep)
    (wal / "big-only.wal").write_bytes(b'{"seq": ' + b"9" * 10_000 + b"}\n")
    torn = write_completed(wal, "torn-tail")
    torn.write_bytes(torn.read_bytes()[:-40])

    run = cli("verify", str(tmp_path / ".intentusnet"))
    assert run.returncode == 1, run.stdout  # the only line: nothing to check, as before
    lines = run.stdout.splitlines()
    deep_line = next(line for line in lines if "deep-tail.wal" in line)
    assert deep_line.startswith("warn  deep-tail.wal  wal last line malformed (line 8): whole")
    assert "last line is malformed (line is not JSON (nested too deeply))" in run.stdout
    assert "torn" not in deep_line and "crash" not in deep_line
    big_line = next(line for line in lines if "big-only.wal" in line)
    assert big_line == (
        "FAIL  big-only.wal  wal cannot be verified: no complete entry (its only line, line 1, "
        "is whole but unreadable: line is not JSON (a number too long to read)): nothing to check"
    )
    assert any(line.startswith("torn  torn-tail.wal  wal last line torn") for line in lines)
    assert lines[-1].endswith(
        "1 failed, 1 crashed mid-write, 1 with a malformed last line (not failures)"
    )

    doc = json.loads(cli("verify", str(tmp_path / ".intentusnet"), "--json").stdout)
    files = {Path(f["file"]).name: f for f in doc["files"]}
    assert doc["crashed"] == 2  # the classification is unchanged
    assert (files["deep-tail.wal"]["ok"], files["deep-tail.wal"]["status"]) == (True, "crashed")
    assert files["deep-tail.wal"]["torn_last_line"]["kind"] == "torn_last_line"
    assert files["deep-tail.wal"]["torn_last_line"]["message"].startswith("last line is malformed")
    assert files["big-only.wal"]["status"] == "unverifiable"


def test_a_wal_directory_given_is_its_project_root(tmp_path: Path) -> None:
    """``verify .intentusnet/wal`` said of every log that no record was written (the
    records beside it unread), and ``inspect --list`` found nothing: the wal directory of
    a project is that project's root."""
    from intentus_tui.demo.writer import build_demo_world

    base = build_demo_world(tmp_path).root
    whole = cli("verify", str(base))
    via_wal = cli("verify", str(base / "wal"))
    assert via_wal.returncode == whole.returncode and via_wal.stdout == whole.stdout
    listing = cli("inspect", "--list", "--json", "--no-cache", str(base / "wal"))
    assert (
        json.loads(listing.stdout)["counts"]
        == json.loads(cli("inspect", "--list", "--json", "--no-cache", str(base)).stdout)["counts"]
    )


@pytest.fixture(scope="module")
def logs_only(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project whose ``.intentusnet`` holds the real library's logs and no ``records``
    directory: an application that logs and never recorded, or crashed before it did."""
    project = tmp_path_factory.mktemp("logsonly") / "project"
    write_incident_logs(project / ".intentusnet" / "wal")
    return project


@pytest.mark.parametrize("named", ["project", ".intentusnet", "wal"])
def test_logs_without_a_records_directory_are_the_executions(logs_only: Path, named: str) -> None:
    # They were "(no records in ...)" (exit 0), and verify and inspect ID said "no such
    # directory: .../records": the crash evidence was hidden.
    where = {
        "project": logs_only,
        ".intentusnet": logs_only / ".intentusnet",
        "wal": logs_only / ".intentusnet" / "wal",
    }[named]
    listed_as_expected(where)
    verify = cli("verify", str(where))
    assert verify.returncode == 1, verify.stderr  # the two broken chains
    assert f"{len(NAMES)} checked (0 records, {len(NAMES)} WALs)" in verify.stdout
    shown = cli("inspect", NAMES["edited"][:8], "--dir", str(where))
    assert shown.returncode == 0, shown.stderr
    assert "chain_broken" in shown.stdout


def test_an_execution_named_by_its_log_gets_the_verdict_its_id_gets(tmp_path: Path) -> None:
    """``inspect .intentusnet/wal/X.wal`` judged X from its log alone ("no record file",
    "not replayable: no_record") though ``records/X.json`` is there; ``replay`` of the
    log said no response was recorded. The log names its execution: record and log."""
    from tests.core.wal.support import RECORD_WITH_EDITED_LOG, write_record_with_edited_log

    base = tmp_path / ".intentusnet"
    record = write_record_with_edited_log(base)
    log = base / "wal" / f"{RECORD_WITH_EDITED_LOG}.wal"
    by_id = json.loads(cli("inspect", RECORD_WITH_EDITED_LOG, "--dir", str(base), "--json").stdout)
    by_log = json.loads(cli("inspect", str(log), "--json").stdout)
    assert by_log["verdict"] == by_id["verdict"]
    assert by_log["verdict"]["integrity"] == "chain_broken"  # record and log together
    assert by_log["file"] == str(record) and by_log["wal"] is not None
    forced = cli("replay", str(log), "--force")
    assert forced.returncode == 0 and "no response was recorded" not in forced.stderr
