"""Verist's checks of a snapshot against its step: ``load_output``, ``compare_snapshots``
and ``recompute`` (run the step again on the recorded input and diff the results)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple, TypeAlias

from intentus_tui.core.verist.commands import normalize_commands
from intentus_tui.core.verist.diff import DiffError, DiffResult, diff
from intentus_tui.core.verist.hashing import try_hash
from intentus_tui.core.verist.key_by import KeyFn
from intentus_tui.core.verist.key_by import key_by as apply_key_by
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.snapshot import (
    STEP_COMMANDS,
    STEP_OUTPUT,
    Artifact,
    Err,
    Ok,
    Snapshot,
    StepResult,
    capture_artifact,
    create_snapshot_from_result,
)


@dataclass(frozen=True, slots=True)
class LoadOutputError:
    code: Literal["MISSING_OUTPUT", "OUTPUT_CORRUPTED"]
    message: str


def load_output(snapshot: Snapshot) -> Ok[Any] | Err[LoadOutputError]:
    """Verist's ``loadOutput``: the stored ``step-output`` content, after checking its hash."""
    artifact = snapshot.step_output
    step = snapshot.step_name
    if artifact is None:
        return Err(
            LoadOutputError(
                "MISSING_OUTPUT", f'No step-output artifact in snapshot for step "{step}"'
            )
        )
    if artifact.content is MISSING:
        return Err(
            LoadOutputError(
                "MISSING_OUTPUT",
                f'Step output content not available (hash-only capture) for step "{step}"',
            )
        )
    actual, problem = try_hash(artifact.content)
    if actual is None:
        return Err(
            LoadOutputError(
                "OUTPUT_CORRUPTED",
                f'Cannot verify output integrity for step "{step}": content is {problem}',
            )
        )
    if actual != artifact.hash:
        return Err(
            LoadOutputError(
                "OUTPUT_CORRUPTED",
                f'Output hash mismatch for step "{step}": expected {artifact.hash}, got {actual}',
            )
        )
    return Ok(artifact.content)


class SnapshotComparison(NamedTuple):
    """``compareSnapshots``' result; unpacks as ``(input_diff, output_diff, commands_diff)``.

    ``output_diff`` is None when either snapshot has no ``step-output`` content with an
    ``output`` key (hash-only or malformed); ``commands_diff`` is None when either side has
    no commands.
    """

    input_diff: DiffResult
    output_diff: DiffResult | None
    commands_diff: DiffResult | None


def _step_output_content(snapshot: Snapshot) -> dict[str, Any] | None:
    artifact = snapshot.step_output
    if artifact is None:
        return None
    content = artifact.content
    if isinstance(content, dict) and "output" in content:
        return content
    return None


def _is_command_list(value: Any) -> bool:
    return isinstance(value, list) and all(
        isinstance(c, dict) and isinstance(c.get("type"), str) for c in value
    )


def _normalized_commands(snapshot: Snapshot) -> list[Any] | None:
    """``step-commands`` content (already normalized) or else step-output's commands."""
    artifact = snapshot.artifact(STEP_COMMANDS)
    if artifact is not None and _is_command_list(artifact.content):
        commands: list[Any] = artifact.content
        return commands
    content = _step_output_content(snapshot)
    if content is not None and _is_command_list(content.get("commands", MISSING)):
        return normalize_commands(content["commands"])
    return None


def compare_snapshots(
    original: Snapshot, updated: Snapshot, key_by: Mapping[str, KeyFn] | None = None
) -> SnapshotComparison:
    """Verist's ``compareSnapshots``: input, output and command diffs (events are not compared).

    ``key_by`` (dot-path -> key field) makes arrays in the outputs compare by identity; it
    raises ``DiffError`` on a duplicate or missing key, as Verist throws.
    """
    input_diff = diff(original.input, updated.input)
    before, after = _step_output_content(original), _step_output_content(updated)
    output_diff = None
    if before is not None and after is not None:
        paths = key_by or {}
        output_diff = diff(
            apply_key_by(before["output"], paths), apply_key_by(after["output"], paths)
        )
    commands_before = _normalized_commands(original)
    commands_after = _normalized_commands(updated)
    commands_diff = None
    if commands_before is not None and commands_after is not None:
        commands_diff = diff(commands_before, commands_after)
    return SnapshotComparison(input_diff, output_diff, commands_diff)


@dataclass(frozen=True, slots=True)
class RecomputeError:
    code: str  # input_hash_mismatch | execution_failed | normalization_failed
    message: str
    retryable: bool = False
    cause: BaseException | None = None


@dataclass(frozen=True, slots=True)
class RecomputeResult:
    raw_output: Any
    status: Literal["clean", "value_changed"]
    comparable: bool
    output_diff: DiffResult | None
    commands_diff: DiffResult | None
    output_artifact: Artifact | None = None


StepFn: TypeAlias = Callable[[Any], Any]


def recompute(
    baseline: Snapshot | StepResult,
    step: Any,
    *,
    key_by: Mapping[str, KeyFn] | None = None,
    capture_artifacts: bool = False,
    capture_hash_only: bool = False,
) -> Ok[RecomputeResult] | Err[RecomputeError]:
    """Verist's ``recompute``: run ``step`` again on the snapshot's input and diff the result.

    ``step`` is a callable ``input -> {"output", "events"?, "commands"?}`` or an object with
    such a ``run`` method (and optionally ``key_by`` and ``name``). The input hash is checked
    first (``input_hash_mismatch``). Schema validation (Verist's zod options) has no
    equivalent here. This executes the given Python callable; it is never used for replay.
    """
    snapshot = baseline if isinstance(baseline, Snapshot) else create_snapshot_from_result(baseline)
    current, problem = try_hash(snapshot.input)
    if current != snapshot.input_hash:
        shown = current if current is not None else f"(unhashable: {problem})"
        return Err(
            RecomputeError(
                "input_hash_mismatch",
                f"Input hash mismatch: expected {snapshot.input_hash}, got {shown}",
            )
        )
    run: StepFn = step.run if hasattr(step, "run") else step
    try:
        returned = run(snapshot.input)
    except Exception as exc:  # the step's own failure is reported as a value, like Verist
        return Err(RecomputeError("execution_failed", str(exc) or type(exc).__name__, cause=exc))
    if not isinstance(returned, Mapping):
        return Err(
            RecomputeError(
                "execution_failed",
                f'step returned {type(returned).__name__}, expected a mapping with an "output" key',
            )
        )
    new_output = returned.get("output", MISSING)
    original = _step_output_content(snapshot)
    comparable = original is not None
    output_diff = None
    if original is not None:
        paths = key_by if key_by is not None else getattr(step, "key_by", None) or {}
        try:
            output_diff = diff(
                apply_key_by(original["output"], paths), apply_key_by(new_output, paths)
            )
        except DiffError as exc:
            return Err(RecomputeError("normalization_failed", str(exc), cause=exc))
    original_commands = _normalized_commands(snapshot)
    commands_diff = None
    if original_commands is not None:
        new_commands = returned.get("commands")
        commands_diff = diff(
            original_commands,
            normalize_commands(new_commands if isinstance(new_commands, list) else None),
        )
    status: Literal["clean", "value_changed"] = (
        "value_changed" if output_diff is not None and not output_diff.equal else "clean"
    )
    artifact = None
    if capture_artifacts:
        content: dict[str, Any] = {
            "output": new_output,
            "events": returned.get("events", []),
        }
        if returned.get("commands", MISSING) is not MISSING:
            content["commands"] = returned["commands"]
        artifact = capture_artifact(STEP_OUTPUT, content, hash_only=capture_hash_only)
    return Ok(
        RecomputeResult(
            raw_output=new_output,
            status=status,
            comparable=comparable,
            output_diff=output_diff,
            commands_diff=commands_diff,
            output_artifact=artifact,
        )
    )
