"""Where a command may write its output file (``snapshot -o``, ``export -o``, ``bundle
-o``): one check, and one way to write it.

Never into a record directory (a ``*.json`` file there is listed, and complained about, as
a record) or a write-ahead log directory, and never over a file that holds an execution
record or a write-ahead log, wherever it is: an export or a snapshot replacing a record
destroys the evidence it was made from.

An output is written where its name leads, as a shell's ``>`` writes it: through a link
(the link stays), and into a device or a FIFO as it is (``-o /dev/null``, ``-o
/dev/stdout``, a pipe a reader waits on). A regular file is replaced atomically; the
device, the FIFO and the link were once replaced by a regular file, which as root broke
the machine's ``/dev/null``.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from intentus_tui.cli.common import fail, opened_bundles
from intentus_tui.core.fsio import atomic_write
from intentus_tui.core.paths import RecordRoot, resolve_root, shown_path
from intentus_tui.core.records.head import load_record_head
from intentus_tui.core.records.load import is_record_name

RECORD_DIR = "the record directory"
WAL_DIR = "the write-ahead log directory"
_WHY = {
    RECORD_DIR: "it would sit among the records",  # ``*.json``: listed as one (``_why``)
    WAL_DIR: "it would sit among the write-ahead logs",
}
_FIRST_LINE = 1 << 16  # bytes of a file read to tell a write-ahead log by its first entry


def real_dir(path: Path) -> Path:
    """``path`` with every link and ``..`` resolved (as far as it exists)."""
    try:
        return path.resolve()
    except OSError:
        return Path(os.path.normpath(path.absolute()))


class Protected:
    """The directories an output file must not be written into: each a record directory
    or a write-ahead log directory (resolved, so ``records/../records`` is one too)."""

    def __init__(self) -> None:
        self.dirs: dict[Path, str] = {}

    def add_root(self, root: RecordRoot) -> Protected:
        if root.records_dir.is_dir():
            self.dirs.setdefault(real_dir(root.records_dir), RECORD_DIR)
        if root.wal_dir is not None:
            self.dirs.setdefault(real_dir(root.wal_dir), WAL_DIR)
        return self

    def add_default(self, directory: str | None) -> Protected:
        """The root a command falls back on (``--dir``, else ``./.intentusnet``)."""
        return self.add_root(resolve_root(directory))

    def add_files(self, files: Iterable[tuple[Path, Path | None]]) -> Protected:
        """The directories of the files a command read (records, or WALs of WAL-only
        executions), and the WAL directories they were joined with."""
        for path, wal_dir in files:
            kind = (
                WAL_DIR
                if wal_dir is not None and real_dir(path.parent) == real_dir(wal_dir)
                else RECORD_DIR
            )
            self.dirs.setdefault(real_dir(path.parent), kind)
            if wal_dir is not None:
                self.dirs.setdefault(real_dir(wal_dir), WAL_DIR)
        return self

    def what(self, directory: Path) -> str | None:
        """What ``directory`` is to the records (``RECORD_DIR``, ``WAL_DIR``) or None. Any
        ``.intentusnet/records`` or ``.intentusnet/wal`` is one, whoever named it."""
        real = real_dir(directory)
        if real in self.dirs:
            return self.dirs[real]
        if real.parent.name == ".intentusnet" and real.name in ("records", "wal"):
            return RECORD_DIR if real.name == "records" else WAL_DIR
        return None


def holds_execution(path: Path) -> str | None:
    """What an existing file holds that must never be overwritten ("an execution record",
    "a write-ahead log"), or None. Only its first megabyte and last 64 KB are read."""
    if path.is_symlink() or not path.is_file():
        return None  # a link is replaced, never written through; a new file holds nothing
    if load_record_head(path).record is not None:
        return "an execution record"
    with contextlib.suppress(OSError, ValueError), path.open("rb") as f:
        first = json.loads(f.readline(_FIRST_LINE))
        if isinstance(first, dict) and {"entry_type", "entry_hash"} <= first.keys():
            return "a write-ahead log"
    return None


def written_file(target: Path) -> Path:
    """The file an output named ``target`` is written to: where its links lead, or itself."""
    return real_dir(target) if target.is_symlink() else target


def _why(what: str, name: str) -> str:
    """Why an output named ``name`` may not go into ``what``: a ``*.json`` file in a record
    directory is listed as a record; any other (a bundle) is a stranger among them."""
    if what == RECORD_DIR and is_record_name(name):
        return "it would be listed as a record"
    return _WHY[what]


def check_output(target: Path, protected: Protected, *, chosen: bool = True) -> None:
    """Exit 2 with one line when ``target`` must not be written: inside a record or WAL
    directory, or over a record or a log (itself, or where its link leads), or into a
    directory that does not exist. ``chosen``: the user named it with ``-o`` (else it is a
    default place in the current directory)."""
    final = written_file(target)
    if real_dir(final) in opened_bundles():  # the evidence read stays as it was sealed
        fail(
            f"refusing to overwrite {shown_path(target.absolute())}: it is the bundle read; "
            "choose another place with -o"
        )
    for directory in dict.fromkeys((target.parent, final.parent)):
        what = protected.what(directory)
        if what is None:
            continue
        where = what if chosen else f"the current directory, {what.replace('the ', 'a ', 1)}"
        fail(
            f"refusing to write {target.name} into {where} ({real_dir(directory)}): "
            f"{_why(what, target.name)}; choose another place with -o"
        )
    if not final.parent.is_dir():
        fail(f"no such directory for the output: {shown_path(final.parent)}")
    held = holds_execution(final)
    if held is not None:
        fail(
            f"refusing to overwrite {shown_path(target.absolute())}: it holds {held}; "
            "choose another place with -o"
        )


def write_output(target: Path, chunks: Iterable[bytes]) -> Path:
    """Write ``chunks`` where ``target`` leads (see the module's docstring): a regular file
    (or a new one) replaced atomically, a device or a FIFO written as it is. A failure is
    one line, exit 2. Returns the file written."""
    final = written_file(target)
    try:
        mode = os.stat(final).st_mode
    except OSError:
        mode = None  # a new file
    try:
        if mode is not None and not stat.S_ISREG(mode):
            with open(final, "wb") as out:
                for chunk in chunks:
                    out.write(chunk)
            return final
        return atomic_write(final, chunks)
    except OSError as exc:
        fail(f"cannot write {shown_path(target)}: {exc.strerror or exc}")
