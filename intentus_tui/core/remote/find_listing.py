"""Listing a remote directory with the server's ``find``, in the process that then runs
``tar`` (one exec channel, one process started on the server for both).

Listing 10,000 names over SFTP costs the client a hundred READDIR round trips and, in
asyncssh, an attributes object per name decoded in Python: a third of a cold sync's time
on the client. GNU ``find -printf`` writes each entry's kind, size, modification time and
name as one NUL-terminated record instead, on the channel's stderr while stdout is kept
for the tar stream that follows. A name holds no NUL, so any name (newlines and control
characters included) comes through whole, to be judged by the caller as an SFTP
listing's would be. Each entry is made exactly as the SFTP lane makes it (``tar_lane``'s
``_entry``: whole seconds, the same ``datetime``), so a file's stamp is the same
whichever way it was listed, and a mirror listed one way is found unchanged when listed
the other.

``find`` gives an entry's ``lstat``, as SFTP's READDIR does: a link is a link (listed as
"other", never followed), wherever it points. An empty record ends the listing, and
find's exit status follows it. A server without GNU find (busybox, BSD), a directory
find could not read (a status other than 0), or a shell that cannot run the script (no
end at all): the caller then lists over SFTP, skipping the names already given.
"""

from __future__ import annotations

import shlex
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

_CHUNK = 1 << 18  # bytes asked of the channel at once
# One entry: kind (f: regular file; d, l, ...), size, modification time as seconds with a
# fraction, the name; NUL-terminated; then an empty record and find's exit status. find's
# own messages go nowhere. find runs beside tar, which is asked for files as soon as the
# listing finds them. tar writes 256 KiB at a time (GNU tar's -b 512; 10 KiB by default):
# sshd then sends fuller packets, fewer of them (a fifth fewer, and less of sshd's time,
# for 10,000 records). A tar without -b (busybox) fails at once, before reading a name,
# and tar runs again without it.
_SCRIPT = (
    'if [ "$2" = list ]; then'
    " { find \"$1\" -mindepth 1 -maxdepth 1 -printf '%y %s %T@ %f\\0'; printf '\\0%s\\0' $?; }"
    ' >&2 2>/dev/null & fi; tar -c -b 512 -f - -C "$1" -T - 2>/dev/null'
    ' || exec tar -c -f - -C "$1" -T - 2>/dev/null'
)


# Started before the directory is known (as soon as the connection is up, while it is
# looked for over SFTP: the server's shell reads the account's startup files meanwhile),
# the script reads the directory as the first line of its input, then runs as above.
_EARLY_SCRIPT = 'IFS= read -r d || exit 0; set -- "$d" list; ' + _SCRIPT


def early_command() -> str:
    """The command of a listing-and-tar process started before its directory is known:
    it reads the directory (``early_line``) first, and then runs as
    ``list_then_tar_command(directory)``. Run by ``sh`` as that one is."""
    return f"exec sh -c {shlex.quote(_EARLY_SCRIPT)} sh"


def early_line(remote_dir: str) -> bytes | None:
    """The first line for ``early_command``: ``remote_dir`` (as ``list_then_tar_command``
    takes it), or None for a directory one line cannot carry (a newline in its path)."""
    start = remote_dir if remote_dir.startswith(("/", ".")) else f"./{remote_dir}"
    if "\n" in start or "\0" in start:
        return None
    return f"{start}\n".encode("utf-8", "surrogateescape")


def list_then_tar_command(remote_dir: str, listing: bool = True) -> str:
    """The command run on the server: ``remote_dir``'s entries (not below it) on stderr
    (with ``listing``), and the files named on stdin as one tar stream on stdout. Run by
    ``sh`` whatever the account's shell is (csh reads redirections otherwise)."""
    start = remote_dir if remote_dir.startswith(("/", ".")) else f"./{remote_dir}"
    what = "list" if listing else "copy"
    return f"exec sh -c {shlex.quote(_SCRIPT)} sh {shlex.quote(start)} {what}"


def whole_seconds(text: bytes) -> int:
    """``%T@``'s seconds as SFTP (version 3, what OpenSSH speaks) carries a file's time:
    whole seconds as ``stat`` gives them, kept to 32 unsigned bits (a time before 1970 or
    after 2106 wraps). GNU find writes the seconds and the nanoseconds of the time as
    they are (-5.5 s is ``-6.5000000000``), so the seconds are the part before the point;
    never read as a float, which would round a fraction up into the next second."""
    whole, _, _ = text.partition(b".")
    return int(whole) & 0xFFFFFFFF


def parse_entry(remote_dir: str, record: bytes) -> dict[str, Any]:
    """One ``find`` record as the SFTP lane's entry; ``ValueError`` when it is not one
    (a name that is not UTF-8 is one: the SFTP listing says what it is)."""
    kind, size, mtime, name = record.split(b" ", 3)
    return _entry_of(remote_dir, kind, size, mtime, name.decode("utf-8"))


def _entry_of(remote_dir: str, kind: bytes, size: bytes, mtime: bytes, name: str) -> dict[str, Any]:
    """``parse_entry`` of a record already split, its name decoded."""
    if not name or "/" in name:
        raise ValueError("not a name in the directory")
    return {
        "name": f"{remote_dir}/{name}",
        "size": int(size),
        "type": "file" if kind == b"f" else "other",
        "mtime": listed_time(whole_seconds(mtime)),
    }


_TIMES: dict[int, datetime] = {}
_TIMES_KEPT = 1 << 16


def listed_time(seconds: int) -> datetime:
    """A listing's modification time (whole seconds) as the entry's ``datetime`` in UTC,
    as sshfs makes it. One object per second seen, shared by the entries: a directory of
    records written together holds many files of the same second, and the mirror then
    turns each time into its stamp once (``mirror._time_facts``)."""
    found = _TIMES.get(seconds)
    if found is None:
        if len(_TIMES) >= _TIMES_KEPT:
            _TIMES.clear()
        found = _TIMES[seconds] = datetime.fromtimestamp(seconds, UTC)
    return found


async def read_listing(
    reader: Any,
    remote_dir: str,
    offer: Callable[[dict[str, Any]], Awaitable[None] | None],
    progressed: Callable[[], None],
    seen: Callable[[str], bool] = lambda name: False,
) -> bool:
    """Give each entry ``find`` lists on ``reader`` (the process's stderr) to ``offer``
    (what it returns, when not None, is awaited before the next entry); whether the
    listing came whole (else the caller lists again another way). Stops at the listing's
    end (an empty record, then find's exit status as a record: the channel's stderr ends
    only with tar's stream), without waiting for the process. A network fault is raised
    as it is; ``progressed`` is called as bytes arrive (the caller watches for a stall).
    A name ``seen`` says was listed already (over SFTP, while the server's shell
    started) is passed over before its entry is made."""
    whole = True
    pending = b""
    ended = False
    while True:
        chunk = await reader.read(_CHUNK)
        progressed()
        if not chunk:
            return False  # no end: the script did not run
        *records, pending = (pending + chunk).split(b"\0")
        for record in records:
            if ended:  # find's exit status
                return whole and record == b"0"
            if not record:
                ended = True
                continue
            try:  # parse_entry's steps, the name decoded once
                kind, size, mtime, raw_name = record.split(b" ", 3)
                name = raw_name.decode("utf-8")
                if seen(name):
                    continue
                entry = _entry_of(remote_dir, kind, size, mtime, name)
            except (ValueError, UnicodeDecodeError):
                whole = False  # SFTP says what this one is
                continue
            sending = offer(entry)
            if sending is not None:
                await sending
