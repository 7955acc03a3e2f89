"""Write a bundle of chosen executions: their record files, their write-ahead logs and the
snapshots saved of them, with a manifest.

The archive is deterministic for the same files and the same ``created`` time: members in
a fixed order (the manifest and its digest first, then the files sorted by path), fixed
owner and mode, each file's own modification time, the gzip header's time set to
``created``. It is written atomically (``fsio.atomic_file``): an interrupted bundle
leaves nothing, or the previous file, under the output name.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import re
import tarfile
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from intentus_tui import __version__
from intentus_tui.core.bundle.layout import (
    MANIFEST_DIGEST_NAME,
    MANIFEST_NAME,
    RECORDS,
    SNAPSHOTS,
    WALS,
    member_problem,
)
from intentus_tui.core.bundle.manifest import BundledExecution, FileEntry, Manifest
from intentus_tui.core.bundle.read import BundleError
from intentus_tui.core.detail import load_detail
from intentus_tui.core.execution_ids import ExecutionMatch, resolve_execution_id
from intentus_tui.core.fsio import atomic_file, read_regular_file
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.load import WAL_SUFFIX, why_unreadable
from intentus_tui.core.sanitize import sanitize_line

FILE_MODE = 0o644


@dataclass(frozen=True, slots=True)
class BundleFile:
    """One file to bundle: its path inside the bundle, its bytes and modification time."""

    path: str
    data: bytes
    mtime: int


def snapshot_directory_of(root: RecordRoot) -> Path | None:
    """Where the debugger saves snapshots of this root's records (``.intentusnet/snapshots``
    beside ``records``), or None for a directory of records of another shape."""
    if root.records_dir.name == RECORDS:
        return root.records_dir.parent / SNAPSHOTS
    return None


def snapshots_naming(directory: Path | None, execution_id: str) -> list[Path]:
    """The snapshot files saved of ``execution_id`` in ``directory``: the debugger's
    ``<id>-<8 hex>.json`` and the ``snapshot`` command's ``<id>.snapshot.json``."""
    if directory is None:
        return []
    pattern = re.compile(re.escape(execution_id) + r"(-[0-9a-f]{8}|\.snapshot)\.json")
    try:
        names = sorted(os.listdir(directory))
    except OSError:
        return []
    return [directory / name for name in names if pattern.fullmatch(name)]


def _file(path: Path, section: str) -> BundleFile:
    name = f"{section}/{path.name}"
    problem = member_problem(name)
    if problem is not None:
        raise ValueError(f"cannot bundle {path}: its name is {problem}")
    try:
        data, st = read_regular_file(path)
    except OSError as exc:  # the bundle would not hold the evidence it names
        raise BundleError(
            f"cannot bundle {path.name}: the file cannot be read ({why_unreadable(path, exc)})"
        ) from None
    return BundleFile(name, data, int(st.st_mtime))


def collect(
    root: RecordRoot, matches: Sequence[ExecutionMatch]
) -> tuple[list[BundleFile], list[BundledExecution]]:
    """The files of each execution (record, WAL, snapshots that name it) and what the
    manifest says of it (its verdict now). ``BundleError`` if a file cannot be read."""
    files: dict[str, BundleFile] = {}
    executions: list[BundledExecution] = []
    snapshot_dir = snapshot_directory_of(root)
    for match in matches:
        record = _file(match.record, RECORDS) if match.record is not None else None
        wal = _file(match.wal, WALS) if match.wal is not None else None
        snapshots = [
            _file(p, SNAPSHOTS) for p in snapshots_naming(snapshot_dir, match.execution_id)
        ]
        for item in (record, wal, *snapshots):
            if item is not None:
                files[item.path] = item
        main = match.record if match.record is not None else match.wal
        verdict = load_detail(main, root.wal_dir).verdict if main is not None else None
        executions.append(
            BundledExecution(
                execution_id=match.execution_id,
                record=record.path if record else None,
                wal=wal.path if wal else None,
                snapshots=tuple(s.path for s in snapshots),
                verdict=verdict.to_json() if verdict is not None else None,
            )
        )
    return [files[name] for name in sorted(files)], executions


class _Sink(io.RawIOBase):
    """A write-only file object over ``atomic_file``'s writer."""

    def __init__(self, write: object) -> None:
        self._write = write

    def writable(self) -> bool:
        return True

    def write(self, data: object) -> int:
        view = memoryview(data)  # type: ignore[arg-type]
        self._write(view)  # type: ignore[operator]
        return len(view)


def _member(name: str, size: int, mtime: int) -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.size = size
    info.mtime = mtime
    info.mode = FILE_MODE
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    info.type = tarfile.REGTYPE
    return info


def write_bundle(
    output: Path,
    files: Sequence[BundleFile],
    executions: Sequence[BundledExecution],
    *,
    created: datetime | None = None,
) -> Manifest:
    """Write the bundle to ``output`` (atomically) and return its manifest."""
    when = (created or datetime.now(UTC)).astimezone(UTC).replace(microsecond=0)
    stamp = int(when.timestamp())
    ordered = sorted(files, key=lambda f: f.path)
    manifest = Manifest(
        tool_version=__version__,
        created=when.isoformat().replace("+00:00", "Z"),
        files=tuple(
            FileEntry(f.path, hashlib.sha256(f.data).hexdigest(), len(f.data)) for f in ordered
        ),
        executions=tuple(executions),
    )
    manifest_bytes = manifest.to_bytes()
    digest_line = f"{hashlib.sha256(manifest_bytes).hexdigest()}  {MANIFEST_NAME}\n".encode()
    members = [
        (MANIFEST_NAME, manifest_bytes, stamp),
        (MANIFEST_DIGEST_NAME, digest_line, stamp),
        *((f.path, f.data, f.mtime) for f in ordered),
    ]
    with atomic_file(output) as write:
        sink = _Sink(write)
        with (
            gzip.GzipFile(filename="", mode="wb", fileobj=sink, mtime=stamp) as zipped,
            tarfile.open(fileobj=zipped, mode="w", format=tarfile.PAX_FORMAT) as tar,
        ):
            for name, data, mtime in members:
                tar.addfile(_member(name, len(data), mtime), io.BytesIO(data))
    return manifest


def bundle_executions(
    root: RecordRoot, ids: Sequence[str], output: Path, *, created: datetime | None = None
) -> Manifest:
    """Bundle the executions ``ids`` (whole ids or unique prefixes) of ``root`` into
    ``output``. Raises ``ExecutionIdError``/``UnsafeIdError`` for an id, ``BundleError`` for a
    file that cannot be read, ``OSError`` for the output that cannot be written."""
    # By execution and file: a copy of a record (another file, the same recorded id) is
    # bundled beside the original, not taken for it.
    matches: dict[tuple[str, Path | None], ExecutionMatch] = {}
    for text in ids:
        match = resolve_execution_id(root, text)
        matches.setdefault((match.execution_id, match.record), match)
    files, executions = collect(root, list(matches.values()))
    return write_bundle(output, files, executions, created=created)


def copies_left_out(root: RecordRoot, manifest: Manifest) -> dict[str, list[str]]:
    """By execution id of ``manifest``: the other record files of ``root`` that record it
    (copies under other names, as the index reads them) and that the bundle does not hold
    (sorted names; executions with none left out are absent). Costs the directory's index
    scan (its cache when it is warm)."""
    from intentus_tui.core.index.directory import DirectoryIndex  # the bundle command's only

    bundled = {Path(e.record).name for e in manifest.executions if e.record is not None}
    # A summary's id is its shown form.
    wanted = {sanitize_line(e.execution_id): e.execution_id for e in manifest.executions}
    left: dict[str, set[str]] = {}
    for summary in DirectoryIndex(root).scan():
        execution_id = wanted.get(summary.execution_id)
        if (
            execution_id is None
            or summary.key.endswith(WAL_SUFFIX)
            or summary.file_name in bundled
            or not os.path.lexists(root.records_dir / summary.file_name)
        ):
            continue
        left.setdefault(execution_id, set()).add(summary.file_name)
    return {i: sorted(names) for i, names in sorted(left.items())}
