"""A huge record file listed without reading it whole: the sections complete within its
first megabyte (salvaged as a damaged file is), its envelope's identity streamed from that
head when the envelope goes on past it, and how the file ends from its last bytes."""

from __future__ import annotations

import io
import os
import re
import stat
from pathlib import Path
from typing import Any

from intentus_tui.core.fsio import open_confined
from intentus_tui.core.model import LoadStatus
from intentus_tui.core.records.load import (
    RECORD_SECTIONS,
    ExecutionRecord,
    LoadResult,
    Salvage,
    stat_failure,
    unreadable_result,
)

_TAIL_FINAL = re.compile(r'"finalResponse"\s*:\s*(null|\{)')


def _tail_hint(tail: str) -> str:
    """How a record ends, judged from its last bytes (1.3.0 writes finalResponse last)."""
    if not tail.rstrip().endswith("}"):
        return "truncated"
    matches = list(_TAIL_FINAL.finditer(tail))
    if not matches:
        # Whole to its last byte, but the final response (if any) starts before the tail:
        # a large response, not damage. Only reading it whole can say more.
        return "unknown"
    return "no_final_response" if matches[-1].group(1) == "null" else "final_response"


# Deeper than this, the scan of a huge file's head stops: no 1.3.0 record nests so deep, and
# orjson refuses to parse deeper, as the loader does.
_HEAD_MAX_DEPTH = 1024


def _envelope_identity(head: bytes) -> dict[str, Any]:
    """``envelope.intent`` and ``envelope.routing`` from the start of a file whose envelope is
    too big to parse here: ijson streams the prefix and stops cleanly at the cut.

    Its events are walked here rather than through ``ijson.kvitems``, which builds each
    event's whole path as a string: quadratic in the nesting, 30 s for a 600 KB head nested
    200,000 deep (here 0.1 s, stopping at ``_HEAD_MAX_DEPTH``)."""
    import ijson  # only huge files need it: every command line start would pay ~4 ms
    from ijson.common import ObjectBuilder

    out: dict[str, dict[str, Any]] = {}
    keys: list[str | None] = []  # the current key of each open map (None: an array)
    item: ObjectBuilder | None = None  # a section's item being built
    item_depth = 0
    # A number at the cut may be cut short (``12`` of ``12345``): the parser would give it.
    head = head.rstrip(b"-+0123456789.eE")
    try:
        for event, datum in ijson.basic_parse(io.BytesIO(head)):
            nesting = _NESTING.get(event, 0)
            if item is not None:  # inside one of a section's items
                item_depth += nesting
                if item_depth > _HEAD_MAX_DEPTH:
                    break
                item.event(event, datum)
                if item_depth == 0:
                    out.setdefault(str(keys[1]), {})[str(keys[2])] = item.value
                    item = None
            elif event == "map_key":
                keys[-1] = datum
            elif nesting < 0:
                keys.pop()
            elif (
                len(keys) == 3
                and keys[0] == "envelope"
                and keys[1] in ("intent", "routing")
                and keys[2] is not None
            ):
                if nesting:
                    item, item_depth = ObjectBuilder(), 1
                    item.event(event, datum)
                else:
                    out.setdefault(str(keys[1]), {})[str(keys[2])] = datum
            elif nesting:
                if len(keys) >= _HEAD_MAX_DEPTH:
                    break
                keys.append(None)
    except (ijson.JSONError, ijson.IncompleteJSONError, UnicodeDecodeError):
        pass
    return out


_NESTING = {"start_map": 1, "start_array": 1, "end_map": -1, "end_array": -1}


def load_record_head(
    path: str | os.PathLike[str], head: int = 1 << 20, tail: int = 1 << 16
) -> LoadResult:
    """List a huge file without reading it whole: the sections complete within its first
    ``head`` bytes, and how it ends from its last ``tail`` bytes. Never raises."""
    p = Path(path)
    try:
        fd = open_confined(p)
    except OSError as err:
        return unreadable_result(p, err)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return stat_failure(p, st, None) or LoadResult(
                p, LoadStatus.NOT_A_FILE, "Not a regular file"
            )
        first = os.pread(fd, head, 0)
        last = os.pread(fd, tail, max(0, st.st_size - tail))
    except OSError as err:
        return unreadable_result(p, err)
    finally:
        os.close(fd)
    salvager = Salvage(first.decode("utf-8", errors="replace"))
    salvager.run()
    found = {k: v for k, v in salvager.found.items() if k in RECORD_SECTIONS}
    hint = _tail_hint(last.decode("utf-8", errors="replace"))
    size_mb = st.st_size / 1e6
    complete = [k for k in found if not (k == "events" and salvager.in_events)]
    partial = ["events"] if salvager.in_events else []
    if "envelope" not in found:
        envelope = _envelope_identity(first)
        if envelope:
            found["envelope"] = envelope
            partial.append("envelope")
    return LoadResult(
        path=p,
        status=LoadStatus.HEAD_ONLY,
        message=(
            f"Large file ({size_mb:.0f} MB) listed from its first {head >> 10} KB and last "
            f"{tail >> 10} KB (complete there: {', '.join(complete) or 'nothing'}); "
            "inspect ID reads and verifies it whole (in the debugger: select it)"
        ),
        record=ExecutionRecord.from_json(found) if found else None,
        recovered=tuple(complete),
        partial=tuple(partial),
        size=st.st_size,
        mtime_ns=st.st_mtime_ns,
        stamp=(st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino),
        tail_hint=hint,
    )
