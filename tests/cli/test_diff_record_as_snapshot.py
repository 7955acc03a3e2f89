"""A record is accepted wherever a snapshot is: ``intentus-tui diff`` with real 1.3.0
records on either side of a snapshot (never ``missing "stepName"``)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from intentus_tui.cli import run as run_cli
from intentus_tui.cli.exit_codes import ExitCode
from tests.intentusnet_world import RealWorld


def diff_json(capsys: pytest.CaptureFixture[str], a: Path, b: Path) -> tuple[int, dict]:
    capsys.readouterr()
    code = run_cli(["diff", str(a), str(b), "--json"])
    captured = capsys.readouterr()
    assert "stepName" not in captured.err
    return code, json.loads(captured.out)


def test_records_and_their_snapshots_compare_both_ways(
    tmp_path: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    records = real_world.records_dir
    success = records / f"{real_world.success}.json"
    fallback = records / f"{real_world.fallback}.json"
    snapshot = tmp_path / "success.snapshot.json"
    assert run_cli(["snapshot", str(success), "-o", str(snapshot)]) == ExitCode.OK

    # A record against its own snapshot, either way round: Verist's comparison, equal.
    for a, b in ((success, snapshot), (snapshot, success)):
        code, doc = diff_json(capsys, a, b)
        assert (code, doc["compared"], doc["equal"]) == (ExitCode.OK, "snapshots", True)
    # Another record where the snapshot was: the differences, same both ways but mirrored.
    code, forward = diff_json(capsys, snapshot, fallback)
    assert (code, forward["compared"], forward["equal"]) == (ExitCode.PROBLEMS, "snapshots", False)
    assert "input.routing.strategy" in [e["path_text"] for e in forward["entries"]]
    code, backward = diff_json(capsys, fallback, snapshot)
    assert [e["path_text"] for e in backward["entries"]] == [
        e["path_text"] for e in forward["entries"]
    ]
    # 1.3.0's error record, cut short, where a snapshot was: what was recovered is compared.
    cut = records / f"{real_world.error_truncated}.json"
    code, doc = diff_json(capsys, snapshot, cut)
    assert (code, doc["compared"]) == (ExitCode.PROBLEMS, "snapshots")
    assert "cut short by its writer, compared what was recovered" in doc["b"]["note"]


def diff_text(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    code = run_cli(["diff", *args])
    return code, capsys.readouterr().out


def test_a_record_invalidated_since_its_snapshot_differs_from_it(
    tmp_path: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    """The header is part of the comparison when both sides have one (a record and a snapshot
    made of one): a record marked not replayable after its snapshot was taken is reported
    different, as two copies of the record are, not "(no changes)" under a verdict line that
    says not replayable."""
    from intentus_tui.core.records.store import FileExecutionStore

    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    snapshot = tmp_path / "s1.json"
    made = run_cli(["snapshot", real_world.success, "--dir", str(records), "-o", str(snapshot)])
    assert made == ExitCode.OK
    code, _ = diff_text(capsys, str(snapshot), real_world.success, "--dir", str(records))
    assert code == ExitCode.OK
    FileExecutionStore(records).invalidate(real_world.success)  # what the debugger's I does

    code, out = diff_text(capsys, str(snapshot), real_world.success, "--dir", str(records))
    assert code == ExitCode.PROBLEMS
    assert "not replayable (manually_invalidated)" in out
    lines = out.splitlines()
    assert "same record header: no" in lines
    assert "  header.replayable: true → false" in lines
    assert '  header.replayableReason: null → "manually_invalidated"' in lines
    assert "(no changes)" not in out and lines[-1].startswith("different: 2 ")
    code, doc = diff_json(capsys, snapshot, records / f"{real_world.success}.json")
    assert (code, doc["equal"], doc["summary"]["same_header"]) == (ExitCode.PROBLEMS, False, False)
    assert [e["path_text"] for e in doc["entries"]] == [
        "header.replayable",
        "header.replayableReason",
    ]
    # The other way round, the same differences mirrored.
    code, out = diff_text(capsys, str(records / f"{real_world.success}.json"), str(snapshot))
    assert code == ExitCode.PROBLEMS and "  header.replayable: false → true" in out.splitlines()


def test_the_other_header_fields_are_compared_as_two_records_compare_them(
    tmp_path: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    """The execution id, creation time and envelope hash differ between any two executions:
    hidden by the ignore rules and counted, as between two records; the summary still says
    whether the recorded envelope hashes are the same. A Verist baseline has no record
    header: nothing to compare, and it says so."""
    records = tmp_path / "records"
    shutil.copytree(real_world.records_dir, records)
    snapshot = tmp_path / "s1.json"
    success = records / f"{real_world.success}.json"
    assert run_cli(["snapshot", str(success), "-o", str(snapshot)]) == ExitCode.OK
    record = json.loads(success.read_text("utf-8"))
    record["header"]["envelopeHash"] = "0" * 64
    record["header"]["createdUtcIso"] = "2026-01-06T00:00:00+00:00"
    success.write_text(json.dumps(record, ensure_ascii=False, indent=2), "utf-8")

    code, out = diff_text(capsys, str(snapshot), str(success))
    lines = out.splitlines()
    assert "same record header: yes" in lines and "same recorded envelope hash: no" in lines
    assert any(line.startswith("2 ") and "hidden by the ignore rules" in line for line in lines)
    code, out = diff_text(capsys, str(snapshot), str(success), "--all")
    assert code == ExitCode.PROBLEMS
    assert "same record header: no" in out.splitlines()
    assert any(line.startswith("  header.envelopeHash: ") for line in out.splitlines())
    assert any(line.startswith("  header.createdUtcIso: ") for line in out.splitlines())

    # A Verist snapshot with no record header: input, output and commands only.
    bare = json.loads(snapshot.read_text("utf-8"))
    bare["artifacts"] = [a for a in bare["artifacts"] if a["kind"] == "step-output"]
    plain = tmp_path / "plain.json"
    plain.write_text(json.dumps(bare), "utf-8")
    code, out = diff_text(capsys, str(plain), str(snapshot))
    assert code == ExitCode.OK
    assert "same record header: n/a (a side has no IntentusNet record header)" in out


def test_a_snapshot_comparison_says_the_events_were_not_compared(
    real_world: RealWorld, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Verist's snapshot comparison leaves the events out: when the step-output hashes
    differ, the comparison says the events were not compared (it listed the changed values
    alone, and the fallback's events, which differ, went unmentioned)."""
    snapshot = tmp_path / "success.snapshot.json"
    success = real_world.records_dir / f"{real_world.success}.json"
    fallback = real_world.records_dir / f"{real_world.fallback}.json"
    assert run_cli(["snapshot", str(success), "-o", str(snapshot)]) == ExitCode.OK
    capsys.readouterr()
    code, doc = diff_json(capsys, fallback, snapshot)
    assert code == ExitCode.PROBLEMS
    assert any(note.startswith("events not compared") for note in doc["notes"]), doc["notes"]
    code, doc = diff_json(capsys, success, snapshot)
    assert code == ExitCode.OK
    assert not any("events not compared" in note for note in doc["notes"]), doc["notes"]


def test_a_cut_record_and_its_snapshot_agree_on_the_output_their_hashes_match(
    tmp_path: Path, real_world: RealWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    # "same output: unknown" was followed by "their step-output hashes match" and "equal".
    cut = real_world.records_dir / f"{real_world.error_truncated}.json"
    snapshot = tmp_path / "cut.snapshot.json"
    assert run_cli(["snapshot", str(cut), "-o", str(snapshot)]) == ExitCode.OK
    code, doc = diff_json(capsys, cut, snapshot)
    assert (code, doc["equal"], doc["summary"]["same_output"]) == (ExitCode.OK, True, True)
    assert any("hashes match" in note for note in doc["notes"])
    code, text = diff_text(capsys, str(cut), str(snapshot))
    assert "same output: yes" in text.splitlines()


def test_a_snapshot_whose_events_were_edited_since_is_not_said_to_hold_equal_events(
    real_world: RealWorld, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A saved snapshot's step-output events edited on disk, its stored hash left: the
    comparison with its record said the outputs equal and nothing of the events (their
    stored hashes still matched); the hash of what it holds now differs, and says so."""
    record = real_world.records_dir / f"{real_world.fallback}.json"
    saved = tmp_path / "pinned.json"
    assert run_cli(["snapshot", str(record), "-o", str(saved)]) == ExitCode.OK
    capsys.readouterr()
    document = json.loads(saved.read_text("utf-8"))
    output = next(a for a in document["artifacts"] if a["kind"] == "step-output")
    output["content"]["events"][2]["type"] = "AGENT_ATTEMPT_EVIL"
    saved.write_text(json.dumps(document), "utf-8")
    _, doc = diff_json(capsys, record, saved)
    assert doc["summary"]["same_output"] is True  # Verist compares the outputs alone
    assert any("the recorded events differ" in note for note in doc["notes"]), doc["notes"]
