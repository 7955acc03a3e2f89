"""Where a root's write-ahead logs are: one listing rule, for the index and the reader."""

from __future__ import annotations

import os
from pathlib import Path

from intentus_tui.core.records.load import WAL_SUFFIX


def wal_paths(wal_dir: str | os.PathLike[str] | None) -> dict[str, Path]:
    """Each write-ahead log in ``wal_dir`` by execution id (its file name less ``.wal``),
    in name order; none for no directory, or one that cannot be listed."""
    if wal_dir is None:
        return {}
    directory = Path(wal_dir)
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return {}
    return {
        name[: -len(WAL_SUFFIX)]: directory / name
        for name in names
        if name.endswith(WAL_SUFFIX) and len(name) > len(WAL_SUFFIX)
    }


def unlisted_wal_dir(wal_dir: str | os.PathLike[str] | None) -> Path | None:
    """``wal_dir`` when it is there but cannot be listed (no permission): its logs are
    unknown, not absent. None when it can be listed, or is not there."""
    if wal_dir is None:
        return None
    try:
        with os.scandir(wal_dir):
            return None
    except (FileNotFoundError, NotADirectoryError):
        return None
    except OSError:
        return Path(wal_dir)
