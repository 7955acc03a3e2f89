"""Verist's canonical form and hashes: ``stableStringify``, ``hashValue``, ``hashWithContent``.

Verist (TypeScript) hashes ``JSON.stringify`` of a value whose plain objects had their keys
re-inserted in ``Object.keys(o).sort()`` order, as ``sha256:<hex>``. Reproducing it in
Python means reproducing JavaScript's key enumeration, number printing and string escaping
(see ``verist_stringify``); ``tests/data/verist_baselines`` holds hashes Node computed.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from json.encoder import encode_basestring
from typing import Any, Final

from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import array_index, json_number, utf16_key

VERIST_PREFIX = "sha256:"

_SURROGATE: Final = re.compile("[\ud800-\udfff]")


class _Text(str):
    """Already-rendered output on the encoder's work stack (not a value to encode)."""


def verist_stringify(value: Any) -> str:
    """Verist's ``stableStringify``: what JavaScript's ``JSON.stringify`` writes for
    ``value`` once every plain object has had its keys re-inserted in
    ``Object.keys(o).sort()`` order.

    JavaScript consequences reproduced here:

    - an object enumerates array-index keys (``"0"`` .. ``"4294967294"``, canonical
      form) first in numeric order, then the other keys in insertion order, which
      ``.sort()`` made UTF-16 code-unit order (not Python's code-point order);
    - a ``"__proto__"`` key is lost: re-inserting it with ``sorted[key] = ...``
      runs the prototype setter instead of creating a property;
    - numbers print as ``Number::toString`` does (``1``, ``1e+21``, ``1e-7``,
      ``0.000001``, ``-0`` -> ``0``), non-finite numbers and ints too large for a
      double print ``null``, other ints print as the double they would become;
    - strings are escaped as well-formed ``JSON.stringify`` does: only ``"``,
      ``\\``, control characters and lone surrogates; DEL and non-ASCII stay raw;
    - ``MISSING`` (``undefined``) properties are dropped, ``MISSING`` in arrays and
      at the top level is ``null``.

    Raises ``TypeError`` for a value that is not JSON data.
    """
    out: list[str] = []
    stack: list[Any] = [value]
    while stack:
        item = stack.pop()
        if type(item) is _Text:
            out.append(item)
        elif isinstance(item, dict):
            stack.extend(reversed(_object_parts(item)))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(_array_parts(item)))
        else:
            out.append(_js_primitive(item))
    return "".join(out)


def hash_value(value: Any) -> str:
    """Verist's ``hashValue``: ``sha256:`` + hex sha256 of the UTF-8 ``verist_stringify``."""
    return VERIST_PREFIX + hashlib.sha256(verist_stringify(value).encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class HashedContent:
    hash: str
    content: str  # the canonical JSON text that was hashed


def hash_with_content(value: Any) -> HashedContent:
    """Verist's ``hashWithContent``: the hash and the canonical text it was computed over."""
    content = verist_stringify(value)
    digest = hashlib.sha256(content.encode("utf-8", "surrogatepass")).hexdigest()
    return HashedContent(VERIST_PREFIX + digest, content)


def try_hash(value: Any) -> tuple[str | None, str | None]:
    """(hash, None) or (None, reason) when the value cannot be put in canonical form."""
    try:
        return hash_value(value), None
    except RecursionError:
        return None, "nested too deeply to hash"
    except (TypeError, ValueError, OverflowError) as exc:
        return None, f"not serializable: {exc}"


def _object_parts(obj: dict[Any, Any]) -> list[Any]:
    parts: list[Any] = [_Text("{")]
    for key, item in _js_object_entries(obj):
        if item is MISSING:
            continue
        separator = "," if len(parts) > 1 else ""
        parts += [_Text(separator + _js_string(key) + ":"), item]
    parts.append(_Text("}"))
    return parts


def _array_parts(items: list[Any] | tuple[Any, ...]) -> list[Any]:
    parts: list[Any] = [_Text("[")]
    for index, item in enumerate(items):
        if index:
            parts.append(_Text(","))
        parts.append(None if item is MISSING else item)
    parts.append(_Text("]"))
    return parts


def _js_object_entries(obj: dict[Any, Any]) -> list[tuple[str, Any]]:
    """``obj``'s entries in the order a re-inserted JS object enumerates them."""
    entries: dict[str, Any] = {}
    for key, item in obj.items():
        entries[_js_property_key(key)] = item
    entries.pop("__proto__", None)
    indices = sorted((k for k in entries if array_index(k) is not None), key=int)
    index_set = set(indices)
    names = sorted((k for k in entries if k not in index_set), key=utf16_key)
    return [(k, entries[k]) for k in indices + names]


def _js_property_key(key: Any) -> str:
    """The JS property key a Python dict key stands for (JS keys are strings)."""
    if isinstance(key, str):
        return _js_code_units(key)
    if key is None or isinstance(key, (bool, int, float)):
        return _js_primitive(key)
    raise TypeError(f"verist_stringify: unsupported object key type {type(key).__name__}")


def _js_code_units(text: str) -> str:
    """Pair adjacent surrogate code points into one character, as a JS string would."""
    if _SURROGATE.search(text) is None:
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def _js_string(text: str) -> str:
    if _SURROGATE.search(text) is None:
        return encode_basestring(text)
    # Once pairs are joined only lone surrogates are left: well-formed JSON.stringify
    # escapes them (encode_basestring would leave them raw).
    quoted = encode_basestring(_js_code_units(text))
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", quoted)


def _js_primitive(value: Any) -> str:
    if value is None or value is MISSING:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _js_string(value)
    if isinstance(value, int | float):
        return json_number(value)
    raise TypeError(f"verist_stringify: unsupported value type {type(value).__name__}")
