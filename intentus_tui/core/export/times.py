"""Times for an exported trace: the recorded ones where they exist, deterministic synthetic
ones where they do not, and which is which.

An execution's story is a sequence of moments (the record's creation, then each event in
order; or a write-ahead log's entries). Some carry a time of their own: the record header's
``createdUtcIso``, the router decision's ``timestamp``, the final response's
``metadata.timestamp``, every WAL entry's ``timestamp_iso``. IntentusNet 1.3.0 writes no
time on the other events. A moment without one gets a synthetic time:

- between two recorded times that increase: spaced evenly between them (integer
  arithmetic, so the same record always gives the same nanoseconds);
- before the first or after the last recorded time (or between two that do not
  increase): one microsecond per moment away from the nearest recorded time before it
  (after it, for the moments before the first);
- with no recorded time at all: ending at the file's modification time, one microsecond
  apart (``file_time_ns``: a link that leads nowhere, the link's own).

Every synthetic time is flagged, so an exporter can mark it (``intentus.synthetic_time``).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import pairwise

from intentus_tui.core.timestamps import parse_timestamp

# The distance between two moments that have no recorded time to be spaced by.
SYNTHETIC_STEP_NS = 1_000
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_MAX_UNIX_NANO = 2**64 - 1  # OTLP times are fixed64 nanoseconds since the Unix epoch


@dataclass(frozen=True, slots=True)
class Moment:
    """A point of an execution's story in nanoseconds since the Unix epoch; ``synthetic``
    when no time was recorded for it."""

    unix_nano: int
    synthetic: bool


def unix_nano(text: object) -> int | None:
    """The instant an ISO-8601 text names, in whole nanoseconds since the Unix epoch (exact:
    no float is involved), or None when it names none OTLP can carry (before 1970 or past
    the fixed64 range)."""
    if not isinstance(text, str):
        return None
    moment = parse_timestamp(text)
    return nano_of(moment) if moment is not None else None


def nano_of(moment: datetime) -> int | None:
    """``moment`` in whole nanoseconds since the Unix epoch, or None when OTLP cannot carry
    it (see ``unix_nano``)."""
    try:
        delta = moment - _EPOCH
    except (OverflowError, ValueError):
        return None
    nanos = (delta.days * 86_400 + delta.seconds) * 1_000_000_000 + delta.microseconds * 1_000
    return nanos if 0 <= nanos <= _MAX_UNIX_NANO else None


def file_time_ns(path: str | os.PathLike[str]) -> int:
    """The modification time of the file an execution was read from, in nanoseconds: where
    its synthetic times end when nothing recorded one. A link that leads nowhere (its
    target gone, or a loop) has no file behind it to ask: its own time (when it was made),
    the time of the name the execution is listed under, never 1970. 0 only when the name
    itself is gone."""
    for follow in (True, False):
        try:
            return os.stat(path, follow_symlinks=follow).st_mtime_ns
        except OSError:
            continue
    return 0


def _clamp(nanos: int) -> int:
    return min(max(nanos, 0), _MAX_UNIX_NANO)


def fill_times(recorded: Sequence[int | None], fallback_end_ns: int) -> list[Moment]:
    """One ``Moment`` per entry of ``recorded`` (a time, or None where none was recorded),
    following the rules above. ``fallback_end_ns`` (the file's modification time) is the
    last moment's time when nothing recorded one."""
    count = len(recorded)
    if count == 0:
        return []
    anchors = [(i, t) for i, t in enumerate(recorded) if t is not None]
    if not anchors:
        end = _clamp(fallback_end_ns)
        return [
            Moment(_clamp(end - (count - 1 - i) * SYNTHETIC_STEP_NS), True) for i in range(count)
        ]
    moments: list[Moment | None] = [None] * count
    for i, t in anchors:
        moments[i] = Moment(t, False)
    first_index, first_time = anchors[0]
    for i in range(first_index):
        moments[i] = Moment(_clamp(first_time - (first_index - i) * SYNTHETIC_STEP_NS), True)
    for (left, left_time), (right, right_time) in pairwise(anchors):
        gap = right - left
        for i in range(left + 1, right):
            if right_time > left_time:
                nanos = left_time + (right_time - left_time) * (i - left) // gap
            else:
                nanos = left_time + (i - left) * SYNTHETIC_STEP_NS
            moments[i] = Moment(_clamp(nanos), True)
    last_index, last_time = anchors[-1]
    for i in range(last_index + 1, count):
        moments[i] = Moment(_clamp(last_time + (i - last_index) * SYNTHETIC_STEP_NS), True)
    return [m for m in moments if m is not None]
