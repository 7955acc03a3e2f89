"""Record timestamps: read them, order executions by them, show them one way.

IntentusNet 1.3.0 writes ``datetime.now(timezone.utc).isoformat()``
(``2026-11-25T02:51:27.428383+00:00``); other writers use ``Z`` or other offsets, or no
offset at all (taken as UTC). The command line shows every time as ISO-8601 UTC to the
second, ``2026-11-25T02:51:27Z``, and orders executions by the full instant.
"""

from __future__ import annotations

from datetime import UTC, datetime

# Where an undated execution sorts among dated ones: after them (the first key says so).
_NO_TIME = datetime.min.replace(tzinfo=UTC)

TimeOrder = tuple[bool, datetime, str]


def parse_timestamp(text: str | None) -> datetime | None:
    """The instant ``text`` names (timezone-aware), or None if it names none."""
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except (ValueError, TypeError):
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)


def utc_text(text: str | None) -> str:
    """``text`` as ISO-8601 UTC to the second (``2026-11-25T02:51:27Z``); a text that names
    no time is returned as it is (the caller sanitizes it), a missing one as ``""``."""
    moment = parse_timestamp(text)
    if moment is None or text is None:
        return text or ""
    if not moment.utcoffset() and _extended_to_the_second(text):
        return f"{text[:10]}T{text[11:19]}Z"  # already UTC: a slice (a listing has 100,000)
    try:
        moment = moment.astimezone(UTC)
    except (OverflowError, ValueError):  # an offset pushes it past year 1 or 9999
        return text
    return moment.replace(microsecond=0, tzinfo=None).isoformat() + "Z"


def _extended_to_the_second(text: str) -> bool:
    """Is ``text`` (a valid time) written ``YYYY-MM-DD?HH:MM:SS...``?"""
    return (
        len(text) >= 19
        and text[4] == "-"
        and text[7] == "-"
        and text[13] == ":"
        and text[16] == ":"
        and text[17:19].isdigit()
    )


def time_order(created: str | None, execution_id: str) -> TimeOrder:
    """The sort key of an execution listing: oldest first by creation time, then by id;
    executions with no readable time after every dated one (by id among themselves)."""
    moment = parse_timestamp(created)
    if moment is None:
        return (True, _NO_TIME, execution_id)
    return (False, moment, execution_id)
