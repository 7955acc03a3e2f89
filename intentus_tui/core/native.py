"""The optional native speed-ups (``_speedups.c``), or None where they are not built.

Each is a faster, byte-identical twin of a pure-Python function that stays the definition
(``tests/test_speedups.py`` proves them equal). ``INTENTUS_TUI_PURE_PYTHON=1`` turns them
off, to compare or to rule them out.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

canonical_json: Callable[[object], bytes | None] | None = None
has_long_digit_run: Callable[[bytes], bool] | None = None
has_terminal_controls: Callable[[bytes], bool] | None = None
event_facts: Callable[[Any, Callable[[str], str]], Any] | None = None
new_slotted: Callable[[type[Any], tuple[Any, ...], Sequence[Any]], Any] | None = None
stat_stamps: Callable[[int, list[str]], bytes] | None = None
well_formed_values: Callable[..., tuple[Any, ...] | None] | None = None
record_values: Callable[..., tuple[Any, ...] | None] | None = None
record_file_values: Callable[..., tuple[Any, ...] | None] | None = None
object_outline: Callable[[bytes], Any] | None = None
json_row: Callable[[tuple[tuple[bytes, int, bool], ...], Sequence[Any]], bytes | None] | None = None

if not os.environ.get("INTENTUS_TUI_PURE_PYTHON"):
    try:
        from intentus_tui.core import _speedups
    except ImportError:  # no C compiler at install time: the pure-Python code runs
        pass
    else:
        canonical_json = _speedups.canonical_json
        has_long_digit_run = _speedups.has_long_digit_run
        has_terminal_controls = _speedups.has_terminal_controls
        event_facts = _speedups.event_facts
        new_slotted = _speedups.new_slotted
        stat_stamps = _speedups.stat_stamps
        json_row = _speedups.json_row
        object_outline = _speedups.object_outline
        well_formed_values = _speedups.well_formed_values
        record_values = _speedups.record_values
        record_file_values = _speedups.record_file_values

AVAILABLE = canonical_json is not None
