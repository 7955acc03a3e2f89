"""Read-only roots: directories whose records must not be written by this tool.

A root is read-only when the directory holding it (or one above it) carries the marker
file ``READ_ONLY_MARKER``, whose text says why ("a local copy of ssh://host/path").
Every write the tool makes to a record root (invalidating a record, saving a snapshot
beside it) asks ``read_only_reason`` first and refuses with that one line. A marker on
disk rather than a flag in memory: every process (the debugger, each command) sees it.
"""

from __future__ import annotations

from pathlib import Path

from intentus_tui.core.fsio import atomic_write

READ_ONLY_MARKER = ".intentus-read-only"
_MAX_REASON = 300


def mark_read_only(directory: Path, reason: str) -> None:
    """Mark ``directory`` (and everything below it) read-only for this tool."""
    directory.mkdir(parents=True, exist_ok=True)
    marker = directory / READ_ONLY_MARKER
    try:
        if marker.read_text(encoding="utf-8") == reason:
            return
    except (OSError, UnicodeDecodeError):
        pass
    atomic_write(marker, reason.encode(), durable=False)


def read_only_reason(path: Path) -> str | None:
    """Why ``path`` (a record file or a directory) must not be written, or None."""
    for directory in (path.absolute(), *path.absolute().parents):
        marker = directory / READ_ONLY_MARKER
        try:
            reason = marker.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        line = " ".join(reason.split())[:_MAX_REASON]
        return line or "this root is read-only"
    return None
