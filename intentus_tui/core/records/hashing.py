"""Canonical encoders and envelope hashes of IntentusNet records.

Two canonical forms exist (Verist's JavaScript form is in ``core.verist.hashing``):

- IntentusNet runtime form (what 1.3.0 writes): sha256 over
  ``json.dumps(envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=True)``
  of the whole envelope, as bare lowercase hex.
- IntentusNet documented form (IntentusNet's documented ``compute_envelope_hash``): the
  same without the top-level ``routingMetadata`` key, with ``default=str``, written as
  ``sha256:<hex>``.

Why the IntentusNet fast paths are safe
---------------------------------------
The index hashes every envelope it sees, and ``json.dumps`` is the slow part.

When the optional native module is built (``_speedups``, see ``core.native``), it
writes the canonical bytes itself for values made only of exact JSON types, piece by
piece as CPython's own json encoder does (``repr`` for numbers, the escapes of
``encode_basestring_ascii``), and declines anything else. ``tests/core/test_native.py``
proves it byte-identical with hypothesis; it is about 5x faster than the path below
on envelopes with non-ASCII text.

Without it (or when it declines), the orjson fast path lets ``orjson`` (sorted keys) do
the encoding and only keeps its output when it is provably the text ``json.dumps`` would
write:

1. Only exact JSON types (``dict``, ``list``, ``tuple``, ``str``, ``int``,
   ``bool``, ``None``, ``float``) are accepted. ``Enum`` members and ``UUID``
   (which orjson would encode silently but differently), subclasses such as
   ``StrEnum``, datetimes, ``MISSING`` and anything else take the reference path.
2. Every float must be 0 or have ``1e-4 <= abs(x) < 1e16``: there ``repr`` (what
   ``json`` uses) writes plain decimal notation and orjson writes the same
   shortest round-trip digits the same way (checked once, on first use; if the
   installed orjson disagrees, every float takes the reference path). This
   also rejects NaN and infinities, which orjson would write as ``null``.
3. orjson sorts keys by code point as ``json`` does, writes no whitespace and
   escapes ASCII strings the way ``json`` does except DEL, which is escaped
   afterwards (a raw DEL byte can only be inside a string). It raises on ints
   beyond 64 bits, non-``str`` keys, lone surrogates and nesting deeper than 254.
4. If orjson's output is not ASCII, some strings need ``ensure_ascii`` escapes:
   every non-ASCII string value is then replaced by an ``orjson.Fragment``
   holding exactly what ``json.dumps`` writes for it (``encode_basestring_ascii``
   is the function ``json.dumps`` itself calls: ``\\uXXXX``, surrogate pairs,
   lone surrogates), containers copied only along the changed paths, and orjson
   runs again. A key with non-ASCII characters still leaves non-ASCII bytes in
   the output and takes the reference path.

Anything that fails a check is encoded by the reference ``json.dumps`` call, so
the result is byte-identical for every input, including the ones that raise.
``tests/core/records/test_hashing.py`` proves it with hypothesis; ``bench/bench_hash.py``
measures it.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
from json.encoder import encode_basestring_ascii
from typing import Any, Final, Literal

import orjson

from intentus_tui.core.native import CANONICAL_OPTIONS as _NATIVE_OPTIONS
from intentus_tui.core.native import canonical_json as _native_canonical

HashForm = Literal["runtime", "documented"]

DOCUMENTED_PREFIX = "sha256:"

# ---------------------------------------------------------------------------
# IntentusNet: reference encoders (the definition of the two forms)
# ---------------------------------------------------------------------------


def reference_runtime_canonical(value: Any) -> bytes:
    """``stable_hash``'s bytes, computed exactly as IntentusNet 1.3.0 does."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode(
        "utf-8"
    )


def reference_documented_canonical(envelope: Any) -> bytes:
    """The documented ``compute_envelope_hash``'s bytes, computed as its definition does."""
    return json.dumps(
        _without_routing_metadata(envelope),
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        default=str,
    ).encode("utf-8")


def _without_routing_metadata(envelope: Any) -> Any:
    if isinstance(envelope, dict) and "routingMetadata" in envelope:
        return {k: v for k, v in envelope.items() if k != "routingMetadata"}
    return envelope


# ---------------------------------------------------------------------------
# IntentusNet: public encoders and hashes (fast path + reference fallback)
# ---------------------------------------------------------------------------


def runtime_canonical(value: Any) -> bytes:
    """The exact bytes IntentusNet 1.3.0 hashes (``stable_hash``)."""
    fast = _native_or_fast_canonical(value)
    return fast if fast is not None else reference_runtime_canonical(value)


def documented_canonical(envelope: Any) -> bytes:
    """The exact bytes the documented ``compute_envelope_hash`` hashes."""
    stable = _without_routing_metadata(envelope)
    # default=str changes nothing for the exact JSON types both fast paths accept
    fast = _native_or_fast_canonical(stable)
    return fast if fast is not None else reference_documented_canonical(stable)


def _native_or_fast_canonical(value: Any) -> bytes | None:
    native = _native_canonical(value) if _native_canonical is not None else None
    return native if native is not None else _fast_canonical(value)


def parsed_runtime_canonical(value: Any) -> bytes:
    """``runtime_canonical`` for a value exactly as ``orjson.loads`` returned it.

    Such a value holds only exact JSON types, finite floats and ints within 64 bits, so
    when orjson's sorted output is ASCII the type walk of ``_fast_canonical`` is not
    needed: the output then differs from ``json.dumps`` only in floats below 1e-4,
    which ``_float_text_differs`` spots in the text, and in DEL. Non-ASCII output needs
    the walk anyway (to find the strings to escape), which also checks the floats.
    """
    if _native_canonical is not None:
        native = _native_canonical(value)
        if native is not None:
            return native
    raw = _orjson_text(value)
    if raw is not None and raw.isascii() and _floats_spottable() and not _float_text_differs(raw):
        return _with_del_escaped(raw)
    fast = _fast_canonical(value, raw)
    return fast if fast is not None else reference_runtime_canonical(value)


def parsed_documented_canonical(envelope: Any) -> bytes:
    """``documented_canonical`` for an envelope exactly as ``orjson.loads`` returned it
    (``default=str`` never applies: such a value holds nothing but JSON types)."""
    return parsed_runtime_canonical(_without_routing_metadata(envelope))


def variant_canonical(value: Any, *, sort_keys: bool, ensure_ascii: bool) -> bytes:
    """``json.dumps(value, sort_keys=sort_keys, separators=(",", ":"),
    ensure_ascii=ensure_ascii)`` as UTF-8 bytes (``surrogatepass``): the texts a writer
    that hashed its envelope another way may have used (``verify``'s harmless stories).

    The native encoder writes it when built (it takes both options); else the same fast
    path as the runtime form, with two differences proven the same way: without
    ``sort_keys`` orjson keeps each dict's insertion order, as ``json`` does; and without
    ``ensure_ascii`` ``json`` escapes only the characters orjson escapes too (not even
    DEL), so orjson's own output is the text once the values pass the type and float
    checks. The text without ASCII escaping costs 6 us here against 14 us by ``json.dumps``
    (a usual envelope with non-ASCII text); natively, 2 us.
    """
    if sort_keys and ensure_ascii:
        return runtime_canonical(value)
    if _native_canonical is not None and _NATIVE_OPTIONS:
        native = _native_canonical(value, sort_keys, ensure_ascii)
        if native is not None:
            return native
    option = _ORJSON_OPTIONS if sort_keys else _ORJSON_OPTIONS & ~orjson.OPT_SORT_KEYS
    if ensure_ascii:
        fast = _fast_canonical(value, option=option)
    else:
        raw = _orjson_text(value, option)
        fast = raw if raw is not None and _is_plain_json(value) else None
    if fast is not None:
        return fast
    text = json.dumps(value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=ensure_ascii)
    return text.encode("utf-8", "surrogatepass")


def runtime_envelope_hash(envelope: Any) -> str:
    """Bare hex sha256, as in ``header.envelopeHash`` written by IntentusNet 1.3.0."""
    return sha256_hex(runtime_canonical(envelope))


def documented_envelope_hash(envelope: Any) -> str:
    """``sha256:<hex>``, as in the documented record form."""
    return DOCUMENTED_PREFIX + sha256_hex(documented_canonical(envelope))


def envelope_hash(envelope: Any, form: HashForm) -> str:
    """The envelope's hash in ``form``, written the way that form writes it."""
    if form == "runtime":
        return runtime_envelope_hash(envelope)
    return documented_envelope_hash(envelope)


def sha256_hex(data: bytes) -> str:
    """Lowercase hex sha256 of already-canonical bytes."""
    return hashlib.sha256(data).hexdigest()


# ---------------------------------------------------------------------------
# The fast path
# ---------------------------------------------------------------------------

_ORJSON_OPTIONS: Final = (
    orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_SUBCLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
    | orjson.OPT_PASSTHROUGH_DATACLASS
)

# Floats in [1e-4, 1e16) are where ``repr`` uses plain decimal notation.
_PLAIN_FLOAT_MIN: Final = 1e-4
_PLAIN_FLOAT_MAX: Final = 1e16

# Deeper than orjson accepts (it refuses 254 levels): bounds the recursive walk.
_MAX_DEPTH: Final = 256
_REJECT: Final = object()


def _refuse(obj: Any) -> Any:
    """orjson ``default``: anything that is not plain JSON goes to the reference path."""
    raise TypeError(type(obj).__name__)


def _fast_canonical(
    value: Any, raw: bytes | object | None = _REJECT, *, option: int = _ORJSON_OPTIONS
) -> bytes | None:
    """``json.dumps``-identical canonical bytes via orjson, or None when not provably so.

    ``raw``: orjson's sorted output for ``value`` when the caller already has it.
    ``option``: orjson's options (without ``OPT_SORT_KEYS``: ``json.dumps`` unsorted,
    each dict in its insertion order, as both write it).
    """
    if raw is _REJECT:
        raw = _orjson_text(value, option)
    assert raw is None or isinstance(raw, bytes)
    if raw is not None and raw.isascii():
        # The common case: no string needs escaping beyond what orjson did, so checking
        # types and floats is enough (orjson refused nesting deeper than 254 levels).
        return _with_del_escaped(raw) if _is_plain_json(value) else None
    prepared = _prepared(value)
    if prepared is _REJECT:
        return None
    raw = _orjson_text(prepared, option)
    if raw is None or not raw.isascii():
        return None  # a key with non-ASCII characters: prepared values never leave any
    return _with_del_escaped(raw)


def _orjson_text(value: Any, option: int = _ORJSON_OPTIONS) -> bytes | None:
    try:
        return orjson.dumps(value, default=_refuse, option=option)
    except orjson.JSONEncodeError:
        return None


def _with_del_escaped(raw: bytes) -> bytes:
    # DEL is the one ASCII character json escapes and orjson does not. A raw DEL byte
    # can only be a character inside a string (pre-encoded strings have it escaped).
    return raw.replace(b"\x7f", b"\\u007f") if b"\x7f" in raw else raw


def _is_plain_json(value: Any) -> bool:
    """Exact JSON types only, and only floats both encoders write alike."""
    return _is_plain_container([value])


def _is_plain_container(container: Any) -> bool:
    for item in container.values() if type(container) is dict else container:
        kind = type(item)  # hot loop: strings and ints dominate
        if kind is str or kind is int or item is None or kind is bool:
            continue
        if kind is dict or kind is list or kind is tuple:
            if not _is_plain_container(item):
                return False
        elif kind is not float or not _is_plain_float(item):
            return False
    return True


def _prepared(value: Any) -> Any:
    """``value`` ready for orjson, or ``_REJECT`` if orjson could write it differently."""
    wrapped = _prepared_container([value], 0)  # one code path for top level and members
    return _REJECT if wrapped is _REJECT else wrapped[0]


def _prepared_container(container: Any, depth: int) -> Any:
    """A dict, list or tuple ready for orjson (copied only if a member had to be
    replaced), or ``_REJECT``.

    Only exact JSON types pass, and only floats both encoders write alike. A non-ASCII
    string becomes an ``orjson.Fragment`` of exactly what ``json.dumps`` writes for it
    (``encode_basestring_ascii`` is the function ``json.dumps`` itself calls).
    """
    if depth >= _MAX_DEPTH:
        return _REJECT
    is_dict = type(container) is dict
    copy: Any = None
    for key, item in container.items() if is_dict else enumerate(container):
        kind = type(item)  # hot loop: plain ASCII strings and ints dominate
        if kind is str:
            if item.isascii():
                continue
            new = orjson.Fragment(encode_basestring_ascii(item))
        elif kind is int or item is None or kind is bool:
            continue
        elif kind is dict or kind is list or kind is tuple:
            new = _prepared_container(item, depth + 1)
            if new is item:
                continue
            if new is _REJECT:
                return _REJECT
        elif kind is float and _is_plain_float(item):
            continue
        else:
            return _REJECT
        if copy is None:
            copy = dict(container) if is_dict else list(container)
        copy[key] = new
    return container if copy is None else copy


def _is_plain_float(x: float) -> bool:
    return _floats_agree() and (x == 0.0 or _PLAIN_FLOAT_MIN <= abs(x) < _PLAIN_FLOAT_MAX)


@functools.cache  # checked once, when first needed (not at every start: ~2 ms)
def _floats_agree() -> bool:
    """True if this orjson writes every float the fast path accepts exactly like ``repr``."""
    probes = [0.0, -0.0, 1e-4, 1.5e-4, 0.1, 0.7, 1.0, 2.5, 100.0, 123456.789]
    probes += [1e15, 1234567890123456.7, 9999999999999998.0, 3.141592653589793]
    probes += [float(f"{m}e{e}") for m in (1, 3.3, 7.77) for e in range(-4, 16)]
    probes += [-p for p in probes]
    plain = [p for p in probes if p == 0.0 or _PLAIN_FLOAT_MIN <= abs(p) < _PLAIN_FLOAT_MAX]
    return orjson.dumps(plain) == json.dumps(plain, separators=(",", ":")).encode()


# Where orjson and ``repr`` write a finite float differently (1e-9 <= |x| < 1e-4 only:
# orjson writes "0.00001" and "1e-7" where repr writes "1e-05" and "1e-07"), the text has
# "0.0000" or a one-digit negative exponent. A string holding those only costs the slow path.
_SHORT_NEGATIVE_EXPONENT: Final = re.compile(rb"e-[0-9](?:[,\]}]|$)")


def _float_text_differs(text: bytes) -> bool:
    # Two substring tests first: each is a fast scan, the regex only runs on a hit.
    return b"0.0000" in text or (
        b"e-" in text and _SHORT_NEGATIVE_EXPONENT.search(text) is not None
    )


@functools.cache
def _floats_spottable() -> bool:
    """True if every float this orjson writes unlike ``repr`` is caught by the pattern."""
    # Both writers switch notation between 1e-30 and 1e30; the extremes are checked too.
    probes = [float(f"{m}e{e}") for m in (1, 2.5, 7.123456789) for e in range(-30, 31)]
    probes += [5e-324, 1.5e-300, 2.2250738585072014e-308, 1.7976931348623157e308, 0.0]
    for x in probes + [-p for p in probes]:
        text = orjson.dumps(x)
        if text != json.dumps(x).encode() and not _float_text_differs(text):
            return False
    return True
