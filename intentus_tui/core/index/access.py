"""Whether this process may read a file, judged from the stat data a re-open has anyway.

The index cache takes a file whose stat is unchanged for the one it summarized. Read
permission is no part of that stat when only the reader changed (the same files listed by
root, then by a user, or by root without its power to read any file): the cached verdict
("succeeded, verified") stayed where the file could no longer be read. A file whose mode
bits deny this process is therefore never fresh (``scan.stamps_of``): it is read again, and
what reading it says is shown. That costs no system call (the mode, owner and group come
with the stat), and only such files are read again. What it does not see: an access
control list that denies a file its mode bits allow.
"""

from __future__ import annotations

import functools
import os
import stat

# (effective uid, effective gid, supplementary groups): who reads, for ``mode_lets_read``.
Reader = tuple[int, int, tuple[int, ...]]

CAP_DAC_OVERRIDE = 1
CAP_DAC_READ_SEARCH = 2


@functools.cache
def current_reader() -> Reader | None:
    """This process as a reader of files; None when it may read any file (root, or a
    process with the capability to override or bypass read permission), or where that
    cannot be told (no ``geteuid``)."""
    if not hasattr(os, "geteuid"):
        return None
    capabilities = _effective_capabilities()
    if capabilities is None:  # no /proc: root reads everything
        if os.geteuid() == 0:
            return None
    elif capabilities & ((1 << CAP_DAC_OVERRIDE) | (1 << CAP_DAC_READ_SEARCH)):
        return None
    return os.geteuid(), os.getegid(), tuple(sorted(set(os.getgroups())))


def _effective_capabilities() -> int | None:
    """The effective capability set (``CapEff`` of /proc/self/status), or None."""
    try:
        with open("/proc/self/status", "rb") as status:
            for line in status:
                if line.startswith(b"CapEff:"):
                    return int(line.split()[1], 16)
    except (OSError, ValueError, IndexError):
        return None
    return None


def mode_lets_read(st: os.stat_result, reader: Reader) -> bool:
    """Whether the mode bits of ``st`` let ``reader`` read the file (owner, else group,
    else others), as the native ``stat_stamps`` decides it."""
    uid, gid, groups = reader
    if st.st_uid == uid:
        return bool(st.st_mode & stat.S_IRUSR)
    if st.st_gid == gid or st.st_gid in groups:
        return bool(st.st_mode & stat.S_IRGRP)
    return bool(st.st_mode & stat.S_IROTH)
