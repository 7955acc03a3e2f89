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
    execution) and the WAL directory to join it with."""

    path: Path
    wal_dir: Path | None

    @property
    def name(self) -> str:
        return self.path.name

    def load(self) -> ExecutionDetail:
        """Everything known about it (never raises on what the files hold)."""
        return load_detail(self.path, self.wal_dir)


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


def targets_in(root: RecordRoot) -> Iterator[ExportTarget]:
    """Every execution of ``root``: each record file, and each WAL that has no record,
    ordered by execution id (names only are listed up front; nothing is read here)."""
    record_names = list_record_names(root.records_dir)
    record_ids = {name[: -len(RECORD_SUFFIX)] for name in record_names}
    keyed: list[tuple[str, Path]] = [
        (name[: -len(RECORD_SUFFIX)], root.records_dir / name) for name in record_names
    ]
    if root.wal_dir is not None:
        wal_dir = root.wal_dir
        keyed += [
            (name[: -len(WAL_SUFFIX)], wal_dir / name) for name in _wal_only_names(root, record_ids)
        ]
    keyed.sort(key=lambda item: item[0])
    for _, path in keyed:
        yield ExportTarget(path, root.wal_dir)
