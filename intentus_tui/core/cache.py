"""A persistent index cache: summaries keyed by (directory, file name, size, mtime, ctime, inode).

Lives under the user cache directory (``platformdirs``), or ``INTENTUS_TUI_CACHE_DIR``;
never inside a record directory. Any problem with it — corrupt, locked, stale schema,
unwritable — makes it step aside silently: the index then reads the files.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import fields
from pathlib import Path

from intentus_tui import __version__
from intentus_tui.core.formats import LoadStatus
from intentus_tui.core.timeline import ExecutionState
from intentus_tui.core.verify import HashStatus

CACHE_ENV = "INTENTUS_TUI_CACHE_DIR"
_SCHEMA = 2

# A file's identity for the cache: if any of these change, its summary is recomputed.
Stamp = tuple[int, int, int, int]  # size, mtime_ns, ctime_ns, inode


def cache_dir() -> Path:
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("intentus-tui", appauthor=False))


def stamp_of(st: os.stat_result) -> Stamp:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


class IndexCache:
    """One SQLite file of summaries for every directory the user opened."""

    def __init__(self, directory: Path | None = None) -> None:
        from intentus_tui.core.index import ExecutionSummary

        self._summary_type = ExecutionSummary
        self._columns = [f.name for f in fields(ExecutionSummary)]
        converters = {
            "state": ExecutionState,
            "load_status": LoadStatus,
            "hash_status": HashStatus,
            "replayable": bool,
        }
        self._convert = [(i, converters[n]) for i, n in enumerate(self._columns) if n in converters]
        self._path = (directory or cache_dir()) / f"index-v{_SCHEMA}-{__version__}.sqlite"
        self._db: sqlite3.Connection | None = None

    @property
    def path(self) -> Path:
        return self._path

    def _connect(self) -> sqlite3.Connection | None:
        if self._db is not None:
            return self._db
        try:
            self._path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self._path, timeout=0.5, check_same_thread=False)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            cols = ", ".join(self._columns)
            db.execute(
                "CREATE TABLE IF NOT EXISTS summaries (dir TEXT, st_size INT, st_mtime INT, st_ctime INT,"
                f" st_ino INT, {cols}, PRIMARY KEY (dir, key))"
            )
            db.execute("SELECT count(*) FROM summaries LIMIT 1").fetchone()
        except (sqlite3.Error, OSError):
            self._discard()
            return None
        self._db = db
        return db

    def _discard(self) -> None:
        """A corrupt or unusable cache is removed (if we can) and bypassed."""
        self.close()
        with contextlib.suppress(OSError):
            if self._path.exists() and self._path.stat().st_size > 0:
                self._path.unlink()

    def load(self, directory: Path) -> dict[str, tuple[Stamp, object]]:
        """Every cached summary for ``directory``: key -> (stamp, summary)."""
        db = self._connect()
        if db is None:
            return {}
        cols = ", ".join(self._columns)
        try:
            rows = db.execute(
                f"SELECT st_size, st_mtime, st_ctime, st_ino, {cols} FROM summaries WHERE dir = ?",
                (str(directory),),
            ).fetchall()
        except sqlite3.Error:
            self._discard()
            return {}
        make = self._summary_type
        convert = self._convert
        out: dict[str, tuple[Stamp, object]] = {}
        try:
            for row in rows:
                values = list(row[4:])
                for index, converter in convert:
                    values[index] = converter(values[index])
                out[values[0]] = ((row[0], row[1], row[2], row[3]), make(*values))
        except (ValueError, TypeError, IndexError):
            self._discard()
            return {}
        return out

    def store(
        self, directory: Path, entries: Iterable[tuple[Stamp, object]], removed: Iterable[str] = ()
    ) -> None:
        db = self._connect()
        if db is None:
            return
        names = self._columns
        placeholders = ", ".join("?" * (len(names) + 5))
        rows = [
            (str(directory), *stamp, *(getattr(summary, n) for n in names))
            for stamp, summary in entries
        ]
        try:
            with db:
                db.executemany(
                    f"INSERT OR REPLACE INTO summaries VALUES ({placeholders})",
                    [tuple(_plain(v) for v in row) for row in rows],
                )
                db.executemany(
                    "DELETE FROM summaries WHERE dir = ? AND key = ?",
                    [(str(directory), key) for key in removed],
                )
        except sqlite3.Error:
            self._discard()

    def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None


def _plain(value: object) -> object:
    return value.value if isinstance(value, ExecutionState | LoadStatus | HashStatus) else value
