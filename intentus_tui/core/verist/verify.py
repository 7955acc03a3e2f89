"""Re-hashing a snapshot's input and artifacts the way Verist computes them, and a saved
snapshot or baseline file's check for ``verify``."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

from intentus_tui.core.fsio import NotRegularFileError, OutsideLinkError, read_regular_file
from intentus_tui.core.verist.hashing import try_hash
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.snapshot import (
    Snapshot,
    SnapshotError,
    read_json_file,
    unwrap_baseline,
)

CheckStatus: TypeAlias = Literal["ok", "mismatch", "hash_only", "unhashable"]
# What a snapshot or baseline whose content no longer hashes to what it recorded is said
# to be, wherever it is shown.
CHANGED_SINCE_SAVED = "changed since it was saved"
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


def changed_since_saved(snapshot: Snapshot) -> list[ArtifactCheck]:
    """The checks of ``snapshot`` whose content does not hash to what it recorded."""
    return [check for check in verify_snapshot(snapshot) if check.status == "mismatch"]


def _check(target: str, kind: str, expected: str, value: Any) -> ArtifactCheck:
    if value is MISSING and target != "input":
        return ArtifactCheck(
            target, kind, expected, None, "hash_only", "hash only: no content to verify"
        )
    actual, problem = try_hash(value)
    if actual is None:
        return ArtifactCheck(target, kind, expected, None, "unhashable", f"content is {problem}")
    if actual == expected:
        return ArtifactCheck(target, kind, expected, actual, "ok", "hash matches")
    note = "" if _SHA256.fullmatch(expected) else " (stored value is not a sha256:<hex> hash)"
    return ArtifactCheck(
        target, kind, expected, actual, "mismatch", f"expected {expected}, got {actual}{note}"
    )


@dataclass(frozen=True, slots=True)
class SnapshotFileReport:
    """A saved snapshot or baseline file, re-hashed: ``ok`` when every hash with content
    matches (a hash stored without content cannot be checked and is not a failure)."""

    path: str
    kind: Literal["snapshot", "baseline"]
    checks: tuple[ArtifactCheck, ...]
    # Rules of Verist's baseline reader the file breaks: said, not failures.
    problems: tuple[str, ...]
    # Why it cannot be read as one though it looks like one (a field Verist requires
    # missing): then nothing was checked, and it fails.
    invalid: str | None = None
    # It looks like one from its first bytes, but is no JSON document (cut short, empty of
    # all but its start, a NaN): ``invalid`` says why it cannot be read.
    unreadable: bool = False

    @property
    def ok(self) -> bool:
        return self.invalid is None and all(c.status in ("ok", "hash_only") for c in self.checks)

    @property
    def failed(self) -> tuple[ArtifactCheck, ...]:
        return tuple(c for c in self.checks if c.status in ("mismatch", "unhashable"))

    @property
    def changed(self) -> bool:
        """A hash it stored in Verist's form no longer matches its content; a stored value
        that is no ``sha256:<hex>`` hash at all proves no change, only that it cannot be
        checked."""
        return any(c.status == "mismatch" and _SHA256.fullmatch(c.expected) for c in self.checks)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "path": self.path,
            "ok": self.ok,
            "checks": [
                {
                    "target": c.target,
                    "artifact": c.kind,
                    "status": c.status,
                    "expected": c.expected,
                    "actual": c.actual,
                    "message": c.message,
                }
                for c in self.checks
            ],
            "problems": list(self.problems),
            "invalid": self.invalid,
        }


def check_snapshot_file(path: str | os.PathLike[str]) -> SnapshotFileReport | None:
    """``path`` re-hashed as a snapshot or ``verist-baseline@1`` file; one that looks like
    one (a baseline's ``format``, a snapshot's ``workflowId`` and ``artifacts``) but breaks
    a rule of Verist's reader, ``invalid``; None when it is neither (or cannot be read: its
    reader says why elsewhere)."""
    p = Path(path)
    try:
        document = read_json_file(p, "File")
    except SnapshotError as exc:
        return _unreadable_look_alike(p, exc)
    if not isinstance(document, dict):
        return None
    kind: Literal["snapshot", "baseline"] = "baseline" if "format" in document else "snapshot"
    try:
        if kind == "baseline":
            snapshot, _, problems = unwrap_baseline(document, p)
        else:
            snapshot, problems = Snapshot.from_json(document, f"Snapshot in {p}"), []
    except SnapshotError as exc:
        if kind == "snapshot" and not {"workflowId", "artifacts"} <= document.keys():
            return None  # not a snapshot at all: the record reader's word stands
        return SnapshotFileReport(str(p), kind, (), (), invalid=str(exc))
    return SnapshotFileReport(str(p), kind, tuple(verify_snapshot(snapshot)), tuple(problems))


# How a snapshot (``{"workflowId": ...``) or a baseline (``{"format": "verist-baseline@1"``)
# file begins, as Verist writes them: enough to call a file that cannot be read one.
_SNAPSHOT_START = re.compile(
    rb'\A(?:\xef\xbb\xbf)?\s*\{\s*"(?:(workflowId)"|format"\s*:\s*"verist-baseline@1")'
)


def _unreadable_look_alike(p: Path, exc: SnapshotError) -> SnapshotFileReport | None:
    """A file that begins as a snapshot or baseline does, yet cannot be read: a snapshot
    that fails (not a record to judge); None when it does not begin so, or cannot be read
    at all (its reader says why)."""
    try:
        head, _ = read_regular_file(p, limit=4096)
    except (OSError, OutsideLinkError, NotRegularFileError):
        return None
    start = _SNAPSHOT_START.match(head)
    if start is None:
        return None
    kind: Literal["snapshot", "baseline"] = "snapshot" if start.group(1) else "baseline"
    why = str(exc).replace(f"Invalid JSON in File {p}: ", "invalid JSON: ")
    why = why.removeprefix(f"File {p} is ").removeprefix(f"File {p} ")
    if why.startswith("cut short: "):  # as a record cut short is said
        why = f"the file is {why}"
    return SnapshotFileReport(str(p), kind, (), (), invalid=why, unreadable=True)
