"""Verist snapshots: made, read (never leaving their directory) and written atomically;
IntentusNet records as snapshots."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.verist import snapshot as snap
from intentus_tui.core.verist.baselines import baseline_path, load_baseline
from intentus_tui.core.verist.hashing import hash_value
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.recompute import compare_snapshots, load_output
from intentus_tui.core.verist.snapshot import (
    Artifact,
    Ok,
    Snapshot,
    SnapshotError,
    capture_artifact,
    create_snapshot,
    create_snapshot_from_result,
    load_snapshot,
    save_snapshot,
    snapshot_from_record,
)
from intentus_tui.core.verist.verify import verify_snapshot
from tests.core.verist.support import BASELINE, step_result
from tests.intentusnet_world import RealWorld

# --- artifacts and snapshots --------------------------------------------------------------


def test_capture_artifact_with_and_without_content() -> None:
    content = {"text": "Hello, world!"}
    full = capture_artifact("llm-output", content)
    assert full == Artifact(hash_value(content), "llm-output", content)
    hash_only = capture_artifact("llm-output", content, hash_only=True)
    assert hash_only.hash == full.hash and hash_only.content is MISSING and hash_only.hash_only
    assert hash_only.to_json() == {"hash": full.hash, "kind": "llm-output"}


def test_create_snapshot_computes_the_input_hash() -> None:
    artifacts = [capture_artifact("llm-output", {"response": "test"})]
    snapshot = create_snapshot(
        "verify-doc", "1.0.0", "extract", {"documentId": "doc-123"}, artifacts
    )
    assert snapshot.input_hash == hash_value({"documentId": "doc-123"})
    assert snapshot.artifacts == tuple(artifacts)
    assert abs(snapshot.captured_at - snap._now_ms()) < 60_000
    pinned = create_snapshot("wf", "1", "s", {}, [], captured_at=1700000000000)
    assert pinned.captured_at == 1700000000000 and pinned.artifacts == ()


def test_snapshot_json_round_trip_uses_verist_field_names() -> None:
    snapshot = create_snapshot(
        "wf", "1", "s", {"a": [1, None]}, [capture_artifact("k", 1)], captured_at=5
    )
    doc = snapshot.to_json()
    assert list(doc) == [
        "workflowId",
        "workflowVersion",
        "stepName",
        "input",
        "inputHash",
        "artifacts",
        "capturedAt",
    ]
    assert Snapshot.from_json(json.loads(json.dumps(doc))) == snapshot


def test_create_snapshot_from_result_captures_output_and_commands() -> None:
    result = step_result(
        output={"score": 0.95},
        events=[{"type": "scored"}],
        commands=[{"type": "invoke", "step": "next", "input": {"id": "doc-123"}}],
    )
    snapshot = create_snapshot_from_result(result, captured_at=1)
    kinds = [a.kind for a in snapshot.artifacts]
    assert kinds == ["step-output", "step-commands"]
    assert snapshot.artifacts[0].content == {
        "output": {"score": 0.95},
        "events": [{"type": "scored"}],
        "commands": [{"type": "invoke", "step": "next", "input": {"id": "doc-123"}}],
    }
    assert snapshot.artifacts[1].content == [
        {"type": "invoke", "step": "next", "input": {"id": "doc-123"}}
    ]
    assert snapshot.input_hash == hash_value({"id": "doc-123"})


def test_create_snapshot_from_result_options() -> None:
    commands = [{"type": "invoke", "step": "next", "input": {}}]
    assert [
        a.kind for a in create_snapshot_from_result(step_result(commands=commands)).artifacts
    ] == ["step-output", "step-commands"]
    suppressed = create_snapshot_from_result(step_result(commands=commands), capture_commands=False)
    assert [a.kind for a in suppressed.artifacts] == ["step-output"]
    empty = create_snapshot_from_result(step_result(commands=[]))
    assert [a.kind for a in empty.artifacts] == ["step-output"]
    hidden = create_snapshot_from_result(
        step_result(commands=commands), output_hash_only=True, commands_hash_only=True
    )
    assert all(a.hash_only for a in hidden.artifacts)
    # the hash is the hash of what would have been stored; undefined commands are dropped
    no_commands = create_snapshot_from_result(step_result(output={"data": "secret"}))
    assert no_commands.artifacts[0].hash == hash_value({"output": {"data": "secret"}, "events": []})
    extra = capture_artifact("llm-output", {"data": "test"})
    with_extra = create_snapshot_from_result(step_result(), artifacts=[extra])
    assert [a.kind for a in with_extra.artifacts] == ["step-output", "llm-output"]


@pytest.mark.parametrize("kind", ["step-output", "step-commands"])
def test_create_snapshot_from_result_refuses_reserved_kinds(kind: str) -> None:
    with pytest.raises(SnapshotError, match=f'Artifact kind "{kind}" is reserved by the kernel.'):
        create_snapshot_from_result(step_result(), artifacts=[capture_artifact(kind, {})])


# --- reading files ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "is empty"),
        (b"{not json", "Invalid JSON"),
        (b'{"format": "verist-baseline@1", "snapshot": {"x": NaN}}', "NaN is not valid JSON"),
        (b"\xff\xfe{}", "is not UTF-8"),
        (b"[1, 2]", "does not contain an object"),
        (b'{"format": "other@2"}', 'Unsupported baseline format "other@2"'),
        (b'{"snapshot": {}}', r'Unsupported baseline format "\(missing\)"'),
        (b'{"format": "verist-baseline@1"}', 'missing "snapshot" field'),
        (b'{"format": "verist-baseline@1", "snapshot": {"inputHash": "x"}}', 'missing "stepName"'),
        (
            b'{"format": "verist-baseline@1", "snapshot": {"stepName": "s", "inputHash": "h",'
            b' "artifacts": {}}}',
            'invalid "artifacts"',
        ),
        (
            b'{"format": "verist-baseline@1", "snapshot": {"stepName": "s", "inputHash": "h",'
            b' "artifacts": [{"kind": "step-output"}]}}',
            r'artifacts\[0\] has no "hash" string',
        ),
        (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    ],
)
def test_bad_baseline_files_raise_snapshot_error(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    with pytest.raises(SnapshotError, match=message):
        load_baseline(path)
    with pytest.raises(SnapshotError):
        load_snapshot(path)


def test_unreadable_paths_raise_snapshot_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with pytest.raises(SnapshotError, match="not found"):
        load_snapshot(tmp_path / "missing.json")
    (tmp_path / "dir.json").mkdir()
    with pytest.raises(SnapshotError, match="is a directory"):
        load_baseline(tmp_path / "dir.json")
    path = tmp_path / "locked.json"
    path.write_text("{}")

    def deny(*_: Any, **__: Any) -> Any:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", deny)  # the loader opens with os.open (O_NONBLOCK)
    with pytest.raises(SnapshotError, match="permission denied"):
        load_snapshot(path)


def test_a_symlink_in_a_snapshot_directory_leading_outside_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshots = tmp_path / "snapshots"
    snapshots.mkdir()
    outside = tmp_path / "elsewhere.json"
    shutil.copy(BASELINE, outside)  # a perfectly readable baseline, but not in the directory
    (snapshots / "pinned.json").symlink_to(outside)
    opened: list[str] = []
    real_open = os.open

    def spy(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        opened.append(os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", spy)
    for load in (load_snapshot, load_baseline):
        with pytest.raises(SnapshotError) as info:
            load(snapshots / "pinned.json")
        message = str(info.value)
        assert "\n" not in message and "outside the directory" in message
        assert message.startswith(f"{'Snapshot' if load is load_snapshot else 'Baseline'} file")
    assert str(outside) not in opened  # refused before the target was ever opened
    # A link that stays inside the directory is followed as before.
    shutil.copy(BASELINE, snapshots / "real.json")
    (snapshots / "alias.json").symlink_to(snapshots / "real.json")
    assert load_snapshot(snapshots / "alias.json").step_name == "extract"


def test_size_limit(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    shutil.copy(BASELINE, path)
    with pytest.raises(SnapshotError, match="larger than 100 bytes"):
        load_baseline(path, max_bytes=100)


# --- saving -------------------------------------------------------------------------------


def test_save_snapshot_is_atomic_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    snapshot = load_snapshot(BASELINE)
    target = tmp_path / "pins" / "known-good.json"
    seen_during_write: list[list[str]] = []
    real_fsync = os.fsync

    def spy_fsync(fd: int) -> None:
        seen_during_write.append(sorted(p.name for p in target.parent.iterdir()))
        real_fsync(fd)

    monkeypatch.setattr(snap.os, "fsync", spy_fsync)
    written = save_snapshot(snapshot, target, metadata={"inputPath": "x.json", "label": "pin"})
    assert written == target
    # While the bytes were being written only a hidden .tmp file existed, never a .json one.
    (temp_name,) = seen_during_write[0]
    assert temp_name.startswith(".known-good.json.") and temp_name.endswith(".tmp")
    assert sorted(p.name for p in target.parent.iterdir()) == ["known-good.json"]
    saved = load_baseline(target)
    assert saved.metadata == {"inputPath": "x.json", "label": "pin"}
    assert saved.snapshot.to_json() == snapshot.to_json()
    assert target.read_text(encoding="utf-8").endswith("}\n")


def test_failed_save_leaves_the_old_file_untouched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "pin.json"
    target.write_text("old contents")

    def fail_replace(*_: Any) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(snap.os, "replace", fail_replace)
    with pytest.raises(SnapshotError, match="No space left on device"):
        save_snapshot(load_snapshot(BASELINE), target)
    assert target.read_text() == "old contents"
    assert [p.name for p in tmp_path.iterdir()] == ["pin.json"]


def test_save_snapshot_refusals(tmp_path: Path) -> None:
    (tmp_path / "dir.json").mkdir()
    snapshot = load_snapshot(BASELINE)
    with pytest.raises(SnapshotError, match="is a directory"):
        save_snapshot(snapshot, tmp_path / "dir.json")
    no_output = create_snapshot("wf", "1", "s", {}, [])
    with pytest.raises(SnapshotError, match="exactly one step-output"):
        save_snapshot(no_output, tmp_path / "b.json", metadata={})
    hostile = create_snapshot("../../etc", "1", "s", {}, [])
    with pytest.raises(SnapshotError, match="cannot be used as a directory name"):
        baseline_path(tmp_path, hostile, "in.json")


def test_saved_json_follows_json_stringify_for_undefined_and_nan(tmp_path: Path) -> None:
    value = {"keep": [1, MISSING, float("nan")], "drop": MISSING, "inf": float("inf")}
    snapshot = create_snapshot("wf", "1", "s", value, [capture_artifact("k", value)])
    path = save_snapshot(snapshot, tmp_path / "s.json")
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert doc["input"] == {"keep": [1, None, None], "inf": None}
    # The stored hashes still verify: Verist hashes undefined/NaN the same way.
    assert all(c.ok for c in verify_snapshot(load_snapshot(path)))


def test_lone_surrogates_are_saved_escaped(tmp_path: Path) -> None:
    snapshot = create_snapshot("wf", "1", "s", {"t": "a\ud800b"}, [])
    path = save_snapshot(snapshot, tmp_path / "s.json")
    assert b"\\ud800" in path.read_bytes()
    assert load_snapshot(path).input == {"t": "a\ud800b"}


# --- IntentusNet records ------------------------------------------------------------------


def real_record(world: RealWorld, execution_id: str) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(
        (world.records_dir / f"{execution_id}.json").read_text(encoding="utf-8")
    )
    return record


def test_snapshot_from_a_real_intentusnet_record(real_world: RealWorld) -> None:
    record = real_record(real_world, real_world.success)
    snapshot = snapshot_from_record(record)
    assert snapshot.workflow_id == "Summarize" and snapshot.workflow_version == "1.0"
    assert snapshot.input == record["envelope"]
    assert snapshot.input_hash == hash_value(record["envelope"])
    output = load_output(snapshot)
    assert isinstance(output, Ok)
    assert output.value == {"output": record["finalResponse"], "events": record["events"]}
    header = snapshot.artifact(snap.RECORD_HEADER_KIND)
    assert header is not None and header.content["header"] == record["header"]
    assert snapshot.captured_at > 1_700_000_000_000
    assert all(c.ok for c in verify_snapshot(snapshot))


def test_pin_a_record_and_compare_a_later_execution(real_world: RealWorld, tmp_path: Path) -> None:
    success = snapshot_from_record(real_record(real_world, real_world.success))
    fallback = snapshot_from_record(real_record(real_world, real_world.fallback))
    pinned = save_snapshot(success, tmp_path / "known-good.json", metadata={"label": "good"})
    comparison = compare_snapshots(load_snapshot(pinned), fallback)
    assert comparison.output_diff is not None and not comparison.output_diff.equal
    assert not comparison.input_diff.equal  # the routing strategy differs
    assert compare_snapshots(load_snapshot(pinned), success).output_diff == (
        compare_snapshots(success, success).output_diff
    )


def test_snapshot_from_truncated_or_bad_records() -> None:
    no_response = snapshot_from_record({"envelope": {"intent": {"name": "X"}}, "events": []})
    assert compare_snapshots(no_response, no_response).output_diff is None
    assert no_response.workflow_version == "unknown" and no_response.captured_at == 0
    with pytest.raises(SnapshotError, match='no "envelope" object'):
        snapshot_from_record({"header": {}})
    with pytest.raises(SnapshotError, match="not a JSON object"):
        snapshot_from_record([])  # type: ignore[arg-type]
