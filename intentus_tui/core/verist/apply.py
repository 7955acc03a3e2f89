"""``apply_diff``: a diff applied to a value, as Verist's ``applyDiff`` does it.

Removals at array indices are applied in descending order (Verist's comparator, with the same
stable sort) and a bad path raises ``DiffError`` with Verist's message. Entries of an aligned
diff (``array_op`` set) are applied container by container: deletions, then insertions, then
changes. Only the containers along changed paths are copied; the base is never mutated.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cmp_to_key
from typing import Any

from intentus_tui.core.verist.diff import DiffEntry, DiffError, DiffResult, Path, PathKey
from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import array_index, is_index, js_typeof


def apply_diff(base: Any, result: DiffResult) -> Any:
    """Apply ``result`` to ``base`` and return the new value. ``base`` is never mutated.

    Only the containers along changed paths are copied; unchanged subtrees are shared with
    ``base`` and entry values are shared with the diff (as Verist shares ``entry.after``).
    """
    if result.equal:
        return base
    for entry in result.entries:
        if not entry.path:
            return entry.after  # replacement of the whole value
    writer = _CopyOnWrite(base)
    if any(e.array_op is not None for e in result.entries):
        for entry in _aligned_order(result.entries):
            writer.apply(entry, aligned=True)
    else:
        for entry in sorted(result.entries, key=_VERIST_ORDER):
            writer.apply(entry, aligned=False)
    return writer.root


def _verist_compare(x: DiffEntry, y: DiffEntry) -> int:
    # Verist's comparator: removals at numeric indices, descending; everything else "equal".
    # Python's sort is the same TimSort V8 uses, so the resulting order matches.
    if x.after is MISSING and y.after is MISSING:
        xl, yl = x.path[-1], y.path[-1]
        if is_index(xl) and is_index(yl):
            return int(yl) - int(xl)
    return 0


_VERIST_ORDER = cmp_to_key(_verist_compare)


def _aligned_order(entries: Sequence[DiffEntry]) -> list[DiffEntry]:
    """Shallow containers first; per container deletions (descending), insertions, then sets.

    Paths below an aligned array use after-array positions, so an array has to reach its
    final shape before anything inside it is touched.
    """
    groups: dict[Path, list[DiffEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.path[:-1], []).append(entry)
    ordered: list[DiffEntry] = []
    for parent in sorted(groups, key=len):
        group = groups[parent]
        deletes = [e for e in group if e.array_op == "delete"]
        inserts = [e for e in group if e.array_op == "insert"]
        others = [e for e in group if e.array_op is None]
        deletes.sort(key=lambda e: _as_index(e.path[-1]), reverse=True)
        inserts.sort(key=lambda e: _as_index(e.path[-1]))
        ordered.extend(deletes + inserts + others)
    return ordered


def _as_index(key: Any) -> int:
    if not is_index(key):
        raise DiffError(f'applyDiff: array index must be number, got {js_typeof(key)} "{key}"')
    return int(key)


def _dotted(path: Sequence[PathKey]) -> str:
    # JavaScript's path.join("."), as Verist uses it in error messages.
    return ".".join(str(p) for p in path) or "(root)"


class _CopyOnWrite:
    """Applies entries to a lazily copied tree; containers from ``base`` are copied once."""

    def __init__(self, base: Any) -> None:
        self._owned: set[int] = set()
        self._keep: list[Any] = []  # keeps copies alive so their ids are never reused
        self.root = self._own(base) if isinstance(base, dict | list) else base

    def _own(self, value: Any) -> Any:
        copy: Any = dict(value) if isinstance(value, dict) else list(value)
        self._owned.add(id(copy))
        self._keep.append(copy)
        return copy

    def apply(self, entry: DiffEntry, *, aligned: bool) -> None:
        path = entry.path
        current = self.root
        for i in range(len(path) - 1):
            if not isinstance(current, dict | list):
                raise DiffError(
                    f'applyDiff: cannot traverse path at "{_dotted(path[:i])}": '
                    f"expected object, got {js_typeof(current)}"
                )
            key = path[i]
            child = _js_get(current, key)
            if isinstance(child, dict | list) and id(child) not in self._owned:
                child = self._own(child)
                _js_set(current, key, child)
            current = child
        if not isinstance(current, dict | list):
            raise DiffError(
                f'applyDiff: cannot apply change at "{_dotted(path[:-1])}": '
                f"expected object, got {js_typeof(current)}"
            )
        last = path[-1]
        if isinstance(current, list):
            if not is_index(last):
                raise DiffError(
                    f'applyDiff: array index must be number, got {js_typeof(last)} "{last}"'
                )
            index = int(last)
            if entry.array_op == "insert":
                if not 0 <= index <= len(current):
                    raise DiffError(
                        f"applyDiff: cannot insert at index {index} of an array of "
                        f"length {len(current)}"
                    )
                current.insert(index, entry.after)
            elif entry.array_op == "delete" or (entry.after is MISSING and not aligned):
                _js_splice_one(current, index)
            else:
                _js_set(current, index, entry.after)
        elif entry.after is MISSING:
            current.pop(_dict_key(current, last), None)
        else:
            current[_dict_key(current, last)] = entry.after


def _dict_key(obj: dict[Any, Any], key: PathKey) -> Any:
    # JavaScript property keys are strings: obj[0] is obj["0"].
    if key in obj or isinstance(key, str):
        return key
    return str(key)


def _list_index(key: PathKey) -> int | None:
    if is_index(key):
        return int(key)
    if isinstance(key, str):
        return array_index(key)
    return None


def _js_get(container: dict[Any, Any] | list[Any], key: PathKey) -> Any:
    if isinstance(container, dict):
        return container.get(_dict_key(container, key), MISSING)
    index = _list_index(key)
    if index is None or not 0 <= index < len(container):
        return MISSING
    return container[index]


def _js_set(container: dict[Any, Any] | list[Any], key: PathKey, value: Any) -> None:
    if isinstance(container, dict):
        container[_dict_key(container, key)] = value
        return
    index = _list_index(key)
    if index is None or index < 0:
        # JavaScript would add a non-element property that JSON drops; refuse instead.
        raise DiffError(f'applyDiff: invalid array index "{key}"')
    if index < len(container):
        container[index] = value
    else:
        # Assigning past the end leaves holes, which JSON writes as null.
        container.extend([MISSING] * (index - len(container)))
        container.append(value)


def _js_splice_one(array: list[Any], index: int) -> None:
    start = index if index >= 0 else max(len(array) + index, 0)
    if start < len(array):
        del array[start]
