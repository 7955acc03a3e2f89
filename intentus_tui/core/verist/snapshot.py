"""Verist snapshots: the model, how one is made, read and written.

Verist's API, in Python:

- ``capture_artifact(kind, value, hash_only=False)``, ``create_snapshot`` and
  ``create_snapshot_from_result`` (captures a ``step-commands`` artifact when the step returned
  commands); hashes are Verist's canonical form (``core.verist.hashing``).
- ``snapshot_from_record`` turns an IntentusNet execution record into a snapshot (input = the
  envelope, ``step-output`` = the final response and the events).
- ``load_snapshot`` reads a bare snapshot file or a ``verist-baseline@1`` file (Verist's CLI
  format, ``{"format", "snapshot", "metadata"}``); ``save_snapshot`` writes either, atomically,
  so a user can pin a known-good execution and compare later ones with it.

Reading a file never follows a symlink out of its directory, never blocks on a FIFO and
raises ``SnapshotError`` with a message meant for the user, never a raw exception. Errors
are values where Verist returns ``Result`` (``Ok`` / ``Err``).
Values are plain JSON values plus ``MISSING`` (JavaScript ``undefined``).
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, Literal, TypeVar

from intentus_tui.core.fsio import (
    NotRegularFileError,
    OutsideLinkError,
    atomic_write,
    read_regular_file,
)
from intentus_tui.core.json_indent import dumps_indented
from intentus_tui.core.records.load import json_damage
from intentus_tui.core.verist.commands import normalize_commands
from intentus_tui.core.verist.hashing import hash_value
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import is_number

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
            out["content"] = to_plain_json(self.content)
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
            out["input"] = to_plain_json(self.input)
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
        if not is_number(captured_at):
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
# Reading
# --------------------------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def read_json_file(path: Path, what: str, max_bytes: int = DEFAULT_MAX_BYTES) -> Any:
    """The JSON document in ``path`` (``what`` names it in messages); ``SnapshotError`` if none."""
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
    bom = 3 if text.startswith("\ufeff") else 0
    text = text[1:] if bom else text
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise SnapshotError(f"{what} {path} is nested too deeply to read") from None
    except json.JSONDecodeError as exc:
        damage = json_damage(text, exc, len(data) - bom)
        if damage.truncated:  # in a record's words: where the file ends, and what it lacks
            damage = damage._replace(offset=damage.offset + bom)
            raise SnapshotError(f"{what} {path} is cut short: {damage.describe()}") from None
        raise SnapshotError(
            f"Invalid JSON in {what} {path}: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError as exc:
        raise SnapshotError(f"Invalid JSON in {what} {path}: {exc}") from None


def artifact_problems(snapshot: Snapshot, context: str) -> list[str]:
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


def unwrap_baseline(obj: Any, path: Path) -> tuple[Snapshot, dict[str, Any], list[str]]:
    """The snapshot, metadata and rule problems of a parsed ``verist-baseline@1`` document."""
    if not isinstance(obj, dict):
        raise SnapshotError(f"Baseline file does not contain an object: {path}")
    if obj.get("format") != BASELINE_FORMAT:
        shown = obj.get("format", "(missing)")
        raise SnapshotError(f'Unsupported baseline format "{shown}". Expected "{BASELINE_FORMAT}".')
    raw = obj.get("snapshot")
    if not isinstance(raw, dict):
        raise SnapshotError(f'Baseline file missing "snapshot" field: {path}')
    snapshot = Snapshot.from_json(raw, f"Baseline snapshot in {path}")
    problems = artifact_problems(snapshot, f"Baseline file {path}")
    metadata = obj.get("metadata")
    return snapshot, metadata if isinstance(metadata, dict) else {}, problems


def load_snapshot(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES, what: str = "Snapshot file"
) -> Snapshot:
    """Read a bare snapshot JSON file or a ``verist-baseline@1`` file. ``what`` names the
    file in a problem reading it ("File" where it may as well be a record)."""
    return load_snapshot_or_baseline(path, max_bytes=max_bytes, what=what)[0]


def load_snapshot_or_baseline(
    path: str | os.PathLike[str], *, max_bytes: int = DEFAULT_MAX_BYTES, what: str = "Snapshot file"
) -> tuple[Snapshot, bool]:
    """``load_snapshot``, and whether the file was a ``verist-baseline@1`` one."""
    p = Path(path)
    obj = read_json_file(p, what, max_bytes)
    if isinstance(obj, dict) and "format" in obj:
        return unwrap_baseline(obj, p)[0], True
    return Snapshot.from_json(obj, f"Snapshot in {p}"), False


# --------------------------------------------------------------------------------------------
# Writing
# --------------------------------------------------------------------------------------------


def to_plain_json(value: Any) -> Any:
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
    problems = artifact_problems(snapshot, "Baseline snapshot")
    if problems:
        raise SnapshotError(problems[0])
    return {
        "format": BASELINE_FORMAT,
        "snapshot": snapshot.to_json(),
        "metadata": to_plain_json(dict(metadata)),
    }


def _encode(document: Any) -> bytes:
    try:
        text = dumps_indented(document) + "\n"
    except RecursionError:
        raise SnapshotError("it is nested too deeply to write as JSON") from None
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        # A lone surrogate: escape non-ASCII as JSON.stringify does for lone surrogates.
        return (dumps_indented(document, ensure_ascii=True) + "\n").encode("ascii")


def snapshot_bytes(snapshot: Snapshot, *, metadata: Mapping[str, Any] | None = None) -> bytes:
    """The file ``save_snapshot`` writes, as bytes."""
    return _encode(_snapshot_document(snapshot, metadata))


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
    data = snapshot_bytes(snapshot, metadata=metadata)
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
