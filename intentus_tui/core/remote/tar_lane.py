"""Copying many small files from an SSH server as one ``tar`` stream.

Reading 10,000 small files over SFTP costs the client a request, a reply and an open and
close per file (asyncssh spends most of a millisecond of Python on each). Asking the
server's own ``tar`` for them over an exec channel of the same SSH connection sends them
as one stream instead: the long-standing way files are copied over SSH (``tar | ssh``,
scp and rsync all run a program on the far end). The channel is opened on the connection
sshfs already made, so the host key check, the authentication and the timeouts are the
ones every other read has. At a first sync the same process also lists the directory
(the server's ``find``, see ``find_listing``, racing an SFTP listing that starts at
once); names are sent to tar as the listing finds them, so the stream starts before the
listing ends.

The stream is untrusted (whatever answers as ``tar`` on the server wrote it) and is read
one member at a time, never unpacked by ``tarfile`` itself: a member must be a regular
file whose name is exactly one of the names asked for (no path, no ``..``, no link, no
device), at most once, under a size limit; its bytes are written into the mirror with
``O_EXCL | O_NOFOLLOW`` under that name only. Anything else stops the stream with a
``TarRefused`` whose message is one line. A server without ``tar`` (or one that allows
SFTP only) gives no stream at all: ``TarUnavailable``, and the caller reads over SFTP.

Everything runs on the filesystem's event loop, as the SFTP reads do (a second thread
making many small system calls would wait for the interpreter's lock at each one), but
the writing of the accepted files: a thread of its own (``mirror_writer``) writes them a
batch at a time with the native ``write_new_files``, which releases the lock for the whole
batch, while the
loop reads and checks the next members (the loop is what the whole copy waits for, and
the writes were a third of its time). What landed is handed to the calling thread in
batches.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import queue
import re
import stat
import tarfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from zlib import adler32

from intentus_tui.core.records.load import HUGE_FILE_BYTES
from intentus_tui.core.remote.find_listing import (
    early_command,
    early_line,
    list_then_tar_command,
    read_listing,
)
from intentus_tui.core.remote.mirror_writer import Member, MirrorWriter, nanoseconds

# A member may have grown since it was listed (a WAL is appended to); one over this is not
# what was asked for (tar is only asked for files listed at most HUGE_FILE_BYTES).
MEMBER_LIMIT = 2 * HUGE_FILE_BYTES
# Names passed to tar one a line, each as ``./NAME``: both GNU tar and busybox tar read such
# a list the same way when no name holds a newline, a backslash (GNU tar unquotes), a
# wildcard or a space; a file with any other name is read over SFTP.
_TAR_SAFE_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9._+=@,:%~-]{0,95}")
_BLOCK = tarfile.BLOCKSIZE
_ZERO_BLOCK = bytes(_BLOCK)
# Headers that say something about the member after them (pax, GNU long names): read by
# tarfile. A global pax header would change every member after it: the stream is left.
_EXTENDED_KINDS = (
    tarfile.XHDTYPE,
    tarfile.SOLARIS_XHDTYPE,
    tarfile.GNUTYPE_LONGNAME,
    tarfile.GNUTYPE_LONGLINK,
)
_EXTENDED_LIMIT = 1 << 20
_PLAIN_KINDS = (tarfile.REGTYPE, tarfile.AREGTYPE)
# Names sent to tar in one write (each write is an SSH packet): a few first, so the stream
# starts at once, then many.
_FIRST_NAMES = 64
_NAMES_AT_ONCE = 1024
_CHUNK = 1 << 20  # bytes asked of the channel at once
_WINDOW = 8 << 20  # the SSH channel's window: what the server may send ahead of the reader
# The largest SSH packet the server may send on the channel (asyncssh asks for 32 KiB by
# default; OpenSSH's own limit is 256 KiB): sshd then sends what it read from tar's pipe
# (64 KiB) in one packet, not two, and the client parses 2.5 times fewer packets (each
# costs tens of microseconds of Python, on the thread the whole copy waits for).
_MAX_PACKET = 256 << 10
_BATCH_SECONDS = 0.05  # how often what landed is handed to the calling thread
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)

# (name in the remote directory, mirror path, listed size, modification time to give it)
Asked = tuple[str, str, int, float | None]


class TarUnavailable(Exception):
    """No tar stream came (exec refused, no ``tar`` on the server, SFTP-only account)."""


class TarRefused(Exception):
    """The stream held something that was not asked for; ``str()`` is one line."""


def tar_safe_name(name: str) -> bool:
    """Can ``name`` be asked of the server's tar (else it is read over SFTP)?"""
    return _TAR_SAFE_NAME.fullmatch(name) is not None and name not in (".", "..")


@dataclass(slots=True)
class TarOutcome:
    """What ``list_and_copy`` did with one directory."""

    asked: list[Asked]  # what tar was asked for, in order
    landed: set[int] = field(default_factory=set)  # indexes into ``asked`` written whole
    unavailable: bool = False  # no tar stream came: ask no more
    listed_by_find: int = 0  # 1 when find listed the directory whole (see find_listing)
    refused: str | None = None  # the one line saying why the stream was refused


class EarlyProcess:
    """The listing-and-tar process of a first sync, asked of the server as soon as the
    connection is up (``find_listing.early_command``), before the directory it lists is
    known: the server's shell starts (and reads the account's startup files) while the
    client looks for the directory over SFTP. Handed to ``list_and_copy``, which tells
    it the directory; or ``discard``-ed (it then reads no directory and ends)."""

    def __init__(self, fs: Any, timeout: float) -> None:
        self._loop = fs.loop
        self._future = asyncio.run_coroutine_threadsafe(
            asyncio.wait_for(_create_process(fs._client, early_command()), timeout), fs.loop
        )
        self._taken = False

    async def take(self, remote_dir: str) -> Any:
        """On the loop: the process, told ``remote_dir`` (None when one line cannot carry
        it: the process is ended, and the caller starts its own); a fault starting it is
        raised here, as starting it now would raise it."""
        self._taken = True
        process = await asyncio.wrap_future(self._future)
        line = early_line(remote_dir)
        if line is None:
            with contextlib.suppress(Exception):
                process.stdin.write_eof()
            process.close()
            return None
        with contextlib.suppress(Exception):  # closed already (no command runs for us):
            process.stdin.write(line)  # its empty stream says so, as a name sent would
        return process

    def discard(self) -> None:
        """From any thread: not used; the process (once started) ends."""
        if self._taken:
            return
        self._taken = True

        def end(future: Any) -> None:
            if future.cancelled() or future.exception() is not None:
                return
            process = future.result()
            with contextlib.suppress(Exception):
                process.stdin.write_eof()
                process.close()

        def on_loop(future: Any) -> None:
            with contextlib.suppress(RuntimeError):  # the loop has closed: so has the channel
                self._loop.call_soon_threadsafe(end, future)

        self._future.add_done_callback(on_loop)


async def _create_process(connection: Any, command: str) -> Any:
    from asyncssh import PIPE

    return await connection.create_process(
        command,
        encoding=None,
        stderr=PIPE,  # the listing
        request_pty=False,
        window=_WINDOW,
        max_pktsize=_MAX_PACKET,
    )


def list_and_copy(
    fs: Any,
    remote_dir: str,
    local_dir: Path,
    timeout: float,
    choose: Callable[[dict[str, Any]], Asked | None],
    landed: Callable[[Asked, int], object],
    *,
    first: bool = False,
    early: EarlyProcess | None = None,
) -> TarOutcome:
    """List ``remote_dir`` and, while the listing goes on, copy the files ``choose``
    picks (it sees each listed entry as sshfs's ``ls`` gives it, on the event loop; a
    missing directory lists nothing) into ``local_dir`` through one tar stream;
    ``landed(file, bytes)`` is called here as each is written whole. Files the stream did
    not hold (vanished, a hard link, a stream that broke off or was refused) are not
    landed: the caller reads them another way. A network fault or a stall (no answer
    within ``timeout``) is raised as it is; what landed before it stays.

    ``first``: nothing of the directory is mirrored yet, so every file will be copied:
    the process on the server is started at once and lists too (``find_listing``,
    racing SFTP). Otherwise (a re-open, a poll) SFTP lists, and the process starts only
    if a file changed: a re-open with nothing changed starts none. ``early``: the process
    for a first sync, already asked of the server (used when ``first``)."""
    if early is not None and not first:
        early.discard()
        early = None
    arrived: queue.Queue[list[tuple[Asked, int]] | None] = queue.Queue()
    future = asyncio.run_coroutine_threadsafe(
        _list_and_tar(fs, remote_dir, local_dir, timeout, choose, arrived.put, first, early),
        fs.loop,
    )
    while True:
        try:
            got = arrived.get(timeout=1.0)
        except queue.Empty:  # the loop watches for stalls itself: this is only a check
            if future.done() and arrived.empty():
                break
            continue
        if got is None:  # the coroutine has ended: everything that landed is counted
            break
        for item, read in got:
            landed(item, read)
    return future.result()


class _Batches:
    """What landed, handed over on the event loop in batches: the first at once, then
    every ``_BATCH_SECONDS`` (each hand-over wakes the other thread, which then takes the
    interpreter's lock from the loop); ``close`` hands the rest and then None."""

    def __init__(self, put: Callable[[list[tuple[Asked, int]] | None], object]) -> None:
        self._put = put
        self._items: list[tuple[Asked, int]] = []
        self._last = -1.0
        self._due: asyncio.TimerHandle | None = None

    def add_all(self, items: list[tuple[Asked, int]]) -> None:
        """Files written whole (each with the bytes read), a writer's batch at once."""
        self._items += items
        if self._last < 0 or time.monotonic() - self._last >= _BATCH_SECONDS:
            self._flush()
        elif self._due is None:  # when nothing more lands for a while, this still goes
            self._due = asyncio.get_running_loop().call_later(_BATCH_SECONDS, self._flush)

    def _flush(self) -> None:
        if self._due is not None:
            self._due.cancel()
            self._due = None
        if self._items:
            self._put(self._items)
            self._items = []
        self._last = time.monotonic()

    def close(self) -> None:
        self._flush()
        self._put(None)


class _Feed:
    """One process on the server for a directory: ``tar`` sends the files named on its
    stdin as the listing finds them; with ``listing``, ``find`` lists the directory on
    the channel's stderr beside it (``find_listing``). Started at once when it lists,
    else at the first name asked."""

    def __init__(
        self,
        connection: Any,
        remote_dir: str,
        timeout: float,
        listing: bool,
        early: EarlyProcess | None = None,
    ) -> None:
        self.connection = connection
        self.remote_dir = remote_dir
        self.command = list_then_tar_command(remote_dir, listing)
        self.early = early
        self.timeout = timeout
        self.asked: list[Asked] = []
        self.where: dict[str, int] = {}
        # The same, keyed by the name as tar writes it in a member's header (``./NAME``,
        # as asked), with the name as the mirror's file is created under.
        self.members: dict[bytes, tuple[int, bytes]] = {}
        # What a tar of the files asked for can make: headers, data in 512-byte blocks,
        # the end, and room for files that grew since they were listed (a WAL grows).
        self.limit = 1 << 20
        self.started: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.unavailable = False
        self.progressed = time.monotonic()  # the last name listed or bytes received
        self._process: Any = None
        self._starting: asyncio.Future[None] | None = None
        self._pending: list[bytes] = []
        self._dead = False
        self._kept: list[asyncio.Future[None]] = []

    def discard_listing(self) -> None:
        """Read what is left of find's listing (and anything after it) without looking:
        unread, it would fill the channel's window, which the tar stream shares."""
        if self._process is not None:
            self._kept.append(asyncio.ensure_future(_discard(self._process.stderr)))

    def start(self) -> None:
        if self._starting is None:
            self._starting = asyncio.ensure_future(self._start())

    async def process(self) -> Any:
        """The process once started (None when the server runs no command for us); a
        fault starting it is raised here."""
        self.start()
        assert self._starting is not None
        # Shielded: a listing cancelled while it waits here must not cancel the start.
        await asyncio.shield(self._starting)
        return self._process

    async def _start(self) -> None:
        from asyncssh import ChannelOpenError

        try:
            if self.early is not None:
                self._process = await asyncio.wait_for(
                    self.early.take(self.remote_dir), self.timeout
                )
            if self._process is None:
                self._process = await asyncio.wait_for(
                    _create_process(self.connection, self.command), self.timeout
                )
        except ChannelOpenError:  # the server runs no command for us: SFTP only
            self._dead = self.unavailable = True
            self.started.set_result(None)
            return
        except BaseException:  # a fault: raised by the listing, never tried again
            self._dead = True
            if not self.started.done():
                self.started.set_result(None)
            raise
        self.started.set_result(self._process)

    def ask(self, item: Asked) -> bool:
        """Note a file to ask tar for; whether enough names wait to be sent (``flush``)."""
        if self._dead:
            return False
        name, _, size, _ = item
        index = len(self.asked)
        self.where[name] = index  # known before tar can send it
        self.asked.append(item)
        self.limit += 2 * _padded(max(size, 0)) + 4 * _BLOCK
        line = f"./{name}\n".encode()  # a tar-safe name is ASCII: as os.fsencode makes it
        self.members[line[:-1]] = (index, line[2:-1])
        self._pending.append(line)
        at_once = _FIRST_NAMES if len(self.asked) <= _FIRST_NAMES else _NAMES_AT_ONCE
        return len(self._pending) >= at_once

    async def flush(self) -> None:
        if self._dead or not self._pending:
            return
        if await self.process() is None:
            return
        try:
            self._process.stdin.write(b"".join(self._pending))
        except Exception:  # the channel has closed (the stream was refused or broke off)
            self._dead = True
        self._pending.clear()

    async def end(self) -> None:
        """No more names: tar finishes the stream once it has read them."""
        with contextlib.suppress(Exception):
            await self.flush()
        if self._starting is not None:  # a fault starting it is the listing's
            with contextlib.suppress(Exception):
                await self._starting
        if self._process is not None:
            with contextlib.suppress(Exception):
                self._process.stdin.write_eof()
        if not self.started.done():
            self.started.set_result(None)

    def stop(self) -> None:
        self._dead = True
        for task in self._kept:
            task.cancel()


async def _list_and_tar(
    fs: Any,
    remote_dir: str,
    local_dir: Path,
    timeout: float,
    choose: Callable[[dict[str, Any]], Asked | None],
    put: Callable[[list[tuple[Asked, int]] | None], object],
    first: bool,
    early: EarlyProcess | None,
) -> TarOutcome:
    batches = _Batches(put)
    try:
        feed = _Feed(fs._client, remote_dir, timeout, listing=first, early=early)
        if first:
            feed.start()
        outcome = TarOutcome(feed.asked)
        work = asyncio.ensure_future(
            _list_and_unpack(
                fs, remote_dir, local_dir, feed, choose, batches.add_all, outcome, with_find=first
            )
        )
        # One watch over the listing and the stream (a timeout around each of ten
        # thousand small reads would cost more than the reads): a stall is no progress in
        # either for ``timeout`` seconds.
        while not work.done():
            await asyncio.wait([work], timeout=min(1.0, timeout / 4))
            if not work.done() and time.monotonic() - feed.progressed > timeout:
                feed.stop()  # nothing more is sent on the way out
                work.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await work
                raise TimeoutError("no answer from the listing or the tar stream in time")
        await work  # a fault is raised here
        outcome.unavailable = outcome.unavailable or feed.unavailable
        return outcome
    finally:
        batches.close()


async def _list_and_unpack(
    fs: Any,
    remote_dir: str,
    local_dir: Path,
    feed: _Feed,
    choose: Callable[[dict[str, Any]], Asked | None],
    landed: Callable[[list[tuple[Asked, int]]], None],
    outcome: TarOutcome,
    *,
    with_find: bool,
) -> None:
    listing = asyncio.ensure_future(
        _list_and_feed(fs, remote_dir, feed, choose, outcome, with_find=with_find)
    )
    try:
        await asyncio.wait([feed.started, listing], return_when=asyncio.FIRST_COMPLETED)
        process = feed.started.result() if feed.started.done() else None
        if process is not None:
            outcome.landed = await _unpack_process(process, feed, local_dir, landed, outcome)
        await listing  # a fault while listing is raised here
    finally:
        listing.cancel()  # after a fault: the listing stops too


async def _list_and_feed(
    fs: Any,
    remote_dir: str,
    feed: _Feed,
    choose: Callable[[dict[str, Any]], Asked | None],
    outcome: TarOutcome,
    *,
    with_find: bool,
) -> None:
    """List ``remote_dir`` (each entry as sshfs's ``ls`` makes it: the same stamps), each
    chosen file asked of tar as soon as it is seen. SFTP lists at once, on the channel
    already open. ``with_find``: the server's ``find`` (``find_listing``: cheaper to read)
    lists too, once the server has started the process (a shell, which reads the
    account's startup files first). A whole SFTP listing before find's first entry is
    the listing; else SFTP stops there and find lists (and should find fail, SFTP lists
    again, each name taken once). A fault in either is raised."""
    seen: set[str] = set()
    find_started = asyncio.Event()

    def offer(entry: dict[str, Any]) -> Awaitable[None] | None:
        """Take a listed entry; what to await when names are to be sent to tar (no
        coroutine per name: ten thousand of them cost the loop a tenth of the listing)."""
        name = entry["name"].rpartition("/")[2]
        if name in seen:
            return None
        seen.add(name)
        item = choose(entry)
        if item is not None and feed.ask(item):
            return feed.flush()
        return None

    def offer_found(entry: dict[str, Any]) -> Awaitable[None] | None:
        find_started.set()
        return offer(entry)

    def found_before(name: str) -> bool:
        find_started.set()  # find is listing: SFTP stops at its next name
        return name in seen

    def progressed() -> None:
        feed.progressed = time.monotonic()

    if not with_find:
        try:
            if not await _list_over_sftp(fs, remote_dir, offer, progressed, lambda: False):
                raise RuntimeError("no listing of the directory came whole")
        finally:
            feed.discard_listing()  # if a changed file started the process
            await feed.end()
        return
    by_find = asyncio.ensure_future(
        _list_by_find(feed, remote_dir, offer_found, progressed, found_before)
    )
    by_sftp = asyncio.ensure_future(
        _list_over_sftp(fs, remote_dir, offer, progressed, find_started.is_set)
    )
    try:
        await asyncio.wait({by_find, by_sftp}, return_when=asyncio.FIRST_COMPLETED)
        if by_sftp.done() and by_sftp.result():  # whole first (a fault is raised here)
            return
        if await by_find:
            outcome.listed_by_find = 1
            return
        if not await by_sftp:  # it stopped for find, which then failed: list it all
            await _list_over_sftp(fs, remote_dir, offer, progressed, lambda: False)
    finally:
        for task in (by_find, by_sftp):  # safe: an ask cut short is sent by end()
            task.cancel()
        await asyncio.gather(by_find, by_sftp, return_exceptions=True)
        feed.discard_listing()
        await feed.end()


async def _list_by_find(
    feed: _Feed,
    remote_dir: str,
    offer: Callable[[dict[str, Any]], Awaitable[None] | None],
    progressed: Callable[[], None],
    seen: Callable[[str], bool],
) -> bool:
    """The listing ``find`` writes on the process's stderr; whether it came whole. Names
    ``seen`` already (listed over SFTP while the server's shell started) are passed over
    unread."""
    process = await feed.process()
    if process is None:
        return False
    return await read_listing(process.stderr, remote_dir, offer, progressed, seen)


async def _list_over_sftp(
    fs: Any,
    remote_dir: str,
    offer: Callable[[dict[str, Any]], Awaitable[None] | None],
    progressed: Callable[[], None],
    stop: Callable[[], bool],
) -> bool:
    """The SFTP listing (a missing directory lists nothing); whether it came whole
    (False once ``stop`` says so)."""
    from asyncssh import SFTPNoSuchFile

    try:
        # sshfs's own SFTP channel (it listed the root just before): a new one would be a
        # new session, a new process on the server.
        async with fs._pool.get() as sftp:
            async for found in sftp.scandir(remote_dir):
                progressed()
                if stop():
                    return False
                if found.filename in ("", ".", ".."):
                    continue
                sending = offer(_entry(remote_dir, found))
                if sending is not None:
                    await sending
    except SFTPNoSuchFile:
        pass
    return True


async def _discard(reader: Any) -> None:
    """Read ``reader`` to its end (what follows the listing on stderr: nothing from a
    well-behaved server), so that it never holds up the channel's window."""
    with contextlib.suppress(Exception):
        while await reader.read(_CHUNK):
            pass


def _entry(remote_dir: str, found: Any) -> dict[str, Any]:
    """A listed name as sshfs's ``ls`` gives it (the fields a stamp is made of: its size,
    kind and modification time, the same values and types)."""
    attrs = found.attrs
    mode = attrs.permissions
    kind = None if mode is None else "file" if stat.S_ISREG(mode) else "other"
    mtime = None if attrs.mtime is None else datetime.fromtimestamp(attrs.mtime, UTC)
    return {
        "name": f"{remote_dir}/{found.filename}",
        "size": attrs.size,
        "type": kind,
        "mtime": mtime,
    }


async def _unpack_process(
    process: Any,
    feed: _Feed,
    local_dir: Path,
    landed: Callable[[list[tuple[Asked, int]]], None],
    outcome: TarOutcome,
) -> set[int]:
    """Read the tar process's stream into ``local_dir`` until its end; the indexes of the
    files written whole."""
    directory = os.open(local_dir, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC)
    unpacker = _Unpacker(feed, landed)
    writer = MirrorWriter(
        directory,
        lambda index: (unpacker.feed.asked[index][0], unpacker.feed.asked[index][3]),
        unpacker.written,
    )
    try:
        try:
            while not unpacker.finished:
                chunk = await process.stdout.read(_CHUNK)
                feed.progressed = time.monotonic()
                if not chunk:
                    unpacker.end()
                    break
                unpacker.push(chunk)
                await writer.add(unpacker.take())
        finally:
            # Members accepted before a refusal or a fault are whole: they are written.
            with contextlib.suppress(OSError):
                await writer.add(unpacker.take())
            await writer.drain()
    except TarUnavailable:
        # With nothing asked, no stream says nothing about the server's tar (busybox tar
        # makes no empty archive): it is asked again at the next sync.
        outcome.unavailable = bool(feed.asked)
    except TarRefused as exc:
        outcome.refused = str(exc)
    finally:
        feed.stop()  # a stream that ended early is asked no more
        writer.close()
        os.close(directory)
        with contextlib.suppress(Exception):
            if process.stdout.at_eof():
                await asyncio.wait_for(process.wait_closed(), 1.0)
        process.close()  # a stream left early: its channel ends now
    return unpacker.done


class _Unpacker:
    """Reads a tar stream pushed in pieces: checks each member against the names asked
    for, and writes the ones accepted once all their bytes are here."""

    def __init__(self, feed: _Feed, landed: Callable[[list[tuple[Asked, int]]], None]) -> None:
        self.feed = feed
        self.landed = landed
        self.accepted: set[int] = set()  # members accepted (at most once each)
        self.done: set[int] = set()  # ... and written whole
        self._members: list[Member] = []  # accepted, for the writer to take
        self.finished = False  # the end of the archive, or a stream broken off
        self._buffer = bytearray()
        self._received = 0
        self._started = False  # a genuine tar header has been seen

    def push(self, chunk: bytes) -> None:
        self._received += len(chunk)
        if self._received > self.feed.limit:
            raise TarRefused(
                f"tar stream refused: over {self.feed.limit:,} bytes, more than the files "
                "asked for can make"
            )
        self._buffer += chunk
        start = 0
        view = memoryview(self._buffer)  # a member's bytes are copied once, out of it
        try:
            while not self.finished:
                used = self._plain_member(view, start)
                if used is None:
                    used = self._member(start)
                if not used:
                    return
                start += used
        finally:
            view.release()
            del self._buffer[:start]

    def end(self) -> None:
        """The stream has ended (what landed stays; the rest is read another way)."""
        if not self._started:
            raise TarUnavailable("no tar stream")
        self.finished = True

    def _plain_member(self, buffer: memoryview, start: int) -> int | None:
        """The member at ``start`` if it is what a tar asked for these files sends: a
        regular file's own header (no extended header, no name prefix, an octal size
        within the limit, its checksum right) under a name asked for and not seen yet.
        Accepted once all its bytes are here: the bytes it took (0 until then). Else
        None, and ``_member`` judges it (the same checks, one field at a time, each
        refusal said). Ten thousand small members: a fifth less time than ``_member``
        alone took for them."""
        data_start = start + _BLOCK
        if len(buffer) < data_start:
            return 0
        header = bytes(buffer[start:data_start])
        found = self.feed.members.get(header[:100].partition(b"\0")[0])
        if (
            found is None
            or header[156:157] not in _PLAIN_KINDS
            or (header[257:262] == b"ustar" and header[345])  # a name prefix (or GNU times)
        ):
            return None
        index, name = found
        size = _octal(header[124:136])
        if size is None or size > MEMBER_LIMIT or index in self.accepted:
            return None
        if not _checksum_holds(header):
            return None
        self._started = True  # a genuine header: a stream cut short now broke off
        taken = _BLOCK + _padded(size)
        if len(buffer) < start + taken:
            return 0  # its bytes are still coming
        self.accepted.add(index)
        data = bytes(buffer[data_start : data_start + size])
        self._members.append((index, (name, data, nanoseconds(self.feed.asked[index][3]))))
        return taken

    def _member(self, start: int) -> int:
        """Handle the member at ``start`` if all its bytes are here: the bytes it took, or
        0 (each header checked field by field: any member ``_plain_member`` passes over)."""
        buffer = self._buffer
        cursor = start
        while True:  # the member's extended headers, then its own
            if len(buffer) - cursor < _BLOCK:
                return 0
            header = bytes(buffer[cursor : cursor + _BLOCK])
            if cursor == start and header == _ZERO_BLOCK:  # the end of the archive
                self.finished = True
                return 0
            if not _checksum_holds(header):
                if not self._started:
                    raise TarUnavailable("not a tar stream")
                self.finished = True  # broken off inside: the rest is read another way
                return 0
            self._started = True
            kind = header[156:157]
            if kind not in _EXTENDED_KINDS:
                break
            size = _octal(header[124:136])
            if size is None or size > _EXTENDED_LIMIT:
                raise TarRefused(f"tar stream refused: an extended header of {size} bytes")
            cursor += _BLOCK + _padded(size)
        if kind == tarfile.XGLTYPE:
            self.finished = True
            return 0
        plain = _octal(header[124:136])
        if (
            cursor == start
            and plain is not None
            and not (header[257:262] == b"ustar" and header[345])
        ):
            name = _text(header[:100])
            link = _text(header[157:257])
            size = plain
        else:  # pax or long-name headers, a name prefix, a base-256 size: tarfile reads them
            member = _read_headers(bytes(buffer[start : cursor + _BLOCK]))
            if member is None:
                self.finished = True
                return 0
            name, link, size = member.name, member.linkname, member.size
            kind = b"S" if member.issparse() else member.type
        index = self._check(name, kind, size, link)
        data_start = cursor + _BLOCK
        if len(buffer) < data_start + _padded(size):
            return 0  # its bytes are still coming
        if index is not None:
            with memoryview(buffer) as view:
                self._write(index, view[data_start : data_start + size])
        return data_start + _padded(size) - start

    def _check(self, name: str, kind: bytes, size: int, link: str) -> int | None:
        """The index of the file a member is, or None to skip it; ``TarRefused`` (one
        line) for anything not asked for."""
        plain = name[2:] if name.startswith("./") else name
        shown = repr(name[:120])
        if name.startswith("/"):
            raise TarRefused(f"tar stream member {shown} refused: an absolute path")
        if ".." in plain.split("/"):
            raise TarRefused(f"tar stream member {shown} refused: '..' in its path")
        index = self.feed.where.get(plain)
        if index is None:
            raise TarRefused(f"tar stream member {shown} refused: a name that was not asked for")
        if index in self.accepted:
            raise TarRefused(f"tar stream member {shown} refused: it appears twice")
        if kind == tarfile.LNKTYPE:
            target = link[2:] if link.startswith("./") else link
            if target in self.feed.where:  # tar sends a second name of one file as a link
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

    def _write(self, index: int, data: memoryview) -> None:
        """Accept a member whole: its bytes are kept for the writer (``take``)."""
        item = self.feed.asked[index]
        self.accepted.add(index)
        self._members.append((index, (os.fsencode(item[0]), bytes(data), nanoseconds(item[3]))))

    def take(self) -> list[Member]:
        """The members accepted since the last call."""
        members, self._members = self._members, []
        return members

    def written(self, written: list[tuple[int, int]]) -> None:
        """Members are in the mirror, whole: (index, size) of each."""
        asked = self.feed.asked
        self.done.update([index for index, _ in written])
        self.landed([(asked[index], size) for index, size in written])


def _read_headers(headers: bytes) -> tarfile.TarInfo | None:
    """The member ``headers`` (extended headers and its own) describe, as tarfile reads
    them; None when it cannot."""
    try:
        with tarfile.open(
            fileobj=io.BytesIO(headers + bytes(2 * _BLOCK)), mode="r:", encoding="utf-8"
        ) as archive:
            return archive.next()
    except (tarfile.TarError, EOFError, ValueError):
        return None


def _checksum_holds(header: bytes) -> bool:
    """Does a header's checksum match it (its own field counted as spaces; summed as
    unsigned bytes, or as signed ones as some old tars did: tarfile accepts both)?"""
    stored = _octal(header[148:156])
    unsigned = byte_sum(header) - sum(header[148:156]) + 8 * 32
    if stored == unsigned:
        return True
    return stored == unsigned - 256 * sum(1 for byte in header if byte > 127)


def byte_sum(block: bytes) -> int:
    """``sum(block)`` of a 512-byte header, in C: zlib's Adler-32 keeps 1 + the sum of
    the bytes modulo 65,521 in its low half, and 256 bytes sum to at most 65,280, so each
    half's is exact (summing ten thousand headers byte by byte in Python was a tenth of
    the unpacking). Any other length is summed as it is."""
    if len(block) != _BLOCK:
        return sum(block)
    return (adler32(block[:256]) & 0xFFFF) + (adler32(block[256:]) & 0xFFFF) - 2


def _octal(raw: bytes) -> int | None:
    """A header's octal number field, or None (base-256 and junk)."""
    digits = raw.strip(b"\0 ")
    if not digits:
        return 0
    try:
        return int(digits, 8)
    except ValueError:
        return None


def _text(raw: bytes) -> str:
    return raw.partition(b"\0")[0].decode("utf-8", "surrogateescape")


def _padded(size: int) -> int:
    return -(-size // _BLOCK) * _BLOCK
