"""IntentusNet canonical forms: the orjson fast path is byte-identical to ``json.dumps``.

The oracles are the reference ``json.dumps`` calls (IntentusNet 1.3.0's ``stable_hash``
itself, and the documented ``compute_envelope_hash`` copied verbatim below), and records
written by the real intentusnet 1.3.0.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import enum
import hashlib
import json
import logging
import random
import struct
import uuid
from collections.abc import Callable, Iterator
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from intentusnet.recording.models import stable_hash

from intentus_tui.core.records import hashing
from intentus_tui.core.records.hashing import (
    DOCUMENTED_PREFIX,
    documented_canonical,
    documented_envelope_hash,
    envelope_hash,
    reference_documented_canonical,
    reference_runtime_canonical,
    runtime_canonical,
    runtime_envelope_hash,
    variant_canonical,
)
from intentus_tui.core.verist.missing import MISSING


def documented_compute_envelope_hash(envelope: dict[str, Any]) -> str:
    """IntentusNet's documented ``compute_envelope_hash``, verbatim."""
    stable = {k: v for k, v in envelope.items() if k not in ["routingMetadata"]}
    canonical = json.dumps(
        stable, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str
    )
    return f"sha256:{hashlib.sha256(canonical.encode()).hexdigest()}"


# ---------------------------------------------------------------------------
# Strategies: everything Python's json can parse, and then some
# ---------------------------------------------------------------------------

# Characters where escaping rules differ between encoders or forms.
TRICKY_CHARS = [
    "\x00", "\x08", "\x0c", "\x1f", " ", '"', "\\", "/", "\x7f", "\x80", "é", "\xff",
    "\u0100", "\u2028", "\ud7ff", "\ud800", "\udbff", "\udc00", "\udfff", "\ue000",
    "\uffff", "\U00010000", "😀", "\U0010ffff", "a", "0", "e", "x", "U", "u", ":", ",",
]  # fmt: skip
TRICKY_FLOATS = [
    0.0, -0.0, 1e-4, 9.999999999999999e-05, 1e-5, 1e-7, 1e-9, 1e-10, 5e-324,
    2.2250738585072014e-308, 0.1, 0.7, 1.0, 1e15, 9999999999999998.0, 1e16, 1.5e16,
    1e21, 1e22, 1.7976931348623157e308, 123456789012345680000.0,
]  # fmt: skip
TRICKY_INTS = [
    0, -1, 2**53, 2**53 + 1, 2**63 - 1, 2**63, 2**64 - 1, 2**64, -(2**63), -(2**63) - 1,
    10**30, -(10**40),
]  # fmt: skip

json_text = st.one_of(
    st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=8),
    st.text(alphabet=st.characters(exclude_categories=()), max_size=8),  # incl. surrogates
    st.sampled_from(["routingMetadata", "payload", "", "a"]),
)
json_floats = st.one_of(
    st.floats(), st.sampled_from(TRICKY_FLOATS), st.sampled_from(TRICKY_FLOATS).map(lambda f: -f)
)
json_ints = st.one_of(st.integers(), st.sampled_from(TRICKY_INTS))
json_scalars = st.one_of(st.none(), st.booleans(), json_ints, json_floats, json_text)
json_values = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=5), st.dictionaries(json_text, children, max_size=5)
    ),
    max_leaves=15,
)

PROOF = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@contextlib.contextmanager
def _pure_python() -> Iterator[None]:
    """Without the native encoder (``core.native``): the orjson fast path and the
    reference alone, as on a machine where the C extension could not be built."""
    saved = hashing._native_canonical
    hashing._native_canonical = None
    try:
        yield
    finally:
        hashing._native_canonical = saved


BOTH_WAYS = (contextlib.nullcontext, _pure_python)


# ---------------------------------------------------------------------------
# Proofs: fast path == reference, for both forms
# ---------------------------------------------------------------------------


@PROOF
@given(json_values, st.sampled_from([None, {"decisionPath": ["a"], "retries": 1}, float("nan")]))
def test_fast_path_is_byte_identical_to_the_reference_for_both_forms(
    value: Any, routing_metadata: Any
) -> None:
    fast = hashing._fast_canonical(value)
    if fast is not None:  # accepted fast output is the reference output
        assert fast == reference_runtime_canonical(value)
    envelope = {"routingMetadata": routing_metadata, "payload": value}
    if isinstance(value, dict):
        envelope.update(value)
    for way in BOTH_WAYS:
        with way():
            assert runtime_canonical(value) == reference_runtime_canonical(value)
            assert runtime_envelope_hash(value) == stable_hash(value)
            assert documented_canonical(envelope) == reference_documented_canonical(envelope)
            assert documented_envelope_hash(envelope) == documented_compute_envelope_hash(envelope)


@PROOF
@given(json_values, st.booleans(), st.booleans())
def test_variant_texts_are_byte_identical_to_json_dumps(
    value: Any, sort_keys: bool, ensure_ascii: bool
) -> None:
    """The texts the harmless-story search hashes (unsorted keys, no ASCII escaping) are
    exactly what ``json.dumps`` writes with those options."""
    try:
        text = json.dumps(
            value, sort_keys=sort_keys, separators=(",", ":"), ensure_ascii=ensure_ascii
        )
    except (TypeError, ValueError, RecursionError) as exc:
        with pytest.raises(type(exc)):
            variant_canonical(value, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
        return
    expected = text.encode("utf-8", "surrogatepass")
    for way in BOTH_WAYS:
        with way():
            made = variant_canonical(value, sort_keys=sort_keys, ensure_ascii=ensure_ascii)
            assert made == expected


@PROOF
@given(
    st.dictionaries(st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=6), json_scalars),
    st.booleans(),
)
def test_variant_texts_keep_insertion_order_and_escape_like_json(
    mapping: dict[str, Any], ensure_ascii: bool
) -> None:
    reordered = dict(reversed(list(mapping.items())))
    for value in (mapping, reordered, {"k": mapping, "l": [reordered]}):
        expected = json.dumps(value, separators=(",", ":"), ensure_ascii=ensure_ascii)
        made = variant_canonical(value, sort_keys=False, ensure_ascii=ensure_ascii)
        assert made == expected.encode("utf-8", "surrogatepass")


@PROOF
@given(st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=40))
def test_strings_full_of_escapes_match(text: str) -> None:
    as_values = [text, {"k": text}]  # any string value takes the fast path
    assert hashing._fast_canonical(as_values) == reference_runtime_canonical(as_values)
    as_key = {text: 1}  # only ASCII keys do
    fast = hashing._fast_canonical(as_key)
    assert fast == (reference_runtime_canonical(as_key) if text.isascii() else None)
    assert runtime_canonical(as_key) == reference_runtime_canonical(as_key)


def test_random_doubles_are_written_like_repr() -> None:
    rng = random.Random(20260105)
    doubles = [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(20_000)]
    doubles += [rng.uniform(-1e16, 1e16) for _ in range(5_000)]
    doubles += [rng.uniform(-1e-3, 1e-3) for _ in range(5_000)]
    plain = [x for x in doubles if hashing._is_plain_float(x)]
    assert len(plain) > 10_000
    assert hashing._fast_canonical(plain) == reference_runtime_canonical(plain)
    for x in doubles[:3000]:  # the others, one by one, through whichever path they take
        assert runtime_canonical(x) == reference_runtime_canonical(x), x


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"b": 1, "a": [1.0, 1e16, 1e-5, 1e-7]}, b'{"a":[1.0,1e+16,1e-05,1e-07],"b":1}'),
        ([float("nan"), float("inf"), -float("inf")], b"[NaN,Infinity,-Infinity]"),
        ({"\ue000": 1, "😀": 2, "": 3, "B": 4}, b'{"":3,"B":4,"\\ue000":1,"\\ud83d\\ude00":2}'),
        ("é\x7f\u2028\ud800\x00/", b'"\\u00e9\\u007f\\u2028\\ud800\\u0000/"'),
        ("C:\\x41\\U0001\\é", b'"C:\\\\x41\\\\U0001\\\\\\u00e9"'),
        (2**64, b"18446744073709551616"),
        ({"t": (1, "a")}, b'{"t":[1,"a"]}'),
    ],
)
def test_known_vectors(value: Any, expected: bytes) -> None:
    assert runtime_canonical(value) == expected == reference_runtime_canonical(value)


# ---------------------------------------------------------------------------
# Values that are not JSON data behave exactly as the reference does
# ---------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"


class Level(enum.IntEnum):
    HIGH = 3


class Kind(enum.StrEnum):
    A = "a"


@dataclasses.dataclass
class Point:
    x: int


class MyDict(dict):  # type: ignore[type-arg]
    pass


NOT_JSON = [
    {"c": Color.RED},
    {"l": Level.HIGH},
    {"k": Kind.A, Kind.A: 1},
    {"u": uuid.UUID(int=5)},
    {"d": dt.datetime(2026, 1, 5, tzinfo=dt.UTC)},
    {"p": Point(1)},
    {"m": MyDict(b=1, a=2)},
    {"dec": Decimal("1.5")},
    {"s": {1, 2}},
    {"b": b"x"},
    {1: "int key", 2: "sorted as ints"},
    {"x": MISSING},
    MISSING,
]


@pytest.mark.parametrize("value", NOT_JSON, ids=lambda v: type(v).__name__ + repr(v)[:30])
def test_non_json_values_behave_like_the_reference(value: Any) -> None:
    for ours, reference in [
        (runtime_canonical, reference_runtime_canonical),
        (documented_canonical, reference_documented_canonical),
    ]:
        try:
            expected: bytes | type[BaseException] = reference(value)
        except Exception as error:  # the reference refuses: so must we, the same way
            expected = type(error)
        try:
            got: bytes | type[BaseException] = ours(value)
        except Exception as error:
            got = type(error)
        assert got == expected


def _nested(depth: int) -> Any:
    value: Any = {"leaf": "é"}
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    return value


def _outcome(encode: Callable[[Any], bytes], value: Any) -> bytes | type[BaseException]:
    try:
        return encode(value)
    except RecursionError as error:
        return type(error)


@pytest.mark.parametrize("depth", [0, 1, 252, 253, 254, 255, 400, 5000])
def test_deep_nesting_behaves_like_the_reference(depth: int) -> None:
    value = _nested(depth)  # 5000: both refuse with RecursionError, never a crash
    for way in BOTH_WAYS:
        with way():
            assert _outcome(runtime_canonical, value) == _outcome(
                reference_runtime_canonical, value
            )


def test_documented_form_drops_only_top_level_routing_metadata() -> None:
    envelope = {"routingMetadata": {"retries": 1}, "payload": {"routingMetadata": 1}}
    assert documented_canonical(envelope) == b'{"payload":{"routingMetadata":1}}'
    assert documented_envelope_hash(envelope).startswith(DOCUMENTED_PREFIX)
    assert envelope_hash(envelope, "documented") == documented_compute_envelope_hash(envelope)
    assert envelope_hash(envelope, "runtime") == stable_hash(envelope)


def test_documented_form_stringifies_datetimes_like_the_documented_hash() -> None:
    envelope = {"createdAt": dt.datetime(2026, 1, 5, 10, 0, tzinfo=dt.UTC)}
    assert documented_canonical(envelope) == b'{"createdAt":"2026-01-05 10:00:00+00:00"}'
    assert documented_envelope_hash(envelope) == documented_compute_envelope_hash(envelope)


def test_realistic_envelopes_take_the_fast_path() -> None:
    for text in ["plain ascii", "Summarize “Q3” — naïve café 日本語 \x7f done 😀 \ud800"]:
        envelope = _realistic_envelope(text)
        assert hashing._fast_canonical(envelope) == reference_runtime_canonical(envelope)
        assert runtime_envelope_hash(envelope) == stable_hash(envelope)


def test_installed_orjson_writes_plain_floats_like_repr() -> None:
    # If this fails the module still works (floats take the reference path), only slower.
    assert hashing._floats_agree()
    assert hashing._floats_spottable()  # every float orjson writes unlike repr is caught


# ---------------------------------------------------------------------------
# Records written by the real intentusnet 1.3.0
# ---------------------------------------------------------------------------

REAL_PAYLOADS = [
    {"text": "plain ascii", "n": 3},
    {"text": 'héllo wörld “quoted” — 😀 日本語 \u2028 \x7f \x00 \\ "', "k": "C:\\x41"},
    {"floats": [0.1, 0.7, 1e16, 1e-7, 1e-5, 5e-324, 123456789.0], "big": 2**70},
    {"nan": float("nan"), "inf": float("inf")},
    {"\ue000": 1, "😀": 2, "": [], "nested": {"z": {"y": [None, True, False]}}},
]


def _write_real_records(records: Path) -> list[Path]:
    from intentusnet import IntentusRuntime
    from intentusnet.core.agent import BaseAgent
    from intentusnet.protocol import AgentDefinition, AgentResponse, IntentRef
    from intentusnet.protocol.agent import Capability

    class Echo(BaseAgent):
        def handle_intent(self, env: Any) -> AgentResponse:
            return AgentResponse.success({"echo": env.payload}, agent=self.definition.name)

    logging.getLogger("intentusnet").setLevel(logging.CRITICAL)
    runtime = IntentusRuntime(record_dir=str(records))
    definition = AgentDefinition(
        name="echo", capabilities=[Capability(intent=IntentRef(name="Echo", version="1.0"))]
    )
    runtime.register_agent(lambda router: Echo(definition, router))
    client = runtime.client()
    for payload in REAL_PAYLOADS:
        client.send_intent("Echo", payload, tags=["hash-test", "ünï"], fallback_agents=["echo"])
    return sorted(records.glob("*.json"))


def test_hash_of_records_written_by_real_intentusnet_matches_their_header(tmp_path: Path) -> None:
    files = _write_real_records(tmp_path / "records")
    assert len(files) == len(REAL_PAYLOADS)
    for path in files:
        record = json.loads(path.read_text(encoding="utf-8"))
        envelope = record["envelope"]
        assert runtime_envelope_hash(envelope) == record["header"]["envelopeHash"], path
        assert envelope_hash(envelope, "runtime") == record["header"]["envelopeHash"]


def _realistic_envelope(text: str) -> dict[str, Any]:
    stamp = "2026-01-05T10:00:00.123456+00:00"
    return {
        "version": "1.0",
        "intent": {"name": "Summarize", "version": "1.0"},
        "payload": {
            "messages": [{"role": "user", "content": text, "tokens": 12}] * 4,
            "options": {"temperature": 0.7, "max_tokens": 1024, "stop": None, "stream": False},
        },
        "context": {"sourceAgent": "client", "timestamp": stamp, "priority": "normal", "tags": []},
        "metadata": {
            "requestId": "640a2086-e3a5-4ddb-bcae-9999fbcefc55",
            "source": "client",
            "createdAt": stamp,
            "traceId": "a7bd8798-c597-43e9-8707-39b501c1bc89",
            "identityChain": ["client"],
        },
        "routing": {"strategy": "fallback", "targetAgent": None, "fallbackAgents": ["a", "b"]},
        "routingMetadata": {"decisionPath": ["a"], "retries": 1},
    }


# ---------------------------------------------------------------------------
# Proofs: the parsed-value path (values exactly as orjson.loads returns them)
# ---------------------------------------------------------------------------


def _as_orjson_parsed(value: Any) -> Any:
    """``value`` written by json.dumps and read back by orjson, as the index reads files;
    ``None`` where orjson refuses the text (NaN, huge ints, lone surrogates, ...)."""
    try:
        return hashing.orjson.loads(json.dumps(value))
    except (hashing.orjson.JSONDecodeError, ValueError):
        return None


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_parsed_value_path_is_byte_identical_to_the_reference(value: Any) -> None:
    parsed = _as_orjson_parsed(value)
    envelope = {"routingMetadata": {"retries": 1}, "payload": parsed, "x": [parsed]}
    for way in BOTH_WAYS:
        with way():
            assert hashing.parsed_runtime_canonical(parsed) == reference_runtime_canonical(parsed)
            documented = hashing.parsed_documented_canonical(envelope)
            assert documented == reference_documented_canonical(envelope)


@PROOF
@given(st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=40))
def test_parsed_value_path_escapes_strings_and_keys_like_json(text: str) -> None:
    parsed = _as_orjson_parsed([text, {text: text, "k" + text: [text]}])
    for way in BOTH_WAYS:
        with way():
            assert hashing.parsed_runtime_canonical(parsed) == reference_runtime_canonical(parsed)


def test_parsed_value_path_writes_every_float_like_repr() -> None:
    rng = random.Random(20261122)
    doubles = [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(20_000)]
    doubles += [float(f"{rng.randint(1, 10**16)}e{rng.randint(-40, 40)}") for _ in range(20_000)]
    doubles = [x for x in doubles if x == x and abs(x) != float("inf")]
    values = [hashing.orjson.loads(json.dumps(x)) for x in doubles]
    for way in BOTH_WAYS:
        with way():
            assert hashing.parsed_runtime_canonical(values) == reference_runtime_canonical(values)
            for x in values[::7]:
                assert hashing.parsed_runtime_canonical(x) == reference_runtime_canonical(x), x
