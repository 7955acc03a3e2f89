"""The benign story behind a hash mismatch caused by numeric dict keys.

IntentusNet 1.3.0 hashes the envelope while it is still in memory, with
``json.dumps(sort_keys=True)``. A dict whose keys are numbers (``{1: "a", 2: "b", 10: "c"}``)
is then sorted as numbers (1, 2, 10) and each key written as text ("1", "2", "10"). The file
stores the same text keys, so when the envelope is read back its keys are strings, which
sort as text ("1", "10", "2"): the recomputed hash differs although nothing changed.

The story is told only when it is exact: keys are restored to the one number ``json.dumps``
would have written as that very text, the dicts so restored are sorted the way
``json.dumps`` sorts them (in the file's key order, which is the order the writer inserted
them, so even a NaN key lands where it did), and the re-encoded envelope must hash to the
stored digest byte for byte.

What the real writer can and cannot produce, and so what is never restored:

- a dict mixing numeric and string keys: ``json.dumps(sort_keys=True)`` raises TypeError
  comparing them, so no such record was ever written;
- ``None`` keys (written "null"): None cannot be compared with anything, so a None key can
  only be alone in its dict, where order cannot differ;
- keys that only look numeric ("010", "1e16", "-0", "nan"): ``json.dumps`` never writes a
  number that way, so they were strings;
- two keys that would be one number (1 and 1.0, 1 and true): one dict cannot hold both.

``True``/``False`` keys (written "true"/"false") sort with numbers (True == 1), so they are
restored along with them.

A dict whose numeric-looking keys sort the same either way needs no decision. The others
may have been numbers or genuine strings, which the file cannot tell apart, so every choice
is tried (most likely first: all restored) within a budget of bytes hashed.
"""

from __future__ import annotations

import hashlib
import itertools
import math
import re
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, NamedTuple

from intentus_tui.core.records.hashing import (
    reference_documented_canonical,
    reference_runtime_canonical,
    runtime_canonical,
)
from intentus_tui.core.sanitize import sanitize_line

Number = int | float  # bool is an int

# What ``int.__repr__`` and ``float.__repr__`` write (finite floats): checked by round trip.
_INT_TEXT: Final = re.compile(r"-?(?:0|[1-9][0-9]*)")
_FLOAT_TEXT: Final = re.compile(r"-?[0-9]+(?:\.[0-9]+)?(?:e[+-][0-9]+)?")
_SPECIAL_KEYS: Final[dict[str, Number]] = {
    "true": True,
    "false": False,
    "Infinity": math.inf,
    "-Infinity": -math.inf,
}
# Python refuses to write ints longer than this as text, so json.dumps never wrote one.
_MAX_INT_DIGITS: Final = 4300

# Every choice of dicts is tried while 2**n re-encodings stay under this many bytes;
# beyond it only the likeliest choices are (all, all but one, each alone).
_SEARCH_BUDGET_BYTES: Final = 64 * 1024 * 1024
_MAX_EXHAUSTIVE: Final = 12
_MAX_NAMED_DICTS: Final = 3
_MAX_NAMED_KEYS: Final = 8
_MAX_SEGMENT: Final = 40
_IDENTIFIER: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

_NOT_NUMERIC: Final = object()
# Every key ``numeric_key`` reads as a number, as the canonical encoding writes a key (no
# escape, no space before the colon); it matches more (a quote escaped inside a string),
# never less. The lookahead (the alternatives' first characters) only makes the many
# quotes that start none of them fail at once: half the time of a search.
_NUMERIC_LOOKING_KEY: Final = re.compile(
    rb'"(?=[-0-9tfIN])(?:-?[0-9][0-9.e+-]*|true|false|-?Infinity|NaN)":'
)


def numeric_key(text: str) -> Any:
    """The number ``json.dumps`` writes as exactly ``text`` when it is a dict key, or
    ``_NOT_NUMERIC``. NaN gets a new object each time (distinct NaN keys stay distinct)."""
    if text in _SPECIAL_KEYS:
        return _SPECIAL_KEYS[text]
    if text == "NaN":
        return math.nan
    if _INT_TEXT.fullmatch(text):
        if len(text) > _MAX_INT_DIGITS:
            return _NOT_NUMERIC
        value = int(text)
        return value if int.__repr__(value) == text else _NOT_NUMERIC  # rejects "-0"
    if _FLOAT_TEXT.fullmatch(text):
        number = float(text)
        if math.isfinite(number) and float.__repr__(number) == text:
            return number
    return _NOT_NUMERIC


class NumericKeyDict(NamedTuple):
    """A dict in the envelope whose keys were probably numbers, and sort differently as such."""

    path: str  # where it is, e.g. payload.items
    container: dict[str, Any]  # the dict as read from the file
    restored_keys: tuple[Number, ...]  # its keys as numbers, in the file's order

    def restored(self, values: list[Any]) -> dict[Any, Any]:
        return dict(zip(self.restored_keys, values, strict=True))

    def sorted_texts(self) -> list[str]:
        """The keys as text, in the order json.dumps wrote them when they were numbers."""
        return _sorted_as_numbers(self.restored_keys, list(self.container))


def _sorted_as_numbers(restored: Sequence[Number], texts: list[str]) -> list[str]:
    # json.dumps sorts (key, value) pairs; keys of one dict are never equal, so sorting by
    # key makes the same comparisons in the same order, and a NaN lands where it did.
    pairs = sorted(zip(restored, texts, strict=True), key=lambda pair: pair[0])
    return [text for _, text in pairs]


def _restorable(container: dict[str, Any]) -> tuple[Number, ...] | None:
    """The keys as numbers if the dict could have had numeric keys and they sort differently
    as numbers than as text; None otherwise."""
    if len(container) < 2:
        return None
    restored = []
    for text in container:
        value = numeric_key(text)
        if value is _NOT_NUMERIC:
            return None
        restored.append(value)
    if len(set(restored)) != len(restored):  # 1 and 1.0, or 1 and true: one key in Python
        return None
    texts = list(container)
    if _sorted_as_numbers(restored, texts) == sorted(texts):
        return None  # the same bytes either way: nothing to decide
    return tuple(restored)


def _path_segment(key: str) -> str:
    if _IDENTIFIER.fullmatch(key):
        return "." + key[:_MAX_SEGMENT]
    if numeric_key(key) is not _NOT_NUMERIC:
        return f"[{key[:_MAX_SEGMENT]}]"
    text = sanitize_line(key)
    text = text if len(text) <= _MAX_SEGMENT else text[: _MAX_SEGMENT - 1] + "…"
    return f'["{text}"]'


def find_numeric_key_dicts(envelope: Any) -> list[NumericKeyDict]:
    """Every dict in ``envelope`` whose keys may have been numbers that sort differently,
    outermost first."""
    found: list[NumericKeyDict] = []
    # Each item's place is a link to its parent's: a path is only written out for a dict
    # that is found (writing every path cost most of a listing's look for this story).
    stack: list[tuple[Any, _Place]] = [(envelope, None)]
    while stack:  # iterative: an envelope nested deeper than the recursion limit is data
        value, place = stack.pop()
        if isinstance(value, dict):
            restored = _restorable(value)
            if restored is not None:
                path = _path_of(place).lstrip(".") or "envelope"
                found.append(NumericKeyDict(path, value, restored))
            stack.extend((v, (place, k)) for k, v in reversed(value.items()))
        elif isinstance(value, list):
            stack.extend((v, (place, i)) for i, v in reversed(list(enumerate(value))))
    return found


# Where a value is: None for the envelope, else (its container's place, its key or index).
_Place = tuple[Any, str | int] | None


def _path_of(place: _Place) -> str:
    segments: list[str] = []
    while place is not None:
        place, step = place
        segments.append(f"[{step}]" if isinstance(step, int) else _path_segment(step))
    return "".join(reversed(segments))


def _rebuilt(value: Any, chosen: dict[int, NumericKeyDict]) -> Any:
    """``value`` with the chosen dicts' keys restored to numbers (file order kept)."""
    # Iterative post-order rebuild, so nesting depth is no limit here.
    result: list[Any] = []
    work: list[tuple[bool, Any]] = [(False, value)]
    while work:
        done, item = work.pop()
        if done:
            values = [result.pop() for _ in item][::-1]  # its members, already rebuilt
            if isinstance(item, dict):
                numeric = chosen.get(id(item))
                result.append(
                    numeric.restored(values) if numeric else dict(zip(item, values, strict=True))
                )
            else:
                result.append(values)
        elif isinstance(item, dict | list):
            work.append((True, item))
            members = item.values() if isinstance(item, dict) else item
            work.extend((False, member) for member in reversed(list(members)))
        else:
            result.append(item)
    return result[0]


def _exhaustive(candidates: int, envelope_size: int) -> bool:
    """Whether every choice of ``candidates`` dicts fits the budget of bytes hashed."""
    return candidates <= _MAX_EXHAUSTIVE and envelope_size << candidates <= _SEARCH_BUDGET_BYTES


def _choices(candidates: list[NumericKeyDict], envelope_size: int) -> Iterator[tuple[int, ...]]:
    """Which candidate dicts to restore, likeliest first: all, then every other choice
    within the budget, else all but one and each alone."""
    n = len(candidates)
    everything = tuple(range(n))
    yield everything
    if _exhaustive(n, envelope_size):
        for size in range(n - 1, 0, -1):
            yield from itertools.combinations(everything, size)
        return
    if n > 1:
        yield from itertools.combinations(everything, n - 1)
        yield from ((i,) for i in everything if n > 2)


def _story(chosen: list[NumericKeyDict]) -> str:
    def keys(numeric: NumericKeyDict) -> str:
        texts = numeric.sorted_texts()
        shown = ", ".join(sanitize_line(t)[:_MAX_SEGMENT] for t in texts[:_MAX_NAMED_KEYS])
        return shown + (", …" if len(texts) > _MAX_NAMED_KEYS else "")

    named = "; ".join(f"{n.path}: {keys(n)}" for n in chosen[:_MAX_NAMED_DICTS])
    more = len(chosen) - _MAX_NAMED_DICTS
    if more > 0:
        named += f"; and {more} more dict{'s' if more > 1 else ''}"
    return (
        f"the envelope had numeric dict keys ({named}); IntentusNet hashed them as numbers, "
        "sorted numerically, and the file stores them as strings, which sort differently "
        "— restored as numbers they reproduce the stored hash exactly: the envelope is "
        "unchanged"
    )


class NumericKeyStory(NamedTuple):
    story: str | None  # the explanation, when the stored hash was reproduced
    candidates: int  # dicts whose keys may have been numbers and sort differently
    searched_all: bool  # every choice of those dicts was tried


_FORM_ENCODERS: Final[dict[str, Callable[[Any], bytes]]] = {
    "runtime": reference_runtime_canonical,
    "documented": reference_documented_canonical,
}


def numeric_key_story(
    envelope: Any, digest: str, forms: tuple[str, ...], canonical: bytes | None = None
) -> NumericKeyStory:
    """Look for the numeric-keys story behind a mismatch: ``digest`` is the stored hash as
    bare lowercase hex, ``forms`` the hash forms to try ("runtime", "documented"), likeliest
    first. The canonical text is written by ``json.dumps`` itself, as the writer did.
    ``canonical``: ``runtime_canonical(envelope)`` when the caller has it already."""
    if canonical is None:
        canonical = runtime_canonical(envelope)
    if not _NUMERIC_LOOKING_KEY.search(canonical):
        # No key anywhere could have been a number: no dict to walk the envelope for (the
        # encoder and this search take a tenth of the walk on a usual envelope).
        return NumericKeyStory(None, 0, True)
    candidates = find_numeric_key_dicts(envelope)
    if not candidates:
        return NumericKeyStory(None, 0, True)
    size = len(reference_runtime_canonical(envelope))
    n = len(candidates)
    searched_all = _exhaustive(n, size)
    for choice in _choices(candidates, size):
        chosen = [candidates[i] for i in choice]
        rebuilt = _rebuilt(envelope, {id(c.container): c for c in chosen})
        for form in forms:
            if hashlib.sha256(_FORM_ENCODERS[form](rebuilt)).hexdigest() == digest:
                return NumericKeyStory(_story(chosen), n, searched_all)
    return NumericKeyStory(None, n, searched_all)
