"""The executions an export covers, one at a time: every execution of a location (records,
and write-ahead logs with no record), in execution-id order, each read only when its turn
comes, so a directory of any size is exported in constant memory.

The files of one execution come as the listings put them (``core.model.copy_rank``): the
record named after its id, then its copies by name. A copy's name need not carry the id
(``huge.json``), so each file's id is taken from its first bytes, where IntentusNet 1.3.0
writes it (``{"header": {"executionId": ...``): one small read a file, not a second load
(``_head_id``)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from intentus_tui.core.detail import ExecutionDetail, load_detail
from intentus_tui.core.fsio import read_regular_file
from intentus_tui.core.model import copy_rank
from intentus_tui.core.paths import RecordRoot, list_record_names
from intentus_tui.core.records.head import load_record_head
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


# The start of a record as IntentusNet 1.3.0 writes it (json.dumps, indent=2), its id
# whole: an id with an escape in it is left to the whole parse (``_head_id``).
_HEAD_ID = re.compile(rb'\A\s*\{\s*"header"\s*:\s*\{\s*"executionId"\s*:\s*"([^"\\]*)"')
_HEAD_BYTES = 1024  # the id of any usual record is within its first 100


def _head_id(path: Path) -> str | None:
    """The execution id recorded in the file ``path``, as the listing reads it (None where
    it reads none, and names the execution after the file): from the file's first bytes;
    from its head as a huge file is listed (``load_record_head``) when they do not start as
    1.3.0 writes a record. Read as every record is (``read_regular_file``: a link followed
    only within its directory, a FIFO never opened)."""
    try:
        head = read_regular_file(path, _HEAD_BYTES)[0]
    except OSError:
        return None
    head = head.removeprefix(b"\xef\xbb\xbf")  # a byte-order mark, as the loader skips it
    found = _HEAD_ID.match(head)
    # A second key of that name may follow in the header, and the parse keeps the last one:
    # left to the head's parse, as any head not written as 1.3.0 writes it.
    if found is not None and head.find(b'"executionId"', found.end()) < 0:
        try:
            return found.group(1).decode("utf-8")
        except UnicodeDecodeError:
            return None
    if not head.lstrip().startswith(b"{"):
        return None  # not a JSON object: no record, no id in it
    record = load_record_head(path).record
    return record.execution_id if record is not None else None


def _record_keys(directory: Path, names: list[str]) -> list[tuple[str, int, str, bool]]:
    """(execution id, ``copy_rank``, file name, False) of each record file: the order of
    the files of one execution in the listings."""
    keys = []
    for name in names:
        inner = _head_id(directory / name) or name[: -len(RECORD_SUFFIX)]
        keys.append((inner, copy_rank(name, inner), name, False))
    return keys


def targets_in(root: RecordRoot, label: str = "") -> Iterator[ExportTarget]:
    """Every execution of ``root`` (labelled ``label``, with several roots): each record
    file, and each WAL that has no record, ordered by execution id, the files of one
    execution as the listings order them. Names and ids are listed up front (a few strings
    a file); each file is read whole when its turn comes, by the caller."""
    record_names = list_record_names(root.records_dir)
    record_ids = {name[: -len(RECORD_SUFFIX)] for name in record_names}
    # (execution id, copy rank, file name, the file is a WAL)
    keyed = _record_keys(root.records_dir, record_names)
    del record_names
    keyed += [
        (name[: -len(WAL_SUFFIX)], 0, name, True) for name in _wal_only_names(root, record_ids)
    ]
    del record_ids
    keyed.sort()
    for _, _, name, is_wal in keyed:
        directory = root.wal_dir if is_wal and root.wal_dir is not None else root.records_dir
        yield ExportTarget(directory / name, root.wal_dir, label)
