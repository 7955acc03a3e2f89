"""A directory's first rows, read before anything else: no Textual.

The index of 100,000 files takes a while to list, stat and summarize; the first rows need
not wait for it. They are read straight from the first names ``os.scandir`` returns, before
Textual is even imported (``cli/open.py``): the start frame draws them at once and the
app's first frame shows them too. A small directory is read whole that way: Textual's
import, not its index, is what its first rows waited for (most of a second, several on a
loaded machine).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import NamedTuple

from intentus_tui.core.bundle.seal import bundle_changes, sealed
from intentus_tui.core.index.parallel import PARALLEL_THRESHOLD
from intentus_tui.core.index.summarize import summarize_path
from intentus_tui.core.model import ExecutionSummary
from intentus_tui.core.paths import id_of_key
from intentus_tui.core.records.load import WAL_SUFFIX, is_record_name

PREVIEW = 64  # files summarized straight away in a big directory, before the index starts


def first_row_count() -> int:
    """As many rows as the terminal can show (the list is most of its height)."""
    return min(PREVIEW, max(1, shutil.get_terminal_size((0, PREVIEW)).lines))


class FirstLook(NamedTuple):
    """What one short listing pass tells before the app starts."""

    rows: list[ExecutionSummary]  # the first rows the directory shows
    wants_pool: bool  # the scan will summarize in a process pool (see ``tuning.prepare_pool``)
    # The record files, if the pass listed them all (fewer than ``PARALLEL_THRESHOLD``);
    # else None: counting them all would delay the first rows.
    total: int | None = None


def first_look(directory: Path, preview: int = PREVIEW, wal_dir: Path | None = None) -> FirstLook:
    """The summaries of the first ``preview`` record files ``os.scandir`` lists (all of
    them in a smaller directory), and whether the scan will want its process pool. One
    listing pass serves both: it stops once it has seen enough names for each. A record
    with a write-ahead log in ``wal_dir`` is shown joined with it, as the index shows it
    (its log may say the record cannot be believed)."""
    names: list[str] = []
    count = 0
    total: int | None = None
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if is_record_name(entry.name):
                    count += 1
                    if len(names) <= preview:
                        names.append(entry.name)
                    if count >= PARALLEL_THRESHOLD:
                        break
            else:
                total = count
    except OSError:
        return FirstLook([], wants_pool=False)
    rows = _summaries(directory, names[:preview], wal_dir)
    return FirstLook(rows, wants_pool=count >= PARALLEL_THRESHOLD, total=total)


def _summaries(directory: Path, names: list[str], wal_dir: Path | None) -> list[ExecutionSummary]:
    if not names:
        return []
    # As the index shows them: a bundle's record changed since it was bundled says so.
    rows = sealed([summarize_path(directory / name) for name in names], bundle_changes(directory))
    return [_with_its_log(row, wal_dir) for row in rows] if wal_dir is not None else rows


def _with_its_log(row: ExecutionSummary, wal_dir: Path) -> ExecutionSummary:
    path = wal_dir / f"{id_of_key(row.key)}{WAL_SUFFIX}"
    if not os.path.lexists(path):
        return row
    from intentus_tui.core.index.wal_join import with_wal
    from intentus_tui.core.wal.read import read_wal

    return with_wal(row, read_wal(path))


def preview_summaries(
    directory: Path, count: int, wal_dir: Path | None = None
) -> list[ExecutionSummary]:
    """Summaries of the first ``count`` record files the directory lists, if it has more.

    Before the index has listed, stat-ed and (warm) loaded its cache for a big directory
    (about a second for 100,000 files), the user already sees ``count`` rows: the first
    names ``os.scandir`` returns, read directly (the same summaries the index makes; it
    sends them again, and the list takes them as updates). A small directory gets none
    here, where the app is already up: its index is as fast.
    """
    names: list[str] = []
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if is_record_name(entry.name):
                    names.append(entry.name)
                    if len(names) > count:
                        break
    except OSError:
        return []
    return _summaries(directory, names[:count], wal_dir) if len(names) > count else []
