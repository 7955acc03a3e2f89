"""Execution ids as an operator types them: the whole id, or a unique prefix of it.

The debugger shows ids cut to 8 characters; git-style, any prefix that names exactly one
execution of the opened location resolves to it. An execution is known by its record file
(``<id>.json`` in the records directory) or, when no record was written, by its
write-ahead log alone (``<id>.wal`` in the WAL directory). Resolving costs one listing of
each directory and no file reads, so it stays cheap beside 100,000 records.

A record whose file is not named after its id (renamed, or a copy) is listed under the id
it records: when no file name matches, the ids the index read from the files are looked at
(the index cache makes that cheap after the first time), so that an id copied from a listing
always names its execution.
"""

from __future__ import annotations

import itertools
import os
from pathlib import Path
from typing import NamedTuple

from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.load import (
    RECORD_SUFFIX,
    WAL_SUFFIX,
    is_record_name,
    load_record_file,
)
from intentus_tui.core.records.store import UnsafeIdError, check_id
from intentus_tui.core.sanitize import quoted, sanitize_line

# How many candidates an ambiguity names before it says "and N more".
SHOWN_CANDIDATES = 10


class ExecutionMatch(NamedTuple):
    """The one execution an id or prefix names: its record file and its WAL, if any."""

    execution_id: str
    record: Path | None
    wal: Path | None


class ExecutionIdError(LookupError):
    """An id that names no execution, or more than one; ``str()`` is one line for the user."""


class UnknownExecutionError(ExecutionIdError):
    def __init__(self, text: str, root: RecordRoot) -> None:
        where = f"{root.records_dir}" + (f" or {root.wal_dir}" if root.wal_dir is not None else "")
        super().__init__(f"no execution {quoted(text)} (whole id or prefix) in {where}")
        self.text = text


class AmbiguousExecutionError(ExecutionIdError):
    def __init__(self, text: str, candidates: list[str]) -> None:
        shown = ", ".join(candidates[:SHOWN_CANDIDATES])
        more = len(candidates) - SHOWN_CANDIDATES
        tail = f" and {more} more" if more > 0 else ""
        super().__init__(
            f"id prefix {quoted(text)} is ambiguous: {len(candidates)} executions match: "
            f"{shown}{tail} (type more of the id)"
        )
        self.text = text
        self.candidates = tuple(candidates)


class RecordedInSeveralFilesError(AmbiguousExecutionError):
    """One execution recorded in several files (copies, a renamed record beside its
    original): which file is meant cannot be guessed, so each is named, and how to name
    one (its path, or its name in the directory given; ``LABEL:FILE`` with several roots;
    ``label`` "": ``files`` of several roots, each named ``LABEL:FILE`` already)."""

    def __init__(
        self, text: str, execution_id: str, files: list[str], label: str | None = None
    ) -> None:
        names = [sanitize_line(name) for name in files]
        shown = ", ".join(names[:SHOWN_CANDIDATES])
        more = len(names) - SHOWN_CANDIDATES
        tail = f" and {more} more" if more > 0 else ""
        if label is None:
            where, how = "", "its path, or its name with --dir"
        elif label == "":  # files of several roots, each named LABEL:FILE already
            roots = len({name.partition(":")[0] for name in names})
            where, how = f" of {roots} roots", f"LABEL:FILE, as {names[-1]}"
        else:
            where = f" of root {sanitize_line(label)}"
            how = f"{sanitize_line(label)}:FILE, as {sanitize_line(label)}:{names[-1]}"
        ExecutionIdError.__init__(
            self,
            f"execution {quoted(execution_id)} is recorded in {len(files)} files{where}: "
            f"{shown}{tail} (name the file instead: {how})",
        )
        self.text = text
        self.candidates = (execution_id,)
        self.execution_id = execution_id
        self.files = tuple(files)

    def in_root(self, label: str) -> RecordedInSeveralFilesError:
        """The same, said of the root labelled ``label`` (of several)."""
        return RecordedInSeveralFilesError(self.text, self.execution_id, list(self.files), label)

    @classmethod
    def in_roots(
        cls, text: str, execution_id: str, files: list[tuple[str, str]]
    ) -> RecordedInSeveralFilesError:
        """The execution in files of several roots: ``files`` as (root label, file name),
        each named ``LABEL:FILE``."""
        return cls(text, execution_id, [f"{label}:{name}" for label, name in files], "")


def _names(directory: Path | None) -> list[str]:
    if directory is None:
        return []
    try:
        return os.listdir(directory)
    except OSError:
        return []


def _match(root: RecordRoot, execution_id: str) -> ExecutionMatch | None:
    """The execution whose id is exactly ``execution_id``, if it has a record or a WAL."""
    # The file the id names, a link not followed: the loader refuses one leading out of
    # the directory without opening its target (``fsio.open_confined``), and the
    # execution is then one whose file could not be read, as the list shows it.
    record_path = root.records_dir / f"{check_id(execution_id)}{RECORD_SUFFIX}"
    record = record_path if os.path.lexists(record_path) else None
    wal_path = root.wal_dir / f"{execution_id}{WAL_SUFFIX}" if root.wal_dir is not None else None
    wal = wal_path if wal_path is not None and os.path.lexists(wal_path) else None
    if record is None and wal is None:
        return None
    return ExecutionMatch(execution_id, record, wal)


def prefix_candidates(root: RecordRoot, prefix: str) -> list[str]:
    """Every execution id of ``root`` that starts with ``prefix``, sorted (names only)."""
    ids = {
        name[: -len(RECORD_SUFFIX)]
        for name in _names(root.records_dir)
        if name.startswith(prefix) and is_record_name(name)
    }
    ids.update(
        name[: -len(WAL_SUFFIX)]
        for name in _names(root.wal_dir)
        if name.startswith(prefix) and name.endswith(WAL_SUFFIX) and not name.startswith(".")
    )
    # "abc.js" is a prefix of the file "abc.json" but not of the id "abc".
    return sorted(i for i in ids if i.startswith(prefix) and i)


def _shown_candidates(root: RecordRoot, text: str) -> list[str]:
    """The ids whose shown form (control and invisible characters as visible placeholders,
    as every listing prints them, ``--json`` included) is ``text``, or else starts with it:
    an id copied from the screen or a script's JSON names its execution."""
    if sanitize_line(text) != text:
        return []  # not a shown form
    shown = {i: sanitize_line(i) for i in prefix_candidates(root, "")}
    exact = sorted(i for i, form in shown.items() if form == text and form != i)
    return exact or sorted(i for i, form in shown.items() if form.startswith(text) and form != i)


def resolve_execution_id(root: RecordRoot, text: str) -> ExecutionMatch:
    """The execution ``text`` names: its whole id (preferred, even when it is also the
    prefix of a longer id) or the one id it is a prefix of.

    Raises ``UnsafeIdError`` for an id that would reach outside the directories (path
    separators, ``..``, a leading dot), ``UnknownExecutionError`` when nothing matches and
    ``AmbiguousExecutionError`` (with the candidates) when several do.
    """
    check_id(text)
    exact = _match(root, text)
    if exact is not None:
        return exact
    named = _by_file_name(root, text)
    if named is not None:
        return named
    candidates = prefix_candidates(root, text) or _shown_candidates(root, text)
    if not candidates:
        return _by_recorded_id(root, text)
    if len(candidates) > 1:
        if _copies_among(candidates):
            # File names are not ids: ``X.json`` and its copy ``X.trunc.json`` are one
            # execution, whose copy named otherwise (``huge.json``) the index knows too.
            return _by_recorded_id(root, text, names=candidates)
        raise AmbiguousExecutionError(text, candidates)
    found = _match(root, candidates[0])
    if found is None:  # removed between the listing and now
        raise UnknownExecutionError(text, root)
    return found


def _copies_among(names: list[str]) -> bool:
    """Whether a name of ``names`` (sorted) extends another (``X`` and ``X.trunc``): maybe
    a copy of a record, known only by reading the files. Ids that share no such prefix
    are told apart by their names alone, no file read."""
    return any(b.startswith(a) for a, b in itertools.pairwise(names))


def _by_file_name(root: RecordRoot, text: str) -> ExecutionMatch | None:
    """The execution of the file ``text`` names as the list's FILE column shows it
    (``copy.json``, ``exec-1.wal``), if that file is there: a record known by the id it
    records (a copy's is not its file's name), with the log named after that id."""
    for suffix, kind in ((RECORD_SUFFIX, "record"), (WAL_SUFFIX, "wal")):
        if not text.endswith(suffix) or len(text) <= len(suffix):
            continue
        found = _match(root, text[: -len(suffix)])
        if found is None or getattr(found, kind) is None:
            continue
        if found.record is None or kind == "wal":
            return found
        recorded = load_record_file(found.record).record
        execution_id = recorded.execution_id if recorded is not None else None
        if not execution_id or execution_id == found.execution_id:
            return found
        return ExecutionMatch(execution_id, found.record, _log_of(root, execution_id))
    return None


def _log_of(root: RecordRoot, execution_id: str) -> Path | None:
    """The write-ahead log named after ``execution_id``, if there is one (a recorded id may
    be no safe file name: then none is)."""
    try:
        found = _match(root, execution_id)
    except UnsafeIdError:
        return None
    return found.wal if found is not None else None


def _by_recorded_id(root: RecordRoot, text: str, names: list[str] | None = None) -> ExecutionMatch:
    """The execution whose record *says* its id is ``text`` (or starts with it), as the
    list shows it; ``UnknownExecutionError`` if none, ``AmbiguousExecutionError`` if several
    ids do, and ``RecordedInSeveralFilesError`` naming every file if one id is in several
    (copies: the file is to be named). ``names``: the ids the file names gave (more than
    one), said as the ambiguity if the index finds none of them."""
    from intentus_tui.core.index.directory import DirectoryIndex  # the error path only

    summaries = [
        s
        for s in DirectoryIndex(root).scan()
        if (s.load_status.has_record and not s.key.endswith(WAL_SUFFIX))
        # a file named after the id that is no record (a WAL-only execution, a damaged
        # file) is an execution of that name, as the list shows it
        or (names is not None and s.execution_id in names)
    ]
    # A summary's id is its shown form already (as the list shows it, as one copies it).
    found = [s for s in summaries if s.execution_id == text] or [
        s for s in summaries if s.execution_id.startswith(text)
    ]
    ids = sorted({s.execution_id for s in found})
    if not ids:
        if names is not None:
            raise AmbiguousExecutionError(text, names)
        raise UnknownExecutionError(text, root)
    if len(ids) > 1:
        raise AmbiguousExecutionError(text, ids)
    files = sorted(s.file_name for s in found)
    if len(files) > 1:
        raise RecordedInSeveralFilesError(text, ids[0], files)
    if files[0].endswith(WAL_SUFFIX) or not os.path.lexists(root.records_dir / files[0]):
        found_by_name = _match(root, ids[0])
        if found_by_name is None:  # removed between the listing and now
            raise UnknownExecutionError(text, root)
        return found_by_name
    return ExecutionMatch(ids[0], root.records_dir / files[0], _log_of(root, ids[0]))
