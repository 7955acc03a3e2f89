"""File-system primitives, one copy each: confined reads, atomic writes, directory fsync.

Reading (``open_confined``, ``read_regular_file``, and ``read_plain_file`` for the common
case of a plain file read whole in one go): everything the debugger reads is named
by a directory listing or by a user, and may be anything. The open never blocks (a FIFO
with no writer would hang a plain ``open``), never takes a controlling terminal, and
follows a symlink only when its target stays inside the directory that holds the link;
the read refuses what is not a regular file (a directory, a FIFO, a device, a socket).

Writing (``atomic_write``): readers see the old file or the new one, never a mix. The
bytes go to a hidden ``.<name>.<random>.tmp`` file in the same directory (no lister takes
it for a record, a WAL or a snapshot), which is fsynced, renamed over the target, and
the directory is fsynced so the rename survives a power cut. On any failure the temp
file is removed and the target is left as it was.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from intentus_tui.core import native

Writer = Callable[[bytes | bytearray | memoryview], None]


class FileWriter:
    """A ``Writer`` of one open file: each chunk written whole (a short write resumes).
    ``fileno`` is for a caller that writes to the file itself (a native helper)."""

    __slots__ = ("_fd",)

    def __init__(self, fd: int) -> None:
        self._fd = fd

    def __call__(self, chunk: bytes | bytearray | memoryview) -> None:
        view = memoryview(chunk)
        while view:
            view = view[os.write(self._fd, view) :]

    def fileno(self) -> int:
        return self._fd


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_READ_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0) | _CLOEXEC
_TEMP_NAME = re.compile(r"\.(?P<target>.+)\.[0-9a-f]{12}\.tmp")


class OutsideLinkError(OSError):
    """A symlink whose target lies outside the directory that holds it: not followed."""


class NotRegularFileError(OSError):
    """A path that is not a regular file; ``kind`` says what it is ("a directory", ...)."""

    def __init__(self, path: str | os.PathLike[str], st: os.stat_result) -> None:
        self.kind = file_kind(st)
        self.st = st
        super().__init__(errno.EINVAL, f"{self.kind}, not a regular file", os.fspath(path))


def file_kind(st: os.stat_result) -> str:
    """What a stat result describes, as a phrase for a message."""
    mode = st.st_mode
    if stat.S_ISREG(mode):
        return "a regular file"
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


FileLook = tuple[int, int, int]


def file_look(path: str | os.PathLike[str]) -> FileLook | None:
    """What tells that a file's content changed without reading it (inode, size, mtime in
    ns); None: it is not there."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_ino, st.st_size, st.st_mtime_ns)


def open_confined(path: str | os.PathLike[str], flags: int = 0) -> int:
    """Open read-only and non-blocking, following a symlink only into the link's own
    directory (or below it); ``OutsideLinkError`` otherwise. Returns the descriptor.

    ``O_NOFOLLOW`` makes plain files cost nothing extra: only a link (ELOOP) is resolved.
    The resolved target is opened with ``O_NOFOLLOW`` too, so a link swapped in between
    the check and the open is refused rather than followed.
    """
    base = _READ_FLAGS | flags
    try:
        return os.open(path, base | os.O_NOFOLLOW)
    except OSError as err:
        if err.errno != errno.ELOOP:
            raise
    link = Path(path)
    # realpath, not Path.resolve: a symlink loop must end in ELOOP below, not RuntimeError
    target = Path(os.path.realpath(link))
    if Path(os.path.realpath(link.absolute().parent)) not in target.parents:
        raise OutsideLinkError(
            errno.EPERM, f"symlink to {target}, outside the directory: not followed"
        )
    return os.open(target, base | os.O_NOFOLLOW)


def read_regular_file(
    path: str | os.PathLike[str], limit: int | None = None
) -> tuple[bytes, os.stat_result]:
    """The bytes of a regular file (at most ``limit`` of them) and its ``fstat``.

    Opened with ``open_confined``; anything but a regular file raises
    ``NotRegularFileError`` before a byte is read.
    """
    fd = open_confined(path)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFileError(path, st)
        chunks: list[bytes] = []
        remaining = st.st_size if limit is None else min(limit, st.st_size)
        while True:
            # Without a limit, read past the stat'd size: a file may grow while it is read.
            want = max(remaining, 65536) if limit is None else remaining
            if want <= 0:
                break
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
            if limit is not None and remaining <= 0:
                break
        return b"".join(chunks), st
    finally:
        os.close(fd)


# What ``read_plain_file`` gives: the data, and the file's size, mtime_ns, ctime_ns and
# inode as it was read.
PlainFile = tuple[bytes, int, int, int, int]
_PLAIN_FLAGS = os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | _CLOEXEC


def python_read_plain_file(path: str, limit: int) -> PlainFile | None:
    """A plain regular file of at most ``limit`` bytes, read whole by one read of its size
    (plus one byte, to see it did not grow) with its stamp; None for anything else: a
    link, a FIFO, a directory, a bigger file, a file changing as it is read, any error.
    A caller with None takes its careful reader (``read_regular_file``)."""
    try:
        fd = os.open(path, _PLAIN_FLAGS)
    except (OSError, ValueError):  # ValueError: a NUL in the name
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        data = os.read(fd, st.st_size + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    if len(data) != st.st_size:
        return None
    return data, st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino


# The same in C where it is built: every listing and scan reads each file this way, and
# the Python calls (a stat_result of 20 fields each) cost 1-1.2 us a file more: 7.2 us
# against 6.0 here, 2.5-3% of a listing's CPU at 100,000 records (``bench/bench_native.py``).
read_plain_file: Callable[[str, int], PlainFile | None] = (
    native.read_plain_file or python_read_plain_file
)


def fsync_directory(directory: str | os.PathLike[str]) -> None:
    """Make a rename or a new file in ``directory`` durable (where the system allows it)."""
    try:
        fd = os.open(directory, os.O_RDONLY | _CLOEXEC)
    except OSError:
        return  # not supported here (e.g. Windows): the rename itself has happened
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse to fsync a directory
    finally:
        os.close(fd)


# The longest name a directory entry may have (bytes) on Linux, macOS and Windows file systems.
_NAME_MAX = 255


def temp_name_for(name: str) -> str:
    """A fresh name for ``atomic_write``'s temp file of ``name``: a name too long to take
    its 18 more bytes is cut (a 240-byte name, one the file system takes, was refused as
    "file name too long": its temp file's name was)."""
    suffix = f".{os.urandom(6).hex()}.tmp"  # not secrets.token_hex: its import, 3 ms
    room = _NAME_MAX - 1 - len(suffix)
    encoded = os.fsencode(name)
    if len(encoded) > room:
        name = os.fsdecode(encoded[:room])
    return f".{name}{suffix}"


def temp_target(name: str) -> str | None:
    """The target name an ``atomic_write`` temp file was made for, or None."""
    match = _TEMP_NAME.fullmatch(name)
    return match.group("target") if match else None


@contextlib.contextmanager
def atomic_file(path: str | os.PathLike[str], *, durable: bool = True) -> Iterator[FileWriter]:
    """A writer of ``path``'s new content: when the block ends without an error, ``path`` is
    replaced by what was written, atomically (a hidden temp file in the same directory,
    renamed over it); on an error nothing changes and no temp file is left.

    ``durable=False`` skips both fsyncs (the swap is still atomic, but a power cut may
    lose it): for files that are cheap to write again.
    """
    target = Path(path)
    directory = target.parent
    temp = directory / temp_name_for(target.name)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC, 0o666)
    try:
        try:
            yield FileWriter(fd)
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise
    if durable:
        fsync_directory(directory)


def atomic_write(
    path: str | os.PathLike[str], data: bytes | Iterable[bytes], *, durable: bool = True
) -> Path:
    """Replace ``path`` with ``data`` (bytes, or chunks of bytes written in turn, so a large
    file need not be held whole) atomically, as ``atomic_file`` does; return the path."""
    chunks = [data] if isinstance(data, bytes | bytearray | memoryview) else data
    with atomic_file(path, durable=durable) as write:
        for chunk in chunks:
            write(chunk)
    return Path(path)


def write_gathered(fd: int, pieces: list[bytes | memoryview]) -> None:
    """Write ``pieces`` to ``fd`` in order, many per system call (``os.writev``), without
    joining them into one copy first: 100,000 listing rows (84 MB) took 58 ms to join here.
    A short write (a pipe, a signal) resumes where it stopped. ``pieces`` is used up: its
    items are replaced by what is left of them as the writing goes."""
    limit = _iov_max()
    index = 0
    while index < len(pieces):
        gathered = pieces[index : index + limit]
        written = os.writev(fd, gathered)
        if written == sum(map(len, gathered)):  # the usual case: no piece to walk through
            index += len(gathered)
            continue
        if not written and len(pieces[index]):
            raise OSError(errno.EIO, "the write made no progress")
        while index < len(pieces) and written >= len(pieces[index]):
            written -= len(pieces[index])
            index += 1
        if written:
            pieces[index] = memoryview(pieces[index])[written:]


def _iov_max() -> int:
    with contextlib.suppress(ValueError, OSError, AttributeError):
        return max(16, os.sysconf("SC_IOV_MAX"))
    return 1024
