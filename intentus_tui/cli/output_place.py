"""Where a command may write its output file (``snapshot -o``, ``export -o``): one check.

Never into a record directory (a ``*.json`` file there is listed, and complained about, as
a record) or a write-ahead log directory, and never over a file that holds an execution
record or a write-ahead log, wherever it is: an export or a snapshot replacing a record
destroys the evidence it was made from.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterable
from pathlib import Path

from intentus_tui.cli.common import fail
from intentus_tui.core.paths import RecordRoot, resolve_root, shown_path
from intentus_tui.core.records.load import load_record_head

RECORD_DIR = "the record directory"
WAL_DIR = "the write-ahead log directory"
_WHY = {
    RECORD_DIR: "it would be listed as a record",
    WAL_DIR: "it would sit among the write-ahead logs",
}
_FIRST_LINE = 1 << 16  # bytes of a file read to tell a write-ahead log by its first entry


def real_dir(path: Path) -> Path:
    """``path`` with every link and ``..`` resolved (as far as it exists)."""
    try:
        return path.resolve()
    except OSError:
        return Path(os.path.normpath(path.absolute()))


class Protected:
    """The directories an output file must not be written into: each a record directory
    or a write-ahead log directory (resolved, so ``records/../records`` is one too)."""

    def __init__(self) -> None:
        self.dirs: dict[Path, str] = {}

    def add_root(self, root: RecordRoot) -> Protected:
        if root.records_dir.is_dir():
            self.dirs.setdefault(real_dir(root.records_dir), RECORD_DIR)
        if root.wal_dir is not None:
            self.dirs.setdefault(real_dir(root.wal_dir), WAL_DIR)
        return self

    def add_default(self, directory: str | None) -> Protected:
        """The root a command falls back on (``--dir``, else ``./.intentusnet``)."""
        return self.add_root(resolve_root(directory))

    def add_files(self, files: Iterable[tuple[Path, Path | None]]) -> Protected:
        """The directories of the files a command read (records, or WALs of WAL-only
        executions), and the WAL directories they were joined with."""
        for path, wal_dir in files:
            kind = (
                WAL_DIR
                if wal_dir is not None and real_dir(path.parent) == real_dir(wal_dir)
                else RECORD_DIR
            )
            self.dirs.setdefault(real_dir(path.parent), kind)
            if wal_dir is not None:
                self.dirs.setdefault(real_dir(wal_dir), WAL_DIR)
        return self

    def what(self, directory: Path) -> str | None:
        """What ``directory`` is to the records (``RECORD_DIR``, ``WAL_DIR``) or None. Any
        ``.intentusnet/records`` or ``.intentusnet/wal`` is one, whoever named it."""
        real = real_dir(directory)
        if real in self.dirs:
            return self.dirs[real]
        if real.parent.name == ".intentusnet" and real.name in ("records", "wal"):
            return RECORD_DIR if real.name == "records" else WAL_DIR
        return None


def holds_execution(path: Path) -> str | None:
    """What an existing file holds that must never be overwritten ("an execution record",
    "a write-ahead log"), or None. Only its first megabyte and last 64 KB are read."""
    if path.is_symlink() or not path.is_file():
        return None  # a link is replaced, never written through; a new file holds nothing
    if load_record_head(path).record is not None:
        return "an execution record"
    with contextlib.suppress(OSError, ValueError), path.open("rb") as f:
        first = json.loads(f.readline(_FIRST_LINE))
        if isinstance(first, dict) and {"entry_type", "entry_hash"} <= first.keys():
            return "a write-ahead log"
    return None


def check_output(target: Path, protected: Protected, *, chosen: bool = True) -> None:
    """Exit 2 with one line when ``target`` must not be written: inside a record or WAL
    directory, or over a record or a log. ``chosen``: the user named it with ``-o`` (else
    it is a default place in the current directory)."""
    what = protected.what(target.parent)
    if what is not None:
        where = what if chosen else f"the current directory, {what.replace('the ', 'a ', 1)}"
        fail(
            f"refusing to write {target.name} into {where} ({real_dir(target.parent)}): "
            f"{_WHY[what]}; choose another place with -o"
        )
    held = holds_execution(target)
    if held is not None:
        fail(
            f"refusing to overwrite {shown_path(target.absolute())}: it holds {held}; "
            "choose another place with -o"
        )
