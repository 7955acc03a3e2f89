"""Where records live: the opened location, its records and WAL directories, the record
files in it, and the execution id a file name promises."""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass, replace
from pathlib import Path

from intentus_tui.core.records.load import RECORD_SUFFIX, WAL_SUFFIX, broken_link, is_record_name


@dataclass(frozen=True, slots=True)
class RecordRoot:
    """Where records and write-ahead logs live for one opened location."""

    records_dir: Path
    wal_dir: Path | None
    requested: Path

    @property
    def read_only(self) -> str | None:
        """Why nothing may be written here (an evidence bundle's copy, a remote root's
        mirror: ``core.read_only``), or None when the operator's writes (invalidate, save a
        snapshot) are allowed."""
        from intentus_tui.core.read_only import read_only_reason

        return read_only_reason(self.records_dir)

    @property
    def records_to_come(self) -> bool:
        """An IntentusNet layout whose ``wal`` is there and whose ``records`` directory is
        not (yet): an application that logs before it records, or one that crashed before
        its first record. Its logs are the executions; its records are listed once the
        directory appears."""
        layout = self.records_dir.parent
        return (
            self.records_dir.name == "records"
            and self.wal_dir == layout / "wal"
            and _logs_only(layout)
        )

    def path_of(self, key: str) -> Path:
        """The file behind a summary key: a record file, or the WAL of a WAL-only execution."""
        if key.endswith(WAL_SUFFIX) and self.wal_dir is not None:
            return self.wal_dir / key
        return self.records_dir / key


def tidy_path(path: str | os.PathLike[str]) -> Path:
    """``path`` as it is read and shown: with ``..`` folded away (``os.path.normpath``;
    ``Path`` folds ``.`` and ``//`` itself) where that names the same place. Where a
    symlink comes before a ``..`` (``link/..`` is the parent of the link's target, not of
    the link), the resolved form is the same place instead. A path that does not exist as
    given, while its folded form does, is left as given: folding it would name another
    file. What is read is the same either way."""
    given = Path(path)
    if ".." not in given.parts:
        return given
    folded = Path(os.path.normpath(given))
    if not os.path.lexists(given):
        return given if os.path.lexists(folded) else folded
    if os.path.realpath(folded) == os.path.realpath(given):
        return folded
    return Path(os.path.realpath(given))


def shown_path(path: str | os.PathLike[str]) -> str:
    """``tidy_path`` as text, for a message."""
    return os.fspath(tidy_path(path))


def cannot_follow(path_text: str, path: str | os.PathLike[str] | None = None) -> str:
    """What is said of a typed path that is a link looping or leading nowhere: nothing
    can be read there (not a damaged file, not a missing one), and which of the two, as a
    listing says it of the same link (``path``: it as read, when not ``path_text``)."""
    why = broken_link(path if path is not None else path_text)
    return f"cannot follow {shown_path(path_text)}: {why}"


def nothing_at(path_text: str, path: str | os.PathLike[str] | None = None) -> str:
    """What is said of a typed path where nothing is (``path``: it as read, ``~``
    expanded, when that is not ``path_text``): a link that loops or leads nowhere
    (``cannot_follow``), else no such file. The command line's words and the ``D``
    picker's."""
    if os.path.islink(path if path is not None else path_text):
        return cannot_follow(path_text, path)
    return f"no such file: {shown_path(path_text)}"


def resolve_root(path: str | os.PathLike[str] | None = None) -> RecordRoot:
    """Accept an ``.intentusnet`` root, a records directory, its ``wal`` directory, or any
    directory of ``*.json``.

    With no path: ``./.intentusnet/records`` when it exists, else the current directory.
    The path is kept as given, ``..`` folded where that is the same place (``tidy_path``).
    """
    requested = tidy_path((Path(path) if path is not None else Path.cwd()).absolute())
    base = requested
    layout = requested / ".intentusnet"
    if (path is None and layout.is_dir()) or (
        ((layout / "records").is_dir() or _logs_only(layout))
        and not (requested / "records").is_dir()
    ):
        base = layout
    elif requested.name == "wal" and (
        (requested.parent / "records").is_dir()
        or (requested.parent.name == ".intentusnet" and _logs_only(requested.parent))
    ):
        # An IntentusNet wal/ beside its records/: the same root (read alone, every log
        # was said to have no record, the records beside it unread).
        base = requested.parent
    if (base / "records").is_dir():
        wal = base / "wal"
        return RecordRoot(base / "records", wal if wal.is_dir() else None, requested)
    if base.name == ".intentusnet" and _logs_only(base):
        # Logs and no records directory yet: where the records will be (see
        # ``RecordRoot.records_to_come``), not the ``.intentusnet`` directory itself.
        return RecordRoot(base / "records", base / "wal", requested)
    for wal in (base / "wal", base.parent / "wal"):
        if wal.is_dir() and wal != base and not _logs_of_other_records(base, wal):
            return RecordRoot(base, wal, requested)
    return RecordRoot(base, None, requested)


def with_logs_to_come(root: RecordRoot) -> RecordRoot:
    """``root`` as the debugger follows it: an IntentusNet layout's records
    (``.intentusnet/records``) with no ``wal`` beside them yet have their logs to come
    there, where the runtime makes the directory as it writes its first log. Watched, the
    directory is read once it appears (a crash's log-only execution, the logs of the
    executions listed); until then it holds nothing."""
    layout = root.records_dir.parent
    if root.wal_dir is not None or root.records_dir.name != "records":
        return root
    if layout.name != ".intentusnet" or os.path.lexists(layout / "wal"):
        return root  # not IntentusNet's layout, or something else is there (a file)
    return replace(root, wal_dir=layout / "wal")


def _logs_of_other_records(base: Path, wal: Path) -> bool:
    """``wal`` beside ``base`` is the log directory of the records beside them both
    (``.intentusnet/snapshots`` opened: ``.intentusnet/wal`` is ``records/``'s, and its
    executions were said to have no record file)."""
    records = wal.parent / "records"
    return wal.parent != base and records != base and os.path.lexists(records)


def _logs_only(layout: Path) -> bool:
    """An ``.intentusnet`` directory with its ``wal`` and no ``records`` entry at all."""
    return (layout / "wal").is_dir() and not os.path.lexists(layout / "records")


def layout_problem(root: RecordRoot) -> str | None:
    """Why the records of an IntentusNet layout under the directory asked for cannot be
    read, when it has one that is broken (``.intentusnet`` or its ``records`` there, but
    not a directory) or a records or log directory that cannot be listed: else None.
    Without this, such a directory read as one holding no record."""
    if root.records_dir == root.requested:  # no records directory found under it
        requested = root.requested
        base = requested if requested.name == ".intentusnet" else requested / ".intentusnet"
        for part in (base, base / "records"):
            if os.path.lexists(part) and not part.is_dir():
                if _holds_records(root.requested):
                    return None  # a directory of records with a stray entry: it is read
                return f"{part} is {_kind_of(part)}, not a directory: no record can be read there"
    # One that cannot be listed (no permission) read as empty: every execution of the
    # log directory was then judged to have no record, "no record file was written". A log
    # directory that cannot be listed is not this: the records are read, each with its
    # log unchecked (``wal_dir_problem`` says so).
    return _unlistable(root.records_dir)


def wal_dir_problem(root: RecordRoot) -> str | None:
    """One line, when the root's write-ahead-log directory cannot be listed: its records
    are listed, but no log can be checked."""
    problem = _unlistable(root.wal_dir)
    if problem is None:
        return None
    return problem.replace(
        "what it holds cannot be read",
        "its write-ahead logs cannot be read, so no record's log is checked",
    )


def _unlistable(directory: Path | None) -> str | None:
    if directory is None:
        return None
    try:
        with os.scandir(directory):
            return None
    except (FileNotFoundError, NotADirectoryError):
        return None  # none there (yet): nothing hidden
    except OSError as exc:
        reason = (exc.strerror or type(exc).__name__).lower()
        return f"cannot list {directory}: {reason}: what it holds cannot be read"


def _holds_records(directory: Path) -> bool:
    try:
        with os.scandir(directory) as entries:
            return any(is_record_name(entry.name) for entry in entries)
    except OSError:
        return False


def _kind_of(path: Path) -> str:
    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return "unreadable"
    if stat.S_ISLNK(mode):
        return "a link to something else" if path.exists() else "a link that loops or leads nowhere"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a file" if stat.S_ISREG(mode) else "a special file"


def sibling_wal_dir(record: Path) -> Path | None:
    """The WAL directory beside a record file's directory (``.intentusnet/records/X.json``:
    ``.intentusnet/wal``), when there is one: where a record named by its path has its log."""
    wal_dir = record.absolute().parent.parent / "wal"
    return wal_dir if wal_dir.is_dir() else None


def id_of_key(key: str) -> str:
    """The execution id a record file name (``<id>.json``) promises."""
    return key[: -len(RECORD_SUFFIX)] if key.endswith(RECORD_SUFFIX) else key


def list_record_names(directory: Path) -> list[str]:
    """The name of every candidate record file directly in ``directory``, sorted.

    Names, not ``Path`` objects: building 100,000 of those alone takes a noticeable moment.
    """
    try:
        with os.scandir(directory) as entries:
            names = [e.name for e in entries if is_record_name(e.name)]
    except OSError:
        return []
    names.sort()
    return names


def list_record_paths(directory: Path) -> list[Path]:
    """Every candidate record file directly in ``directory``, sorted by name."""
    return [directory / n for n in list_record_names(directory)]
