"""``intentus-tui snapshot``: where it writes, what it refuses, what it warns of; a
snapshot compared with ``diff``."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.verist.snapshot import load_snapshot
from tests.cli.diff_project import cli, write_diff_project
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project directory with ``.intentusnet/records``; the tests run from it."""
    monkeypatch.chdir(tmp_path)
    return write_diff_project(tmp_path)


def test_snapshot_command_default_path_and_round_trip(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "snapshot", "exec-a")
    assert code == ExitCode.OK, err
    written = root / "exec-a.snapshot.json"
    assert out.strip() == str(written)
    snap = load_snapshot(written)
    assert snap.step_name == "route" and snap.step_output is not None
    # A record and its own snapshot are equal; a drifted record's response is too, but the
    # recorded events differ, which the snapshot comparison says in a note.
    assert cli(capsys, "diff", str(written), "exec-a")[0] == ExitCode.OK
    code, out, _ = cli(capsys, "diff", str(written), "exec-drift")
    assert code == ExitCode.OK and "events differ" in out
    code, out, _ = cli(capsys, "diff", str(written), "exec-direct", "--json")
    assert code == ExitCode.PROBLEMS
    doc = json.loads(out)
    assert doc["compared"] == "snapshots"
    assert "input.routing.strategy" in {e["path_text"] for e in doc["entries"]}
    assert doc["summary"]["same_input"] is False


def test_snapshot_command_output_and_json(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = root / "pins" / "a.json"
    target.parent.mkdir()  # -o names a file in a directory that exists, as export's does
    code, out, err = cli(capsys, "snapshot", "exec-a", "-o", str(target), "--json")
    assert code == ExitCode.OK, err
    doc = json.loads(out)
    snap = load_snapshot(target)
    assert doc["path"] == str(target)
    assert doc["input_hash"] == snap.input_hash
    assert [a["kind"] for a in doc["artifacts"]] == [a.kind for a in snap.artifacts]
    assert [p.name for p in target.parent.iterdir()] == ["a.json"]  # no temp file left


def test_a_verist_baseline_file_can_be_diffed(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cli(capsys, "snapshot", "exec-a", "-o", "a.json")
    snapshot_json = json.loads((root / "a.json").read_text())
    baseline = {"format": "verist-baseline@1", "snapshot": snapshot_json, "metadata": {}}
    (root / "baseline.json").write_text(json.dumps(baseline))
    code, out, err = cli(capsys, "diff", "baseline.json", "a.json")
    assert code == ExitCode.OK, err
    # Each side said as what it is (a baseline was called a snapshot)
    assert out.startswith("A: baseline.json (baseline ") and "\nB: a.json (snapshot " in out
    (root / "bad.json").write_text(json.dumps({**baseline, "format": "verist-baseline@9"}))
    code, _, err = cli(capsys, "diff", "bad.json", "a.json")
    assert code == ExitCode.USAGE and "verist-baseline@9" in err


def test_snapshot_refuses_the_record_directory(
    root: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    records = root / ".intentusnet" / "records"
    before = sorted(p.name for p in records.iterdir())
    code, _, err = cli(capsys, "snapshot", "exec-a", "-o", str(records / "pin.json"))
    assert code == ExitCode.USAGE and "record directory" in err
    monkeypatch.chdir(records)
    code, _, err = cli(capsys, "snapshot", "exec-a", "--dir", str(root))
    assert code == ExitCode.USAGE and "choose another place with -o" in err
    assert sorted(p.name for p in records.iterdir()) == before


def test_a_record_named_by_its_path_is_snapshotted_where_the_command_runs(
    root: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An empty directory is not a record directory for being where the command runs: the
    snapshot of a record typed by its path goes there by default (it was refused as "a
    record directory"), and again next to the first one."""
    records = root / ".intentusnet" / "records"
    elsewhere = tmp_path / "pins"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = cli(capsys, "snapshot", str(records / "exec-a.json"))
    assert code == ExitCode.OK, err
    assert out.strip() == str(elsewhere / "exec-a.snapshot.json")
    code, out, err = cli(capsys, "snapshot", "../.intentusnet/records/exec-same.json")
    assert code == ExitCode.OK, err
    assert sorted(p.name for p in elsewhere.iterdir()) == [
        "exec-a.snapshot.json",
        "exec-same.snapshot.json",
    ]
    # Run from the records themselves, the path typed or not, the output is refused there.
    monkeypatch.chdir(records)
    for typed in ("exec-a.json", str(records / "exec-a.json")):
        code, _, err = cli(capsys, "snapshot", typed)
        assert code == ExitCode.USAGE and "choose another place with -o" in err


def test_snapshot_usage_errors(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (root / "other.json").write_text("[1, 2]")
    for args, message in (
        (("nope",), "no execution 'nope'"),
        (("exec-a", "-o", str(root)), "is a directory"),
    ):
        code, out, err = cli(capsys, "snapshot", *args)
        assert code == ExitCode.USAGE and out == "" and message in err, (args, err)
    # A file that is no record is bad data, not a usage error.
    code, out, err = cli(capsys, "snapshot", "other.json")
    assert code == ExitCode.PROBLEMS and out == "" and "not an execution record" in err, err


def test_snapshot_of_a_damaged_record_warns(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = root / ".intentusnet" / "records"
    cut = write_record(records, make_record(execution_id="cut-2"))
    cut.write_bytes(cut.read_bytes()[:-100])
    code, out, err = cli(capsys, "snapshot", "cut-2")
    assert code == ExitCode.OK
    assert "warning" in err and out.strip() == str(root / "cut-2.snapshot.json")
    assert load_snapshot(out.strip()).input_hash


def test_snapshot_of_an_untrusted_record_warns_in_the_verdicts_words(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    real_world: RealWorld,
) -> None:
    """A tampered record (its envelope changed after 1.3.0 wrote it) and an intact one whose
    write-ahead log's chain breaks: saved, each with one warning line; it was silent."""
    from tests.intentusnet_world import with_broken_wal_chain

    base = with_broken_wal_chain(real_world, tmp_path)  # the success record and a broken log
    stored = json.loads((real_world.records_dir / f"{real_world.fallback}.json").read_text())
    stored["envelope"]["payload"] = {"text": "changed after it was recorded"}
    (base / "records" / f"{real_world.fallback}.json").write_text(json.dumps(stored))
    monkeypatch.chdir(tmp_path)
    for execution_id, what, integrity in (
        (real_world.fallback, "record", "tampered"),
        (real_world.success, "record's write-ahead log", "chain broken"),
    ):
        target = tmp_path / f"{execution_id}.snap.json"
        code, out, err = cli(capsys, "snapshot", execution_id[:8], "-o", str(target))
        assert code == ExitCode.OK, err  # warned, not refused
        assert err == (
            f"intentus-tui: warning: the {what} fails its integrity check ({integrity}): the "
            "snapshot carries content that cannot be believed\n"
        )
        assert out.strip() == str(target) and load_snapshot(target).input_hash
    name = f"{real_world.invalidated}.json"  # a record whose integrity verifies: no warning
    shutil.copy(real_world.records_dir / name, base / "records" / name)
    code, _, err = cli(capsys, "snapshot", real_world.invalidated, "-o", str(tmp_path / "i.json"))
    assert (code, err) == (ExitCode.OK, "")


def test_snapshot_file_name_never_comes_from_an_unsafe_id(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = make_record(execution_id="../../escape")
    write_record(root / "loose", record, name="loose-1.json")
    code, out, err = cli(capsys, "snapshot", "loose/loose-1.json")
    assert code == ExitCode.OK, err
    assert Path(out.strip()) == root / "loose-1.snapshot.json"
