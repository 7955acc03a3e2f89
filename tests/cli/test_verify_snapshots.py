"""``verify`` on a saved snapshot or baseline: its hashes checked again, as Verist makes
them. It answered "not an execution record" of the snapshot a person had just saved and
wanted to trust, even one edited since: a tampered reference could only be found by
diffing against it."""

from __future__ import annotations

import json
from pathlib import Path

from intentus_tui.cli.exit_codes import ExitCode
from tests.cli.support import cli
from tests.core.verist.support import BASELINE
from tests.intentusnet_world import RealWorld


def _saved_snapshot(real_world: RealWorld, where: Path) -> Path:
    """A snapshot of a real 1.3.0 record, written by the product's own ``snapshot``."""
    path = where / "pinned.snapshot.json"
    record = real_world.records_dir / f"{real_world.fallback}.json"
    done = cli("snapshot", str(record), "-o", str(path))
    assert done.returncode == ExitCode.OK, done.stderr
    return path


def test_a_saved_snapshot_verifies_and_one_edited_since_fails_naming_the_hash(
    real_world: RealWorld, tmp_path: Path
) -> None:
    saved = _saved_snapshot(real_world, tmp_path)
    done = cli("verify", str(saved))
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    first, last = done.stdout.splitlines()
    assert first.startswith("ok    pinned.snapshot.json  snapshot: input and ")
    assert first.endswith(" hash as recorded")
    assert last == "1 checked (0 records, 0 WALs, 1 snapshot), 0 failed"

    document = json.loads(saved.read_text("utf-8"))
    output = next(a for a in document["artifacts"] if a["kind"] == "step-output")
    output["content"] = {**output["content"], "edited": True}
    saved.write_text(json.dumps(document), "utf-8")
    done = cli("verify", str(saved))
    assert done.returncode == ExitCode.PROBLEMS
    lines = done.stdout.splitlines()
    assert lines[0] == "FAIL  pinned.snapshot.json  snapshot: changed since it was saved"
    at = document["artifacts"].index(output)
    assert lines[1].startswith(f"      - artifacts[{at}] (step-output): expected sha256:")
    assert lines[-1] == "1 checked (0 records, 0 WALs, 1 snapshot), 1 failed"


def test_a_snapshot_edited_in_its_input_names_the_input_once(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """The input's line read ``- input ((input)): expected …``: the input's own name, then
    the same name again in parentheses, where an artifact's line names its kind."""
    saved = _saved_snapshot(real_world, tmp_path)
    document = json.loads(saved.read_text("utf-8"))
    document["input"] = {**document["input"], "edited": True}
    saved.write_text(json.dumps(document), "utf-8")
    done = cli("verify", str(saved))
    assert done.returncode == ExitCode.PROBLEMS
    lines = done.stdout.splitlines()
    assert lines[0] == "FAIL  pinned.snapshot.json  snapshot: changed since it was saved"
    assert lines[1].startswith("      - input: expected sha256:"), lines[1]
    assert "((input))" not in done.stdout


def test_a_verist_baseline_is_checked_as_one_beside_a_record_in_json(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A baseline Verist's CLI wrote (every hash Node's), edited in its output: the JSON names
    the check that fails; the record named beside it is verified as before."""
    edited = tmp_path / "doc-a.json"
    edited.write_text(BASELINE.read_text("utf-8").replace('"John"', '"Jon"'), "utf-8")
    record = real_world.records_dir / f"{real_world.success}.json"
    done = cli("verify", str(BASELINE), str(edited), str(record), "--json")
    assert done.returncode == ExitCode.PROBLEMS, done.stderr
    doc = json.loads(done.stdout)
    assert (doc["checked"], doc["records"], doc["snapshots"], doc["failed"]) == (3, 1, 2, 1)
    kept, changed, checked_record = doc["files"][1], doc["files"][2], doc["files"][0]
    assert checked_record["kind"] == "record" and checked_record["ok"]
    assert (kept["kind"], kept["ok"]) == ("baseline", True)
    # A hash stored without its content cannot be checked: said, not failed.
    assert {c["status"] for c in kept["checks"]} == {"ok", "hash_only"}
    assert (changed["kind"], changed["ok"], changed["path"]) == ("baseline", False, str(edited))
    broken = [c for c in changed["checks"] if c["status"] not in ("ok", "hash_only")]
    assert [(c["target"], c["status"]) for c in broken] == [("artifacts[0]", "mismatch")]
    assert broken[0]["expected"] != broken[0]["actual"]


def test_a_snapshot_found_among_the_records_is_still_no_record(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """Only a file named itself is read as a snapshot: in a records directory a snapshot is
    a file that is not a record, as the debugger's list shows it."""
    root = tmp_path / ".intentusnet"
    (root / "records").mkdir(parents=True)
    _saved_snapshot(real_world, tmp_path).rename(root / "records" / "pinned.json")
    done = cli("verify", str(root))
    assert done.returncode == ExitCode.PROBLEMS
    assert done.stdout.splitlines()[0] == "FAIL  pinned.json  hash not checked (not a record)"


def test_a_snapshot_missing_a_field_or_storing_no_hash_fails_saying_which(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A saved snapshot whose inputHash was deleted was checked as a record ("hash
    not_record", counted as one record); one whose stored hash is no hash at all was said
    "changed since it was saved", which nothing proves."""
    saved = _saved_snapshot(real_world, tmp_path)
    document = json.loads(saved.read_text("utf-8"))
    no_input_hash = tmp_path / "no-input-hash.json"
    no_input_hash.write_text(json.dumps({k: v for k, v in document.items() if k != "inputHash"}))
    document["artifacts"][0]["hash"] = "garbage"
    garbage = tmp_path / "garbage.json"
    garbage.write_text(json.dumps(document))
    done = cli("verify", str(no_input_hash), str(garbage))
    assert done.returncode == ExitCode.PROBLEMS
    lines = done.stdout.splitlines()
    assert lines[0].startswith("FAIL  no-input-hash.json  snapshot: not a valid snapshot: ")
    assert lines[0].endswith('is missing "inputHash"')
    assert lines[1] == "FAIL  garbage.json  snapshot: a hash it stored cannot be checked"
    assert "(stored value is not a sha256:<hex> hash)" in lines[2]
    assert lines[-1] == "2 checked (0 records, 0 WALs, 2 snapshots), 2 failed"


def test_a_snapshots_directory_named_checks_its_snapshots_and_not_the_logs_beside_it(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """``verify .intentusnet/snapshots`` failed each snapshot as "not a record" (while the
    same file named alone verified), and took the records' ``wal/`` beside it for its own:
    every log an execution with "no record file"."""
    base = tmp_path / ".intentusnet"
    (base / "records").mkdir(parents=True)
    (base / "wal").mkdir()
    record = real_world.records_dir / f"{real_world.success}.json"
    (base / "records" / record.name).write_bytes(record.read_bytes())
    (base / "wal" / f"{real_world.success}.wal").write_text("")
    (base / "snapshots").mkdir()
    saved = _saved_snapshot(real_world, base / "snapshots")
    done = cli("verify", str(base / "snapshots"))
    assert done.returncode == ExitCode.OK, done.stdout + done.stderr
    assert done.stdout.splitlines() == [
        f"ok    {saved.name}  snapshot: input and 2 artifacts hash as recorded",
        "1 checked (0 records, 0 WALs, 1 snapshot), 0 failed",
    ]


def test_a_damaged_snapshot_fails_as_a_snapshot_not_as_a_record(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A snapshot cut short, or holding a NaN, was counted and judged as a record ('1
    record', 'outcome unknown … record_corrupted'); the NaN one even said it looks like a
    Verist snapshot, then was judged as a record anyway."""
    text = _saved_snapshot(real_world, tmp_path).read_text("utf-8")
    cut = tmp_path / "cut.json"
    cut.write_text(text[: len(text) // 2], "utf-8")
    document = json.loads(text)
    document["stepName"] = float("nan")
    nan = tmp_path / "nan.json"
    nan.write_text(json.dumps(document), "utf-8")
    for damaged in (cut, nan):
        done = cli("verify", str(damaged))
        assert done.returncode == ExitCode.PROBLEMS
        first, last = done.stdout.splitlines()
        assert first.startswith(f"FAIL  {damaged.name}  snapshot: cannot be read: ")
        assert "verdict" not in done.stdout
        assert last == "1 checked (0 records, 0 WALs, 1 snapshot), 1 failed"
    assert "NaN" in cli("verify", str(nan)).stdout


def test_a_snapshot_cut_short_is_said_in_a_cut_short_records_words(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """A record cut short says where its file ends ("file ends at byte N (line L, column
    C): truncated, …"); a snapshot cut short said the JSON parser's "Expecting ','
    delimiter (line 76, column 1)", and not that the file was cut short."""
    data = _saved_snapshot(real_world, tmp_path).read_bytes()
    cut = tmp_path / "cut.json"
    cut.write_bytes(data[: data.rindex(b",") + 1])  # at an entry's end, as a crash leaves it
    record = real_world.records_dir / f"{real_world.fallback}.json"
    whole = record.read_bytes()
    cut_record = tmp_path / f"{real_world.fallback}.json"
    cut_record.write_bytes(whole[: whole.rindex(b",") + 1])
    said = cli("verify", str(cut), str(cut_record)).stdout
    snapshot_line = next(line for line in said.splitlines() if line.startswith("FAIL  cut.json"))
    ends = f"file ends at byte {cut.stat().st_size} (line "
    assert snapshot_line.startswith(
        f"FAIL  cut.json  snapshot: cannot be read: the file is cut short: {ends}"
    ), snapshot_line
    assert ": truncated, expecting " in snapshot_line and "Expecting" not in snapshot_line
    assert f"file ends at byte {cut_record.stat().st_size} (line " in said  # the record's
    assert "the file is cut short" in said.split("FAIL  cut.json")[0]


def test_an_empty_file_beside_snapshots_is_counted_as_a_snapshot_not_a_record(
    real_world: RealWorld, tmp_path: Path
) -> None:
    """``verify .intentusnet/snapshots`` with an empty ``.json`` beside the snapshots said
    "1 record" and judged it one ("hash not checked (the file is empty)")."""
    snapshots = tmp_path / ".intentusnet" / "snapshots"
    snapshots.mkdir(parents=True)
    saved = _saved_snapshot(real_world, snapshots)
    (snapshots / "empty.json").write_bytes(b"")
    done = cli("verify", str(snapshots))
    assert done.returncode == ExitCode.PROBLEMS
    assert done.stdout.splitlines() == [
        "FAIL  empty.json  snapshot: cannot be read: the file is empty",
        f"ok    {saved.name}  snapshot: input and 2 artifacts hash as recorded",
        "2 checked (0 records, 0 WALs, 2 snapshots), 1 failed",
    ]
    # Named alone, nothing says it is a snapshot: it is judged as a record, as before.
    alone = cli("verify", str(snapshots / "empty.json")).stdout
    assert alone.splitlines()[-1] == "1 checked (1 record, 0 WALs), 1 failed"
