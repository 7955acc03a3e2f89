"""Re-hashing a snapshot's input and artifacts the way Verist computes them, and a saved
snapshot or baseline file's check for ``verify``."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, TypeAlias

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

    @property
    def ok(self) -> bool:
        return all(check.status in ("ok", "hash_only") for check in self.checks)

    @property
    def failed(self) -> tuple[ArtifactCheck, ...]:
        return tuple(c for c in self.checks if c.status in ("mismatch", "unhashable"))

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
        }


def check_snapshot_file(path: str | os.PathLike[str]) -> SnapshotFileReport | None:
    """``path`` re-hashed as a snapshot or ``verist-baseline@1`` file, or None when it is
    not one (or cannot be read: its reader says why elsewhere)."""
    p = Path(path)
    try:
        document = read_json_file(p, "File")
        if isinstance(document, dict) and "format" in document:
            snapshot, _, problems = unwrap_baseline(document, p)
            kind: Literal["snapshot", "baseline"] = "baseline"
        else:
            snapshot, problems, kind = (
                Snapshot.from_json(document, f"Snapshot in {p}"),
                [],
                "snapshot",
            )
    except SnapshotError:
        return None
    return SnapshotFileReport(str(p), kind, tuple(verify_snapshot(snapshot)), tuple(problems))
