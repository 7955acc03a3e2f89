"""JavaScript's view of JSON values, as Verist (a TypeScript library) sees them.

Python's JSON values differ from JavaScript's in ways Verist's results depend on: ``True``
is not ``1``, ``1`` is ``1.0``, object keys sort by UTF-16 code units, numbers print as
``Number::toString`` does, and ``undefined`` (``MISSING``) is not ``null``. The Verist diff,
hashing and formatting all take these rules from here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from typing import Any, Final

from intentus_tui.core.verist.missing import MISSING

_MAX_SAFE_INTEGER: Final = 2**53
_MAX_ARRAY_INDEX: Final = 2**32 - 2  # the largest index a JavaScript array can have
_ARRAY_INDEX: Final = re.compile(r"0|[1-9][0-9]*")


def js_typeof(value: Any) -> str:
    """JavaScript's ``typeof`` for a JSON value (``null`` gives ``"null"``, as Verist prints it)."""
    if value is MISSING:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "object"


def is_number(value: Any) -> bool:
    """A JavaScript number: an int or a float, not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def is_index(key: Any) -> bool:
    """A path key that indexes an array (an int, not a bool)."""
    return isinstance(key, int) and not isinstance(key, bool)


def array_index(key: str) -> int | None:
    """The array index a property name stands for (``"0"``, ``"12"``; not ``"01"``), or None."""
    if _ARRAY_INDEX.fullmatch(key) is None:
        return None
    index = int(key)
    return index if index <= _MAX_ARRAY_INDEX else None


def js_strict_equal(b: Any, a: Any) -> bool:
    """``b === a`` for values that are not both containers of the same kind."""
    if b is a:
        # JavaScript: NaN !== NaN even when it is "the same" value.
        return not (type(b) is float and b != b)
    tb = type(b)
    if tb is type(a):
        if tb is dict or tb is list:
            return False  # two distinct objects are never === (only reached for opaque uses)
        return bool(b == a)
    if is_number(b) and is_number(a):
        return bool(b == a)
    if isinstance(b, str) and isinstance(a, str):
        return str(b) == str(a)
    if isinstance(b, bool) and isinstance(a, bool):
        return bool(b) == bool(a)
    return False


def utf16_key(key: Any) -> bytes:
    """A sort key comparing like JavaScript compares strings: by UTF-16 code units."""
    return str(key).encode("utf-16-be", "surrogatepass")


def js_sorted(keys: Iterable[Any]) -> list[Any]:
    """``Array.prototype.sort()`` order: UTF-16 code units, not code points."""
    ks = list(keys)
    try:
        if all(map(str.isascii, ks)):  # O(1) per key in CPython
            ks.sort()
            return ks
    except TypeError:
        pass  # a non-string key: JavaScript would compare its string form
    ks.sort(key=utf16_key)
    return ks


def json_number(value: int | float) -> str:
    """What ``JSON.stringify`` writes for a number: ``Number::toString``, and ``null`` when
    it is not finite. An int prints as the double it would become in JavaScript."""
    if isinstance(value, int):
        value = int(value)  # an int subclass (IntEnum, bool) prints as its number
        if -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
            return str(value)
        try:
            return _double_to_string(float(value))  # correctly rounded, like JS parsing it
        except OverflowError:
            return "null"  # the literal would have parsed as +/-Infinity
    return _double_to_string(float(value))


def js_number_to_string(value: int | float) -> str:
    """JavaScript ``String(n)``: ``NaN`` and ``Infinity`` spelled out, otherwise as JSON."""
    if isinstance(value, float):
        if math.isnan(value):
            return "NaN"
        if math.isinf(value):
            return "Infinity" if value > 0 else "-Infinity"
    return json_number(value)


def _double_to_string(x: float) -> str:
    """ECMAScript ``Number::toString(x)`` for a double (``null`` when not finite)."""
    if not math.isfinite(x):
        return "null"
    if x == 0.0:
        return "0"
    if x < 0:
        return "-" + _double_to_string(-x)
    digits, n = _shortest_digits(x)
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * -n + digits
    exponent = n - 1
    mantissa = digits if k == 1 else digits[0] + "." + digits[1:]
    return f"{mantissa}e{'+' if exponent > 0 else '-'}{abs(exponent)}"


def _shortest_digits(x: float) -> tuple[str, int]:
    """``(s, n)`` of Number::toString: shortest round-trip digits ``s`` with no
    leading or trailing zeros, and ``n`` such that ``x == 0.s * 10**n``.

    ``repr`` already gives the shortest round-trip digits; only their layout differs.
    """
    mantissa, _, exp_text = repr(x).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = whole + fraction
    point = len(whole) + (int(exp_text) if exp_text else 0)
    significant = digits.lstrip("0")
    point -= len(digits) - len(significant)
    return significant.rstrip("0"), point
