"""What an execution can be compared with, found on disk: saved snapshots, Verist baselines
and record files outside the records directory; and the Active Graph runs of the run
databases found there, each compared with another run (``find_runs``).

``find_compare_files(root)`` looks in a few fixed places, never the records directory (the
index has read that already: its executions are the other candidates); with several roots
open, ``find_compare_files_in_roots`` looks under each of them, naming each file's root:

- the directory ``s`` saves snapshots into (``snapshot_directory``);
- ``.verist/baselines/<workflowId>/<version>/<step>/*.json`` (where Verist's CLI keeps
  baselines) in the opened directory and in the project directory that holds
  ``.intentusnet``;
- the ``*.json`` files directly in those directories (``intentus-tui snapshot`` writes
  ``<id>.snapshot.json`` into the current one), when they are snapshots, baselines or records;
- the runs of the Active Graph databases directly in those directories, and in the
  records directory when it is the directory opened (``*.db``, ``*.sqlite``, ``*.sqlite3``
  files that are SQLite run stores).

Each file is read once (confined, size-capped) to say what it is and to label it with what a
person recognises: workflow, version and step, the execution it was taken from, when. At
most ``MAX_FILES_PER_PLACE`` files per place are read, newest first; a file that is none of
those kinds is left out. Labels are raw text: sanitize before display.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

import orjson
import platformdirs

from intentus_tui.core.fsio import read_regular_file
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.timestamps import utc_text

TargetKind = Literal["snapshot", "baseline", "record", "run"]

# Files read per place (a directory, or the baselines tree), newest first.
MAX_FILES_PER_PLACE = 500
# Larger files are neither read nor offered (a snapshot of one execution is far smaller);
# typed in as a path, one is still compared.
MAX_LABEL_BYTES = 16 * 1024 * 1024
BASELINE_FORMAT = "verist-baseline@1"
_RECORD_SECTIONS = ("header", "envelope", "routerDecision", "events", "finalResponse")
_RECORD_HEADER_KIND = "intentusnet-record-header"
_BASELINES = Path(".verist") / "baselines"
_BASELINE_DEPTH = 4  # <workflowId>/<version>/<step>/<file>
# What Active Graph run stores are called (``Runtime(persist_to=...)`` takes any name: these
# are the names its examples and users give them; a file of another name is not opened).
RUN_DATABASE_SUFFIXES = (".db", ".sqlite", ".sqlite3")
MAX_RUNS_PER_DATABASE = 500  # the newest


def snapshot_directory(root: RecordRoot) -> Path:
    """Where ``s`` saves snapshots: never inside the records directory.

    In an ``.intentusnet/records`` layout, beside it in ``.intentusnet/snapshots`` (they
    belong to the incident's data); for any other directory of records, the user's data dir
    — a ``*.json`` written among records would be listed as a record, and a sibling of an
    arbitrary directory is not ours to create.
    """
    if root.records_dir.name == "records":
        return root.records_dir.parent / "snapshots"
    return platformdirs.user_data_path("intentus-tui") / "snapshots"


@dataclass(frozen=True, slots=True)
class CompareTarget:
    """One file an execution can be compared with.

    ``title`` says what it is of (``Summarize@1.0 · route``), ``execution_id`` the execution
    it was taken from (when it says), ``when`` its capture or creation time (UTC text, or
    ``""``), ``note`` anything else worth showing (a baseline's label, a run's fork), ``root``
    the label of the opened root it was found under (several roots open; ``""`` for one);
    ``changed``: a snapshot or baseline whose content no longer hashes to what it recorded.
    A run (``kind == "run"``) is ``run_id`` of the database ``path``, ``title`` its label or
    goal.
    """

    kind: TargetKind
    path: Path
    title: str
    execution_id: str = ""
    when: str = ""
    note: str = ""
    mtime: float = 0.0
    root: str = ""
    changed: bool = False
    run_id: str = ""


def project_directories(root: RecordRoot) -> list[Path]:
    """The opened directory and, for an ``.intentusnet/records`` layout, the directory that
    holds ``.intentusnet`` (where Verist's CLI and ``intentus-tui snapshot`` write)."""
    found = [root.requested]
    records = root.records_dir
    if records.name == "records":
        base = records.parent
        found.append(base.parent if base.name == ".intentusnet" else base)
    unique: list[Path] = []
    for directory in found:
        if directory not in unique:
            unique.append(directory)
    return unique


def find_compare_files(
    root: RecordRoot,
    *,
    snapshots: Path | None = None,
    per_place: int = MAX_FILES_PER_PLACE,
    label: str = "",
) -> list[CompareTarget]:
    """Snapshots, baselines and record files under ``root`` (see the module docstring),
    grouped by kind (snapshots, baselines, records), newest first in each; each names the
    root it was found under as ``label``. Never raises."""
    snapshots = snapshot_directory(root) if snapshots is None else snapshots
    places: list[list[tuple[Path, float]]] = [_json_files(snapshots, per_place)]
    skip = {_real(root.records_dir)}
    if root.wal_dir is not None:
        skip.add(_real(root.wal_dir))
    skip.add(_real(snapshots))
    for directory in project_directories(root):
        places.append(_baseline_files(directory / _BASELINES, per_place))
        if _real(directory) not in skip:  # an opened plain records directory is the index's
            skip.add(_real(directory))
            places.append(_json_files(directory, per_place))
    seen: set[Path] = set()
    targets: list[CompareTarget] = []
    for files in places:
        for path, mtime in files:
            real = _real(path)
            if real in seen:
                continue
            seen.add(real)
            target = describe_file(path, mtime)
            if target is not None:
                targets.append(replace(target, root=label) if label else target)
    targets.sort(key=_display_order)
    return targets


def find_compare_files_in_roots(
    roots: Sequence[tuple[str, RecordRoot]], *, per_place: int = MAX_FILES_PER_PLACE
) -> list[CompareTarget]:
    """``find_compare_files`` under every opened root (``(label, root)``, in the order they
    were opened), each file named by the root it was found under (the first, for a file two
    roots share: one project directory), grouped by kind, newest first. Never raises."""
    seen: set[Path] = set()
    targets: list[CompareTarget] = []
    for label, root in roots:
        for target in find_compare_files(root, per_place=per_place, label=label):
            real = _real(target.path)
            if real not in seen:
                seen.add(real)
                targets.append(target)
    targets.sort(key=_display_order)
    return targets


_KIND_ORDER = {"snapshot": 0, "baseline": 1, "record": 2, "run": 3}


def _display_order(target: CompareTarget) -> tuple[int, float, str]:
    return (_KIND_ORDER[target.kind], -target.mtime, target.path.name)


def _real(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _json_files(directory: Path, limit: int) -> list[tuple[Path, float]]:
    """The newest ``limit`` regular ``*.json`` files directly in ``directory``."""
    found: list[tuple[Path, float]] = []
    try:
        with os.scandir(directory) as entries:
            for entry in entries:
                if entry.name.startswith(".") or not entry.name.endswith(".json"):
                    continue
                try:
                    if entry.is_file(follow_symlinks=False):
                        st = entry.stat(follow_symlinks=False)
                        if st.st_size <= MAX_LABEL_BYTES:  # not read at all, not offered
                            found.append((Path(entry.path), st.st_mtime))
                except OSError:
                    continue
    except OSError:
        return []
    found.sort(key=lambda item: -item[1])
    return found[:limit]


def _baseline_files(directory: Path, limit: int) -> list[tuple[Path, float]]:
    """The newest ``limit`` files of a ``.verist/baselines`` tree (four levels, no links)."""
    found: list[tuple[Path, float]] = []
    for path in _walk(directory, _BASELINE_DEPTH, limit * 4):
        try:
            st = path.lstat()
        except OSError:
            continue
        if st.st_size <= MAX_LABEL_BYTES:
            found.append((path, st.st_mtime))
    found.sort(key=lambda item: -item[1])
    return found[:limit]


def _walk(directory: Path, depth: int, budget: int) -> Iterator[Path]:
    """``*.json`` files exactly ``depth`` levels down, at most ``budget`` of them; symbolic
    links (to a directory or a file) are not followed."""
    if directory.is_symlink():
        return
    stack = [(directory, depth)]
    while stack and budget > 0:
        current, left = stack.pop()
        try:
            with os.scandir(current) as entries:
                listed = list(entries)
        except OSError:
            continue
        for entry in listed:
            if entry.name.startswith("."):
                continue
            try:
                if left > 1 and entry.is_dir(follow_symlinks=False):
                    stack.append((Path(entry.path), left - 1))
                elif (
                    left == 1
                    and entry.name.endswith(".json")
                    and entry.is_file(follow_symlinks=False)
                ):
                    budget -= 1
                    yield Path(entry.path)
                    if budget <= 0:
                        return
            except OSError:
                continue


# --------------------------------------------------------------------------- one file


def describe_file(path: Path, mtime: float = 0.0) -> CompareTarget | None:
    """What ``path`` is, labelled; ``None`` when it is not a snapshot, baseline or record
    (or cannot be read). Never raises."""
    try:
        data, st = read_regular_file(path, limit=MAX_LABEL_BYTES + 1)
    except OSError:
        return None
    if len(data) > MAX_LABEL_BYTES:
        return None
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        try:  # what orjson refuses but JSON allows: integers beyond 64 bits, a BOM
            value = json.loads(data.decode("utf-8-sig"))
        except (ValueError, RecursionError):
            return None
    if not isinstance(value, dict):
        return None
    mtime = mtime or st.st_mtime
    if value.get("format") == BASELINE_FORMAT and isinstance(value.get("snapshot"), dict):
        metadata = value.get("metadata")
        label = metadata.get("label") if isinstance(metadata, dict) else None
        return _snapshot_target("baseline", path, value["snapshot"], mtime, _text(label))
    if {"stepName", "inputHash", "artifacts"} <= value.keys():
        return _snapshot_target("snapshot", path, value, mtime, "")
    if any(section in value for section in _RECORD_SECTIONS):
        return _record_target(path, value, mtime)
    return None


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _snapshot_target(
    kind: TargetKind, path: Path, snapshot: Mapping[str, Any], mtime: float, note: str
) -> CompareTarget:
    workflow = _text(snapshot.get("workflowId")) or "?"
    version = _text(snapshot.get("workflowVersion"))
    step = _text(snapshot.get("stepName")) or "?"
    title = f"{workflow}@{version} · {step}" if version else f"{workflow} · {step}"
    return CompareTarget(
        kind,
        path,
        title,
        execution_id=_snapshot_execution_id(snapshot.get("artifacts")),
        when=_ms_text(snapshot.get("capturedAt")),
        note=note,
        mtime=mtime,
        changed=_changed_since_saved(snapshot),
    )


def _changed_since_saved(document: Mapping[str, Any]) -> bool:
    """Whether a snapshot's content no longer hashes to what it recorded, as the comparison
    will say once it is picked (a tampered reference was offered as a good one)."""
    from intentus_tui.core.verist.snapshot import Snapshot, SnapshotError
    from intentus_tui.core.verist.verify import changed_since_saved

    try:
        return bool(changed_since_saved(Snapshot.from_json(document)))
    except SnapshotError:
        return False  # not one to compare with: the comparison says why


def _snapshot_execution_id(artifacts: Any) -> str:
    """The execution a snapshot of a record was taken from (its header artifact says)."""
    if not isinstance(artifacts, list):
        return ""
    for artifact in artifacts:
        if isinstance(artifact, dict) and artifact.get("kind") == _RECORD_HEADER_KIND:
            content = artifact.get("content")
            header = content.get("header") if isinstance(content, dict) else None
            if isinstance(header, dict):
                return _text(header.get("executionId"))
    return ""


def _ms_text(value: Any) -> str:
    """A Unix time in milliseconds as UTC text; ``""`` for none (Verist writes 0)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        return ""
    try:
        moment = datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, OSError, ValueError):
        return ""
    return moment.replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def _record_target(path: Path, record: Mapping[str, Any], mtime: float) -> CompareTarget:
    header = record.get("header")
    header = header if isinstance(header, dict) else {}
    envelope = record.get("envelope")
    intent = envelope.get("intent") if isinstance(envelope, dict) else None
    name = intent.get("name") if isinstance(intent, dict) else intent
    return CompareTarget(
        "record",
        path,
        _text(name) or "(no intent)",
        execution_id=_text(header.get("executionId")),
        when=utc_text(_text(header.get("createdUtcIso"))),
        mtime=mtime,
    )


# --------------------------------------------------------------------------- runs


def find_runs(
    roots: Sequence[tuple[str, RecordRoot]], *, per_place: int = MAX_FILES_PER_PLACE
) -> list[CompareTarget]:
    """The Active Graph runs of the run databases directly in each root's project
    directories (``project_directories``; the records directory only when it is the one
    opened, where a user keeps a run store beside records; never the log directory), each
    named by the root it was found under
    (``(label, root)``, as ``find_compare_files_in_roots``): the newest database first,
    each one's runs oldest first, as Active Graph lists them. Never raises."""
    seen: set[Path] = set()
    targets: list[CompareTarget] = []
    for label, root in roots:
        for directory in _run_store_directories(root):
            for path, mtime in _database_files(directory, per_place):
                real = _real(path)
                if real not in seen:
                    seen.add(real)
                    runs = database_runs(path, mtime)
                    targets += [replace(run, root=label) for run in runs] if label else runs
    return targets


def _run_store_directories(root: RecordRoot) -> list[Path]:
    """Where run stores are looked for: the project directories, the records directory
    among them only when it was opened itself (it is then the one place the user put
    things: a store there was never offered, though typing ``RUNS.db#ID`` compared it)."""
    skip = {_real(root.wal_dir)} if root.wal_dir else set()
    if _real(root.requested) != _real(root.records_dir):
        skip.add(_real(root.records_dir))  # a project's: stores sit beside ``.intentusnet``
    return [d for d in project_directories(root) if _real(d) not in skip]


# The run-store names of a directory, by its real path, as of its modification time: a
# records directory of 100,000 files is listed again only once a name came or went.
_STORE_NAMES: dict[Path, tuple[int, list[str]]] = {}


def _store_names(directory: Path) -> list[str]:
    try:
        stamp = os.stat(directory).st_mtime_ns
    except OSError:
        return []
    key = _real(directory)
    known = _STORE_NAMES.get(key)
    if known is not None and known[0] == stamp:
        return known[1]
    try:
        names = [
            name
            for name in os.listdir(directory)
            if not name.startswith(".") and name.endswith(RUN_DATABASE_SUFFIXES)
        ]
    except OSError:
        return []
    _STORE_NAMES[key] = (stamp, names)
    return names


def _database_files(directory: Path, limit: int) -> list[tuple[Path, float]]:
    """The newest ``limit`` regular files directly in ``directory`` named as run stores."""
    found: list[tuple[Path, float]] = []
    for name in _store_names(directory):
        path = directory / name
        try:
            st = path.lstat()
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            found.append((path, st.st_mtime))
    found.sort(key=lambda item: -item[1])
    return found[:limit]


def database_runs(path: Path, mtime: float = 0.0) -> list[CompareTarget]:
    """The runs of the Active Graph database ``path`` (at most ``MAX_RUNS_PER_DATABASE``, the
    newest); none when it is no run store or cannot be read. Never raises."""
    from intentus_tui.core.activegraph import ActiveGraphError, RunDatabase, is_sqlite_file

    if not is_sqlite_file(path):  # not opened as a database: a text file named .db
        return []
    try:
        with RunDatabase(path) as db:
            runs = db.list_runs()[-MAX_RUNS_PER_DATABASE:]
    except (ActiveGraphError, OSError):
        return []
    names = {run.run_id: run.label for run in runs}
    return [
        CompareTarget(
            "run",
            path,
            run.label or run.goal or "",
            when=utc_text(run.created_at or ""),
            note=_fork_note(run.parent_run_id, run.forked_at_event_id, names),
            mtime=mtime,
            run_id=run.run_id,
        )
        for run in runs
    ]


def _fork_note(parent: str | None, at: str | None, names: Mapping[str, str | None]) -> str:
    """``fork of child at #11``: its parent (by its label when it has one), and the event it
    left it after, numbered as a comparison numbers a run's events (``evt_011`` is ``#11``)."""
    if parent is None:
        return ""
    from intentus_tui.core.compare.notation import fork_event_text

    text = f"fork of {names.get(parent) or parent}"
    return f"{text} at {fork_event_text(at)}" if at else text
