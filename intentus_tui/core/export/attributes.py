"""OTLP/JSON attribute values, ids and the JSON text of recorded values.

The OTLP/JSON encoding (the protobuf JSON mapping with OTLP's exceptions): field names in
lowerCamelCase, trace and span ids as lowercase hex (not base64), 64-bit integers as
decimal strings, enums as integers.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
from collections.abc import Iterable
from typing import Any

from intentus_tui.core.sanitize import json_finite

AnyValue = dict[str, Any]
KeyValue = dict[str, Any]

_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def any_value(value: object) -> AnyValue:
    """One ``AnyValue``: bool, int (as a string: it is 64-bit), finite float, string, bytes
    (base64, as OTLP/JSON writes every bytes field but the ids), or a list of those;
    anything else (a non-finite float, an int past 64 bits) as its text."""
    if isinstance(value, bytes):
        return {"bytesValue": base64.b64encode(value).decode("ascii")}
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        if _INT64_MIN <= value <= _INT64_MAX:
            return {"intValue": str(value)}
        return {"stringValue": str(value)}
    if isinstance(value, float):
        return {"doubleValue": value} if math.isfinite(value) else {"stringValue": str(value)}
    if isinstance(value, list | tuple):
        return {"arrayValue": {"values": [any_value(v) for v in value]}}
    return {"stringValue": value if isinstance(value, str) else str(value)}


def key_values(pairs: Iterable[tuple[str, object]]) -> list[KeyValue]:
    """``[{"key": k, "value": AnyValue}]`` in the given order, leaving out None values."""
    return [{"key": key, "value": any_value(value)} for key, value in pairs if value is not None]


def trace_id_of(execution_id: str) -> str:
    """The trace id of an execution: the first 16 bytes of the sha256 of its id (UTF-8), as
    32 lowercase hex digits. Anyone can recompute it:
    ``printf %s ID | sha256sum | cut -c1-32``."""
    return _digest(execution_id)[:32]


def span_id_of(execution_id: str, role: str) -> str:
    """A span id (16 lowercase hex digits) derived from the execution id and the span's role
    in it (``root``, ``attempt/2``, ``step/charge``): the same record always gives the same
    ids."""
    return _digest(f"{execution_id}\x00{role}")[:16]


def _digest(text: str) -> str:
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    # An all-zero id is invalid in OTLP; a sha256 prefix of zeros is as good as never, but
    # the rule is cheap to keep.
    return digest if digest.strip("0")[:1] else "1" + digest[1:]


def json_text(value: object) -> str:
    """A recorded value as compact JSON text, every non-ASCII character escaped: the exact
    value for a program that parses it, and inert in any terminal that shows it."""
    try:
        try:
            return json.dumps(value, ensure_ascii=True, separators=(",", ":"), allow_nan=False)
        except ValueError:  # NaN or an infinity: written as its name
            return json.dumps(json_finite(value), ensure_ascii=True, separators=(",", ":"))
    except RecursionError:
        return json.dumps("(nested too deeply to export)")
