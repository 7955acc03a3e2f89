"""Copying many small files from an SSH server as one ``tar`` stream.

Reading 10,000 small files over SFTP costs the client a request, a reply and an open and
close per file (asyncssh spends most of a millisecond of Python on each). Asking the
server's own ``tar`` for them over an exec channel of the same SSH connection sends them
as one stream instead: the long-standing way files are copied over SSH (``tar | ssh``,
scp and rsync all run a program on the far end). The channel is opened on the connection
sshfs already made, so the host key check, the authentication and the timeouts are the
ones every other read has.

The stream is untrusted (whatever answers as ``tar`` on the server wrote it) and is read
one member at a time, never unpacked by ``tarfile`` itself: a member must be a regular
file whose name is exactly one of the names asked for (no path, no ``..``, no link, no
device), at most once, under a size limit; its bytes are written into the mirror with
``O_EXCL | O_NOFOLLOW`` under that name only. Anything else stops the stream with a
``TarRefused`` whose message is one line. A server without ``tar`` (or one that allows
SFTP only) gives no stream at all: ``TarUnavailable``, and the caller reads over SFTP.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import posixpath
import re
import shlex
import tarfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, cast

from intentus_tui.core.fsio import temp_name_for
from intentus_tui.core.records.load import HUGE_FILE_BYTES

# A member may have grown since it was listed (a WAL is appended to); one over this is not
# what was asked for (tar is only asked for files listed at most HUGE_FILE_BYTES).
MEMBER_LIMIT = 2 * HUGE_FILE_BYTES
# Names passed to tar one a line, each as ``./NAME``: both GNU tar and busybox tar read such
# a list the same way when no name holds a newline, a backslash (GNU tar unquotes), a
# wildcard or a space; a file with any other name is read over SFTP.
_TAR_SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._+=@,:%~-]{0,95}")
_BLOCK = tarfile.BLOCKSIZE
_PLAIN_KINDS = (tarfile.REGTYPE, tarfile.AREGTYPE, tarfile.LNKTYPE, tarfile.SYMTYPE)
_NAMES_AT_ONCE = 128  # names sent to tar in one write (a write is an SSH packet)
_CHUNK = 1 << 20  # bytes asked of the channel at once
_WINDOW = 8 << 20  # the SSH channel's window: what the server may send ahead of the reader
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
# (name in the remote directory, mirror path, listed size, modification time to give it)
Asked = tuple[str, Path, int, float | None]
_NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | _CLOEXEC


class TarUnavailable(Exception):
    """No tar stream came (exec refused, no ``tar`` on the server, SFTP-only account)."""


class TarRefused(Exception):
    """The stream held something that was not asked for; ``str()`` is one line."""


def tar_safe_name(name: str) -> bool:
    """Can ``name`` be asked of the server's tar (else it is read over SFTP)?"""
    return _TAR_SAFE_NAME.fullmatch(name) is not None and name not in (".", "..")


def tar_command(remote_dir: str) -> str:
    """The command run on the server: the files named on stdin, from ``remote_dir``."""
    return f"tar -c -f - -C {shlex.quote(remote_dir)} -T -"


class _ChannelStream:
    """The tar process's stdout, read forward only: whole blocks for the header walk
    below, and the file interface ``tarfile`` reads (``read``, ``tell``, forward
    ``seek``: it seeks past a member's data, never back). Each wait for bytes is bounded
    by ``timeout`` (a stall is a ``TimeoutError``), and the stream by ``limit``."""

    def __init__(
        self,
        run: Callable[[Coroutine[Any, Any, Any]], Any],
        reader: Any,
        limit: Callable[[], int],
    ) -> None:
        self._run = run
        self._reader = reader
        self._limit = limit  # the most bytes the files asked so far can make
        self._data = b""
        self._at = 0  # the read position in self._data
        self._base = 0  # the stream offset of self._data[0]
        self._eof = False
        self.received = 0

    def _fill(self, want: int) -> int:
        """Make ``want`` bytes readable if the stream has them; how many are."""
        if want > MEMBER_LIMIT + _BLOCK:  # a header (pax, long name) claiming a huge size
            raise TarRefused(f"tar stream refused: a header claims {want:,} bytes")
        while len(self._data) - self._at < want and not self._eof:
            chunk = self._run(self._reader.read(_CHUNK))
            if not chunk:
                self._eof = True
                break
            self.received += len(chunk)
            if self.received > self._limit():
                raise TarRefused(
                    f"tar stream refused: over {self._limit():,} bytes, more than the files "
                    "asked for can make"
                )
            self._base += self._at
            self._data = self._data[self._at :] + chunk
            self._at = 0
        return min(want, len(self._data) - self._at)

    def peek(self, size: int) -> memoryview:
        """The next ``size`` bytes (fewer at the end), not consumed."""
        got = self._fill(size)
        return memoryview(self._data)[self._at : self._at + got]

    def read(self, size: int = -1) -> bytes:
        if size is None or size < 0:
            raise ValueError("a tar stream is read in pieces")
        got = self._fill(size)
        data = self._data[self._at : self._at + got]
        self._at += got
        return data

    def skip(self, size: int) -> None:
        self._at += self._fill(size)

    def tell(self) -> int:
        return self._base + self._at

    def seek(self, position: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_CUR:
            position += self.tell()
        elif whence != os.SEEK_SET:
            raise OSError("a tar stream cannot seek from its end")
        if position < self.tell():
            raise OSError("a tar stream cannot seek back")
        while position > self.tell():
            if not self.read(min(position - self.tell(), _CHUNK)):
                break
        return self.tell()


@dataclass(slots=True)
class TarOutcome:
    """What ``list_and_copy`` did with one directory."""

    asked: list[Asked]  # what tar was asked for, in order
    landed: set[int]  # indexes into ``asked`` of the files written whole
    unavailable: bool = False  # no tar stream came: ask no more
    refused: str | None = None  # the one line saying why the stream was refused


class _Feed:
    """The names asked of one tar process as the listing finds them (on the event loop),
    shared with the thread that unpacks its stream (each name is registered before it
    is sent, so every member tar can send is known when it arrives)."""

    def __init__(self, connection: Any, remote_dir: str, timeout: float) -> None:
        self.connection = connection
        self.timeout = timeout
        self.command = tar_command(remote_dir)
        self.asked: list[Asked] = []
        self.where: dict[str, int] = {}
        # What a tar of the files asked for can make: headers, data in 512-byte blocks,
        # the end, and room for files that grew since they were listed (a WAL grows).
        self.limit = 1 << 20
        self.started: concurrent.futures.Future[Any] = concurrent.futures.Future()
        self.unavailable = False
        self.listing = True  # the listing is still going (and may ask for more)
        self.progressed = time.monotonic()
        self._process: Any = None
        self._pending: list[bytes] = []
        self._dead = False

    async def ask(self, item: Asked) -> None:
        if self._dead:
            return
        name, _, size, _ = item
        self.where[name] = len(self.asked)
        self.asked.append(item)
        self.limit += 2 * -(-max(size, 0) // _BLOCK) * _BLOCK + 4 * _BLOCK
        self._pending.append(f"./{name}\n".encode())
        if len(self._pending) >= _NAMES_AT_ONCE:
            await self.flush()

    async def flush(self) -> None:
        if self._dead or not self._pending:
            return
        from asyncssh import DEVNULL, ChannelOpenError

        if self._process is None:
            try:
                self._process = await asyncio.wait_for(
                    self.connection.create_process(
                        self.command,
                        encoding=None,
                        stderr=DEVNULL,
                        request_pty=False,
                        window=_WINDOW,
                    ),
                    self.timeout,
                )
            except ChannelOpenError:  # the server runs no command for us: SFTP only
                self._dead = self.unavailable = True
                self.started.set_result(None)
                return
            self.started.set_result(self._process)
        try:
            self._process.stdin.write(b"".join(self._pending))
        except Exception:  # the channel has closed (the stream was refused or broke off)
            self._dead = True
        self._pending.clear()

    async def end(self) -> None:
        """No more names: tar finishes the stream once it has read them."""
        self.listing = False
        with contextlib.suppress(Exception):
            await self.flush()
        if self._process is not None:
            with contextlib.suppress(Exception):
                self._process.stdin.write_eof()
        if not self.started.done():
            self.started.set_result(None)


def list_and_copy(
    fs: Any,
    remote_dir: str,
    local_dir: Path,
    timeout: float,
    choose: Callable[[dict[str, Any]], Asked | None],
    landed: Callable[[Asked, int], object],
) -> TarOutcome:
    """List ``remote_dir`` over SFTP and, while the listing goes on, copy the files
    ``choose`` picks (it sees each listed entry as sshfs's ``ls`` gives it, on the event
    loop: a missing directory lists nothing) into ``local_dir``
    through one tar stream; ``landed(file, bytes)`` is called as each is written whole.
    Files the stream did not hold (vanished, a hard link, a stream that broke off or was
    refused) are not landed: the caller reads them another way. A network fault or a
    stall (``TimeoutError``) is raised as it is."""
    loop = fs.loop
    feed = _Feed(fs._client, remote_dir, timeout)
    listing = asyncio.run_coroutine_threadsafe(
        _list_and_feed(fs, remote_dir, feed, choose, timeout), loop
    )
    outcome = TarOutcome(feed.asked, set())
    concurrent.futures.wait([feed.started, listing], return_when=concurrent.futures.FIRST_COMPLETED)
    process = feed.started.result() if feed.started.done() else None
    if process is not None:
        outcome.landed = _unpack_stream(loop, process, feed, local_dir, timeout, landed, outcome)
    listing.result()  # a fault while listing is raised here
    outcome.unavailable = outcome.unavailable or feed.unavailable
    return outcome


def _unpack_stream(
    loop: asyncio.AbstractEventLoop,
    process: Any,
    feed: _Feed,
    local_dir: Path,
    timeout: float,
    landed: Callable[[Asked, int], object],
    outcome: TarOutcome,
) -> set[int]:
    def run(coro: Coroutine[Any, Any, Any]) -> Any:
        future = asyncio.run_coroutine_threadsafe(coro, loop)
        while True:
            try:
                return future.result(timeout)
            except concurrent.futures.TimeoutError:
                # tar waits for names while a long listing finds none to ask: not a stall
                if feed.listing and time.monotonic() - feed.progressed < timeout:
                    continue
                future.cancel()
                raise TimeoutError("no answer from the tar stream in time") from None

    unpacker = _Unpacker(local_dir, feed, landed)
    try:
        _unpack(_ChannelStream(run, process.stdout, lambda: feed.limit), unpacker)
    except TarUnavailable:
        outcome.unavailable = True
    except TarRefused as exc:
        outcome.refused = str(exc)
    finally:
        unpacker.close()
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(_finish(process), loop).result(timeout)
    return unpacker.done


async def _list_and_feed(
    fs: Any,
    remote_dir: str,
    feed: _Feed,
    choose: Callable[[dict[str, Any]], Asked | None],
    timeout: float,
) -> None:
    """List ``remote_dir`` (each entry as sshfs's ``ls`` makes it: the same stamps), each
    chosen file asked of tar as soon as it is seen."""
    from asyncssh import SFTPNoSuchFile

    try:
        sftp = await asyncio.wait_for(fs._client.start_sftp_client(), timeout)
        try:
            names = sftp.scandir(remote_dir).__aiter__()
            while True:
                try:
                    found = await asyncio.wait_for(names.__anext__(), timeout)
                except StopAsyncIteration:
                    break
                feed.progressed = time.monotonic()
                if found.filename in ("", ".", ".."):
                    continue
                entry = fs._decode_attributes(found.attrs)
                entry["name"] = posixpath.join(remote_dir, found.filename)
                item = choose(entry)
                if item is not None:
                    await feed.ask(item)
        finally:
            sftp.exit()
    except SFTPNoSuchFile:
        pass
    finally:
        await feed.end()


async def _finish(process: Any) -> None:
    """End the tar process's channel: at once if the stream was left early."""
    if process.stdout.at_eof():
        with contextlib.suppress(Exception):
            await asyncio.wait_for(process.wait_closed(), 1.0)
    process.close()


class _Unpacker:
    """Checks each member against the names asked for and writes the ones accepted."""

    def __init__(
        self, directory: Path, feed: _Feed, landed: Callable[[Asked, int], object]
    ) -> None:
        self.where = feed.where
        self.wanted = feed.asked
        self.landed = landed
        self.done: set[int] = set()
        self.directory = os.open(directory, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)

    def close(self) -> None:
        os.close(self.directory)

    def check(self, name: str, kind: bytes, size: int, link: str) -> int | None:
        """The index of the file a member is, or None to skip it; ``TarRefused`` (one
        line) for anything not asked for."""
        plain = name[2:] if name.startswith("./") else name
        shown = repr(name[:120])
        if name.startswith("/"):
            raise TarRefused(f"tar stream member {shown} refused: an absolute path")
        if ".." in plain.split("/"):
            raise TarRefused(f"tar stream member {shown} refused: '..' in its path")
        index = self.where.get(plain)
        if index is None:
            raise TarRefused(f"tar stream member {shown} refused: a name that was not asked for")
        if index in self.done:
            raise TarRefused(f"tar stream member {shown} refused: it appears twice")
        if kind == tarfile.LNKTYPE:
            target = link[2:] if link.startswith("./") else link
            if target in self.where:  # tar sends a second name of one file as a link
                return None  # to the first: that name is read another way
            raise TarRefused(f"tar stream member {shown} refused: a hard link to {target[:120]!r}")
        if kind == tarfile.SYMTYPE:
            raise TarRefused(f"tar stream member {shown} refused: a symbolic link")
        if kind in (tarfile.CHRTYPE, tarfile.BLKTYPE, tarfile.FIFOTYPE):
            raise TarRefused(f"tar stream member {shown} refused: a device or FIFO")
        if kind not in (tarfile.REGTYPE, tarfile.AREGTYPE):
            raise TarRefused(f"tar stream member {shown} refused: not a regular file")
        if size > MEMBER_LIMIT:
            raise TarRefused(
                f"tar stream member {shown} refused: it claims {size:,} bytes, over the "
                f"limit of {MEMBER_LIMIT:,}"
            )
        return index

    def write(self, index: int, data: memoryview | bytes) -> None:
        item = self.wanted[index]
        _write(self.directory, item[1].name, data, item[3])
        self.done.add(index)
        self.landed(item, len(data))


def _unpack(stream: _ChannelStream, unpacker: _Unpacker) -> None:
    if _plain_members(stream, unpacker):
        _other_members(stream, unpacker)


def _plain_members(stream: _ChannelStream, unpacker: _Unpacker) -> bool:
    """Walk the headers a plain ustar or GNU tar of short names has (a name, a size, a
    checksum): what GNU tar and busybox tar send for these files. True when a header
    needs more (pax or long-name headers, an unusual size field): ``tarfile`` reads the
    rest. ``TarUnavailable`` when the stream does not start as a tar archive."""
    while True:
        header = stream.peek(_BLOCK)
        first = stream.tell() == 0
        if len(header) < _BLOCK:  # the stream ended early: what landed stays
            if first:
                raise TarUnavailable("no tar stream")
            return False
        if not any(header):
            return False  # the end-of-archive blocks
        stored = _octal(header[148:156])
        if stored is None or stored != sum(header) - sum(header[148:156]) + 8 * 32:
            if first:
                raise TarUnavailable("not a tar stream")
            return False  # broken off inside: the rest is read another way
        kind = bytes(header[156:157])
        ustar = header[257:262] == b"ustar"
        size = _octal(header[124:136])
        if (
            kind not in _PLAIN_KINDS
            or size is None
            or (ustar and header[345] != 0)  # a name split into a prefix
        ):
            return True
        name = bytes(header[:100]).partition(b"\0")[0].decode("utf-8", "surrogateescape")
        link = bytes(header[157:257]).partition(b"\0")[0].decode("utf-8", "surrogateescape")
        index = unpacker.check(name, kind, size, link)
        stream.skip(_BLOCK)
        data = stream.peek(size)
        if len(data) < size:
            return False  # the stream ended inside this file
        if index is not None:
            unpacker.write(index, data)
        del data
        stream.skip(-(-size // _BLOCK) * _BLOCK)


def _other_members(stream: _ChannelStream, unpacker: _Unpacker) -> None:
    """The rest of the stream, read by ``tarfile`` (pax and GNU long-name headers)."""
    try:
        archive = tarfile.TarFile(fileobj=cast(IO[bytes], stream), mode="r", encoding="utf-8")
    except (tarfile.TarError, EOFError) as exc:
        if stream.tell() == 0 or not unpacker.done:
            raise TarUnavailable(str(exc) or "not a tar stream") from None
        return  # broken off: what landed stays
    try:
        while True:
            try:
                member = archive.next()
            except (tarfile.TarError, EOFError):  # broken off: what landed stays
                return
            if member is None:
                return
            kind = member.type
            if member.issparse():
                kind = b"sparse"
            index = unpacker.check(member.name, kind, member.size, member.linkname)
            if index is None:
                continue
            stream.seek(member.offset_data)
            data = stream.read(member.size)
            if len(data) != member.size:  # the stream ended inside this file
                return
            unpacker.write(index, data)
    finally:
        archive.close()  # the stream is not closed by it: the caller ends the channel


def _octal(field: memoryview) -> int | None:
    """A header's octal number field, or None (base-256 and junk are left to tarfile)."""
    raw = bytes(field).strip(b"\0 ")
    if not raw:
        return 0
    try:
        return int(raw, 8)
    except ValueError:
        return None


def _write(directory: int, name: str, data: memoryview | bytes, mtime: float | None) -> None:
    """``name`` in ``directory`` (a descriptor) holding ``data`` (and ``mtime``), created
    with ``O_EXCL | O_NOFOLLOW``: a new file straight under its name (written in one go;
    its modification time set last, so no stamp of a half-written file can match), a
    changed one replaced at once from a temp file, so the old copy stays whole until then."""
    target = name
    try:
        fd = os.open(name, _NEW_FILE, 0o666, dir_fd=directory)
    except FileExistsError:
        target = temp_name_for(name)
        fd = os.open(target, _NEW_FILE, 0o666, dir_fd=directory)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
        if mtime is not None:
            os.utime(fd, (mtime, mtime))
    except BaseException:
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(target, dir_fd=directory)
        raise
    os.close(fd)
    if target != name:
        try:
            os.replace(target, name, src_dir_fd=directory, dst_dir_fd=directory)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(target, dir_fd=directory)
            raise
