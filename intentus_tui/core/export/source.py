"""The executions an export covers, one at a time: every execution of a location (records,
and write-ahead logs with no record), in execution-id order, each read only when its turn
comes, so a directory of any size is exported in constant memory."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from intentus_tui.core.detail import ExecutionDetail, load_detail
from intentus_tui.core.paths import RecordRoot, list_record_names
from intentus_tui.core.records.load import RECORD_SUFFIX, WAL_SUFFIX


@dataclass(frozen=True, slots=True)
class ExportTarget:
    """One execution to export: the file that names it (a record, or the WAL of a WAL-only
    execution), the WAL directory to join it with, and with several roots the label of
    its root (as ``inspect --list`` labels it: ``core.roots``; "" with one root)."""

    path: Path
    wal_dir: Path | None
    root: str = ""

    @property
    def name(self) -> str:
        return self.path.name

    def load(self) -> ExecutionDetail:
        """Everything known about it (never raises on what the files hold)."""
        return load_detail(self.path, self.wal_dir)


def is_exportable(detail: ExecutionDetail) -> bool:
    """Whether a file holds an execution to export, in any format: a record (whole or
    salvaged), or a write-ahead log. A file that holds neither (a directory or a FIFO named
    like a record, an empty file, a symlink refused, not JSON, JSON that is not a record)
    has nothing to export; the exporter names it and skips it instead."""
    return detail.result.record is not None or detail.wal is not None


def listed_file(detail: ExecutionDetail) -> str:
    """The execution's file as ``inspect --list --json`` names it, in every format: its
    name within its root, exact (``ExecutionSummary.file_name``, the listing's own; with
    several roots, its root is named beside it)."""
    summary = detail.summary
    return summary.file_name if summary is not None else detail.result.path.name


def _wal_only_names(root: RecordRoot, record_ids: set[str]) -> list[str]:
    if root.wal_dir is None:
        return []
    try:
        with os.scandir(root.wal_dir) as entries:
            names = [
                e.name
                for e in entries
                if e.name.endswith(WAL_SUFFIX)
                and not e.name.startswith(".")
                and e.name[: -len(WAL_SUFFIX)] not in record_ids
            ]
    except OSError:
        return []
    return names


def targets_in(root: RecordRoot, label: str = "") -> Iterator[ExportTarget]:
    """Every execution of ``root`` (labelled ``label``, with several roots): each record
    file, and each WAL that has no record, ordered by execution id. Only names are listed
    up front (a string each); each file is read when its turn comes, by the caller."""
    record_names = list_record_names(root.records_dir)
    record_ids = {name[: -len(RECORD_SUFFIX)] for name in record_names}
    # (execution id, file name, the file is a WAL)
    keyed = [(name[: -len(RECORD_SUFFIX)], name, False) for name in record_names]
    del record_names
    keyed += [(name[: -len(WAL_SUFFIX)], name, True) for name in _wal_only_names(root, record_ids)]
    del record_ids
    keyed.sort()
    for _, name, is_wal in keyed:
        directory = root.wal_dir if is_wal and root.wal_dir is not None else root.records_dir
        yield ExportTarget(directory / name, root.wal_dir, label)
