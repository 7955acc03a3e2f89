"""Verist CLI baselines: ``verist-baseline@1`` files and where ``.verist/baselines`` keeps them.

``load_baseline`` reads one and ``Baseline.verify()`` re-hashes the input and every artifact
with content exactly as Verist does, saying which ones match. ``baseline_path`` is where
Verist's CLI stores a baseline: ``.verist/baselines/<workflowId>/<version>/<step>/<file>``.
"""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from intentus_tui.core.verist.snapshot import (
    DEFAULT_MAX_BYTES,
    Snapshot,
    SnapshotError,
    read_json_file,
    unwrap_baseline,
)
from intentus_tui.core.verist.verify import ArtifactCheck, verify_snapshot


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


def load_baseline(
    path: str | os.PathLike[str], *, strict: bool = False, max_bytes: int = DEFAULT_MAX_BYTES
) -> Baseline:
    """Read a ``verist-baseline@1`` file. Raises ``SnapshotError`` when it is not one.

    With ``strict`` it also refuses what Verist's CLI refuses (not exactly one step-output,
    several step-commands); otherwise those are listed in ``Baseline.problems``.
    """
    p = Path(path)
    snapshot, metadata, problems = unwrap_baseline(read_json_file(p, "Baseline file", max_bytes), p)
    if strict and problems:
        raise SnapshotError(problems[0])
    return Baseline(p, snapshot, metadata, tuple(problems))


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
