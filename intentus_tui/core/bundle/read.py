"""Read a bundle safely: extract it into a private directory and compare it with its
manifest.

A bundle is untrusted input (it came from someone else). The archive is read as a stream,
one member at a time, and each member passes ``tarfile.data_filter`` and then stricter
checks of our own before a byte of it is written: a path a bundle may hold (no absolute
path, no ``..``, no hidden or unexpected name), a regular file (no symlink, hard link,
device or FIFO), no name twice (``./records/x.json``, as ``tar -C DIR .`` names it, is
``records/x.json``: checked, and counted, as that path), and limits on the number of
members, each one's size and their total. Files are created with ``O_EXCL | O_NOFOLLOW``
in directories this code made inside the destination, so nothing is written anywhere else.
Any refusal is a ``BundleError`` whose message is one line naming the member.

The records whose bytes are not those the manifest sealed, or that it does not name, are
written down beside the copy (``core.bundle.seal``), for whatever reads it to say so.
"""

from __future__ import annotations

import gzip
import hashlib
import os
import stat
import tarfile
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from intentus_tui.core.bundle.layout import (
    MANIFEST_DIGEST_NAME,
    MANIFEST_NAME,
    RECORDS,
    SECTIONS,
    bundle_path,
    is_directory_entry,
    member_problem,
)
from intentus_tui.core.bundle.manifest import Manifest, ManifestError
from intentus_tui.core.bundle.seal import write_changes
from intentus_tui.core.fsio import NotRegularFileError

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_OPEN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | _CLOEXEC
_CHUNK = 1 << 20
EXTRACTED_MODE = 0o400  # the extracted files are a read-only copy


class BundleError(ValueError):
    """A bundle that cannot be read, or is refused as unsafe; ``str()`` is one line."""


@dataclass(frozen=True, slots=True)
class BundleLimits:
    """What a bundle may hold at most (a bomb or a hostile header stops here)."""

    members: int = 50_000
    member_bytes: int = 1 << 30  # 1 GiB for one file
    total_bytes: int = 4 << 30  # 4 GiB for all of them
    manifest_bytes: int = 64 << 20


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A file that differs from the manifest: ``kind`` is missing, extra or changed."""

    kind: str
    path: str
    detail: str

    def line(self) -> str:
        return f"{self.kind}: {self.path}: {self.detail}"

    def to_json(self) -> dict[str, str]:
        return {"kind": self.kind, "path": self.path, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class ExtractedBundle:
    """A bundle extracted into ``directory`` (an ``.intentusnet``-shaped directory: it
    always has ``records/``), its manifest and where its files differ from it."""

    directory: Path
    manifest: Manifest
    problems: tuple[FileProblem, ...] = field(default=())
    # path inside the bundle -> (sha256 hex, size) of what was extracted
    files: dict[str, tuple[str, int]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return not self.problems


def _open_archive(path: Path) -> IO[bytes]:
    """The bundle the user named (a symlink to it is followed: the user chose it), opened
    without blocking so a FIFO is refused rather than waited on."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except FileNotFoundError:
        raise BundleError(f"no such file: {path}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFileError(path, st)
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "rb")


def _write_member(source: IO[bytes], target: Path, size: int) -> str:
    """Copy ``size`` bytes into a new file ``target``; its sha256 (hex)."""
    fd = os.open(
        target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC, EXTRACTED_MODE
    )
    digest = hashlib.sha256()
    written = 0
    try:
        while True:
            chunk = source.read(_CHUNK)
            if not chunk:
                break
            written += len(chunk)
            if written > size:  # tarfile never gives more than the header said
                raise BundleError(f"{target.name}: more data than its header says")
            digest.update(chunk)
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
    if written != size:
        raise BundleError(f"{target.name}: the archive ends inside this file (truncated)")
    return digest.hexdigest()


def _check_member(member: tarfile.TarInfo, destination: Path) -> str | None:
    """Why ``member`` is refused, or None; directory entries of the sections are skipped
    by the caller. Its path is checked as the bundle names it (``bundle_path``)."""
    name = bundle_path(member.name)
    problem = member_problem(name)
    if problem is not None and not (member.isdir() and is_directory_entry(name)):
        return problem
    if member.issym() or member.islnk():
        return f"a {'symbolic' if member.issym() else 'hard'} link (to {member.linkname!r})"
    if member.ischr() or member.isblk():
        return "a device file"
    if member.isfifo():
        return "a FIFO"
    if not (member.isreg() or member.isdir()):
        return "not a regular file"
    try:
        tarfile.data_filter(member, str(destination))
    except tarfile.FilterError as exc:
        return f"refused by the data filter ({type(exc).__name__})"
    return None


def _read_small(source: IO[bytes], size: int) -> bytes:
    data = source.read(size)
    if len(data) != size:
        raise BundleError("the archive ends inside the manifest (truncated)")
    return data


def extract_bundle(
    path: str | os.PathLike[str], destination: Path, limits: BundleLimits | None = None
) -> ExtractedBundle:
    """Extract the bundle ``path`` into ``destination`` (an existing, empty, private
    directory) and compare it with its manifest. ``BundleError`` for anything unsafe or
    unreadable; the caller removes ``destination`` either way."""
    limits = limits or BundleLimits()
    archive = Path(path)
    label = archive.name
    files: dict[str, tuple[str, int]] = {}
    seen: set[str] = set()  # every file's path, as the bundle names it
    manifest_bytes: bytes | None = None
    digest_bytes: bytes | None = None
    count = total = 0
    try:
        # Decompressed by gzip, not by tarfile ("r|gz"): its stream reader checks neither
        # the CRC nor the length, and a byte changed in the middle of a bundle came out as
        # members missing (what followed it) and a damaged record, not a damaged archive.
        with (
            _open_archive(archive) as raw,
            gzip.GzipFile(fileobj=raw, mode="rb") as stream,
            tarfile.open(fileobj=stream, mode="r|") as tar,
        ):
            for member in tar:
                count += 1
                if count > limits.members:
                    raise BundleError(f"{label}: more than {limits.members:,} members: refused")
                problem = _check_member(member, destination)
                if problem is not None:
                    raise BundleError(f"{label}: member {member.name!r} refused: {problem}")
                if member.isdir():
                    continue
                name = bundle_path(member.name)  # ./records/x.json is records/x.json
                if name in seen:
                    raise BundleError(f"{label}: member {name!r} appears twice: refused")
                seen.add(name)
                if member.size > limits.member_bytes:
                    raise BundleError(
                        f"{label}: member {name!r} claims {member.size:,} bytes, over the "
                        f"limit of {limits.member_bytes:,}: refused"
                    )
                total += member.size
                if total > limits.total_bytes:
                    raise BundleError(
                        f"{label}: members add up to more than {limits.total_bytes:,} bytes: "
                        "refused"
                    )
                source = tar.extractfile(member)
                if source is None:  # not a regular file: refused above already
                    raise BundleError(f"{label}: member {name!r} has no data")
                if name in (MANIFEST_NAME, MANIFEST_DIGEST_NAME):
                    if member.size > limits.manifest_bytes:
                        raise BundleError(f"{label}: {name} is too large ({member.size:,} bytes)")
                    data = _read_small(source, member.size)
                    if name == MANIFEST_NAME:
                        manifest_bytes = data
                    else:
                        digest_bytes = data
                    continue
                section = destination / name.split("/", 1)[0]
                section.mkdir(mode=0o700, exist_ok=True)
                files[name] = (_write_member(source, destination / name, member.size), member.size)
            _read_to_the_end(stream, limits, label)  # where gzip checks the CRC, the length
    except BundleError:
        raise
    except NotRegularFileError as exc:
        raise BundleError(f"{label}: {exc.kind}, not a bundle file") from None
    except (tarfile.TarError, EOFError, zlib.error, gzip.BadGzipFile, OSError) as exc:
        why = str(exc) or type(exc).__name__
        raise BundleError(f"{label}: not a readable .tar.gz bundle ({why})") from None
    (destination / RECORDS).mkdir(mode=0o700, exist_ok=True)
    if manifest_bytes is None:
        raise BundleError(f"{label}: no {MANIFEST_NAME}: not a bundle this tool wrote")
    problems = _manifest_digest_problems(manifest_bytes, digest_bytes)
    try:
        manifest = Manifest.parse(manifest_bytes)
    except ManifestError as exc:
        raise BundleError(f"{label}: {exc}") from None
    problems += compare_with_manifest(manifest, files)
    # Told to whatever reads the copy: a record whose bytes are not those sealed is tampered.
    write_changes(destination, problems, files)
    return ExtractedBundle(destination, manifest, tuple(problems), files)


def _read_to_the_end(stream: gzip.GzipFile, limits: BundleLimits, label: str) -> None:
    """What follows the archive's last member (its end blocks, padding), read to the end of
    the compressed stream; no further than the members' limit (a bomb stops there)."""
    read = 0
    while chunk := stream.read(1 << 20):
        read += len(chunk)
        if read > limits.total_bytes:
            raise BundleError(
                f"{label}: more than {limits.total_bytes:,} bytes after its last member: refused"
            )


def _manifest_digest_problems(manifest: bytes, digest_file: bytes | None) -> list[FileProblem]:
    if digest_file is None:
        return [FileProblem("missing", MANIFEST_DIGEST_NAME, "the manifest's own sha256")]
    recorded = digest_file.decode("utf-8", "replace").split()
    actual = hashlib.sha256(manifest).hexdigest()
    if recorded[:2] != [actual, MANIFEST_NAME]:
        return [
            FileProblem(
                "changed",
                f"{MANIFEST_NAME} or {MANIFEST_DIGEST_NAME}",
                f"{MANIFEST_NAME} hashes to {actual[:16]}…, not to what "
                f"{MANIFEST_DIGEST_NAME} records",
            )
        ]
    return []


def compare_with_manifest(
    manifest: Manifest, files: dict[str, tuple[str, int]]
) -> list[FileProblem]:
    """Every file the manifest names and the bundle lacks, every file it holds the manifest
    does not name, and every file whose sha256 or size differs."""
    problems: list[FileProblem] = []
    named = {entry.path for entry in manifest.files}
    for entry in manifest.files:
        found = files.get(entry.path)
        if found is None:
            problems.append(FileProblem("missing", entry.path, "named in the manifest"))
            continue
        digest, size = found
        if digest != entry.sha256 or size != entry.size:
            problems.append(
                FileProblem(
                    "changed",
                    entry.path,
                    f"sha256 {digest[:16]}… ({size:,} bytes), the manifest says "
                    f"{entry.sha256[:16]}… ({entry.size:,} bytes)",
                )
            )
    problems += [
        FileProblem("extra", path, "not in the manifest")
        for path in sorted(files)
        if path not in named
    ]
    return sorted(problems, key=lambda p: (p.path, p.kind))


def section_of(path: str) -> str | None:
    """``records``, ``wal`` or ``snapshots`` for a path inside a bundle."""
    head = path.split("/", 1)[0]
    return head if head in SECTIONS else None
