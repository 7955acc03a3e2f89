"""The optional schema-free native helpers (``_speedups``, built from ``speedups_src/``), or
None where they are off.

Each is a faster, identical twin of a pure-Python function that stays the definition
(``tests/core/test_native.py`` and ``test_native_ordered_write.py`` prove them equal);
none knows anything of records. They are off where the C compiler was missing at install
time, or with ``INTENTUS_TUI_PURE_PYTHON=1`` (to compare, or to rule them out).
"""

from __future__ import annotations

import os
from array import array
from collections.abc import Callable, Sequence
from typing import Protocol

PURE_PYTHON_ENV = "INTENTUS_TUI_PURE_PYTHON"


class CanonicalJson(Protocol):
    """``json.dumps(value, sort_keys=..., separators=(",", ":"), ensure_ascii=...)`` as
    UTF-8 bytes (``surrogatepass``), or None where the encoder declines."""

    def __call__(
        self, value: object, sort_keys: bool = ..., ensure_ascii: bool = ..., /
    ) -> bytes | None: ...


canonical_json: CanonicalJson | None = None
has_long_digit_run: Callable[[bytes], bool] | None = None
has_terminal_controls: Callable[[bytes], bool] | None = None
stat_stamps: Callable[..., bytes] | None = None
read_plain_file: Callable[[str, int], tuple[bytes, int, int, int, int] | None] | None = None
write_new_files: Callable[[int, list[tuple[bytes, bytes, int]]], list[int]] | None = None
# (fd, blocks of (rows, keys, lengths), separator) -> bytes written
write_in_key_order: (
    Callable[[int, Sequence[tuple[bytes, list[bytes], list[int]]], bytes], int] | None
) = None
# (out_fd, in_fd, keys, starts, lengths, separator) -> bytes written
copy_in_key_order: Callable[[int, int, list[bytes], array[int], array[int], bytes], int] | None = (
    None
)

if not os.environ.get(PURE_PYTHON_ENV):
    try:
        from intentus_tui.core import _speedups
    except ImportError:  # no C compiler at install time: the pure-Python code runs
        pass
    else:
        canonical_json = _speedups.canonical_json
        has_long_digit_run = _speedups.has_long_digit_run
        has_terminal_controls = _speedups.has_terminal_controls
        stat_stamps = _speedups.stat_stamps
        # A module built before these were added has none: the pure code runs then.
        read_plain_file = getattr(_speedups, "read_plain_file", None)
        write_new_files = getattr(_speedups, "write_new_files", None)
        write_in_key_order = getattr(_speedups, "write_in_key_order", None)
        copy_in_key_order = getattr(_speedups, "copy_in_key_order", None)


def takes_options(encode: Callable[..., bytes | None]) -> bool:
    """Does this ``canonical_json`` take ``sort_keys`` and ``ensure_ascii``? A module
    built before it did refuses them (then the variant texts take the pure path)."""
    try:
        return encode(0, True, False) == b"0"
    except TypeError:
        return False


AVAILABLE = canonical_json is not None
CANONICAL_OPTIONS = canonical_json is not None and takes_options(canonical_json)


def active_helpers() -> tuple[str, ...]:
    """The names of the native helpers in use (empty: pure Python throughout)."""
    helpers = {
        "canonical_json": canonical_json,
        "has_long_digit_run": has_long_digit_run,
        "has_terminal_controls": has_terminal_controls,
        "stat_stamps": stat_stamps,
        "read_plain_file": read_plain_file,
        "write_new_files": write_new_files,
        "write_in_key_order": write_in_key_order,
        "copy_in_key_order": copy_in_key_order,
    }
    return tuple(name for name, helper in helpers.items() if helper is not None)


def native_status() -> str:
    """For ``--version``: which native helpers are active, or why none are."""
    active = active_helpers()
    if active:
        return "active: " + ", ".join(active)
    if os.environ.get(PURE_PYTHON_ENV):
        return f"off - pure Python; {PURE_PYTHON_ENV} is set"
    return "off - pure Python; not built"
