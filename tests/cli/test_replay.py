"""``intentus-tui replay`` on records written by the real intentusnet 1.3.0, then edited:
the integrity problems are in the text and the JSON, and ``--strict`` refuses with exit 5."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from intentusnet.wal.writer import WALWriter

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli, deny_capabilities
from tests.intentusnet_world import RealWorld

FORGED_PAYLOAD = {"by": "attacker", "echo": {"text": "wire 1,000,000 to account 666"}}


@pytest.fixture
def records(real_world: RealWorld, tmp_path: Path) -> Path:
    copy = tmp_path / ".intentusnet" / "records"
    shutil.copytree(real_world.records_dir, copy)
    return copy


def edit(records: Path, execution_id: str, *, final: bool, envelope: bool) -> None:
    path = records / f"{execution_id}.json"
    record: dict[str, Any] = json.loads(path.read_text("utf-8"))
    if final:
        record["finalResponse"]["payload"] = FORGED_PAYLOAD
    if envelope:
        record["envelope"]["payload"] = {"text": "a question never asked"}
    path.write_text(json.dumps(record, indent=2), "utf-8")


EDITS = {
    "final response": ({"final": True, "envelope": False}, ["final_response_mismatch"]),
    "envelope": ({"final": False, "envelope": True}, ["envelope_tampered"]),
    "both": ({"final": True, "envelope": True}, ["envelope_tampered", "final_response_mismatch"]),
}


@pytest.mark.parametrize("which", list(EDITS))
def test_an_edited_record_is_refused_forced_with_warnings_or_refused_with_strict(
    real_world: RealWorld, records: Path, which: str
) -> None:
    change, expected = EDITS[which]
    execution_id = real_world.success
    edit(records, execution_id, **change)
    plain = ("replay", execution_id, "--dir", str(records))

    # Not replayable, as its verdict says everywhere: an exit code a script cannot miss.
    refused = cli(*plain)
    assert refused.returncode == ExitCode.NOT_REPLAYABLE
    assert refused.stdout == ""  # a refusal is not an answer: it goes to stderr
    assert refused.stderr == (
        "intentus-tui: not replayable (untrusted): the record fails its integrity check: "
        "investigate before replaying it (use --force to replay anyway)\n"
    )
    assert "attacker" not in refused.stdout
    refusal = json.loads(cli(*plain, "--json").stdout)
    assert refusal == {
        "replayed": False,
        "replayable": False,
        "reason": "untrusted",
        "detail": "the record fails its integrity check: investigate before replaying it",
    }
    listed = json.loads(cli("inspect", "--list", "--json", "--dir", str(records)).stdout)
    (row,) = [r for r in listed["executions"] if r["execution_id"] == execution_id]
    assert (row["replayable"], row["replayable_reason"]) == (False, refusal["reason"])

    base = (*plain, "--force")  # the recorded answer anyway, with what is wrong with it
    as_json = cli(*base, "--json")
    assert as_json.returncode == ExitCode.OK
    doc = json.loads(as_json.stdout)
    assert doc["replayed"] is True and doc["trusted"] is False
    assert [entry["kind"] for entry in doc["integrity"]] == expected
    # Forced past the verdict's refusal, and marked so, as the debugger's confirm says (its
    # header calls it replayable: no mark was given).
    assert doc["warnings"][:2] == [
        "Forced replay of non-replayable record",
        "Not replayable: untrusted",
    ]
    assert len(doc["warnings"]) == 2 + len(expected)
    assert "untrusted record" in as_json.stderr  # a person piping the JSON still sees it
    if change["final"]:
        assert doc["payload"] == FORGED_PAYLOAD
        assert any("FINAL_RESPONSE event" in warning for warning in doc["warnings"])
    if change["envelope"]:
        assert any("possible tampering" in warning for warning in doc["warnings"])

    text = cli(*base)
    assert text.returncode == ExitCode.OK
    lines = text.stdout.splitlines()
    assert lines[1].startswith("WARNING: replayed from an untrusted record")
    warned = [line for line in lines if line.startswith("warning: ")]
    assert len(warned) == 2 + len(expected)
    if change["envelope"]:
        assert any("envelope hash mismatch, possible tampering" in line for line in warned)
    if change["final"]:
        assert any("final response differs" in line for line in warned)

    assert cli(*plain, "--strict").returncode == ExitCode.UNTRUSTED  # forced or not
    strict = cli(*base, "--strict")
    assert strict.returncode == ExitCode.UNTRUSTED == 5
    assert strict.stdout == ""  # no answer; one line on stderr naming the problems
    (line,) = strict.stderr.splitlines()
    assert line.startswith("intentus-tui: integrity in doubt, not replayed (--strict): ")
    assert "attacker" not in strict.stderr
    if change["envelope"]:
        assert "possible tampering" in line
    if change["final"]:
        assert "final response differs from its FINAL_RESPONSE event" in line

    strict_json = cli(*base, "--strict", "--json")
    assert strict_json.returncode == ExitCode.UNTRUSTED
    refusal = json.loads(strict_json.stdout)
    assert refusal["replayed"] is False and refusal["trusted"] is False
    assert [entry["kind"] for entry in refusal["integrity"]] == expected
    assert "payload" not in refusal


def test_a_clean_record_has_no_warnings_and_passes_strict(
    real_world: RealWorld, records: Path
) -> None:
    base = ("replay", real_world.success, "--dir", str(records))
    doc = json.loads(cli(*base, "--strict", "--json").stdout)
    assert doc["replayed"] is True and doc["trusted"] is True
    assert doc["warnings"] == [] and doc["integrity"] == []
    text = cli(*base)
    assert text.returncode == 0 and text.stderr == ""
    assert "warning" not in text.stdout.lower() and "untrusted" not in text.stdout
    assert "status: success" in text.stdout


def test_a_benign_mismatch_is_a_note_and_strict_accepts_it(
    real_world: RealWorld, records: Path
) -> None:
    path = records / f"{real_world.success}.json"
    record = json.loads(path.read_text("utf-8"))
    record["envelope"]["routingMetadata"] = {"decisionPath": ["fb-secondary"], "retries": 1}
    path.write_text(json.dumps(record), "utf-8")
    base = ("replay", real_world.success, "--dir", str(records))
    strict = cli(*base, "--strict")
    assert strict.returncode == ExitCode.OK
    notes = [line for line in strict.stdout.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1 and "benign reason (not tampering)" in notes[0]
    assert "WARNING" not in strict.stdout and "warning:" not in strict.stdout
    doc = json.loads(cli(*base, "--json").stdout)
    assert doc["trusted"] is True
    assert [(e["kind"], e["benign"]) for e in doc["integrity"]] == [("benign_hash_mismatch", True)]


def test_forced_replay_of_the_damaged_record_warns_and_strict_refuses_it(
    real_world: RealWorld, records: Path
) -> None:
    base = ("replay", real_world.error_truncated, "--dir", str(records))
    unforced = cli(*base, "--strict")  # untrusted: refused as such, forced or not
    assert unforced.returncode == ExitCode.UNTRUSTED and unforced.stdout == ""
    refused_plain = cli(*base)  # said as the verdict says it, not as generic damage
    assert refused_plain.returncode == ExitCode.NOT_REPLAYABLE
    assert refused_plain.stderr == (
        "intentus-tui: not replayable (record_corrupted): the record was never written whole "
        "(IntentusNet 1.3.0 cuts error responses short): no recorded response to replay "
        "(nothing to replay: --force returns none)\n"
    )
    forced = cli(*base, "--force")  # what was recorded is shown, but nothing is returned
    assert forced.returncode == ExitCode.NOT_REPLAYABLE
    assert "status: None" not in forced.stdout
    assert "status: none recorded" in forced.stdout
    # nothing was returned: no answer to call partial, nor to "treat with care"
    lines = forced.stdout.splitlines()
    assert lines[1] == "nothing replayed: no response was recorded, so a forced replay returns none"
    assert lines[2].startswith("integrity: unverifiable: cut short after every attempt failed, as ")
    # as its integrity line tells it: cut by its writer, not damaged (it said "damaged")
    assert "warning: cut short by its writer, no response was recorded in it: file ends" in (
        forced.stdout
    )
    assert "damaged" not in forced.stdout.lower().replace("not damaged afterwards", "")
    assert "answer" not in forced.stdout and "WARNING" not in forced.stdout
    assert "No final response was recorded" not in forced.stdout  # "nothing replayed" said it
    as_json = cli(*base, "--force", "--json")
    assert as_json.stderr == (
        "intentus-tui: nothing replayed: no response was recorded, so a forced replay returns none\n"
    )
    refused = cli(*base, "--force", "--strict")
    assert refused.returncode == ExitCode.UNTRUSTED
    assert "cut short by its writer" in refused.stderr and refused.stdout == ""


@pytest.mark.parametrize("which", ["damaged", "tampered", "recording failure"])
@pytest.mark.parametrize(
    "flags",
    [
        ("--strict",),
        ("--force", "--strict"),
        ("--strict", "--json"),
        ("--force", "--strict", "--json"),
    ],
)
def test_strict_refuses_every_record_in_doubt_alike_forced_or_not(
    real_world: RealWorld, records: Path, which: str, flags: tuple[str, ...]
) -> None:
    """A damaged (salvaged) record is refused by --strict as a tampered one is: exit 5 and
    one refusal, never a "replayed" line, nor "not replayable" (exit 3) before it."""
    execution_id = real_world.error_truncated if which == "damaged" else real_world.success
    if which == "tampered":
        edit(records, execution_id, final=True, envelope=False)
    if which == "recording failure":
        path = records / f"{execution_id}.json"
        doc = json.loads(path.read_text("utf-8"))
        doc["header"].update(replayable=False, replayableReason="recording_failure")
        doc["events"].pop(1)  # the writer lost an event, and says so in the header
        path.write_text(json.dumps(doc), "utf-8")
    run = cli("replay", execution_id, "--dir", str(records), *flags)
    assert run.returncode == ExitCode.UNTRUSTED, run.stderr
    assert "replayed from" not in run.stderr and "not replayable" not in run.stderr
    if "--json" in flags:
        assert run.stderr == ""
        doc = json.loads(run.stdout)
        assert doc["replayed"] is False and doc["trusted"] is False and doc["integrity"]
    else:
        assert run.stdout == ""
        (line,) = run.stderr.splitlines()
        assert line.startswith("intentus-tui: integrity in doubt, not replayed (--strict): ")


def test_a_broken_wal_chain_beside_the_records_is_reported(
    real_world: RealWorld, records: Path
) -> None:
    wal_dir = records.parent / "wal"
    with WALWriter(str(wal_dir), real_world.success) as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.execution_completed("cd" * 32)
    base = ("replay", real_world.success, "--dir", str(records.parent.parent))
    assert json.loads(cli(*base, "--json").stdout)["integrity"] == []
    wal_path = wal_dir / f"{real_world.success}.wal"
    lines = wal_path.read_text("utf-8").splitlines()
    wal_path.write_text(lines[1] + "\n", "utf-8")  # the first entry deleted
    refused = cli(*base, "--json")  # the verdict says not replayable: untrusted
    assert refused.returncode == ExitCode.NOT_REPLAYABLE
    assert json.loads(refused.stdout)["detail"] == (
        "the write-ahead log fails its integrity check: investigate before replaying it"
    )
    doc = json.loads(cli(*base, "--json", "--force").stdout)
    assert [e["kind"] for e in doc["integrity"]] == ["wal_chain_broken"]
    by_path = cli("replay", str(records / f"{real_world.success}.json"), "--strict")
    assert by_path.returncode == ExitCode.UNTRUSTED
    assert "write-ahead log hash chain broken" in by_path.stderr and by_path.stdout == ""


def test_strict_is_documented_in_help() -> None:
    help_text = " ".join(cli("replay", "--help").stdout.split())
    assert "--strict" in help_text and "exit 5" in help_text
    assert "benign explanation is not refused" in help_text


def test_an_unreadable_envelope_file_is_one_plain_line(
    real_world: RealWorld, records: Path, tmp_path: Path
) -> None:
    not_text = tmp_path / "envelope.json"
    not_text.write_bytes(b"\xff\xfe{}")
    result = cli("replay", real_world.success, "--dir", str(records), "--envelope", str(not_text))
    assert result.returncode == ExitCode.USAGE and result.stdout == ""
    (line,) = result.stderr.splitlines()
    assert line.endswith("not UTF-8 text (byte 1 is 0xff)") and "codec" not in line


def test_a_declared_recording_failure_is_replayed_forced_as_unchecked_not_untrusted(
    real_world: RealWorld, records: Path
) -> None:
    path = records / f"{real_world.success}.json"
    doc = json.loads(path.read_text("utf-8"))
    ended = next(i for i, e in enumerate(doc["events"]) if e["type"] == "AGENT_ATTEMPT_END")
    del doc["events"][ended]  # the writer lost this event, and says so in the header
    doc["header"].update(replayable=False, replayableReason="recording_failure")
    path.write_text(json.dumps(doc), "utf-8")
    base = ("replay", real_world.success, "--dir", str(records))

    refused = cli(*base)
    assert refused.returncode == ExitCode.NOT_REPLAYABLE
    assert refused.stderr == (  # the code, then its words (it said the code alone)
        "intentus-tui: not replayable (recording_failure): a final response exists but was "
        "not recorded properly (use --force to replay anyway)\n"
    )
    forced = cli(*base, "--force")
    assert forced.returncode == ExitCode.OK
    lines = forced.stdout.splitlines()
    assert lines[1] == (
        "WARNING: replayed from a record that cannot be fully checked: treat this answer with care"
    )
    assert "untrusted" not in forced.stdout
    assert any(line.startswith("warning: event sequence broken") for line in lines)
    as_json = cli(*base, "--force", "--json")
    assert json.loads(as_json.stdout)["trusted"] is False  # it has an integrity problem
    assert "cannot be fully checked" in as_json.stderr and "untrusted" not in as_json.stderr
    assert cli(*base, "--force", "--strict").returncode == ExitCode.UNTRUSTED


@pytest.mark.parametrize(
    ("written", "reason", "detail"),
    [
        ("record_corrupted", None, "the file is damaged, not a record, or a malformed record"),
        ("execution_incomplete", None, "no final response was recorded"),
        ("manually_invalidated", None, "an operator marked this record as not replayable"),
        ("recording_failure", None, "a final response exists but was not recorded properly"),
        # A writer's own reason: the verdict's code, as inspect --list gives it (replay
        # gave the header's text as the code), and the reason in its words.
        ("kept for audit", "marked_not_replayable", "marked not replayable: kept for audit"),
    ],
)
def test_every_refusal_has_a_detail_and_goes_to_stderr(
    real_world: RealWorld, records: Path, written: str, reason: str | None, detail: str
) -> None:
    reason = reason or written
    path = records / f"{real_world.success}.json"
    doc = json.loads(path.read_text("utf-8"))
    doc["header"].update(replayable=False, replayableReason=written)
    path.write_text(json.dumps(doc), "utf-8")
    listed = json.loads(cli("inspect", "--list", str(records), "--json").stdout)
    codes = {r["replayable_reason"] for r in listed["executions"] if r["file"] == path.name}
    assert codes == {reason}  # the REPLAY column's code is the refusal's
    base = ("replay", real_world.success, "--dir", str(records))
    refusal = cli(*base, "--json")
    assert refusal.returncode == ExitCode.NOT_REPLAYABLE
    assert json.loads(refusal.stdout) == {
        "replayed": False,
        "replayable": False,
        "reason": reason,
        "detail": detail,
    }
    text = cli(*base)
    assert text.returncode == ExitCode.NOT_REPLAYABLE
    assert text.stdout == ""  # the code, then the words --json gives as its detail
    assert text.stderr == (
        f"intentus-tui: not replayable ({reason}): {detail} (use --force to replay anyway)\n"
    )


def test_a_response_never_recorded_is_not_advised_to_be_forced(
    real_world: RealWorld, records: Path
) -> None:
    """An execution that died before its final response: the refusal advised ``--force``,
    which returns no response."""
    path = records / f"{real_world.success}.json"
    doc = json.loads(path.read_text("utf-8"))
    doc["events"] = doc["events"][:2]  # INTENT_RECEIVED, AGENT_ATTEMPT_START
    doc["finalResponse"] = doc["routerDecision"] = None
    path.write_text(json.dumps(doc), "utf-8")
    refused = cli("replay", real_world.success, "--dir", str(records))
    assert refused.returncode == ExitCode.NOT_REPLAYABLE
    assert refused.stderr == (
        "intentus-tui: not replayable (execution_incomplete): no final response was recorded "
        "(nothing to replay: --force returns none)\n"
    )
    text = cli("replay", real_world.success, "--dir", str(records), "--force")
    assert text.stdout.splitlines()[1] == (
        "nothing replayed: no response was recorded, so a forced replay returns none"
    )
    assert "integrity" not in text.stdout and "answer" not in text.stdout  # it is whole
    forced = cli("replay", real_world.success, "--dir", str(records), "--force", "--json")
    doc = json.loads(forced.stdout)
    assert doc["payload"] is None and doc["response_recorded"] is False
    assert doc["replayed"] is False  # as stderr's "nothing replayed" (it said true)
    assert forced.stderr.startswith("intentus-tui: nothing replayed: ")
    # a script reading the exit code does not take the null payload for an answer
    assert forced.returncode == ExitCode.NOT_REPLAYABLE


def test_a_wal_only_refusal_is_said_where_the_others_are(tmp_path: Path) -> None:
    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    with WALWriter(str(base / "wal"), "0a11c1ea-0000-4000-8000-0000000000aa") as writer:
        writer.execution_started("ab" * 32, "Summarize")
    for extra in ((), ("--force",)):
        run = cli("replay", "0a11c1ea", "--dir", str(base / "records"), *extra)
        assert run.returncode == ExitCode.NOT_REPLAYABLE, run.stderr
        assert run.stdout == "" and run.stderr.startswith("intentus-tui: ")
        doc = json.loads(cli("replay", "0a11c1ea", "--dir", str(base), "--json", *extra).stdout)
        assert doc["reason"] == "no_record" and doc["detail"]


def test_with_no_record_to_replay_the_refusal_gives_the_verdicts_code(tmp_path: Path) -> None:
    """An execution known only from its log, and a record that cannot be read beside its
    log: when the log's chain breaks, the listing says ``no (untrusted)`` and replay said
    ``no_record`` or ``record_corrupted``; with --json it said it on stderr too."""
    from tests.real_ids import write_wal_only

    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    wal_only = "0a11c1ea-0000-4000-8000-0000000000bb"
    unreadable = "0a11c1ea-0000-4000-8000-0000000000cc"
    for execution_id in (wal_only, unreadable):
        log = write_wal_only(base / "wal", execution_id)
        lines = log.read_text("utf-8").splitlines(keepends=True)
        lines[1] = lines[1].replace("summarizer", "someone else")  # an edit breaks the chain
        log.write_text("".join(lines), "utf-8")
    (base / "records" / f"{unreadable}.json").write_text("{not json", "utf-8")
    listed = json.loads(cli("inspect", "--list", str(base), "--json").stdout)
    codes = {row["execution_id"]: row["replayable_reason"] for row in listed["executions"]}
    assert codes == {wal_only: "untrusted", unreadable: "untrusted"}
    for execution_id in (wal_only, unreadable):
        run = cli("replay", execution_id, "--dir", str(base), "--json")
        assert run.returncode == ExitCode.NOT_REPLAYABLE, run
        assert run.stderr == ""  # the document alone, as every refusal of replay --json
        doc = json.loads(run.stdout)
        assert doc["reason"] == codes[execution_id] and doc["replayable"] is False
        assert doc["detail"].startswith(
            "the write-ahead log fails its integrity check: investigate before replaying it; "
        )
        text = cli("replay", execution_id, "--dir", str(base))
        assert text.returncode == ExitCode.NOT_REPLAYABLE and text.stdout == ""
        said = f"not replayable ({doc['reason']}): {doc['detail']}"
        assert text.stderr == f"intentus-tui: {said}\n"


@pytest.mark.parametrize("flags", [(), ("--force",)])
def test_strict_refuses_a_record_that_cannot_be_read_as_untrusted(
    real_world: RealWorld, records: Path, flags: tuple[str, ...]
) -> None:
    """``--strict`` refuses a damaged record before any other refusal (the README's exit
    5); a record file damaged past salvage was refused as not replayable (exit 3)."""
    (records / f"{real_world.success}.json").write_text("{not json", "utf-8")
    base = ("replay", real_world.success, "--dir", str(records), *flags)
    assert cli(*base).returncode == ExitCode.NOT_REPLAYABLE  # without --strict, as before
    run = cli(*base, "--strict")
    assert run.returncode == ExitCode.UNTRUSTED, run
    assert run.stdout == "" and run.stderr == (
        "intentus-tui: integrity in doubt, not replayed (--strict): "
        "record cannot be read, nothing to replay\n"
    )
    doc = json.loads(cli(*base, "--strict", "--json").stdout)
    assert doc["replayed"] is False and doc["trusted"] is False
    (problem,) = doc["integrity"]
    assert problem["kind"] == "damaged_record" and problem["detail"].startswith(
        "Not a readable record: invalid JSON"
    )


def test_strict_refuses_an_execution_whose_log_chain_breaks_with_no_record_to_read(
    tmp_path: Path,
) -> None:
    """Known only from its log, or with a record that cannot be read, when the log's
    chain breaks: ``--strict`` refused it as not replayable (exit 3, untrusted), not as
    the untrusted evidence it is (exit 5), as it refuses a readable record beside it."""
    from tests.real_ids import write_wal_only

    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    wal_only = "0a11c1ea-0000-4000-8000-0000000000bb"
    unreadable = "0a11c1ea-0000-4000-8000-0000000000cc"
    intact = "0a11c1ea-0000-4000-8000-0000000000dd"
    for execution_id in (wal_only, unreadable, intact):
        log = write_wal_only(base / "wal", execution_id)
        if execution_id != intact:
            lines = log.read_text("utf-8").splitlines(keepends=True)
            lines[1] = lines[1].replace("summarizer", "someone else")  # the chain breaks
            log.write_text("".join(lines), "utf-8")
    (base / "records" / f"{unreadable}.json").write_text("{not json", "utf-8")
    kinds = {wal_only: ["wal_chain_broken"], unreadable: ["damaged_record", "wal_chain_broken"]}
    for execution_id, expected in kinds.items():
        for flags in ((), ("--force",)):
            run = cli("replay", execution_id, "--dir", str(base), "--strict", *flags)
            assert run.returncode == ExitCode.UNTRUSTED, run
            assert run.stdout == "" and len(run.stderr.splitlines()) == 1
            assert run.stderr.startswith(
                "intentus-tui: integrity in doubt, not replayed (--strict)"
            )
            assert "write-ahead log hash chain broken" in run.stderr
        doc = json.loads(
            cli("replay", execution_id, "--dir", str(base), "--strict", "--json").stdout
        )
        assert doc["trusted"] is False and [p["kind"] for p in doc["integrity"]] == expected
    # A log whose chain verifies says nothing against trust: no record, refused as before.
    run = cli("replay", intact, "--dir", str(base), "--strict", "--json")
    assert run.returncode == ExitCode.NOT_REPLAYABLE
    assert json.loads(run.stdout)["reason"] == "no_record"


@pytest.mark.parametrize("log", ["empty", "unreadable"])
def test_a_log_that_cannot_be_checked_makes_the_answer_unchecked_and_strict_refuses_it(
    real_world: RealWorld, records: Path, log: str
) -> None:
    """The verdict said "unverifiable: WAL unreadable" while replay called the answer
    trusted, with no warning, and ``--strict`` returned it (exit 0)."""
    prefix: list[str] = []
    wal_dir = records.parent / "wal"
    wal_dir.mkdir()
    wal_path = wal_dir / f"{real_world.success}.wal"
    wal_path.write_bytes(b"")
    if log == "unreadable":
        denied = deny_capabilities()
        if denied is None:
            pytest.skip("running as root without setpriv: root reads mode-000 files")
        prefix = denied
        wal_path.write_text("{}\n", "utf-8")
        wal_path.chmod(0)
    base = ("replay", real_world.success, "--dir", str(records.parent.parent))
    inspected = cli("inspect", real_world.success, "--dir", str(records), prefix=prefix)
    assert "integrity   unverifiable" in inspected.stdout, inspected.stdout
    answer = cli(*base, prefix=prefix)
    assert answer.returncode == ExitCode.OK
    assert answer.stdout.splitlines()[1] == (
        "WARNING: replayed from a record that cannot be fully checked: treat this answer with care"
    )
    assert "warning: write-ahead log cannot be checked (its hash chain is unknown)" in answer.stdout
    doc = json.loads(cli(*base, "--json", prefix=prefix).stdout)
    assert doc["trusted"] is False
    assert [e["kind"] for e in doc["integrity"]] == ["wal_unchecked"]
    strict = cli(*base, "--strict", prefix=prefix)
    assert strict.returncode == ExitCode.UNTRUSTED and strict.stdout == ""
    verified = cli("verify", real_world.success, cwd=records.parent.parent, prefix=prefix)
    assert "· WAL " in verified.stdout  # why the verdict says unverifiable, said by verify
    # verify ID checks the execution's log as verify DIR does: the same answer (it passed
    # by ID what failed by directory)
    assert f"{real_world.success}.wal  wal " in verified.stdout
    whole = cli("verify", str(records.parent), prefix=prefix)
    assert verified.returncode == whole.returncode


def test_a_record_its_log_contradicts_is_replayed_with_the_contradiction_said(
    real_world: RealWorld, records: Path
) -> None:
    """The record says success, its write-ahead log failed: the verdict's outcome is
    unknown, and the replayed answer said nothing of it."""
    with WALWriter(str(records.parent / "wal"), real_world.success) as writer:
        writer.execution_started("ab" * 32, "Summarize")
        writer.execution_failed("agent_error", "the agent crashed", False)
    base = ("replay", real_world.success, "--dir", str(records.parent.parent))
    answer = cli(*base)
    assert answer.returncode == ExitCode.OK  # the evidence holds: replayable, as it says
    assert answer.stdout.splitlines()[1] == (
        "warning: outcome unknown: the record says success but the write-ahead log says "
        "failed: this answer may not be what the execution returned"
    )
    doc = json.loads(cli(*base, "--json").stdout)
    assert doc["trusted"] is True and doc["warnings"][0].startswith("outcome unknown: ")
