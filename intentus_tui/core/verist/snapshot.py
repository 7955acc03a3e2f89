"""Verist snapshots and artifacts (seed 004, DESIGN 2.4), read and written from Python.

The seed's API, in Python:

- ``hash_value`` / ``hash_with_content``: Verist's canonical form (``stableStringify``: JavaScript
  key order and number formatting) hashed with SHA-256, as ``sha256:<hex>``.
- ``capture_artifact(kind, value, hash_only=False)``, ``create_snapshot``,
  ``create_snapshot_from_result`` (captures a ``step-commands`` artifact when the step returned
  commands), ``load_output`` (errors ``MISSING_OUTPUT`` / ``OUTPUT_CORRUPTED``),
  ``recompute(snapshot, step)`` (error ``input_hash_mismatch`` first) and
  ``compare_snapshots(a, b, key_by=None) -> (input_diff, output_diff, commands_diff)``.
- Verist's CLI baselines (``{"format": "verist-baseline@1", "snapshot", "metadata"}``):
  ``load_baseline`` reads one and ``Baseline.verify()`` re-hashes the input and every artifact
  with content exactly as Verist does, saying which ones match.
- ``snapshot_from_record`` turns an IntentusNet execution record into a snapshot (input = the
  envelope, ``step-output`` = the final response and the events), and ``save_snapshot`` writes
  one atomically, so a user can pin a known-good execution and compare later ones with it.

Errors are values where Verist returns ``Result`` (``Ok`` / ``Err``); reading files raises
``SnapshotError`` with a message meant for the user, never a raw exception.
Values are plain JSON values plus ``MISSING`` (JavaScript ``undefined``).
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cmp_to_key
from pathlib import Path
from typing import Any, Generic, Literal, NamedTuple, TypeAlias, TypeVar

from intentus_tui.core.fsio import (
    NotRegularFileError,
    OutsideLinkError,
    atomic_write,
    read_regular_file,
)
from intentus_tui.core.verist.diff import DiffError, DiffResult, KeyFn, diff
from intentus_tui.core.verist.diff import key_by as _key_by
from intentus_tui.core.verist.missing import MISSING

__all__ = [
    "BASELINE_FORMAT",
    "RESERVED_ARTIFACT_KINDS",
    "Artifact",
    "ArtifactCheck",
    "Baseline",
    "Err",
    "HashedContent",
    "LoadOutputError",
    "Ok",
    "RecomputeError",
    "RecomputeResult",
    "Snapshot",
    "SnapshotComparison",
    "SnapshotError",
    "StepResult",
    "baseline_filename",
    "baseline_path",
    "capture_artifact",
    "compare_snapshots",
    "create_snapshot",
    "create_snapshot_from_result",
    "hash_value",
    "hash_with_content",
    "load_baseline",
    "load_output",
    "load_snapshot",
    "normalize_commands",
    "normalize_name",
    "recompute",
    "save_snapshot",
    "snapshot_from_record",
    "verify_snapshot",
]

BASELINE_FORMAT = "verist-baseline@1"
STEP_OUTPUT = "step-output"
STEP_COMMANDS = "step-commands"
RESERVED_ARTIFACT_KINDS: frozenset[str] = frozenset({STEP_OUTPUT, STEP_COMMANDS})
# Opaque (user-defined) kind holding an IntentusNet record's header and router decision.
RECORD_HEADER_KIND = "intentusnet-record-header"

DEFAULT_MAX_BYTES = 512 * 1024 * 1024

T = TypeVar("T")
E = TypeVar("E")


class SnapshotError(ValueError):
    """A snapshot or baseline cannot be read, built or written; the message says why."""


@dataclass(frozen=True, slots=True)
class Ok(Generic[T]):
    value: T
    ok: Literal[True] = True


@dataclass(frozen=True, slots=True)
class Err(Generic[E]):
    error: E
    ok: Literal[False] = False


# --------------------------------------------------------------------------------------------
# Hashing (Verist's canonical form lives in hashing.py)
# --------------------------------------------------------------------------------------------


def _verist_stringify(value: Any) -> str:
    from intentus_tui.core.records import hashing

    stringify: Callable[[Any], str] = getattr(hashing, "verist_stringify")  # noqa: B009
    return stringify(value)


def hash_value(value: Any) -> str:
    """Verist's ``hashValue``: ``"sha256:" + hex(sha256(utf8(stableStringify(value))))``."""
    from intentus_tui.core.records import hashing

    hasher: Callable[[Any], str] = getattr(hashing, "verist_hash_value")  # noqa: B009
    return hasher(value)


@dataclass(frozen=True, slots=True)
class HashedContent:
    hash: str
    content: str  # the canonical JSON text that was hashed


def hash_with_content(value: Any) -> HashedContent:
    """Verist's ``hashWithContent``: the hash and the canonical text it was computed over."""
    content = _verist_stringify(value)
    digest = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()
    return HashedContent("sha256:" + digest, content)


def _try_hash(value: Any) -> tuple[str | None, str | None]:
    """(hash, None) or (None, reason) when the value cannot be put in canonical form."""
    try:
        return hash_value(value), None
    except RecursionError:
        return None, "nested too deeply to hash"
    except (TypeError, ValueError, OverflowError) as exc:
        return None, f"not serializable: {exc}"


# --------------------------------------------------------------------------------------------
# Artifacts and snapshots
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Artifact:
    """``{hash, kind, content?}``; ``content`` is ``MISSING`` for a hash-only capture."""

    hash: str
    kind: str
    content: Any = MISSING

    @property
    def hash_only(self) -> bool:
        return self.content is MISSING

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hash": self.hash, "kind": self.kind}
        if self.content is not MISSING:
            out["content"] = _to_plain_json(self.content)
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "artifact") -> Artifact:
        if not isinstance(obj, dict):
            raise SnapshotError(f"{where} is not an object")
        hash_ = obj.get("hash")
        kind = obj.get("kind")
        if not isinstance(hash_, str):
            raise SnapshotError(f'{where} has no "hash" string')
        if not isinstance(kind, str):
            raise SnapshotError(f'{where} has no "kind" string')
        return cls(hash_, kind, obj.get("content", MISSING))


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A Verist snapshot. ``captured_at`` is Unix time in milliseconds."""

    workflow_id: str
    workflow_version: str
    step_name: str
    input: Any
    input_hash: str
    artifacts: tuple[Artifact, ...]
    captured_at: int | float

    def artifact(self, kind: str) -> Artifact | None:
        """The first artifact of ``kind`` (when several share a kind, the first one wins)."""
        for artifact in self.artifacts:
            if artifact.kind == kind:
                return artifact
        return None

    @property
    def step_output(self) -> Artifact | None:
        return self.artifact(STEP_OUTPUT)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "workflowId": self.workflow_id,
            "workflowVersion": self.workflow_version,
            "stepName": self.step_name,
        }
        if self.input is not MISSING:
            out["input"] = _to_plain_json(self.input)
        out["inputHash"] = self.input_hash
        out["artifacts"] = [a.to_json() for a in self.artifacts]
        out["capturedAt"] = _plain_scalar(self.captured_at)
        return out

    @classmethod
    def from_json(cls, obj: Any, where: str = "snapshot") -> Snapshot:
        """Parse a snapshot object. Verist requires ``stepName``, ``inputHash`` and
        ``artifacts``; the other fields are read leniently (a missing id reads as "")."""
        if not isinstance(obj, dict):
            raise SnapshotError(f"{where} is not an object")
        step_name = obj.get("stepName")
        input_hash = obj.get("inputHash")
        artifacts = obj.get("artifacts")
        if not isinstance(step_name, str):
            raise SnapshotError(f'{where} is missing "stepName"')
        if not isinstance(input_hash, str):
            raise SnapshotError(f'{where} is missing "inputHash"')
        if not isinstance(artifacts, list):
            raise SnapshotError(f'{where} has invalid "artifacts" (expected an array)')
        captured_at = obj.get("capturedAt", 0)
        if not _is_number(captured_at):
            captured_at = 0
        return cls(
            workflow_id=_str_or_empty(obj.get("workflowId")),
            workflow_version=_str_or_empty(obj.get("workflowVersion")),
            step_name=step_name,
            input=obj.get("input", MISSING),
            input_hash=input_hash,
            artifacts=tuple(
                Artifact.from_json(a, f"{where}.artifacts[{i}]") for i, a in enumerate(artifacts)
            ),
            captured_at=captured_at,
        )


def _str_or_empty(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def capture_artifact(kind: str, value: Any, hash_only: bool = False) -> Artifact:
    """Verist's ``captureArtifact``: hash the value; keep the content unless ``hash_only``."""
    digest = hash_value(value)
    return Artifact(digest, kind) if hash_only else Artifact(digest, kind, value)


def create_snapshot(
    workflow_id: str,
    workflow_version: str,
    step_name: str,
    input: Any,
    artifacts: Iterable[Artifact] = (),
    *,
    captured_at: int | float | None = None,
) -> Snapshot:
    """Verist's ``createSnapshot``: computes ``inputHash``; ``capturedAt`` defaults to now."""
    return Snapshot(
        workflow_id=workflow_id,
        workflow_version=workflow_version,
        step_name=step_name,
        input=input,
        input_hash=hash_value(input),
        artifacts=tuple(artifacts),
        captured_at=_now_ms() if captured_at is None else captured_at,
    )


@dataclass(frozen=True, slots=True)
class StepResult:
    """What a step run returns, as ``createSnapshotFromResult`` consumes it."""

    workflow_id: str
    workflow_version: str
    step_name: str
    input: Any
    output: Any
    events: Any = MISSING
    commands: Any = MISSING


def create_snapshot_from_result(
    result: StepResult,
    *,
    output_hash_only: bool = False,
    capture_commands: bool = True,
    commands_hash_only: bool = False,
    artifacts: Iterable[Artifact] = (),
    captured_at: int | float | None = None,
) -> Snapshot:
    """Verist's ``createSnapshotFromResult``.

    The ``step-output`` artifact holds ``{output, events, commands}`` (events default to ``[]``;
    undefined commands are left out). When commands are present and ``capture_commands`` is
    true, a ``step-commands`` artifact holds their normalized form. Extra ``artifacts`` may not
    use a reserved kind.
    """
    events = [] if result.events is MISSING or result.events is None else result.events
    step_output: dict[str, Any] = {"output": result.output, "events": events}
    if result.commands is not MISSING:
        step_output["commands"] = result.commands
    captured = [capture_artifact(STEP_OUTPUT, step_output, hash_only=output_hash_only)]
    commands = result.commands
    if isinstance(commands, list) and commands and capture_commands:
        normalized = normalize_commands(commands)
        captured.append(capture_artifact(STEP_COMMANDS, normalized, hash_only=commands_hash_only))
    extra = list(artifacts)
    for artifact in extra:
        if artifact.kind in RESERVED_ARTIFACT_KINDS:
            raise SnapshotError(
                f'Artifact kind "{artifact.kind}" is reserved by the kernel. '
                'Use a domain-specific kind (e.g. "llm-response", "pdf-source").'
            )
    return create_snapshot(
        result.workflow_id,
        result.workflow_version,
        result.step_name,
        result.input,
        [*captured, *extra],
        captured_at=captured_at,
    )


# --------------------------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------------------------

# The fields that define each command's meaning; runner metadata is dropped.
_COMMAND_FIELDS: dict[str, tuple[str, ...]] = {
    "invoke": ("type", "step", "input"),
    "fanout": ("type", "step", "inputs"),
    "emit": ("type", "topic", "payload"),
    "review": ("type", "reason", "payload"),
    "suspend": ("type", "reason", "checkpoint", "resumeStep"),
}


def _semantic_fields(command: Any) -> Any:
    kind = command.get("type") if isinstance(command, dict) else None
    fields = _COMMAND_FIELDS.get(kind) if isinstance(kind, str) else None
    if fields is None:
        return MISSING  # Verist's switch has no default: unknown commands project to undefined
    return {f: command[f] for f in fields if command.get(f, MISSING) is not MISSING}


def normalize_commands(commands: Sequence[Any] | None) -> list[Any]:
    """Verist's ``normalizeCommands``: semantic projections sorted by type, then step/topic,
    then canonical JSON, each compared as ``localeCompare`` does (see ``_locale_compare``)."""
    if not commands:
        return []

    def compare(x: Any, y: Any) -> int:
        tx, ty = _field(x, "type"), _field(y, "type")
        if tx != ty:
            return _locale_compare(tx, ty)
        if tx in ("invoke", "fanout"):
            c = _locale_compare(_field(x, "step"), _field(y, "step"))
        elif tx == "emit":
            c = _locale_compare(_field(x, "topic"), _field(y, "topic"))
        else:
            c = 0
        if c:
            return c
        return _locale_compare(
            _verist_stringify(_semantic_fields(x)), _verist_stringify(_semantic_fields(y))
        )

    return [_semantic_fields(c) for c in sorted(commands, key=cmp_to_key(compare))]


def _field(command: Any, name: str) -> str:
    value = command.get(name) if isinstance(command, dict) else None
    return value if isinstance(value, str) else str(value)


# ICU root collation, approximated for the strings commands are sorted by (identifiers and
# canonical JSON): whitespace < punctuation (in CLDR's order) < symbols < digits < letters;
# letters compare by base letter first, then accents, then case (lowercase first).
_PUNCT_ORDER = "_-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$"
_PUNCT_RANK = {c: i for i, c in enumerate(_PUNCT_ORDER)}
_EXPANSIONS = {"ß": "ss", "æ": "ae", "Æ": "AE", "œ": "oe", "Œ": "OE", "ø": "o", "Ø": "O"}

_CollationKey: TypeAlias = tuple[tuple[tuple[int, str], ...], tuple[str, ...], tuple[int, ...]]


def _collation_key(text: str) -> _CollationKey:
    primary: list[tuple[int, str]] = []
    accents: list[str] = []
    case: list[int] = []
    expanded = "".join(_EXPANSIONS.get(ch, ch) for ch in text)
    for ch in unicodedata.normalize("NFD", expanded):
        if unicodedata.combining(ch):
            if accents:
                accents[-1] += ch
            continue
        if ch.isspace():
            primary.append((0, ch))
        elif ch in _PUNCT_RANK:
            primary.append((1, chr(_PUNCT_RANK[ch])))
        elif ch.isdigit():
            primary.append((3, ch))
        elif ch.isalpha():
            primary.append((4, ch.casefold()))
            accents.append("")
            case.append(1 if ch.isupper() else 0)
        else:
            primary.append((2, ch))
    return tuple(primary), tuple(accents), tuple(case)


def _locale_compare(x: str, y: str) -> int:
    """An approximation of JavaScript's default ``String.prototype.localeCompare``."""
    kx, ky = _collation_key(x), _collation_key(y)
    if kx != ky:
        return -1 if kx < ky else 1
    if x != y:
        return -1 if x < y else 1
    return 0


# --------------------------------------------------------------------------------------------
# load_output, recompute, compare_snapshots
# --------------------------------------------------------------------------------------------


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
    actual, problem = _try_hash(artifact.content)
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
        output_diff = diff(_key_by(before["output"], paths), _key_by(after["output"], paths))
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
    current, problem = _try_hash(snapshot.input)
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
            output_diff = diff(_key_by(original["output"], paths), _key_by(new_output, paths))
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


# --------------------------------------------------------------------------------------------
# Verification
# --------------------------------------------------------------------------------------------

CheckStatus: TypeAlias = Literal["ok", "mismatch", "hash_only", "unhashable"]
_SHA256 = re.compile(r"sha256:[0-9a-f]{64}")


@dataclass(frozen=True, slots=True)
class ArtifactCheck:
    """One hash check. ``target`` is ``"input"`` or ``"artifacts[i]"``."""

    target: str
    kind: str
    expected: str
    actual: str | None
    status: CheckStatus
    message: str

    @property
    def ok(self) -> bool:
        return self.status == "ok"


def verify_snapshot(snapshot: Snapshot) -> list[ArtifactCheck]:
    """Re-hash the input and every artifact that has content, the way Verist computes them."""
    checks = [_check("input", "(input)", snapshot.input_hash, snapshot.input)]
    for i, artifact in enumerate(snapshot.artifacts):
        checks.append(_check(f"artifacts[{i}]", artifact.kind, artifact.hash, artifact.content))
    return checks


def _check(target: str, kind: str, expected: str, value: Any) -> ArtifactCheck:
    if value is MISSING and target != "input":
        return ArtifactCheck(
            target, kind, expected, None, "hash_only", "hash only: no content to verify"
        )
    actual, problem = _try_hash(value)
    if actual is None:
        return ArtifactCheck(target, kind, expected, None, "unhashable", f"content is {problem}")
    if actual == expected:
        return ArtifactCheck(target, kind, expected, actual, "ok", "hash matches")
    note = "" if _SHA256.fullmatch(expected) else " (stored value is not a sha256:<hex> hash)"
    return ArtifactCheck(
        target, kind, expected, actual, "mismatch", f"expected {expected}, got {actual}{note}"
    )


# --------------------------------------------------------------------------------------------
# Reading files
# --------------------------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _read_json(path: Path, what: str, max_bytes: int) -> Any:
    try:
        data, _ = read_regular_file(path, limit=max_bytes + 1)
    except NotRegularFileError as exc:
        shown = "a directory, not a file" if exc.kind == "a directory" else "not a regular file"
        raise SnapshotError(f"{what} {path} is {shown}") from None
    except OutsideLinkError as exc:
        raise SnapshotError(f"{what} {path} refused: {exc.strerror}") from None
    except FileNotFoundError:
        raise SnapshotError(f"{what} not found: {path}") from None
    except PermissionError:
        raise SnapshotError(f"{what} {path}: permission denied") from None
    except OSError as exc:
        raise SnapshotError(f"{what} {path} cannot be read: {exc.strerror or exc}") from None
    if len(data) > max_bytes:
        raise SnapshotError(f"{what} {path} is larger than {max_bytes} bytes")
    if not data.strip():
        raise SnapshotError(f"{what} {path} is empty")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SnapshotError(
            f"{what} {path} is not UTF-8 (bad byte at offset {exc.start})"
        ) from None
    text = text.removeprefix("\ufeff")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise SnapshotError(f"{what} {path} is nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        raise SnapshotError(
            f"Invalid JSON in {what} {path}: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:
        raise SnapshotError(f"Invalid JSON in {what} {path}: {exc}") from None


@dataclass(frozen=True)
class Baseline:
    """A ``verist-baseline@1`` file: a snapshot plus the CLI's metadata."""

    path: Path
    snapshot: Snapshot
    metadata: dict[str, Any]
    # Rules Verist's readBaseline enforces that this file breaks (empty when it conforms).
    problems: tuple[str, ...] = field(default=())

    def verify(self) -> list[ArtifactCheck]:
        return verify_snapshot(self.snapshot)


def _artifact_problems(snapshot: Snapshot, context: str) -> list[str]:
    problems = []
    outputs = sum(1 for a in snapshot.artifacts if a.kind == STEP_OUTPUT)
    if outputs != 1:
        problems.append(f"{context} must contain exactly one step-output artifact, got {outputs}")
    commands = sum(1 for a in snapshot.artifacts if a.kind == STEP_COMMANDS)
    if commands > 1:
        problems.append(
            f"{context} must contain at most one step-commands artifact, got {commands}"
        )
    return problems


def _baseline_from_json(obj: Any, path: Path, strict: bool) -> Baseline:
    if not isinstance(obj, dict):
        raise SnapshotError(f"Baseline file does not contain an object: {path}")
    if obj.get("format") != BASELINE_FORMAT:
        shown = obj.get("format", "(missing)")
        raise SnapshotError(f'Unsupported baseline format "{shown}". Expected "{BASELINE_FORMAT}".')
    raw = obj.get("snapshot")
    if not isinstance(raw, dict):
        raise SnapshotError(f'Baseline file missing "snapshot" field: {path}')
    snapshot = Snapshot.from_json(raw, f"Baseline snapshot in {path}")
    problems = _artifact_problems(snapshot, f"Baseline file {path}")
    if strict and problems:
        raise SnapshotError(problems[0])
    metadata = obj.get("metadata")
    return Baseline(path, snapshot, metadata if isinstance(metadata, dict) else {}, tuple(problems))


def load_baseline(
    path: str | os.PathLike[str], *, strict: bool = False, max_bytes: int = DEFAULT_MAX_BYTES
) -> Baseline:
    """Read a ``verist-baseline@1`` file. Raises ``SnapshotError`` when it is not one.

    With ``strict`` it also refuses what Verist's CLI refuses (not exactly one step-output,
    several step-commands); otherwise those are listed in ``Baseline.problems``.
    """
    p = Path(path)
    return _baseline_from_json(_read_json(p, "Baseline file", max_bytes), p, strict)


def load_snapshot(path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES) -> Snapshot:
    """Read a bare snapshot JSON file or a ``verist-baseline@1`` file."""
    p = Path(path)
    obj = _read_json(p, "Snapshot file", max_bytes)
    if isinstance(obj, dict) and "format" in obj:
        return _baseline_from_json(obj, p, strict=False).snapshot
    return Snapshot.from_json(obj, f"Snapshot in {p}")


# --------------------------------------------------------------------------------------------
# IntentusNet records -> snapshots
# --------------------------------------------------------------------------------------------


def snapshot_from_record(record_json: Mapping[str, Any]) -> Snapshot:
    """A snapshot of one IntentusNet execution record (its plain JSON dict).

    ``workflowId``/``workflowVersion`` are the intent's name and version, ``stepName`` is
    ``"route"``, ``input`` is the envelope and the ``step-output`` content is
    ``{"output": finalResponse, "events": events}`` (``output`` is left out when the record
    has no ``finalResponse`` key, so such a snapshot has no comparable output). The header and
    router decision are kept in an opaque ``intentusnet-record-header`` artifact.
    ``capturedAt`` is the record's ``createdUtcIso`` (0 when it has none).
    """
    if not isinstance(record_json, Mapping):
        raise SnapshotError("record is not a JSON object")
    envelope = record_json.get("envelope")
    if not isinstance(envelope, dict):
        raise SnapshotError('record has no "envelope" object')
    header = record_json.get("header")
    header = header if isinstance(header, dict) else {}
    intent = envelope.get("intent")
    intent = intent if isinstance(intent, dict) else {}
    name = intent.get("name")
    version = intent.get("version")
    events = record_json.get("events")
    step_output: dict[str, Any] = {}
    if "finalResponse" in record_json:
        step_output["output"] = record_json["finalResponse"]
    step_output["events"] = events if isinstance(events, list) else []
    header_content = {"header": header, "routerDecision": record_json.get("routerDecision")}
    try:
        artifacts = [
            capture_artifact(STEP_OUTPUT, step_output),
            capture_artifact(RECORD_HEADER_KIND, header_content),
        ]
        return create_snapshot(
            workflow_id=name if isinstance(name, str) and name else "intentusnet",
            workflow_version=str(version) if isinstance(version, str | int) else "unknown",
            step_name="route",
            input=envelope,
            artifacts=artifacts,
            captured_at=_iso_to_ms(header.get("createdUtcIso")),
        )
    except RecursionError:
        raise SnapshotError("record is nested too deeply to snapshot") from None
    except (TypeError, OverflowError) as exc:
        raise SnapshotError(f"record cannot be hashed: {exc}") from None


def _iso_to_ms(value: Any) -> int:
    if not isinstance(value, str):
        return 0
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return 0
    if moment.tzinfo is None:
        return 0  # a naive time would silently take the local zone
    return int(moment.timestamp() * 1000)


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def _to_plain_json(value: Any) -> Any:
    """What ``JSON.stringify`` would keep: undefined keys dropped, undefined/NaN/±Infinity in
    arrays (and NaN/±Infinity anywhere) become null. Iterative, so depth is not a problem."""
    if not isinstance(value, dict | list):
        return _plain_scalar(value)
    root: Any = {} if isinstance(value, dict) else []
    stack: list[tuple[Any, Any]] = [(value, root)]
    while stack:
        source, target = stack.pop()
        if isinstance(source, dict):
            for key, item in source.items():
                if item is MISSING:
                    continue
                target[key] = _plain_child(item, stack)
        else:
            for item in source:
                target.append(None if item is MISSING else _plain_child(item, stack))
    return root


def _plain_child(item: Any, stack: list[tuple[Any, Any]]) -> Any:
    if isinstance(item, dict | list):
        copy: Any = {} if isinstance(item, dict) else []
        stack.append((item, copy))
        return copy
    return _plain_scalar(item)


def _plain_scalar(value: Any) -> Any:
    if value is MISSING:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _snapshot_document(snapshot: Snapshot, metadata: Mapping[str, Any] | None) -> dict[str, Any]:
    if metadata is None:
        return snapshot.to_json()
    problems = _artifact_problems(snapshot, "Baseline snapshot")
    if problems:
        raise SnapshotError(problems[0])
    return {
        "format": BASELINE_FORMAT,
        "snapshot": snapshot.to_json(),
        "metadata": _to_plain_json(dict(metadata)),
    }


def _encode(document: Any) -> bytes:
    try:
        text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
    except RecursionError:
        raise SnapshotError("snapshot is nested too deeply to write as JSON") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate: escape non-ASCII as JSON.stringify does for lone surrogates.
        return (json.dumps(document, ensure_ascii=True, indent=2) + "\n").encode("ascii")


def save_snapshot(
    snapshot: Snapshot,
    path: str | os.PathLike[str],
    *,
    metadata: Mapping[str, Any] | None = None,
) -> Path:
    """Write ``snapshot`` to ``path`` atomically and return the path.

    With ``metadata`` the file is a ``verist-baseline@1`` wrapper (Verist's CLI format;
    exactly one step-output is then required), otherwise a bare snapshot. The bytes go to a
    ``.<name>.<random>.tmp`` file in the same directory, which is fsynced, renamed over
    ``path`` and followed by an fsync of the directory; a failure leaves ``path`` untouched.
    """
    target = Path(path)
    data = _encode(_snapshot_document(snapshot, metadata))
    if target.is_dir():
        raise SnapshotError(f"cannot save snapshot: {target} is a directory")
    directory = target.parent
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SnapshotError(f"cannot create {directory}: {exc.strerror or exc}") from None
    try:
        return atomic_write(target, data)
    except OSError as exc:
        raise SnapshotError(f"cannot save snapshot to {target}: {exc.strerror or exc}") from None


_UNSAFE_COMPONENT = re.compile(r"[/\\\x00]")


def _safe_component(value: str, what: str) -> str:
    if not value or value in (".", "..") or _UNSAFE_COMPONENT.search(value):
        raise SnapshotError(f"{what} {value!r} cannot be used as a directory name")
    return value


def normalize_name(name: str) -> str:
    """Verist's ``normalizeName`` for baseline file names."""
    text = unicodedata.normalize("NFKD", name)
    text = re.sub("[\u0300-\u036f]", "", text).lower()
    text = re.sub("[^a-z0-9]+", "-", text)
    text = re.sub("-{2,}", "-", text).strip("-")
    if len(text) > 64:
        text = text[:64].rstrip("-")
    return text or "input"


def baseline_filename(input_path: str, input_hash: str) -> str:
    """Verist's ``baselineFilename``: ``<normalized-name>-<first 8 hex of the hash>.json``."""
    base = re.split(r"[/\\]", input_path)[-1]
    dot = base.rfind(".")
    stem = base[:dot] if dot > 0 else base
    short = input_hash[len("sha256:") : len("sha256:") + 8]
    return f"{normalize_name(stem)}-{short}.json"


def baseline_path(root: str | os.PathLike[str], snapshot: Snapshot, input_path: str) -> Path:
    """Where Verist's CLI keeps this baseline under ``root``:
    ``.verist/baselines/<workflowId>/<version>/<step>/<name>-<hash8>.json``.
    Ids that would leave that directory (``..``, separators, NUL) are refused."""
    return (
        Path(root)
        / ".verist"
        / "baselines"
        / _safe_component(snapshot.workflow_id, "workflowId")
        / _safe_component(snapshot.workflow_version, "workflowVersion")
        / _safe_component(snapshot.step_name, "stepName")
        / baseline_filename(input_path, snapshot.input_hash)
    )
