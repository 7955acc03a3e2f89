"""JSON Lines: one JSON value per line, as the exports write them.

Each line is compact UTF-8 JSON ending in ``\\n``. Values that JSON cannot hold are written
as ``inspect --json`` writes them (NaN and the infinities as their names, an unpaired
surrogate, a file name's byte that is not UTF-8, as its ``\\u`` escape), and the
characters a terminal would act on are escaped (the same value, written ``\\u...``), so
``cat``-ing an export is as safe as text.
"""

from __future__ import annotations

import json
from typing import Any

from intentus_tui.core.sanitize import json_finite, json_text_safe


def json_line(value: Any) -> bytes:
    """``value`` as one line of JSON Lines (compact, newline-terminated, terminal-safe)."""
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except ValueError:
        text = json.dumps(json_finite(value), ensure_ascii=False, separators=(",", ":"))
    return json_text_safe(text).encode("utf-8") + b"\n"
