"""``key_by``: Verist's ``normalizeForDiff``, so arrays compare by identity, not position.

The arrays at the given dot-paths become maps keyed by an element field, so a reordered array
compares equal and a changed element is reported under its key.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, TypeAlias

from intentus_tui.core.verist.diff import DiffError
from intentus_tui.core.verist.value import array_index, is_number, js_number_to_string, js_typeof

KeyFn: TypeAlias = str | Callable[[Any], Any]


def key_by(value: Any, paths: Mapping[str, KeyFn]) -> Any:
    """Turn the arrays at ``paths`` (dot-paths) into maps keyed by an element field.

    A key function is a field name or a callable returning a string or number. As in Verist,
    paths that do not resolve, pass through a non-object or end at a non-array are skipped,
    and the root must be an object. Raises ``DiffError`` with Verist's message on a duplicate
    key, an element without the field, or a key that is not a string or number.
    ``value`` is not mutated; only the containers along each path are copied.
    """
    if not paths or not isinstance(value, dict):
        return value
    result: dict[Any, Any] = dict(value)
    for dot_path, key_fn in paths.items():
        result = _key_at(result, dot_path.split("."), key_fn)
    return result


def _key_at(root: dict[Any, Any], segments: list[str], key_fn: KeyFn) -> dict[Any, Any]:
    chain: list[dict[Any, Any]] = [root]
    current: dict[Any, Any] = root
    for index, segment in enumerate(segments):
        if segment not in current:
            return root  # the path does not resolve: skipped (partial outputs)
        child = current[segment]
        if index == len(segments) - 1:
            if not isinstance(child, list):
                return root
            replacement: Any = _array_to_record(child, key_fn, ".".join(segments))
            break
        if not isinstance(child, dict):
            return root  # non-object intermediate: skipped
        chain.append(child)
        current = child
    # Rebuild the chain bottom-up with shallow copies, as the spread in Verist does.
    for obj, segment in zip(reversed(chain), reversed(segments), strict=False):
        copy = dict(obj)
        copy[segment] = replacement
        replacement = copy
    result: dict[Any, Any] = replacement
    return result


def _array_to_record(array: list[Any], key_fn: KeyFn, label: str) -> dict[str, Any]:
    record: dict[str, Any] = {}
    for i, element in enumerate(array):
        if isinstance(key_fn, str):
            raw = _js_field(element, key_fn)
            if raw is _NO_FIELD:
                raise DiffError(f'keyBy: element at {label}[{i}] has no field "{key_fn}"')
        else:
            raw = key_fn(element)
        if isinstance(raw, str):
            key = raw
        elif is_number(raw):
            key = js_number_to_string(raw)
        else:
            raise DiffError(f"keyBy: key must be string or number, got {_typeof_for_key(raw)}")
        if key in record:
            raise DiffError(f'keyBy: duplicate key "{key}" in {label}')
        record[key] = element
    return record


def _typeof_for_key(value: Any) -> str:
    # Plain JavaScript typeof here (Verist prints `typeof rawKey`): null is "object".
    kind = js_typeof(value)
    return "object" if kind == "null" else kind


_NO_FIELD = object()


def _js_field(element: Any, name: str) -> Any:
    """``name in element ? element[name] : <none>`` for an object or array element."""
    if isinstance(element, dict):
        return element.get(name, _NO_FIELD)
    if isinstance(element, list):
        if name == "length":
            return len(element)
        index = array_index(name)
        if index is not None and index < len(element):
            return element[index]
    return _NO_FIELD
