"""Which other files record an execution, as the index last saw its directory.

An id names the file called after it (``X.json``, the one IntentusNet writes) without a
file read. A copy of that record under another name (``copy.json``, ``huge.json``) holds
the same id inside it: knowing of it takes reading every file, which an id's resolution
never does. The index's cache knows it when the directory was listed before: its stored
summaries are searched for the id's bytes (no summary is decoded but those of the chunk
that holds it), and what they name is said, if the file is still there.
"""

from __future__ import annotations

import json
import mmap
import os
from pathlib import Path

import orjson

from intentus_tui.core.index.cache import IndexCache, summaries_of_line
from intentus_tui.core.paths import RecordRoot
from intentus_tui.core.records.load import RECORD_SUFFIX, WAL_SUFFIX
from intentus_tui.core.sanitize import sanitize_line


def known_copies(root: RecordRoot, execution_id: str) -> list[str]:
    """The names of the record files of ``root``, other than ``<execution_id>.json``, that
    record ``execution_id`` as the index's cache last saw them (sorted; none without a
    cache of the directory). Costs a search of the cached summaries' file, no record read."""
    cache = IndexCache()
    try:
        path = cache.summaries_file(root.records_dir.resolve())
    finally:
        cache.close()
    if path is None:
        return []
    shown = sanitize_line(execution_id)  # a summary's id is its shown form
    try:
        lines = _lines_holding(path, {orjson.dumps(shown), json.dumps(shown).encode("ascii")})
    except (OSError, ValueError):
        return []
    own = f"{execution_id}{RECORD_SUFFIX}"
    names: set[str] = set()
    for line in lines:
        try:
            summaries = summaries_of_line(line)
        except (ValueError, TypeError, KeyError, IndexError):
            return []  # not ours, or damaged: nothing is known
        names.update(
            s.file_name
            for s in summaries
            # a huge copy listed from its head only (its id read there) is one too
            if s.execution_id == shown and not s.key.endswith(WAL_SUFFIX) and s.file_name != own
        )
    return sorted(n for n in names if os.path.lexists(root.records_dir / n))


def _lines_holding(path: Path, needles: set[bytes]) -> list[bytes]:
    """The lines of ``path`` in which a needle is found (each once)."""
    starts: dict[int, bytes] = {}
    with path.open("rb") as file:
        if os.fstat(file.fileno()).st_size == 0:
            return []
        with mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) as data:
            for needle in needles:
                at = data.find(needle)
                while at != -1:
                    start = data.rfind(b"\n", 0, at) + 1
                    end = data.find(b"\n", at)
                    end = len(data) if end == -1 else end
                    if start not in starts:
                        starts[start] = data[start:end]
                    at = data.find(needle, end)
    return [starts[start] for start in sorted(starts)]
