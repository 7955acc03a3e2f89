"""A directory of record files: list, load, and the only writes an operator may make.

Ids are confined to the directory: an id with a path separator, ``..``, a NUL byte, a
leading dot or an absolute path is refused before any file is touched. Writes are atomic
(``fsio.atomic_write``: a hidden ``.<name>.<random>.tmp`` file in the same directory, which
no lister takes for a record, fsync, rename over the target, fsync the directory).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from intentus_tui.core.fsio import atomic_write
from intentus_tui.core.records.load import (
    ExecutionRecord,
    LoadResult,
    LoadStatus,
    dump_record_json,
    is_record_name,
    load_record_file,
)
from intentus_tui.core.sanitize import sanitize_line

MANUALLY_INVALIDATED = "manually_invalidated"


class UnsafeIdError(ValueError):
    """An execution id that would reach outside the record directory."""


class RecordLoadError(Exception):
    """A record that exists but cannot be used as one; ``result`` says why."""

    def __init__(self, result: LoadResult) -> None:
        super().__init__(f"{result.path}: {result.message}")
        self.result = result


def check_id(execution_id: str) -> str:
    """Return the id if it names a file directly inside a store, else raise ``UnsafeIdError``."""
    if not isinstance(execution_id, str) or not execution_id:
        raise UnsafeIdError("execution id is empty")
    if "\x00" in execution_id:
        raise UnsafeIdError("execution id contains a NUL byte")
    if "/" in execution_id or "\\" in execution_id or os.sep in execution_id:
        raise UnsafeIdError(f"execution id {execution_id!r} contains a path separator")
    if execution_id in (".", "..") or execution_id.startswith("."):
        raise UnsafeIdError(f"execution id {execution_id!r} would name a hidden or parent entry")
    if os.path.isabs(execution_id):
        raise UnsafeIdError(f"execution id {execution_id!r} is an absolute path")
    return execution_id


def safe_file_stem(result: LoadResult) -> str:
    """A file-name stem for something written about ``result`` (a snapshot): its execution
    id, else its file's stem, whichever is a safe id with no control or invisible
    characters, else "record". A hostile id never names a file (``ls`` would show it raw).
    """
    for candidate in (result.record.execution_id if result.record else None, result.stem):
        if not candidate:
            continue
        try:
            check_id(candidate)
        except UnsafeIdError:
            continue
        if sanitize_line(candidate) == candidate:
            return candidate
    return "record"


class FileExecutionStore:
    """Record files ``<base_path>/<executionId>.json``, as IntentusNet lays them out."""

    def __init__(self, base_path: str | os.PathLike[str]) -> None:
        self.base_path = Path(base_path)

    def path_for(self, execution_id: str) -> Path:
        path = self.base_path / f"{check_id(execution_id)}.json"
        # A symlink inside the store may still point outside it: flag, don't follow.
        if path.is_symlink():
            try:
                target = path.resolve()
            except RuntimeError:  # a symlink loop reaches nothing; the loader says so
                return path
            if self.base_path.resolve() not in target.parents:
                raise UnsafeIdError(f"{path.name} is a symlink to {target}, outside the store")
        return path

    def list_ids(self) -> list[str]:
        try:
            names = os.listdir(self.base_path)
        except OSError:
            return []
        return sorted(n[: -len(".json")] for n in names if is_record_name(n))

    def load_result(self, execution_id: str) -> LoadResult:
        return load_record_file(self.path_for(execution_id))

    def load(self, execution_id: str) -> ExecutionRecord:
        """The record, or ``RecordLoadError`` when the file cannot be read as one.

        A salvaged (damaged) record is returned: replay and verification classify it.
        """
        result = self.load_result(execution_id)
        if result.record is None:
            raise RecordLoadError(result)
        return result.record

    def save(self, record: ExecutionRecord) -> Path:
        execution_id = record.execution_id
        if execution_id is None:
            raise UnsafeIdError("record has no header.executionId")
        return atomic_write(self.path_for(execution_id), dump_record_json(record.to_json()))

    def invalidate(self, execution_id: str, reason: str = MANUALLY_INVALIDATED) -> ExecutionRecord:
        """Mark a record not replayable, keeping every other byte of meaning intact.

        Refuses damaged records: rewriting one would throw away the part after the damage.
        """
        result = self.load_result(execution_id)
        if result.status is not LoadStatus.OK or result.record is None:
            raise RecordLoadError(result)
        raw: dict[str, Any] = dict(result.record.raw)
        header = raw.get("header")
        if not isinstance(header, dict):
            raise RecordLoadError(
                LoadResult(result.path, LoadStatus.NOT_RECORD, "record has no header object")
            )
        raw["header"] = {**header, "replayable": False, "replayableReason": reason}
        record = ExecutionRecord.from_json(raw)
        atomic_write(result.path, dump_record_json(raw))
        return record
