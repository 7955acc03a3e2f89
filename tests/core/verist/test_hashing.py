"""Verist's canonical form: JavaScript ``JSON.stringify`` after ``Object.keys(o).sort()``.

Known vectors were derived from the ECMAScript spec (Number::toString, OrdinaryOwnPropertyKeys,
QuoteJSONString) and checked once against node; when ``node`` is installed it is also used as
a live oracle for generated values.
"""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import subprocess
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from intentus_tui.core.verist.hashing import (
    VERIST_PREFIX,
    hash_value,
    hash_with_content,
    verist_stringify,
)
from intentus_tui.core.verist.missing import MISSING

# ---------------------------------------------------------------------------
# Known vectors
# ---------------------------------------------------------------------------

NUMBERS = [
    (1, "1"),
    (1.0, "1"),
    (-0.0, "0"),
    (0.1, "0.1"),
    (0.1 + 0.2, "0.30000000000000004"),
    (4.35, "4.35"),
    (100, "100"),
    (1e16, "10000000000000000"),
    (1e20, "100000000000000000000"),
    (123456789012345680000.0, "123456789012345680000"),
    (1e21, "1e+21"),
    (1.2345678901234568e21, "1.2345678901234568e+21"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
    (0.000123, "0.000123"),
    (1e-5, "0.00001"),
    (1e-6, "0.000001"),
    (1e-7, "1e-7"),
    (1.5e-7, "1.5e-7"),
    (-1.5e-10, "-1.5e-10"),
    (123e-20, "1.23e-18"),
    (5e-324, "5e-324"),
    (1.5e-323, "1.5e-323"),
    (float("nan"), "null"),
    (float("inf"), "null"),
    (-float("inf"), "null"),
    # Python ints print as the double JSON.parse would have made of them.
    (2**53, "9007199254740992"),
    (2**53 + 1, "9007199254740992"),
    (2**53 + 3, "9007199254740996"),
    (2**64, "18446744073709552000"),
    (10**21, "1e+21"),
    (-(10**22), "-1e+22"),
    (10**400, "null"),
    (True, "true"),
    (False, "false"),
    (None, "null"),
]


@pytest.mark.parametrize(("value", "expected"), NUMBERS, ids=[e for _, e in NUMBERS])
def test_numbers_print_like_javascript(value: Any, expected: str) -> None:
    assert verist_stringify(value) == expected
    assert verist_stringify([value]) == f"[{expected}]"


def test_keys_enumerate_like_a_reinserted_javascript_object() -> None:
    value = json.loads(
        '{"b":1,"a":2,"10":3,"2":4,"-1":5,"01":6,"4294967294":7,"4294967295":8,'
        '"__proto__":{"x":1},"\\ue000":9,"\\ud83d\\ude00":10,"":11}'
    )
    # Array indices first (numeric order), then UTF-16 order: the astral U+1F600 (D83D DE00)
    # sorts before U+E000, unlike Python's code-point order; "__proto__" is lost.
    assert verist_stringify(value) == (
        '{"2":4,"10":3,"4294967294":7,"":11,"-1":5,"01":6,"4294967295":8,'
        '"a":2,"b":1,"😀":10,"\ue000":9}'
    )


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ({"__proto__": 5, "a": 1}, '{"a":1}'),
        ({"__proto__": None, "a": 1}, '{"a":1}'),
        ({"constructor": 1, "toJSON": 2}, '{"constructor":1,"toJSON":2}'),
        ({}, "{}"),
        ([], "[]"),
        ({"a": {}, "b": [[]]}, '{"a":{},"b":[[]]}'),
        ((1, "a"), '[1,"a"]'),
    ],
)
def test_special_objects(value: Any, expected: str) -> None:
    assert verist_stringify(value) == expected


def test_strings_are_escaped_like_well_formed_json_stringify() -> None:
    text = json.loads(r'"\u0000\u001f\u007f\u2028\ud800 \udc00x\ud83d\ude00\b\f\n\r\t/\"\\é"')
    assert verist_stringify(text) == (
        '"\\u0000\\u001f\x7f\u2028\\ud800 \\udc00x😀\\b\\f\\n\\r\\t/\\"\\\\é"'
    )
    # Two surrogate code points in a Python str are one character in JavaScript.
    assert verist_stringify("\ud83d\ude00") == '"😀"'
    assert verist_stringify({"\ud83d\ude00": 1, "😀": 2}) == '{"😀":2}'


def test_undefined_is_dropped_from_objects_and_null_elsewhere() -> None:
    assert verist_stringify({"a": MISSING, "b": [MISSING, 1]}) == '{"b":[null,1]}'
    assert verist_stringify(MISSING) == "null"
    assert verist_stringify({"a": MISSING}) == "{}"
    assert verist_stringify({"a": float("nan")}) == '{"a":null}'  # NaN is kept, as null


def test_hash_value_is_sha256_of_utf8_stable_stringify() -> None:
    value = {"b": "é😀", "a": [1.0, None]}
    text = '{"a":[1,null],"b":"é😀"}'
    assert verist_stringify(value) == text
    expected = hashlib.sha256(text.encode("utf-8")).hexdigest()
    assert hash_value(value) == VERIST_PREFIX + expected == "sha256:" + expected
    # Lone surrogates are escaped, so hashing never fails on them.
    assert hash_value("\ud800").startswith("sha256:")


def test_deep_nesting_does_not_overflow_the_stack() -> None:
    value: Any = "x"
    for _ in range(5000):
        value = {"k": [value]}
    text = verist_stringify(value)
    assert text.startswith('{"k":[{"k":[') and text.endswith("]}" * 5000)


@pytest.mark.parametrize("value", [{"a": {1, 2}}, {"a": b"x"}, object(), {("t",): 1}])
def test_values_that_are_not_json_data_are_refused_clearly(value: Any) -> None:
    with pytest.raises(TypeError, match="verist_stringify: unsupported"):
        verist_stringify(value)


# ---------------------------------------------------------------------------
# Properties
# ---------------------------------------------------------------------------

KEY_SAMPLES = [
    "0", "1", "2", "10", "01", "-1", "1.5", "4294967294", "4294967295", "9007199254740993",
    "", "a", "B", "__proto__", "constructor", "\ue000", "\uffff", "😀", "\U00010000", "é",
]  # fmt: skip
TRICKY_CHARS = [
    "\x00", "\x1f", '"', "\\", "/", "\x7f", "é", "\u2028", "\ud800", "\udbff", "\udc00",
    "\udfff", "\ue000", "\uffff", "😀", "\U0010ffff", "a",
]  # fmt: skip

texts = st.one_of(
    st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=6),
    st.text(alphabet=st.characters(exclude_categories=()), max_size=6),
)
keys = st.one_of(st.sampled_from(KEY_SAMPLES), texts)
numbers = st.one_of(
    st.integers(),
    st.floats(),
    st.sampled_from([v for v, _ in NUMBERS if isinstance(v, (int, float))]),
)
scalars = st.one_of(st.none(), st.booleans(), numbers, texts, st.just(MISSING))
values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(keys, children, max_size=5)
    ),
    max_leaves=15,
)
PROPERTY = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _js_normal(text: str) -> bool:
    """No surrogate pair split over two Python code points (JS would join them)."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass") == text


def _round_trips(value: Any) -> bool:
    """Values whose JavaScript meaning is the Python value itself."""
    if value is MISSING or (isinstance(value, float) and not math.isfinite(value)):
        return False
    if isinstance(value, int) and not isinstance(value, bool):
        return abs(value) <= 2**53
    if isinstance(value, str):
        return _js_normal(value)
    if isinstance(value, list):
        return all(_round_trips(item) for item in value)
    if isinstance(value, dict):
        return all(
            k != "__proto__" and _round_trips(k) and _round_trips(v) for k, v in value.items()
        )
    return True


@PROPERTY
@given(values)
def test_output_parses_back_to_the_value(value: Any) -> None:
    text = verist_stringify(value)
    if _round_trips(value):
        assert json.loads(text, parse_int=float) == value  # JS numbers are all doubles
    else:
        json.loads(text)  # still valid JSON


def _js_key_order(keys: list[str]) -> list[str]:
    def is_index(key: str) -> bool:
        return key.isascii() and key.isdigit() and str(int(key)) == key and int(key) < 2**32 - 1

    indices = sorted((k for k in keys if is_index(k)), key=int)
    names = sorted((k for k in keys if not is_index(k)), key=lambda k: [ord(u) for u in _units(k)])
    return indices + names


def _units(text: str) -> list[str]:
    raw = text.encode("utf-16-be", "surrogatepass")
    return [raw[i : i + 2].decode("utf-16-be", "surrogatepass") for i in range(0, len(raw), 2)]


@PROPERTY
@given(
    st.dictionaries(
        st.one_of(st.sampled_from(KEY_SAMPLES), texts.filter(_js_normal)), st.integers(0, 9)
    )
)
def test_keys_come_out_in_javascript_order(obj: dict[str, int]) -> None:
    pairs = json.loads(verist_stringify(obj), object_pairs_hook=list)
    expected = _js_key_order([k for k in obj if k != "__proto__"])
    assert [k for k, _ in pairs] == expected
    assert all(obj[k] == v for k, v in pairs)


# ---------------------------------------------------------------------------
# node as a live oracle
# ---------------------------------------------------------------------------

# Verist's stableStringify (sort each object's keys, re-insert, JSON.stringify); the reviver turns marker
# strings back into the values JSON cannot carry.
NODE_ORACLE = r"""
const MARKS = {"\u0000undefined": undefined, "\u0000NaN": NaN,
               "\u0000Infinity": Infinity, "\u0000-Infinity": -Infinity};
function stableStringify(value) {
  const normalized = value === undefined ? null : value;
  return JSON.stringify(normalized, (_, v) => {
    if (v && typeof v === "object" && !Array.isArray(v)) {
      const sorted = {};
      for (const key of Object.keys(v).sort()) sorted[key] = v[key];
      return sorted;
    }
    return v;
  });
}
const revive = (_, v) =>
  typeof v === "string" && Object.prototype.hasOwnProperty.call(MARKS, v) ? MARKS[v] : v;
require("readline").createInterface({ input: process.stdin }).on("line", (line) => {
  process.stdout.write(JSON.stringify(stableStringify(JSON.parse(line, revive))) + "\n");
});
"""


def _to_wire(value: Any) -> Any:
    if value is MISSING:
        return "\u0000undefined"
    if isinstance(value, float) and not math.isfinite(value):
        return (
            "\u0000NaN"
            if math.isnan(value)
            else ("\u0000Infinity" if value > 0 else "\u0000-Infinity")
        )
    if isinstance(value, list):
        return [_to_wire(item) for item in value]
    if isinstance(value, dict):
        return {k: _to_wire(v) for k, v in value.items()}
    return value


@pytest.fixture(scope="module")
def node_stringify() -> Iterator[Callable[[Any], str]]:
    node = shutil.which("node")
    if node is None:
        pytest.skip("node is not installed")
    process = subprocess.Popen(
        [node, "-e", NODE_ORACLE], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert process.stdin is not None and process.stdout is not None
    stdin, stdout = process.stdin, process.stdout

    def stringify(value: Any) -> str:
        stdin.write(json.dumps(_to_wire(value), ensure_ascii=True).encode("ascii") + b"\n")
        stdin.flush()
        line = stdout.readline()
        assert line, "node oracle died"
        result: str = json.loads(line)
        return result

    try:
        yield stringify
    finally:
        stdin.close()
        process.wait(timeout=10)


@PROPERTY
@given(values)
def test_agrees_with_node(node_stringify: Callable[[Any], str], value: Any) -> None:
    assert verist_stringify(value) == node_stringify(value)


def test_agrees_with_node_on_random_doubles(node_stringify: Callable[[Any], str]) -> None:
    import random
    import struct

    rng = random.Random(42)
    doubles = [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(5000)]
    doubles += [rng.uniform(-1e22, 1e22) for _ in range(1000)]
    doubles += [rng.uniform(-1e-5, 1e-5) for _ in range(1000)]
    doubles += [float(rng.getrandbits(rng.randint(1, 80))) for _ in range(1000)]
    assert verist_stringify(doubles) == node_stringify(doubles)


# --- hashing ------------------------------------------------------------------------------


def test_hash_value_is_prefixed_sha256_and_ignores_key_order() -> None:
    digest = hash_value({"test": "value"})
    assert digest.startswith("sha256:") and len(digest) == 71
    assert hash_value({"a": 1, "b": 2}) == hash_value({"b": 2, "a": 1})
    assert hash_value({"outer": {"z": 1, "a": 2}, "first": True}) == hash_value(
        {"first": True, "outer": {"a": 2, "z": 1}}
    )
    assert hash_value([1, 2, 3]) != hash_value([3, 2, 1])
    assert hash_value({"value": 1}) != hash_value({"value": 2})


def test_hash_value_follows_json_undefined_rules() -> None:
    assert hash_value(MISSING) == hash_value(None)  # top-level undefined is null
    assert hash_value({"a": 1, "b": MISSING}) == hash_value({"a": 1})  # property dropped
    assert hash_value([MISSING]) == hash_value([None])  # array element becomes null


def test_hash_with_content_returns_the_canonical_text() -> None:
    hashed = hash_with_content({"z": 1, "a": 2})
    assert hashed.content == '{"a":2,"z":1}'
    assert hashed.hash == hash_value({"a": 2, "z": 1})
    assert hashed.hash == "sha256:" + hashlib.sha256(b'{"a":2,"z":1}').hexdigest()
    assert hash_with_content({"name": "test"}).content == '{"name":"test"}'
