"""load_output, compare_snapshots and recompute, as Verist defines them."""

from __future__ import annotations

from typing import Any

import pytest

from intentus_tui.core.verist.diff import DiffEntry, DiffError
from intentus_tui.core.verist.recompute import compare_snapshots, load_output, recompute
from intentus_tui.core.verist.snapshot import (
    Artifact,
    Err,
    Ok,
    Snapshot,
    capture_artifact,
    create_snapshot,
    create_snapshot_from_result,
)
from tests.core.verist.support import SHA, make_snapshot, step_result

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
