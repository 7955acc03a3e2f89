"""Re-hashing a snapshot's input and artifacts the way Verist computes them."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, TypeAlias

from intentus_tui.core.verist.hashing import try_hash
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.snapshot import Snapshot

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
    actual, problem = try_hash(value)
    if actual is None:
        return ArtifactCheck(target, kind, expected, None, "unhashable", f"content is {problem}")
    if actual == expected:
        return ArtifactCheck(target, kind, expected, actual, "ok", "hash matches")
    note = "" if _SHA256.fullmatch(expected) else " (stored value is not a sha256:<hex> hash)"
    return ArtifactCheck(
        target, kind, expected, actual, "mismatch", f"expected {expected}, got {actual}{note}"
    )
