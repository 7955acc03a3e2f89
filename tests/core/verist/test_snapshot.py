"""Verist snapshots: the seed 004 API, Verist baselines, IntentusNet records as snapshots."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
from functools import cmp_to_key
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.verist import snapshot as snap
from intentus_tui.core.verist.diff import MISSING, DiffEntry, DiffError
from intentus_tui.core.verist.snapshot import (
    Artifact,
    Err,
    Ok,
    Snapshot,
    SnapshotError,
    StepResult,
    baseline_filename,
    baseline_path,
    capture_artifact,
    compare_snapshots,
    create_snapshot,
    create_snapshot_from_result,
    hash_value,
    hash_with_content,
    load_baseline,
    load_output,
    load_snapshot,
    normalize_commands,
    recompute,
    save_snapshot,
    snapshot_from_record,
    verify_snapshot,
)
from tests.intentusnet_world import RealWorld

DATA = Path(__file__).parents[2] / "data"
BASELINE_ROOT = DATA / "verist_baselines"
# Written by hand with odd number tokens, integer-like and astral keys, a lone surrogate and a
# "__proto__" key; every hash in it was computed by Node's own JSON.stringify (Verist's form).
BASELINE = BASELINE_ROOT / ".verist/baselines/verify-doc/1.0.0/extract/doc-a-00c1ce3d.json"

SHA = "sha256:" + "0" * 64


def step_result(**overrides: Any) -> StepResult:
    fields: dict[str, Any] = {
        "workflow_id": "wf",
        "workflow_version": "1.0.0",
        "step_name": "process",
        "input": {"id": "doc-123"},
        "output": {"status": "done"},
        "events": [],
    }
    fields.update(overrides)
    return StepResult(**fields)


# --- hashing ------------------------------------------------------------------------------


def test_hash_value_is_prefixed_sha256_and_ignores_key_order() -> None:
    digest = hash_value({"test": "value"})
    assert digest.startswith("sha256:") and len(digest) == 71
    assert hash_value({"a": 1, "b": 2}) == hash_value({"b": 2, "a": 1})
    assert hash_value({"outer": {"z": 1, "a": 2}, "first": True}) == hash_value(
        {"first": True, "outer": {"a": 2, "z": 1}}
    )
    assert hash_value([1, 2, 3]) != hash_value([3, 2, 1])
    assert hash_value({"value": 1}) != hash_value({"value": 2})


def test_hash_value_follows_json_undefined_rules() -> None:
    assert hash_value(MISSING) == hash_value(None)  # top-level undefined is null
    assert hash_value({"a": 1, "b": MISSING}) == hash_value({"a": 1})  # property dropped
    assert hash_value([MISSING]) == hash_value([None])  # array element becomes null


def test_hash_with_content_returns_the_canonical_text() -> None:
    hashed = hash_with_content({"z": 1, "a": 2})
    assert hashed.content == '{"a":2,"z":1}'
    assert hashed.hash == hash_value({"a": 2, "z": 1})
    assert hashed.hash == "sha256:" + hashlib.sha256(b'{"a":2,"z":1}').hexdigest()
    assert hash_with_content({"name": "test"}).content == '{"name":"test"}'


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


def test_commands_are_normalized_so_order_does_not_change_the_hash() -> None:
    def commands_hash(commands: list[dict[str, Any]]) -> str:
        artifact = create_snapshot_from_result(step_result(commands=commands)).artifact(
            "step-commands"
        )
        assert artifact is not None
        return artifact.hash

    invoke_a = {"type": "invoke", "step": "a", "input": {}}
    invoke_b = {"type": "invoke", "step": "b", "input": {}}
    assert commands_hash([invoke_b, invoke_a]) == commands_hash([invoke_a, invoke_b])
    mixed = [
        {"type": "review", "reason": "check totals"},
        {"type": "invoke", "step": "enrich", "input": {"id": 1}},
        {"type": "emit", "topic": "doc.processed", "payload": {"id": 1}},
        {"type": "invoke", "step": "validate", "input": {"id": 1}, "runnerMeta": "dropped"},
    ]
    assert commands_hash(mixed) == commands_hash(list(reversed(mixed)))
    assert normalize_commands(mixed) == [
        {"type": "emit", "topic": "doc.processed", "payload": {"id": 1}},
        {"type": "invoke", "step": "enrich", "input": {"id": 1}},
        {"type": "invoke", "step": "validate", "input": {"id": 1}},
        {"type": "review", "reason": "check totals"},
    ]


def test_locale_compare_matches_javascript_on_stored_strings() -> None:
    expected = json.loads((DATA / "verist_locale_compare.json").read_text(encoding="utf-8"))
    order: list[str] = expected["sorted"]
    shuffled = order[:]
    random.Random(7).shuffle(shuffled)
    assert sorted(shuffled, key=cmp_to_key(snap._locale_compare)) == order


# --- load_output --------------------------------------------------------------------------


def test_load_output_returns_verified_content() -> None:
    snapshot = create_snapshot_from_result(step_result(output={"score": 1}))
    result = load_output(snapshot)
    assert isinstance(result, Ok)
    assert result.value == {"output": {"score": 1}, "events": []}


def test_load_output_errors() -> None:
    no_output = create_snapshot("wf", "1", "extract", {}, [capture_artifact("llm-output", 1)])
    missing = load_output(no_output)
    assert isinstance(missing, Err) and missing.error.code == "MISSING_OUTPUT"
    assert missing.error.message == 'No step-output artifact in snapshot for step "extract"'

    hash_only = create_snapshot_from_result(step_result(), output_hash_only=True)
    result = load_output(hash_only)
    assert isinstance(result, Err) and result.error.code == "MISSING_OUTPUT"
    assert "hash-only" in result.error.message

    good = create_snapshot_from_result(step_result(output={"v": 1}))
    tampered = Snapshot(
        **{
            **{f: getattr(good, f) for f in Snapshot.__slots__},
            "artifacts": (Artifact(good.artifacts[0].hash, "step-output", {"output": {"v": 2}}),),
        }
    )
    corrupted = load_output(tampered)
    assert isinstance(corrupted, Err) and corrupted.error.code == "OUTPUT_CORRUPTED"
    assert corrupted.error.message.startswith('Output hash mismatch for step "process": expected ')

    unserializable = Snapshot("wf", "1", "s", {}, SHA, (Artifact(SHA, "step-output", object()),), 0)
    bad = load_output(unserializable)
    assert isinstance(bad, Err) and bad.error.code == "OUTPUT_CORRUPTED"


# --- compare_snapshots --------------------------------------------------------------------


def make_snapshot(
    input: Any, output: Any, commands: Any = MISSING, *, capture: bool = True
) -> Snapshot:
    return create_snapshot_from_result(
        step_result(input=input, output=output, commands=commands), capture_commands=capture
    )


def test_compare_snapshots_diffs_input_output_and_commands() -> None:
    a = make_snapshot({"id": 1}, {"score": 0.5}, [{"type": "invoke", "step": "x", "input": 1}])
    b = make_snapshot({"id": 2}, {"score": 0.7}, [{"type": "invoke", "step": "y", "input": 1}])
    input_diff, output_diff, commands_diff = compare_snapshots(a, b)
    assert input_diff.entries == (DiffEntry(("id",), 1, 2),)
    assert output_diff is not None
    assert output_diff.entries == (DiffEntry(("score",), 0.5, 0.7),)
    assert commands_diff is not None
    assert commands_diff.entries == (DiffEntry((0, "step"), "x", "y"),)
    same = compare_snapshots(a, a)
    assert same.input_diff.equal and same.output_diff is not None and same.output_diff.equal


def test_compare_snapshots_without_comparable_output_or_commands() -> None:
    a = make_snapshot({}, {"v": 1})
    hidden = create_snapshot_from_result(step_result(output={"v": 1}), output_hash_only=True)
    comparison = compare_snapshots(a, hidden)
    assert comparison.output_diff is None  # hash-only: nothing to compare
    assert comparison.commands_diff is None  # neither side has commands


def test_compare_snapshots_falls_back_to_commands_inside_step_output() -> None:
    commands_a = [{"type": "emit", "topic": "b", "payload": 1}, {"type": "emit", "topic": "a"}]
    commands_b = [{"type": "emit", "topic": "a"}, {"type": "emit", "topic": "b", "payload": 2}]
    a = make_snapshot({}, {}, commands_a, capture=False)
    b = make_snapshot({}, {}, commands_b, capture=False)
    assert a.artifact("step-commands") is None
    comparison = compare_snapshots(a, b)
    assert comparison.commands_diff is not None
    assert comparison.commands_diff.entries == (DiffEntry((1, "payload"), 1, 2),)


def test_compare_snapshots_key_by() -> None:
    a = make_snapshot({}, {"entities": [{"id": "e1", "c": 0.9}, {"id": "e2", "c": 0.8}]})
    b = make_snapshot({}, {"entities": [{"id": "e2", "c": 0.7}, {"id": "e1", "c": 0.9}]})
    by_index = compare_snapshots(a, b).output_diff
    assert by_index is not None and len(by_index.entries) == 4
    keyed = compare_snapshots(a, b, key_by={"entities": "id"}).output_diff
    assert keyed is not None
    assert keyed.entries == (DiffEntry(("entities", "e2", "c"), 0.8, 0.7),)
    dup = make_snapshot({}, {"entities": [{"id": "e1"}, {"id": "e1"}]})
    with pytest.raises(DiffError, match='duplicate key "e1" in entities'):
        compare_snapshots(a, dup, key_by={"entities": "id"})


# --- recompute ----------------------------------------------------------------------------


def test_recompute_clean_and_changed() -> None:
    baseline = make_snapshot({"n": 2}, {"double": 4})
    clean = recompute(baseline, lambda inp: {"output": {"double": inp["n"] * 2}})
    assert isinstance(clean, Ok)
    assert clean.value.status == "clean" and clean.value.comparable
    changed = recompute(baseline, lambda inp: {"output": {"double": 5}}, capture_artifacts=True)
    assert isinstance(changed, Ok)
    assert changed.value.status == "value_changed"
    assert changed.value.output_diff is not None
    assert changed.value.output_diff.entries == (DiffEntry(("double",), 4, 5),)
    assert changed.value.output_artifact is not None
    assert changed.value.output_artifact.content == {"output": {"double": 5}, "events": []}


def test_recompute_checks_the_input_hash_first() -> None:
    baseline = make_snapshot({"n": 2}, {"double": 4})
    tampered = Snapshot(
        **{**{f: getattr(baseline, f) for f in Snapshot.__slots__}, "input": {"n": 3}}
    )
    calls: list[Any] = []
    result = recompute(tampered, lambda inp: calls.append(inp) or {"output": {}})
    assert isinstance(result, Err)
    assert result.error.code == "input_hash_mismatch"
    assert result.error.message.startswith(f"Input hash mismatch: expected {baseline.input_hash}")
    assert calls == []  # the step never ran


def test_recompute_errors_are_values() -> None:
    baseline = make_snapshot({"n": 2}, {"items": [{"id": "a"}]})

    def boom(_: Any) -> Any:
        raise RuntimeError("adapter down")

    failed = recompute(baseline, boom)
    assert isinstance(failed, Err) and failed.error.code == "execution_failed"
    assert failed.error.message == "adapter down"
    not_mapping = recompute(baseline, lambda _: 42)
    assert isinstance(not_mapping, Err) and not_mapping.error.code == "execution_failed"
    dup = recompute(
        baseline,
        lambda _: {"output": {"items": [{"id": "b"}, {"id": "b"}]}},
        key_by={"items": "id"},
    )
    assert isinstance(dup, Err) and dup.error.code == "normalization_failed"


def test_recompute_step_object_with_key_by_and_commands() -> None:
    baseline = make_snapshot(
        {},
        {"items": [{"id": "a", "v": 1}, {"id": "b", "v": 2}]},
        [{"type": "review", "reason": "r"}],
    )

    class Step:
        name = "process"
        key_by = {"items": "id"}  # noqa: RUF012

        def run(self, _: Any) -> dict[str, Any]:
            return {
                "output": {"items": [{"id": "b", "v": 2}, {"id": "a", "v": 1}]},
                "commands": [{"type": "review", "reason": "other"}],
            }

    result = recompute(baseline, Step())
    assert isinstance(result, Ok)
    assert result.value.status == "clean"
    assert result.value.commands_diff is not None
    assert result.value.commands_diff.entries == (DiffEntry((0, "reason"), "r", "other"),)


def test_recompute_accepts_a_step_result() -> None:
    result = recompute(step_result(output={"v": 1}), lambda _: {"output": {"v": 1}})
    assert isinstance(result, Ok) and result.value.status == "clean"


# --- Verist baseline files ----------------------------------------------------------------


def test_real_verist_baseline_verifies() -> None:
    baseline = load_baseline(BASELINE)
    assert baseline.problems == ()
    assert baseline.metadata["label"] == "golden"
    checks = baseline.verify()
    assert [(c.target, c.kind, c.status) for c in checks] == [
        ("input", "(input)", "ok"),
        ("artifacts[0]", "step-output", "ok"),
        ("artifacts[1]", "step-commands", "ok"),
        ("artifacts[2]", "llm-output", "ok"),
        ("artifacts[3]", "llm-input", "hash_only"),
    ]
    assert all(c.ok for c in checks[:4])
    assert isinstance(load_output(baseline.snapshot), Ok)
    # The file is named the way Verist's CLI names it.
    assert baseline_filename(baseline.metadata["inputPath"], baseline.snapshot.input_hash) == (
        BASELINE.name
    )
    assert baseline_path(BASELINE_ROOT, baseline.snapshot, baseline.metadata["inputPath"]) == (
        BASELINE
    )


def tampered_copy(tmp_path: Path, old: str, new: str) -> Path:
    text = BASELINE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / BASELINE.name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_tampered_baseline_reports_which_hash_fails(tmp_path: Path) -> None:
    checks = load_baseline(tampered_copy(tmp_path, '"John"', '"Jon"')).verify()
    status = {c.target: c.status for c in checks}
    assert status == {
        "input": "ok",
        "artifacts[0]": "mismatch",
        "artifacts[1]": "ok",
        "artifacts[2]": "ok",
        "artifacts[3]": "hash_only",
    }
    mismatch = checks[1]
    assert mismatch.actual is not None and mismatch.actual != mismatch.expected
    assert mismatch.message == f"expected {mismatch.expected}, got {mismatch.actual}"
    input_checks = load_baseline(tampered_copy(tmp_path, '"doc-123",', '"doc-124",')).verify()
    assert input_checks[0].status == "mismatch"


def test_reformatting_a_baseline_keeps_its_hashes(tmp_path: Path) -> None:
    # Re-serialising changes number tokens (2.0 -> 2, 1E21 -> 1e+21) but not the values.
    doc = json.loads(BASELINE.read_text(encoding="utf-8"))
    path = tmp_path / "reformatted.json"
    path.write_text(json.dumps(doc, indent=4, sort_keys=True), encoding="utf-8")
    assert [c.status for c in load_baseline(path).verify()][:4] == ["ok"] * 4


def test_load_snapshot_reads_baselines_and_bare_snapshots(tmp_path: Path) -> None:
    from_baseline = load_snapshot(BASELINE)
    assert from_baseline.step_name == "extract"
    bare = save_snapshot(from_baseline, tmp_path / "bare.json")
    again = load_snapshot(bare)
    assert again.to_json() == from_baseline.to_json()
    assert [c.status for c in verify_snapshot(again)][:4] == ["ok"] * 4


def test_baseline_structure_rules(tmp_path: Path) -> None:
    doc = json.loads(BASELINE.read_text(encoding="utf-8"))
    doc["snapshot"]["artifacts"].append(dict(doc["snapshot"]["artifacts"][0]))
    path = tmp_path / "two-outputs.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    tolerant = load_baseline(path)
    assert tolerant.problems == (
        f"Baseline file {path} must contain exactly one step-output artifact, got 2",
    )
    with pytest.raises(SnapshotError, match="exactly one step-output artifact, got 2"):
        load_baseline(path, strict=True)


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


def test_baseline_filename_normalizes_names() -> None:
    digest = "sha256:abcdef0123456789"
    assert baseline_filename("inputs/Crème Brûlée.JSON", digest) == "creme-brulee-abcdef01.json"
    assert baseline_filename("C:\\data\\--x--.json", digest) == "x-abcdef01.json"
    assert baseline_filename(".hidden", digest) == "hidden-abcdef01.json"
    assert baseline_filename("???.json", digest) == "input-abcdef01.json"
    assert baseline_filename("a" * 100 + ".json", digest) == "a" * 64 + "-abcdef01.json"


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
