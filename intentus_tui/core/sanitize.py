"""Make untrusted text inert before anything displays it.

Rich and Textual strip only a few control characters; ESC/CSI/OSC sequences, C1 controls
and bidi overrides from a record would otherwise reach the user's terminal (or make an SVG
screenshot invalid XML). Every string that came from a record goes through here first.
Markup is a separate concern: the UI must also display these strings without markup.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache
from typing import Any

from intentus_tui.core.native import has_terminal_controls as _native_has_controls

# C0 controls -> Unicode "control pictures" (U+2400 block), so ESC shows as ␛.
_C0_PICTURES = {code: chr(0x2400 + code) for code in range(0x20)}
_C0_PICTURES[0x7F] = "\u2421"  # ␡
# Invisible characters that change how text reads: bidi controls, zero-width characters,
# and other format characters that could hide or reorder content (the soft hyphen, the
# Mongolian vowel separator, the line and paragraph separators, and the tag characters
# U+E0000-E007F, which can carry a whole hidden text).
_INVISIBLE = (
    "\u00ad\u061c\u180e\u200b\u200c\u200d\u200e\u200f\u2028\u2029"
    "\u202a\u202b\u202c\u202d\u202e"
    "\u2060\u2061\u2062\u2063\u2064\u2066\u2067\u2068\u2069\ufeff\ufff9\ufffa\ufffb"
    "\U000e0000-\U000e007f"
)
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f" + _INVISIBLE + "\ud800-\udfff]")
_UNSAFE_LINE = re.compile("[\x00-\x1f\x7f-\x9f" + _INVISIBLE + "\ud800-\udfff]")


def _placeholder(char: str) -> str:
    code = ord(char)
    if code < 0x20 or code == 0x7F:
        return _C0_PICTURES[code]
    if 0x80 <= code <= 0x9F:
        return f"\u27e8{code:02X}\u27e9"  # ⟨9B⟩
    return f"\u27e8U+{code:04X}\u27e9"  # ⟨U+202E⟩


def _replace(match: re.Match[str]) -> str:
    return _placeholder(match.group())


def sanitize(text: str) -> str:
    """Keep newlines and tabs; make every other control or invisible character visible."""
    return _UNSAFE.sub(_replace, text) if _UNSAFE.search(text) else text


@lru_cache(maxsize=65536)
def sanitize_line(text: str) -> str:
    """For one-line cells: also newlines and tabs become visible (␊, ␉)."""
    if text.isascii() and text.isprintable():  # no ASCII control, the only ASCII it replaces
        return text
    return _UNSAFE_LINE.sub(_replace, text) if _UNSAFE_LINE.search(text) else text


def clean(value: str | None) -> str:
    """A string from a record, made safe to display on one line ("" for None)."""
    if not value:
        return ""
    if value.isascii() and value.isprintable():  # nothing to make visible (checked in C)
        return value
    return sanitize_line(value)


def quoted(text: object) -> str:
    """``text`` in single quotes as a message names it: its shown form (control and
    invisible characters as the placeholders every listing shows), not Python's escapes;
    a value that is no text as its ``repr``."""
    return f"'{sanitize_line(text)}'" if isinstance(text, str) else sanitize_line(repr(text))


def is_clean(text: str) -> bool:
    return _UNSAFE.search(text) is None


# Valid JSON may still carry characters a terminal acts on (C1 controls such as U+009B CSI,
# bidi overrides): escaped, piping --json output to a terminal is as safe as text.
_JSON_UNSAFE = re.compile(
    "[\x7f-\x9f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff\ud800-\udfff]"
)


def json_text_safe(text: str) -> str:
    """JSON text with every character a terminal would act on written as a ``\\u`` escape
    (still the same JSON value: these characters can only be inside strings); a lone
    surrogate too (a file name's byte that is not UTF-8, as ``os.fsdecode`` holds it), so
    that the text encodes as UTF-8 and ``os.fsencode(json.loads(...))`` gives the name
    back exactly."""
    if text.isascii() and "\x7f" not in text:  # the common case, checked in C
        return text
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


# _JSON_UNSAFE's characters as UTF-8 bytes: in valid UTF-8 a lead byte never belongs to
# another character, so a match here is a match there.
_JSON_UNSAFE_UTF8 = re.compile(
    rb"\x7f|\xc2[\x80-\x9f]|\xd8\x9c|\xe2\x80[\x8b-\x8f\xaa-\xae]|\xe2\x81[\xa0-\xa9]|\xef\xbb\xbf"
)


def pure_has_terminal_controls(data: bytes) -> bool:
    """Does UTF-8 JSON text hold a character ``json_text_safe`` escapes? (The definition
    the native twin matches.)"""
    return _JSON_UNSAFE_UTF8.search(data) is not None


def json_bytes_safe(data: bytes) -> bytes:
    """``json_text_safe`` for UTF-8 encoded JSON text (most rows hold none of those
    characters: the check says so without decoding)."""
    if data.isascii() and b"\x7f" not in data:
        return data
    controls = _native_has_controls or pure_has_terminal_controls
    if not controls(data):
        return data
    return json_text_safe(data.decode("utf-8")).encode("utf-8")


def json_finite(value: Any) -> Any:
    """``value`` with NaN and the infinities (legal in Python's json, not in JSON) replaced by
    their names as strings: ``"NaN"``, ``"Infinity"``, ``"-Infinity"``."""
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    if isinstance(value, dict):
        return {k: json_finite(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [json_finite(v) for v in value]
    return value
