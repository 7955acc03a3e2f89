"""JSON output stays inert in a terminal: the byte-level check spares the regex only when
it is sure no character a terminal acts on is there."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core import sanitize
from intentus_tui.core.sanitize import json_bytes_safe, json_text_safe

# Every character json_text_safe escapes, their neighbours, and text that shares lead bytes.
EDGES = [
    "\x7e", "\x7f", "\x80", "\x9b", "\x9f", "\xa0", "é", "\u061b", "\u061c", "\u061d",
    "\u200a", "\u200b", "\u200f", "\u2010", "—", "“", "\u2029", "\u202a", "\u202e", "\u202f",
    "\u205f", "\u2060", "\u2069", "\u206a", "→", "\ufefe", "\ufeff", "\uff00", "😀", "a", '"',
]  # fmt: skip


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from(EDGES), max_size=12), max_size=4))
def test_bytes_and_text_versions_agree(values: list[str]) -> None:
    text = json.dumps(values, ensure_ascii=False)
    expected = json_text_safe(text).encode("utf-8")
    assert json_bytes_safe(text.encode("utf-8")) == expected
    native, sanitize._native_has_controls = sanitize._native_has_controls, None
    try:  # without the native check (no C compiler): the same bytes
        assert json_bytes_safe(text.encode("utf-8")) == expected
    finally:
        sanitize._native_has_controls = native


def test_terminal_controls_are_escaped_and_plain_text_is_kept_as_is() -> None:
    row = json.dumps({"chain": "a ✓ → b ✗", "intent": "x\x9b2J\u202eevil"}, ensure_ascii=False)
    safe = json_bytes_safe(row.encode())
    assert b"\xc2\x9b" not in safe and "\u202e".encode() not in safe
    assert json.loads(safe) == json.loads(row)  # the same JSON value
    plain = "a ✓ → b ✗ é 日本".encode()
    assert json_bytes_safe(plain) is plain  # no regex pass, no copy
    quoted = "— “quoted”".encode()  # shares lead bytes with U+200B..: checked, unchanged
    assert json_bytes_safe(quoted) == quoted
