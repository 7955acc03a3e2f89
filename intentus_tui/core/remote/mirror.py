"""A remote root's local mirror: its record files and WALs copied into the user cache
(never written on the remote), so that the local index, detail and verify read them as
they read any directory.

A sync lists the remote directories (name, size, modification time: each file's stamp),
reads only the files whose stamp changed since the last sync, and writes each into the
mirror as it arrives (a watcher on the mirror shows it at once). Over SSH the changed
files come as one stream from the server's own tar, asked for as the listing finds them
(``tar_lane``); a server that runs no command or has no tar, a huge record, and whatever
a refused or broken stream did not bring are read over SFTP, many requests in flight.
A copied file keeps the remote modification time and is never rewritten while its stamp
holds, so the local index cache finds it unchanged: a warm re-open reads no record
bytes. A huge file is listed from ranged reads of its head and tail: the mirror holds a
sparse file of the same size with only those bytes, read whole only when it is opened.

A network fault ends the sync with one line; what was copied stays; the next sync
connects again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import gc
import hashlib
import json
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeGuard

import orjson

from intentus_tui.core.fsio import atomic_write
from intentus_tui.core.index.cache import cache_dir
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.read_only import mark_read_only
from intentus_tui.core.records.load import HUGE_FILE_BYTES, WAL_SUFFIX, is_record_name
from intentus_tui.core.remote.filesystems import RemoteError, describe_fault, open_filesystem
from intentus_tui.core.remote.location import RemoteLocation, RemoteOptions
from intentus_tui.core.remote.loop_thread import LoopThread
from intentus_tui.core.remote.tar_lane import Asked, EarlyProcess, list_and_copy, tar_safe_name

MANIFEST = "manifest.json"
HEAD_BYTES = 1 << 20  # what load_record_head reads of a huge file
TAIL_BYTES = 1 << 16
_MANIFEST_VERSION = 1

# name -> [size, remote stamp text, partial]
Entry = list[Any]
# what to copy: (records | wal, remote path, mirror path, size, remote stamp, mtime); the
# mirror path as text: a first sync makes ten thousand, and a ``Path`` costs a microsecond
# or more each on the thread the whole copy waits for.
Wanted = tuple[str, str, str, int, str, float | None]
# a listed file: (size, remote stamp, modification time)
Listed = tuple[int, str, float | None]
# what landed: (the file, bytes read, the fault that stopped it)
Arrival = tuple[Wanted, int, BaseException | None]
_BATCH_SECONDS = 0.05


@dataclass(slots=True)
class SyncReport:
    """What one sync did."""

    listed: int = 0  # files on the remote
    read_files: int = 0  # files copied (new or changed)
    read_bytes: int = 0  # bytes read from the remote
    streamed: int = 0  # of the files copied, those that came in the server's tar stream
    removed: int = 0
    listed_by_find: int = 0  # directories listed whole by the server's find (find_listing)
    problem: str | None = None  # the one line saying why the sync stopped early
    written: list[str] = field(default_factory=list)  # mirror paths written or removed

    @property
    def changed(self) -> list[Path]:
        """The mirror paths written or removed."""
        return [Path(path) for path in self.written]


def mirror_directory(location: RemoteLocation) -> Path:
    """Where the mirror of ``location`` lives: the user cache, keyed by its URL."""
    digest = hashlib.sha256(location.url.encode()).hexdigest()[:20]
    return cache_dir() / "remote" / digest


def _stamp_text(entry: dict[str, Any]) -> str:
    """A listing entry's change stamp beside its size: its modification time (or what the
    store has instead: S3's LastModified and ETag)."""
    parts = []
    for key in ("mtime", "LastModified", "last_modified", "ETag", "etag", "updated", "created"):
        value = entry.get(key)
        if value is not None:
            parts.append(_time_facts(value)[0] if _in_utc(value) else str(value))
    return "|".join(parts)


_TIME_FACTS: dict[datetime, tuple[str, float]] = {}
_TIME_FACTS_KEPT = 1 << 16


def _in_utc(value: object) -> TypeGuard[datetime]:
    """Is ``value`` a ``datetime`` in UTC, as the SSH lanes make a listed time? (Two of
    them that are equal print the same; times in other zones are not kept.)"""
    return type(value) is datetime and value.tzinfo is UTC


def _time_facts(value: datetime) -> tuple[str, float]:
    """``(str(value), value.timestamp())`` of a time in UTC, each made once per time: the
    entries of an SSH listing share one ``datetime`` per second
    (``find_listing.listed_time``), and making the text of ten thousand of them was a
    tenth of a first sync's listing."""
    found = _TIME_FACTS.get(value)
    if found is None:
        if len(_TIME_FACTS) >= _TIME_FACTS_KEPT:
            _TIME_FACTS.clear()
        found = _TIME_FACTS[value] = (str(value), value.timestamp())
    return found


def _mtime_seconds(entry: dict[str, Any]) -> float | None:
    for key in ("mtime", "LastModified", "last_modified", "updated"):
        value = entry.get(key)
        if _in_utc(value):
            return _time_facts(value)[1]
        if isinstance(value, int | float):
            return float(value)
        timestamp = getattr(value, "timestamp", None)
        if callable(timestamp):
            try:
                return float(timestamp())
            except (TypeError, ValueError, OSError):
                return None
    return None


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a sync runs (as the index's scan does): a
    first sync makes tens of thousands of objects that live on (the manifest, the SSH
    client's modules) and no cycles, and a full collection walking them and every
    imported module cost the thread the whole copy waits for 25-45 ms. Back on after, if
    it was on, with one collection of the young generations: what the sync made and
    kept is then old, and the index that follows (whose worker processes, forked from
    this one, collect the young generations as they go) walks it no more. Left young,
    it cost each worker about 2,200 more page faults (copies of the pages the walk
    writes to) at 10,000 records."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
            gc.collect(1)


class RemoteMirror:
    """One remote root and its local mirror. ``sync`` may be called from any one thread
    at a time (a lock makes sure)."""

    def __init__(self, location: RemoteLocation, options: RemoteOptions) -> None:
        self.location = location
        self.options = options
        self.directory = mirror_directory(location)
        self.records_dir = self.directory / "records"
        self.wal_dir = self.directory / "wal"
        self._fs: Any = None
        self._loop_thread: LoopThread | None = None  # an ssh connection's own event loop
        self._remote_path = ""
        self._layout: tuple[str, str | None] | None = None
        self._lock = threading.Lock()
        # Is the server's tar usable (see tar_lane)? Off for good once it was not.
        self._tar_usable = options.tar_lane
        self._early: EarlyProcess | None = None  # a first sync's tar process, asked at once
        self._manifest: dict[str, dict[str, Entry]] = self._load_manifest()
        self.last_problem: str | None = None
        with contextlib.suppress(OSError):  # else the first sync says why
            self._prepare()

    @property
    def root(self) -> RecordRoot:
        """The mirror as a record root (the WAL directory once the remote had one)."""
        wal = self.wal_dir if self.wal_dir.is_dir() else None
        return RecordRoot(self.records_dir, wal, self.directory)

    @property
    def has_copy(self) -> bool:
        """Has any sync copied (or listed) anything yet?"""
        return any(self._manifest.get(kind) for kind in ("records", "wal"))

    def _prepare(self) -> None:
        self.records_dir.mkdir(parents=True, exist_ok=True)
        self.wal_dir.mkdir(parents=True, exist_ok=True)  # watched from the start
        mark_read_only(self.directory, f"a local copy of the remote root {self.location.url}")

    # -- the manifest: what the mirror holds, by remote stamp

    def _load_manifest(self) -> dict[str, dict[str, Entry]]:
        try:
            raw = (self.directory / MANIFEST).read_bytes()
            try:
                data = orjson.loads(raw)
            except ValueError:  # perhaps a lone surrogate escaped (see _save_manifest)
                data = json.loads(raw)
        except (OSError, ValueError):
            return {"records": {}, "wal": {}}
        if not isinstance(data, dict) or data.get("version") != _MANIFEST_VERSION:
            return {"records": {}, "wal": {}}
        if data.get("url") != self.location.url:
            return {"records": {}, "wal": {}}
        files = data.get("files")
        if not isinstance(files, dict):
            return {"records": {}, "wal": {}}
        return {kind: dict(files.get(kind) or {}) for kind in ("records", "wal")}

    def _save_manifest(self) -> None:
        data = {"version": _MANIFEST_VERSION, "url": self.location.url, "files": self._manifest}
        try:  # orjson: a tenth of the json module's time, at the end of every sync
            encoded = orjson.dumps(data)
        except TypeError:  # a name that is not UTF-8 (a lone surrogate): escaped instead
            encoded = json.dumps(data).encode()
        with contextlib.suppress(OSError):  # the next sync reads again what it cannot know
            atomic_write(self.directory / MANIFEST, encoded, durable=False)

    # -- syncing

    def sync(self, on_file: Callable[[str], object] | None = None) -> SyncReport:
        """Copy what changed on the remote since the last sync. Never raises: a fault is
        the report's ``problem``; what was copied before it stays. ``on_file`` is told
        each file's mirror path (as text) as it lands."""
        with self._lock, _collector_paused():
            report = SyncReport()
            try:
                self._prepare()
                self._sync(report, on_file)
            except RemoteError as exc:
                report.problem = str(exc)
            except Exception as exc:
                report.problem = describe_fault(exc, self.location, self.options)
            self._discard_early()  # not used (no tar wanted, or the sync failed first)
            if report.problem is not None:
                self._disconnect()  # the next sync connects again
            self._save_manifest()
            self.last_problem = report.problem
            return report

    def _discard_early(self) -> None:
        early, self._early = self._early, None
        if early is not None:
            early.discard()

    def _disconnect(self) -> None:
        fs, self._fs = self._fs, None
        self._layout = None
        if fs is not None:
            try:
                client = getattr(fs, "_client", None)
                if client is not None:
                    client.abort()  # asyncssh: drop the connection now, wait for nothing
            except Exception:
                pass

    def close(self) -> None:
        """End the connection and its thread (a command that syncs once calls this: the
        process is left with one thread, and indexes the mirror with forked helpers). A
        later sync, or opening a huge record whole, connects again."""
        with self._lock:
            self._discard_early()
            fs, self._fs = self._fs, None
            self._layout = None
            loop_thread, self._loop_thread = self._loop_thread, None
            if loop_thread is not None:
                loop_thread.stop(getattr(fs, "_client", None), min(2.0, self.options.timeout))

    def _call(self, method: str, *args: Any, **kwargs: Any) -> Any:
        """A filesystem call with the timeout (async filesystems take it per call)."""
        from fsspec.asyn import AsyncFileSystem

        fs = self._fs
        if isinstance(fs, AsyncFileSystem):
            kwargs["timeout"] = self.options.timeout
        return getattr(fs, method)(*args, **kwargs)

    def _connect(self) -> tuple[str, str | None]:
        if self._fs is None:
            loop = None
            if self.location.protocol == "ssh":
                if self._loop_thread is None:
                    self._loop_thread = LoopThread(f"remote-{self.location.host}")
                loop = self._loop_thread.loop
            self._fs, self._remote_path = open_filesystem(self.location, self.options, loop)
            if loop is not None and self._tar_usable and not self._manifest.get("records"):
                # A first copy will ask the server's tar for everything: its process is
                # asked for now, and starts while the directory is looked for.
                self._early = EarlyProcess(self._fs, self.options.timeout)
        if self._layout is None:
            self._layout = self._find_layout(self._remote_path.rstrip("/") or "/")
        return self._layout

    def _find_layout(self, base: str) -> tuple[str, str | None]:
        """(records directory, WAL directory) on the remote, as ``resolve_root`` finds them
        locally: an ``.intentusnet`` root, a records directory, or a directory holding one."""
        entries = self._directories(base)
        if entries is None:
            raise RemoteError(f"{self.location.url}: no such directory")
        if ".intentusnet" in entries and "records" not in entries:
            inner = self._directories(f"{base}/.intentusnet") or set()
            if "records" in inner:
                base, entries = f"{base}/.intentusnet", inner
        if "records" in entries:
            return f"{base}/records", f"{base}/wal" if "wal" in entries else None
        return base, f"{base}/wal" if "wal" in entries else None

    def _directories(self, path: str) -> set[str] | None:
        try:
            listing = self._call("ls", path, detail=True)
        except FileNotFoundError:
            return None
        return {
            _base_name(e["name"])
            for e in listing
            if isinstance(e, dict) and e.get("type") == "directory"
        }

    def _sync(self, report: SyncReport, on_file: Callable[[str], object] | None) -> None:
        records_remote, wal_remote = self._connect()
        wanted: list[Wanted] = []
        refused: str | None = None
        for kind, remote_dir, local_dir in (
            ("records", records_remote, self.records_dir),
            ("wal", wal_remote, self.wal_dir),
        ):
            if remote_dir is None:
                continue
            known = self._manifest.setdefault(kind, {})
            listing: dict[str, Listed] = {}
            local_text = os.fspath(local_dir)

            def changed(
                entry: dict[str, Any],
                kind: str = kind,
                remote_dir: str = remote_dir,
                local_text: str = local_text,
                listing: dict[str, Listed] = listing,
                known: dict[str, Entry] = known,
            ) -> Wanted | None:
                """Note a listed entry; the file to copy when it is new or changed."""
                found = _listed_file(entry, kind)
                if found is None:
                    return None
                name, size, stamp, mtime = found
                listing[name] = (size, stamp, mtime)
                old = known.get(name)
                local = f"{local_text}/{name}"
                if old is not None and old[0] == size and old[1] == stamp and os.path.exists(local):
                    return None
                return (kind, f"{remote_dir}/{name}", local, size, stamp, mtime)

            local_dir.mkdir(parents=True, exist_ok=True)
            if self.location.protocol == "ssh" and self._tar_usable:
                left, why = self._list_and_copy_with_tar(
                    remote_dir, local_dir, changed, report, on_file, first=not known
                )
                wanted += left
                refused = refused or why
            else:
                wanted += [item for e in self._ls(remote_dir) if (item := changed(e)) is not None]
            report.listed += len(listing)
            for name in sorted(known.keys() - listing.keys()):  # gone on the remote
                known.pop(name, None)
                gone = local_dir / name
                try:
                    gone.unlink()
                    report.removed += 1
                    report.written.append(os.fspath(gone))
                except OSError:
                    pass
        self._fetch_all(wanted, report, on_file)
        if refused is not None:  # said once the rest is read: the next sync is quiet
            raise RemoteError(f"{self.location.url}: {refused}")

    def _ls(self, remote_dir: str) -> list[dict[str, Any]]:
        try:
            entries = self._call("ls", remote_dir, detail=True)
        except FileNotFoundError:
            return []
        return [entry for entry in entries if isinstance(entry, dict)]

    def _list_and_copy_with_tar(
        self,
        remote_dir: str,
        local_dir: Path,
        changed: Callable[[dict[str, Any]], Wanted | None],
        report: SyncReport,
        on_file: Callable[[str], object] | None,
        *,
        first: bool,
    ) -> tuple[list[Wanted], str | None]:
        """List ``remote_dir`` and copy what changed (files up to the huge size, plain
        names) as one tar stream while the listing goes on; (what is left to read over
        SFTP, the line saying why the stream was refused). A server without a usable tar
        is asked no more. ``first``: nothing of this directory is mirrored yet (see
        ``list_and_copy``)."""
        left: list[Wanted] = []
        chosen: dict[str, Wanted] = {}

        def choose(entry: dict[str, Any]) -> Asked | None:  # on the event loop
            item = changed(entry)
            if item is None:
                return None
            _, _, local, size, _, mtime = item
            name = local.rpartition("/")[2]
            if 0 <= size <= HUGE_FILE_BYTES and tar_safe_name(name):
                chosen[name] = item
                return (name, local, size, mtime)
            left.append(item)  # a huge record: its head and tail only, over SFTP
            return None

        def landed(asked: Asked, read: int) -> None:
            report.streamed += 1
            self._note_read(chosen[asked[0]], read, False, report, on_file)

        early, self._early = self._early, None
        outcome = list_and_copy(
            self._fs,
            remote_dir,
            local_dir,
            self.options.timeout,
            choose,
            landed,
            first=first,
            early=early,
        )
        report.listed_by_find += outcome.listed_by_find
        if outcome.unavailable or outcome.refused is not None:
            self._tar_usable = False
        # Whatever was chosen and did not land (never asked, when the stream ended while
        # the listing went on) is read over SFTP.
        if len(outcome.landed) < len(chosen):  # else every file chosen was asked and landed
            landed_names = {outcome.asked[i][0] for i in outcome.landed}
            left += [item for name, item in chosen.items() if name not in landed_names]
        return left, outcome.refused

    def _note_read(
        self,
        item: Wanted,
        read: int,
        partial: bool,
        report: SyncReport,
        on_file: Callable[[str], object] | None,
    ) -> None:
        """A file copied into the mirror (``partial``: its head and tail only): counted,
        kept in the manifest with its listed stamp, and handed to ``on_file``."""
        kind, _, local, size, stamp, _ = item
        report.read_files += 1
        report.read_bytes += read
        report.written.append(local)
        self._manifest[kind][local.rpartition("/")[2]] = [size, stamp, partial]
        if on_file is not None:
            on_file(local)

    def _fetch_all(
        self,
        wanted: list[Wanted],
        report: SyncReport,
        on_file: Callable[[str], object] | None,
    ) -> None:
        if not wanted:
            return
        if self.location.protocol == "ssh":
            self._fetch_over_sftp(wanted, report, on_file)
            return
        pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=max(1, min(self.options.parallel, len(wanted))),
            thread_name_prefix="remote-read",
        )
        problem: BaseException | None = None
        try:
            futures = {pool.submit(self._fetch, item): item for item in wanted}
            for future in concurrent.futures.as_completed(futures):
                try:
                    read, partial = future.result()
                except Exception as exc:
                    if problem is None:
                        problem = exc
                        for other in futures:
                            other.cancel()  # one fault ends the sync: no queue of timeouts
                    continue
                self._note_read(futures[future], read, partial, report, on_file)
        finally:
            pool.shutdown(wait=True, cancel_futures=True)  # each read has its own timeout
        if problem is not None:
            if isinstance(problem, RemoteError):
                raise problem
            raise RemoteError(describe_fault(problem, self.location, self.options))

    def _fetch_over_sftp(
        self, wanted: list[Wanted], report: SyncReport, on_file: Callable[[str], object] | None
    ) -> None:
        """Read the files over one SFTP session, many requests in flight at once (SFTP
        pipelines them: one round trip's wait is shared by all); each is written into the
        mirror on the event loop as it arrives (a small write there costs less than
        handing the bytes to this thread, which would wait for the interpreter's lock
        at each system call) and reported here (``on_file``) as it lands."""
        arrived: queue.Queue[list[Arrival] | None] = queue.Queue()
        timeout = self.options.timeout
        future = asyncio.run_coroutine_threadsafe(
            _sftp_read_all(self._fs, wanted, self.options.parallel * 8, timeout, arrived.put),
            self._fs.loop,
        )
        problem: BaseException | None = None
        try:
            while True:
                try:
                    got = arrived.get(timeout=timeout + 1)
                except queue.Empty:  # every read has its own timeout: this is a stall
                    problem = problem or TimeoutError("no read finished in time")
                    future.cancel()  # the reader stops, reports what it wrote, and ends
                    try:
                        got = arrived.get(timeout=timeout)
                    except queue.Empty:
                        break
                if got is None:  # every read has ended: what landed is all counted
                    break
                for item, read, error in got:
                    if error is not None:
                        problem = problem or error
                        continue
                    kind, size = item[0], item[3]
                    partial = kind == "records" and size > HUGE_FILE_BYTES  # head and tail
                    self._note_read(item, read, partial, report, on_file)
        finally:
            future.cancel()  # after a stall: what is still in flight stops
        if problem is not None:
            raise RemoteError(describe_fault(problem, self.location, self.options))

    def _fetch(self, item: Wanted) -> tuple[int, bool]:
        """Copy one file into the mirror; (bytes read, whether only head and tail were)."""
        kind, remote, local_text, size, _, mtime = item
        local = Path(local_text)
        if kind == "records" and size > HUGE_FILE_BYTES:
            head = self._read_range(remote, 0, min(size, HEAD_BYTES))
            tail = self._read_range(remote, max(0, size - TAIL_BYTES), size)
            _write_sparse(local, size, head, tail)
            read, partial = len(head) + len(tail), True
        else:
            data = self._call("cat_file", remote)
            atomic_write(local, bytes(data), durable=False)
            read, partial = len(data), False
        if mtime is not None:
            os.utime(local, (mtime, mtime))
        return read, partial

    def _read_range(self, remote: str, start: int, end: int) -> bytes:
        """Bytes ``start``..``end`` of a remote file, and only those."""
        if self.location.protocol != "ssh":
            return bytes(self._call("cat_file", remote, start=start, end=end))
        # sshfs's cat_file reads a whole file whatever range is asked: read the range
        # through the SFTP channel itself (an SFTP read names its offset and length).
        from fsspec.asyn import sync

        fs = self._fs
        return bytes(
            sync(fs.loop, _sftp_range, fs, remote, start, end - start, timeout=self.options.timeout)
        )

    # -- one file whole

    def is_partial(self, path: Path) -> bool:
        entry = self._manifest.get("records", {}).get(path.name)
        return bool(entry and entry[2]) and path.parent == self.records_dir

    def fetch_whole(self, path: Path) -> str | None:
        """Read a huge file listed from its head and tail whole into the mirror (to open
        it); None when done, else the one line saying why not."""
        with self._lock:
            if not self.is_partial(path):
                return None
            try:
                records_remote, _ = self._connect()
                data = self._call("cat_file", f"{records_remote}/{path.name}")
                atomic_write(path, bytes(data), durable=False)
                entry = self._manifest["records"][path.name]
                entry[2] = False
                self._save_manifest()
            except RemoteError as exc:
                self._disconnect()
                return str(exc)
            except Exception as exc:
                self._disconnect()
                return describe_fault(exc, self.location, self.options)
            return None


async def _sftp_read_all(
    fs: Any,
    wanted: list[Wanted],
    in_flight: int,
    timeout: float,
    put: Callable[[list[Arrival] | None], None],
) -> None:
    """On the filesystem's event loop: read every file of ``wanted`` over one SFTP
    session (a huge record: its head and tail only), ``in_flight`` at once, writing each
    into the mirror, and hand what landed (or the first fault) to ``put`` in batches: the
    first file at once, then every ``_BATCH_SECONDS`` (each hand-over wakes the other
    thread, which costs the loop the interpreter's lock); then None, even if cancelled."""
    landed: list[Arrival] = []
    last_put = [-1.0]
    flush_due: list[asyncio.TimerHandle] = []
    loop = asyncio.get_running_loop()

    def flush() -> None:
        for handle in flush_due:
            handle.cancel()
        flush_due.clear()
        if landed:
            put(landed[:])
            landed.clear()
        last_put[0] = time.monotonic()

    def hand_over(arrival: Arrival, force: bool = False) -> None:
        landed.append(arrival)
        if force or last_put[0] < 0 or time.monotonic() - last_put[0] >= _BATCH_SECONDS:
            flush()
        elif not flush_due:  # when nothing more lands for a while, this is still reported
            flush_due.append(loop.call_later(_BATCH_SECONDS, flush))

    try:
        await _read_with_workers(fs, wanted, in_flight, timeout, hand_over)
    except Exception as exc:
        landed.append((wanted[0], 0, exc))
    finally:
        flush()
        put(None)


async def _read_with_workers(
    fs: Any,
    wanted: list[Wanted],
    in_flight: int,
    timeout: float,
    hand_over: Callable[..., None],
) -> None:
    """A few workers (not a task per file) copying ``wanted`` over one SFTP session;
    the first fault stops them."""
    failed = asyncio.Event()
    todo = iter(wanted)
    sftp = await asyncio.wait_for(fs._client.start_sftp_client(), timeout)

    async def worker() -> None:
        for item in todo:
            if failed.is_set():
                return
            try:
                read = await asyncio.wait_for(_sftp_copy(sftp, item), timeout)
            except Exception as exc:
                if not failed.is_set():
                    failed.set()
                    hand_over((item, 0, exc), force=True)
                return
            hand_over((item, read, None))

    try:
        await asyncio.gather(*(worker() for _ in range(min(in_flight, len(wanted)))))
    finally:
        sftp.exit()


async def _sftp_copy(sftp: Any, item: Wanted) -> int:
    """Copy one file into the mirror; the bytes read. Written only once read whole, so
    every file in the mirror is one that was reported."""
    kind, remote, local_text, size, _, mtime = item
    local = Path(local_text)
    huge = kind == "records" and size > HUGE_FILE_BYTES
    remote_file = await sftp.open(remote, "rb")
    # A read that fails or times out (a stalled link) ends the sync, and the connection is
    # dropped: its file is not closed first. Waiting on that link for the close held the
    # report of a stall with a 2 s timeout for 4 s, until the keepalives gave up.
    if huge:
        head = bytes(await remote_file.read(HEAD_BYTES, 0))
        tail = bytes(await remote_file.read(TAIL_BYTES, max(0, size - TAIL_BYTES)))
    else:
        # The listing's size: no fstat round trip (a file that grew since is read whole
        # at the next sync: its stamp will differ).
        data = bytes(await remote_file.read(max(size, 0) or -1, 0))
    with contextlib.suppress(Exception):  # what was read is whole: a failed close loses
        await remote_file.close()  # nothing (the next request reports it)
    if huge:
        _write_sparse(local, size, head, tail)
        read = len(head) + len(tail)
    else:
        _write_copy(local, data)
        read = len(data)
    if mtime is not None:
        os.utime(local, (mtime, mtime))
    return read


async def _sftp_range(fs: Any, path: str, start: int, length: int) -> bytes:
    async with fs._pool.get() as channel, channel.open(path, "rb") as remote_file:
        data = await remote_file.read(length, start)
    return bytes(data)


def _listed_file(entry: dict[str, Any], kind: str) -> tuple[str, int, str, float | None] | None:
    """(name, size, stamp, modification time) of a listing entry that is a record file
    (or a WAL), else None."""
    if entry.get("type") not in ("file", None):
        return None
    name = _base_name(str(entry.get("name", "")))
    if kind == "records" and not is_record_name(name):
        return None
    if kind == "wal" and not (name.endswith(WAL_SUFFIX) and not name.startswith(".")):
        return None
    if "/" in name or name in ("", ".", ".."):
        return None
    size = entry.get("size")
    size = int(size) if isinstance(size, int | float) else -1
    return name, size, _stamp_text(entry), _mtime_seconds(entry)


def _base_name(name: str) -> str:
    return name.rstrip("/").rpartition("/")[2]


def _write_copy(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` (a cache: no fsync; a crash leaves a stale copy that
    the next sync reads again, its stamp not yet in the manifest)."""
    atomic_write(path, data, durable=False)


def _write_sparse(path: Path, size: int, head: bytes, tail: bytes) -> None:
    """A file of ``size`` bytes holding ``head`` at its start and ``tail`` at its end (by
    hand rather than ``atomic_write``, which writes its chunks in order: this one seeks)."""
    temp = path.with_name(f".{path.name}.{os.getpid()}.{time.monotonic_ns()}.part")
    with open(temp, "wb") as out:
        out.truncate(size)
        out.write(head)
        out.seek(max(0, size - len(tail)))
        out.write(tail)
    os.replace(temp, path)
