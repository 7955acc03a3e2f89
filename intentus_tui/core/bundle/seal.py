"""What a bundle's manifest sealed, told to whatever reads the bundle's extracted copy.

Extracting a bundle compares each file with the sha256 its manifest sealed
(``core.bundle.read``). A record whose bytes are not those any more (edited since it was
bundled, whether or not its own envelope hash was made to match again), or one the
manifest never named (added since), cannot be believed, whatever its own checks say; nor
can an execution whose write-ahead log is so. The reader writes those files' names, and
why, into ``CHANGES_MARKER`` beside the copy's ``records/`` (in the directory holding it);
the execution's summary takes the reason from there (``ExecutionSummary.bundle_change``),
and so does its one verdict, on every screen
and in every command that reads the copy: integrity tampered, saying that it changed
since it was bundled, and not replayable (untrusted), as for any tampered record.

A marker on disk rather than a flag in memory, as ``core.read_only``'s: every reader of
the copy (the debugger's workers, each command) sees it. A bundle cannot bring one of its
own: its members are never hidden files (``core.bundle.layout``). Any other root has no
marker; asking costs one failed ``open`` for a whole listing (``bundle_changes``), or per
execution read in detail (``record_change``), and nothing where its records directory is
not named ``records``.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from intentus_tui.core.bundle.layout import (
    MANIFEST_DIGEST_NAME,
    MANIFEST_NAME,
    RECORDS,
    SECTIONS,
    WALS,
)
from intentus_tui.core.sanitize import sanitize_line

if TYPE_CHECKING:
    from intentus_tui.core.bundle.read import FileProblem
    from intentus_tui.core.model import ExecutionSummary

CHANGES_MARKER = ".intentus-bundle-changes"
_MAX_MARKER_BYTES = 64 << 20

# What each kind of difference means for a record (the start of its integrity reason).
CHANGED = "the record changed since it was bundled"
ADDED = "the record is not in its bundle's manifest"
# The same of an execution's write-ahead log (its verdict rests on it too).
LOG_CHANGED = "its write-ahead log changed since it was bundled"
LOG_ADDED = "its write-ahead log is not in its bundle's manifest"
_ADDED_DETAIL = "added since it was bundled: nothing vouches for its bytes"
# Of every record and log, when the manifest itself is not what its own sha256 sealed (or
# that sha256 is gone): a file edited with its manifest entry made to match passes the
# comparison with that manifest, so no comparison with it can vouch for any file.
UNSEALED = "the bundle's manifest does not match its seal"
_UNSEALED_DETAIL = "nothing vouches for its bytes"


def write_changes(
    directory: Path, problems: Iterable[FileProblem], files: Iterable[str] = ()
) -> None:
    """Write, beside the records of the copy in ``directory``, each record (by its name)
    and each write-ahead log (``wal/NAME``) whose bytes are not those its manifest sealed
    (``changed``) or that it does not name (``extra``); nothing when there is none. When
    the manifest is not what its own sha256 sealed, every other record and log of
    ``files`` (the copy's paths, ``records/NAME``) too (``unsealed``: why)."""
    changes: dict[str, list[str]] = {}
    unsealed: str | None = None
    for problem in problems:
        section = problem.path.partition("/")[0]
        if problem.kind in ("changed", "extra") and section in (RECORDS, WALS):
            changes[_marker_name(problem.path)] = [problem.kind, problem.detail]
        elif breaks_the_seal(problem):
            unsealed = (
                f"{MANIFEST_DIGEST_NAME} is missing"
                if problem.kind == "missing"
                else problem.detail
            )
    if unsealed is not None:
        for path in files:
            if path.partition("/")[0] in (RECORDS, WALS):
                changes.setdefault(_marker_name(path), ["unsealed", unsealed])
    if changes:
        from intentus_tui.core.fsio import atomic_write

        atomic_write(directory / CHANGES_MARKER, json.dumps(changes).encode(), durable=False)


def breaks_the_seal(problem: FileProblem) -> bool:
    """``problem`` is the manifest's own: it does not hash to ``manifest.sha256``, or that
    seal is gone (no comparison with the manifest vouches for any file then)."""
    return problem.path.startswith(MANIFEST_NAME) or problem.path == MANIFEST_DIGEST_NAME


def _marker_name(path: str) -> str:
    """A copy's path (``records/NAME``, ``wal/NAME``) as the marker names it."""
    section, _, name = path.partition("/")
    return name if section == RECORDS else path


def bundle_changes(records_dir: Path) -> dict[str, str]:
    """Each record file (by name) of ``records_dir``, and each log beside it (``wal/NAME``),
    whose bytes are not those its bundle's manifest sealed, with why (the verdict's
    integrity reason, made safe to show); empty for a directory that is no bundle's copy."""
    if os.path.basename(records_dir) != RECORDS:
        return {}
    try:
        with open(os.path.join(os.path.dirname(records_dir), CHANGES_MARKER), "rb") as marker:
            data = marker.read(_MAX_MARKER_BYTES)
        found = json.loads(data)
    except (OSError, ValueError, RecursionError):
        return {}
    if not isinstance(found, dict):
        return {}
    changes: dict[str, str] = {}
    for name, said in found.items():
        if isinstance(said, list) and len(said) == 2 and all(isinstance(s, str) for s in said):
            kind, detail = said
            log = name.startswith(f"{WALS}/")
            if kind == "changed":
                what, why = (LOG_CHANGED if log else CHANGED), detail
            elif kind == "unsealed":
                what, why = UNSEALED, f"{detail}; {_UNSEALED_DETAIL}"
            else:
                what, why = (LOG_ADDED if log else ADDED), _ADDED_DETAIL
            changes[name] = sanitize_line(f"{what}: {why}")
    return changes


def record_change(path: Path) -> str | None:
    """Why the record file ``path`` is not what its bundle's manifest sealed, or None."""
    return bundle_changes(path.parent).get(path.name)


def log_change(path: Path) -> str | None:
    """Why the write-ahead log ``path`` is not what its bundle's manifest sealed, or None."""
    if path.parent.name != WALS:
        return None
    return bundle_changes(path.parent.parent / RECORDS).get(f"{WALS}/{path.name}")


def _change_of(summary: ExecutionSummary, changes: Mapping[str, str]) -> str | None:
    """Why a summary's record, or else the log it was joined with (or is known from), is
    not what the bundle sealed."""
    change = changes.get(summary.key)
    if change is None and summary.source != "record":  # a log is part of its evidence
        change = changes.get(f"{WALS}/{summary.execution_id}{SECTIONS[WALS]}")
    return change


def change_parts(change: str) -> tuple[str, str]:
    """A change said as an integrity problem is (``record changed since it was bundled``,
    what was found): its two halves (``what: why``; ``what`` holds no colon)."""
    what, _, why = change.partition(": ")
    return what.removeprefix("the ").removeprefix("its "), why


def with_change(summary: ExecutionSummary, change: str | None) -> ExecutionSummary:
    """``summary`` told that its record changed since it was bundled (``change``: why)."""
    if change is None or summary.bundle_change == change:
        return summary
    from dataclasses import replace

    return replace(summary, bundle_change=change)


def sealed(summaries: list[ExecutionSummary], changes: Mapping[str, str]) -> list[ExecutionSummary]:
    """``summaries`` of one root's executions (keyed by file name), each whose record or
    log is in ``changes`` told so; the same list when none is."""
    if not changes or not any(_change_of(s, changes) for s in summaries):
        return summaries
    return [with_change(s, _change_of(s, changes)) for s in summaries]
