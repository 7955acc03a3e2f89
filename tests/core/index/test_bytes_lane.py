"""The native bytes lane reads a record's raw bytes as orjson and the well-formed lane do.

``bytes_lane_values(data, key, stem, size, mtime_ns)`` tokenizes a record file's bytes in C
and writes the envelope's canonical JSON (and its sha256) from the tokens, never building the
document as Python objects. What is proven, for every text these tests write:

* it is never wrong: when it returns values, ``orjson.loads(data)`` accepts the bytes and
  gives a dict, the text holds no digit run orjson could round (``has_long_digit_run``), and
  the values are exactly ``well_formed_values_python(key, orjson.loads(data), stem, size,
  mtime_ns, parsed=True)``, the definition, field for field (hash status included: the hash
  computed from tokens is the hash of the parsed value);
* it may decline (None) anything unusual, and then the general path decides; but it does not
  decline the records users have: IntentusNet 1.3.0's records, written by any of the usual
  writers, and the benchmark generator's, take it.

The texts: odd records, event lists and final responses written four ways and by hand (in
every escape style JSON allows); envelopes full of escapes, astral characters, odd numbers,
big objects, long strings and repeated keys; keys that almost name a field; every double and
every spelling of a number; records cut at every byte, damaged at random bytes, holding
invalid UTF-8, bad escapes, bad numbers, trailing garbage, deep nesting; the hostile corpus.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
import struct
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.index.directory import (
    _FIELDS,
    bytes_lane_values,
    well_formed_values_python,
)
from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.records.load import pure_has_long_digit_run
from intentus_tui.core.records.verify import HashStatus
from tests.core.records.test_hashing import TRICKY_CHARS, TRICKY_FLOATS, json_text, json_values
from tests.core.test_native import PROOF, _events, _odd_records
from tests.factories import make_record
from tests.hostile.corpus import build_corpus, dump_json

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("INTENTUS_TUI_PURE_PYTHON")), reason="native speed-ups turned off"
)

_HASH_STATUS = _FIELDS.index("hash_status")
_EXECUTION_ID = _FIELDS.index("execution_id")


def check(
    data: bytes, key: str = "e1.json", stem: str = "e1", size: int = 1234, mtime_ns: int = 5678
) -> tuple[Any, ...] | None:
    """The lane's values for ``data``, proven to be the definition's; None if it declined."""
    lane = bytes_lane_values(data, key, stem, size, mtime_ns)
    if lane is None:
        return None
    assert not pure_has_long_digit_run(data), "took a text orjson may round"
    raw = orjson.loads(data)  # the lane took it: orjson must take it too
    assert type(raw) is dict
    assert lane == well_formed_values_python(key, raw, stem, size, mtime_ns, parsed=True)
    return lane


# ---------------------------------------------------------------------------
# Writers: how records reach the disk
# ---------------------------------------------------------------------------

WRITERS: dict[str, Callable[[Any], bytes]] = {
    # IntentusNet 1.3.0: indent=2, ensure_ascii=False (lone surrogates become invalid UTF-8)
    "indent2": dump_json,
    "ascii-compact": lambda r: json.dumps(r, ensure_ascii=True, separators=(",", ":")).encode(),
    "orjson": orjson.dumps,
    "tab-sorted": lambda r: json.dumps(r, indent="\t", sort_keys=True).encode(),
}


def written_every_way(record: Any) -> Iterator[tuple[str, bytes]]:
    for name, write in WRITERS.items():
        try:
            yield name, write(record)
        except TypeError:  # orjson refuses lone surrogates and ints beyond 64 bits
            continue


# Escapes JSON allows, written by hand: every character may be raw (when allowed), a short
# escape, or \uXXXX (lower or upper hex, astral characters as a surrogate pair); keys in
# any order; any JSON whitespace between tokens; every number in another valid spelling.
_SHORT_ESCAPES = {
    '"': '\\"', "\\": "\\\\", "/": "\\/", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r",
    "\t": "\\t",
}  # fmt: skip
_WHITESPACE = ["", "", "", " ", "\n  ", "\t", "\r\n", " \n\t\r "]


def _hand_string(text: str, rng: random.Random, anywhere: bool) -> str:
    if rng.random() < 0.4 and not any("\ud800" <= c <= "\udfff" for c in text):
        return json.dumps(text, ensure_ascii=False)  # as 1.3.0 writes it
    out = ['"']
    for char in text:
        code = ord(char)
        way = rng.random() * 4
        must_escape = code < 0x20 or char in '"\\' or 0xD800 <= code <= 0xDFFF
        if (way < 2 or (code >= 0x10000 and not anywhere)) and not must_escape:
            out.append(char)
        elif way < 3 and char in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[char])
        else:
            units = [code]
            if code >= 0x10000:
                units = [0xD800 + ((code - 0x10000) >> 10), 0xDC00 + ((code - 0x10000) & 0x3FF)]
            form = "\\u{:04X}" if way % 1 < 0.5 else "\\u{:04x}"
            out.extend(form.format(unit) for unit in units)
    out.append('"')
    return "".join(out)


def float_spellings(x: float) -> list[str]:
    """Texts that orjson reads as the double ``x`` (all but ``repr`` unusual)."""
    text = repr(x)
    if x != x or x in (float("inf"), -float("inf")):
        return [text]  # NaN, inf: not JSON, orjson refuses them
    mantissa, _, exponent = text.partition("e")
    point = mantissa if "." in mantissa else mantissa + "."
    spelled = [text, text.upper(), f"{x:.17e}", f"{x:.16E}"]
    if exponent:
        sign, digits = ("-" if exponent[0] == "-" else ""), exponent.lstrip("+-")
        spelled += [
            point + "000e" + exponent,
            mantissa + "e" + sign + digits.zfill(3),
            mantissa + "E" + (sign or "+") + digits,
        ]
    else:
        spelled += [point + "000", text + "e0", text + "E-00", text + "e+0"]
    general = f"{x:.17g}"
    spelled.append(general if any(c in general for c in ".eE") else general + ".0")
    return spelled


def _hand(value: Any, rng: random.Random, anywhere: bool) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "true" if value else "false"
    if type(value) is int:
        return "-0" if anywhere and value == 0 and rng.randrange(3) == 0 else str(value)
    if type(value) is float:
        spellings = float_spellings(value)
        if not anywhere:  # an exponent only where repr writes one
            spellings = [s for s in spellings if ("e" in s.lower()) == ("e" in repr(value))]
        return rng.choice(spellings)
    if type(value) is str:
        return _hand_string(value, rng, anywhere)
    ws = _WHITESPACE
    if isinstance(value, list | tuple):
        items = [rng.choice(ws) + _hand(item, rng, anywhere) + rng.choice(ws) for item in value]
        return "[" + rng.choice(ws) + ",".join(items) + "]"
    pairs = list(value.items())
    rng.shuffle(pairs)
    members = []
    for key, item in pairs:
        plain = not anywhere and not any("\ud800" <= c <= "\udfff" for c in key)
        written = json.dumps(key, ensure_ascii=False) if plain else _hand_string(key, rng, True)
        members.append(
            rng.choice(ws)
            + written
            + rng.choice(ws)
            + ":"
            + rng.choice(ws)
            + _hand(item, rng, anywhere)
        )
    return "{" + rng.choice(ws) + ",".join(members) + rng.choice(ws) + "}"


# The hand writer's choices: a seed (a drawn ``st.randoms()`` is far slower per choice).
_seeds = st.integers(0, 2**32)


def hand_written(value: Any, rng: random.Random, *, anywhere: bool = True) -> bytes:
    """``value`` as JSON, its tokens spelled any of the ways JSON allows (``rng`` picks);
    not ``anywhere``: escapes in string values only, and no exponent repr does not write
    (keys and astral characters as ``json.dumps(ensure_ascii=False)`` writes them)."""
    data = rng.choice(_WHITESPACE) + _hand(value, rng, anywhere) + rng.choice(_WHITESPACE)
    return data.encode()


def envelope_hand_written(record: dict[str, Any], rng: random.Random) -> bytes:
    """``record`` as 1.3.0 writes it, but its envelope written by ``hand_written`` (escapes in
    its string values, plain keys): where a reader of summary fields meets no escape."""
    if type(record.get("envelope")) is not dict:
        return dump_json(record)
    text = dump_json({**record, "envelope": "__ENVELOPE__"})
    return text.replace(b'"__ENVELOPE__"', hand_written(record["envelope"], rng, anywhere=False))


# ---------------------------------------------------------------------------
# 1. Odd records, event lists and final responses, written every way
# ---------------------------------------------------------------------------


def check_every_writing(record: dict[str, Any], seed: int) -> None:
    """``check`` the record as each serializer and the hand writer (seeded) write it."""
    for _, data in written_every_way(record):
        check(data)
    rng = random.Random(seed)
    check(hand_written(record, rng))
    check(hand_written(record, rng, anywhere=False))
    check(envelope_hand_written(record, rng))


@PROOF
@given(_odd_records(), _seeds)
def test_odd_records_written_any_way_are_summarized_as_the_definition_or_declined(
    record: Any, seed: int
) -> None:
    check_every_writing(record, seed)


@PROOF
@given(_events(), st.sampled_from([None, "success", "error"]), _seeds)
def test_odd_event_lists_are_walked_as_the_definition_walks_them(
    events: Any, final_status: str | None, seed: int
) -> None:
    # Seq gaps, bools and floats for seqs, unknown kinds, odd agents and statuses, events
    # that are not objects: counted from the tokens as the definition counts the objects.
    record = make_record(execution_id="e1", final_status=final_status)
    record["events"] = events
    for _, data in written_every_way(record):
        check(data)
    check(hand_written(record, random.Random(seed), anywhere=False))


def _equal_in_python(value: Any, rng: random.Random) -> Any:
    """A value Python's ``==`` finds equal to ``value``, written differently: 1 as 1.0 or
    true, 0 as -0.0 or false, keys in another order."""
    if type(value) is bool:
        return int(value) if rng.randrange(2) else value
    if type(value) is int and abs(value) < 2**53:
        return rng.choice([value, float(value), -0.0 if value == 0 else value])
    if type(value) is list:
        return [_equal_in_python(item, rng) for item in value]
    if type(value) is dict:
        items = [(key, _equal_in_python(item, rng)) for key, item in value.items()]
        rng.shuffle(items)
        return dict(items)
    return value


_response_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 3),
        st.sampled_from([0.0, -0.0, 1.5, 0.1, 1e16]),
        st.sampled_from(["", "0", "ok", "success", "error", "é", "a/b", "😀"]),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.sampled_from(["a", "b", "status", "payload", "error"]), children),
    ),
    max_leaves=8,
)
_responses = st.fixed_dictionaries(
    {},
    optional={
        "status": _response_values,
        "payload": _response_values,
        "error": _response_values,
        "has_error": _response_values,
        "metadata": _response_values,
    },
)


@settings(PROOF, max_examples=300)
@given(_responses, st.sampled_from(["equal", "other", "summary"]), _responses, _seeds)
def test_final_responses_are_compared_as_python_compares_them(
    final: dict[str, Any], how: str, other: dict[str, Any], seed: int
) -> None:
    # finalResponse against the FINAL_RESPONSE event's payload (its full or summary form):
    # equal as Python's == says (1 == 1.0 == true, key order aside), whatever the spelling.
    rng = random.Random(seed)
    if how == "equal":
        recorded = _equal_in_python(final, rng)
    elif how == "summary":  # the documented form: has_error and status
        recorded = {"has_error": _equal_in_python(other.get("has_error"), rng)}
        recorded.update({"status": final["status"]} if "status" in final else {})
    else:
        recorded = other
    record = make_record(execution_id="e1")
    record["finalResponse"] = "__FINAL__"
    record["events"][-1]["payload"] = "__RECORDED__"
    for anywhere in (False, True):
        data = dump_json(record)
        data = data.replace(b'"__FINAL__"', hand_written(final, rng, anywhere=anywhere))
        data = data.replace(b'"__RECORDED__"', hand_written(recorded, rng, anywhere=anywhere))
        check(data)


FINAL_PAIRS = [
    ('{"payload":{"n":1}}', '{"payload":{"n":1.0}}'),
    ('{"payload":{"n":1}}', '{"payload":{"n":true}}'),
    ('{"payload":{"n":0}}', '{"payload":{"n":false}}'),
    ('{"payload":{"n":0.0}}', '{"payload":{"n":-0.0}}'),
    ('{"payload":{"a":1,"b":2}}', '{"payload":{"b":2,"a":1}}'),
    ('{"payload":{"s":"\\u00e9"}}', '{"payload":{"s":"é"}}'),
    ('{"payload":{"s":"a\\/b"}}', '{"payload":{"s":"a/b"}}'),
    ('{"payload":[1, 2]}', '{"payload":[1,2]}'),
    ('{"payload":1.5}', '{"payload":1.50}'),
    ('{"payload":100000.0}', '{"payload":100000}'),
    ('{"payload":0.1}', '{"payload":0.10000000000000001}'),
    ('{"payload":{"a":1,"a":2}}', '{"payload":{"a":2}}'),
    ('{"payload":{"a":1,"a":2}}', '{"payload":{"a":1}}'),
    ('{"error":null}', '{"error":null,"payload":null}'),
    ('{"status":"ok","error":""}', '{"status":"ok","has_error":false}'),
    ('{"error":0}', '{"has_error":false}'),
    ('{"error":-0.0}', '{"has_error":false}'),
    ('{"error":0.000}', '{"has_error":false}'),
    ('{"error":[]}', '{"has_error":false}'),
    ('{"error":{}}', '{"has_error":[]}'),
    ('{"error":"0"}', '{"has_error":false}'),
    ('{"error":"x"}', '{"has_error":0}'),
    ('{"error":"x"}', '{"has_error":"false"}'),
    ('{"status":1}', '{"status":1.0,"has_error":false}'),
    ('{"status":true}', '{"status":1,"has_error":false}'),
    ('{"status":"ok"}', '{"status":"\\u006fk","has_error":false}'),
    ('{"status":"ok"}', '{"has_error":false,"status":"ok","has_error":true}'),
    ('{"status":"ok"}', '{"has_error":false,"payload":1,"payload":2}'),
    ('{"status":"ok"}', '{"has_error":false,"status":"ok","status":"ko"}'),
]


@pytest.mark.parametrize("final,recorded", FINAL_PAIRS)
def test_final_responses_written_differently_are_compared_as_values(
    final: str, recorded: str
) -> None:
    record = make_record(execution_id="e1")
    record["finalResponse"] = "__FINAL__"
    record["events"][-1]["payload"] = "__RECORDED__"
    for first, second in ((final, recorded), (recorded, final)):
        data = dump_json(record).replace(b'"__FINAL__"', first.encode())
        check(data.replace(b'"__RECORDED__"', second.encode()))


# ---------------------------------------------------------------------------
# 2. The records users have take the lane
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("writer", list(WRITERS))
@pytest.mark.parametrize("documented", [False, True], ids=["runtime", "documented"])
def test_a_usual_record_takes_the_bytes_lane_from_every_writer(
    writer: str, documented: bool
) -> None:
    # The proofs would pass if the lane declined everything: the usual record is taken.
    for agents in ((("a", "ok"),), (("a", "error"), ("b", "ok"))):
        record = make_record(execution_id="e1", agents=agents, documented=documented)
        values = check(WRITERS[writer](record))
        assert values is not None
        assert values[_EXECUTION_ID] == "e1"
        assert values[_HASH_STATUS] == HashStatus.MATCH


def test_any_size_and_time_pass_through_unchanged() -> None:
    data = dump_json(make_record(execution_id="e1"))
    for size, mtime_ns in [(0, 0), (2**40, 2**62), (2**63 - 1, 2**63 - 1), (2**64, -(2**70))]:
        values = check(data, size=size, mtime_ns=mtime_ns)
        assert values is not None


def _load_generator() -> Any:
    path = Path(__file__).resolve().parents[3] / "bench" / "gen_records.py"
    spec = importlib.util.spec_from_file_location("gen_records", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_records_take_the_bytes_lane_unless_cut_short_or_tampered() -> None:
    # bench/gen_records.py's mix, written as it writes them: every record the definition
    # summarizes with a matching envelope hash is taken (a tampered one may be either way).
    generator = _load_generator()
    rng = random.Random(20261122)
    taken = 0
    for _ in range(400):
        execution_id, text = generator.make_one(rng)
        data = text.encode("utf-8")
        key = f"{execution_id}.json"
        values = check(data, key=key, stem=execution_id, size=len(data))
        taken += values is not None
        try:
            raw = orjson.loads(data)
        except orjson.JSONDecodeError:
            continue  # cut short the way 1.3.0 cuts error records
        expected = well_formed_values_python(key, raw, execution_id, len(data), 5678, parsed=True)
        usual = expected is not None and expected[_HASH_STATUS] == HashStatus.MATCH
        if usual and not pure_has_long_digit_run(data):  # 19 digits in a row: the general path's
            assert values is not None, f"declined a usual record:\n{text[:2000]}"
    assert taken >= 0.8 * 400


def test_a_file_whose_name_is_not_the_id_is_left_to_the_general_path() -> None:
    data = dump_json(make_record(execution_id="e1"))
    assert check(data, key="e2.json", stem="e2") is None
    assert check(data, key="e1.json", stem="E1") is None
    # Names a directory may hold: non-ASCII, escapes in the id, a name that is not UTF-8
    # (os.fsdecode gives a surrogate-escaped str no parsed id can equal).
    for stem in ("Résumé-😀", "tab\there", "caf\udce9", "e1 ", "x" * 300):
        record = make_record(execution_id=stem.replace("\udce9", "é"))
        for _, data in written_every_way(record):
            check(data, key=stem + ".json", stem=stem)


# ---------------------------------------------------------------------------
# 3. Envelopes that stress the canonical JSON written from tokens
# ---------------------------------------------------------------------------

_UNICODE_SCALARS = [c for c in TRICKY_CHARS if not "\ud800" <= c <= "\udfff"]
_tricky_text = st.one_of(  # lone surrogates: orjson refuses them, so in a few strings only
    st.text(alphabet=st.sampled_from(_UNICODE_SCALARS), max_size=12),
    st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=6),
)
_payloads = st.one_of(
    json_values,
    st.dictionaries(_tricky_text, st.one_of(_tricky_text, json_values), max_size=6),
    _tricky_text,
)
_HASH_KINDS = ["runtime", "documented", "wrong-runtime", "wrong-documented", "upper-runtime"]


def with_hash(record: dict[str, Any], kind: str) -> dict[str, Any]:
    """``record`` with its header's envelopeHash set to the right one, or a wrong one."""
    envelope = record["envelope"]
    digest = documented_envelope_hash(envelope) if "documented" in kind else None
    digest = digest or runtime_envelope_hash(envelope)
    if kind.startswith("wrong"):
        digest = digest[:-1] + ("0" if digest[-1] != "0" else "1")
    elif kind.startswith("upper"):
        digest = digest.upper()
    record["header"]["envelopeHash"] = digest
    return record


@PROOF
@given(
    payload=_payloads,
    extra=st.dictionaries(json_text, json_values, max_size=2),
    intent=_tricky_text,
    kind=st.sampled_from(_HASH_KINDS),
    seed=_seeds,
)
def test_tricky_envelope_contents_are_hashed_as_the_definition_hashes_them(
    payload: Any, extra: dict[str, Any], intent: str, kind: str, seed: int
) -> None:
    record = make_record(execution_id="e1", agents=(("a", "error"), ("b", "ok")))
    envelope = record["envelope"]
    envelope["payload"] = payload
    envelope["intent"]["name"] = intent
    envelope.update(extra)  # may replace routingMetadata (left out of the documented form)
    with_hash(record, kind)
    check_every_writing(record, seed)


_RAW_KEY_CHARS = [c for c in _UNICODE_SCALARS if c >= " " and c not in '"\\']


@pytest.mark.parametrize("size", [0, 1, 31, 32, 33, 100, 1000])
def test_big_objects_long_strings_and_deep_envelopes_are_hashed_like_the_definition(
    size: int,
) -> None:
    # Objects sorted by insertion and by qsort, keys sharing prefixes and differing only
    # past the BMP, strings past any buffer with escapes at its edges, deep nesting.
    rng = random.Random(size)
    keys = {"".join(rng.choices(_RAW_KEY_CHARS, k=rng.randint(0, 5))) for _ in range(size)}
    keys |= {"a" * (size % 7), "a" * (size % 7) + "b", "\uffff" * 2, "\U00010000", "\U0010ffff"}
    long_text = "".join(rng.choices(["x", "é", "😀", "\n", '"', "\x1f", "/"], k=70_000))
    deep: Any = "leaf"
    for level in range(min(size, 900)):
        deep = [deep] if level % 2 else {"k": deep}
    payloads = [
        {key: index for index, key in enumerate(keys)},
        {key: {key: [key]} for key in keys},
        ["x" * 8191 + "\n", "y" * 65_536, "z" * 65_535 + "😀", long_text],
        {"deep": deep},
    ]
    for payload in payloads:
        record = make_record(execution_id="e1", documented=size % 2 == 1)
        record["envelope"]["payload"] = payload
        with_hash(record, "documented" if size % 2 else "runtime")
        for _, data in written_every_way(record):
            check(data)
        if payload is not payloads[-1]:  # the hand writer recurses: not 900 deep
            check(envelope_hand_written(record, rng))


@pytest.mark.parametrize("seed", range(40))
def test_every_escape_style_of_a_usual_record_is_read_as_its_value(seed: int) -> None:
    rng = random.Random(seed)
    documented = bool(seed % 2)
    record = make_record(execution_id="e1", intent="Résumé “Q3” — 日本語 😀", documented=documented)
    record["envelope"]["payload"] = {  # keys a writer need not escape, values it must
        "".join(rng.choices(_RAW_KEY_CHARS, k=4)): "".join(rng.choices(_UNICODE_SCALARS, k=9))
        for _ in range(6)
    }
    record["envelope"]["payload"]["floats"] = [f for f in TRICKY_FLOATS if "e" not in repr(f)]
    with_hash(record, "documented" if documented else "runtime")
    for _ in range(4):
        check(hand_written(record, rng))
        check(hand_written(record, rng, anywhere=False))
        check(envelope_hand_written(record, rng))
    ascii_text = WRITERS["ascii-compact"](record)  # non-ASCII as \uXXXX, astral as a pair
    check(ascii_text)
    check(ascii_text.replace(b"/", b"\\/"))  # "/" is only ever inside strings
    upper = re.sub(rb"\\u([0-9a-f]{4})|\\.", _upper_hex, ascii_text, flags=re.S)
    assert upper != ascii_text
    check(upper)


def _upper_hex(match: re.Match[bytes]) -> bytes:
    return b"\\u" + match[1].upper() if match[1] else match[0]


# Every name the lane looks for, by where it is (events[2]: an AGENT_ATTEMPT_END).
_NAMED_PLACES = [
    (), ("header",), ("envelope",), ("envelope", "intent"), ("envelope", "routing"),
    ("routerDecision",), ("finalResponse",), ("events", 2), ("events", 2, "payload"),
    ("events", -1), ("events", -1, "payload"),
]  # fmt: skip


def _near_misses(name: str) -> list[str]:
    return [name + "x", name[:-1], name.upper(), " " + name, name + "é", "x" + name[1:]]


def test_names_that_almost_name_a_field_are_not_that_field() -> None:
    # A key is its whole name: not a prefix, not a case-folded or padded spelling of one.
    checked = 0
    for place in _NAMED_PLACES:
        for name in list(_walk(make_record(execution_id="e1"), place)):
            for other in _near_misses(name):
                for documented in (False, True):  # routingMetadata: left out of this form
                    record = make_record(
                        execution_id="e1",
                        agents=(("a", "error"), ("b", "ok")),
                        documented=documented,
                    )
                    holder = _walk(record, place)
                    holder[other] = holder.pop(name)
                    for _, data in written_every_way(record):
                        check(data)
                    checked += 1
    assert checked > 150
    record = make_record(execution_id="e1")  # a header field one level up
    record["executionId"] = record["header"].pop("executionId")
    check(dump_json(record))


def _walk(value: Any, place: tuple[str | int, ...]) -> Any:
    for step in place:
        value = value[step]
    return value


def _pairs(*members: tuple[str, Any]) -> bytes:
    """An object written from raw key texts (possibly escaped, possibly repeated)."""
    written = [
        key.encode() + b":" + (value if type(value) is bytes else orjson.dumps(value))
        for key, value in members
    ]
    return b"{" + b",".join(written) + b"}"


def _members(value: dict[str, Any]) -> list[tuple[str, Any]]:
    return [(json.dumps(key), item) for key, item in value.items()]


def _first_wins(data: bytes) -> Any:
    return json.loads(data, object_pairs_hook=lambda pairs: dict(reversed(pairs)))


def _duplicate_texts() -> Iterator[tuple[str, bytes]]:
    """Records whose raw text repeats a key (orjson keeps the last), named by where."""
    base = make_record(execution_id="e1", agents=(("a", "error"), ("b", "ok")))
    header, envelope = base["header"], base["envelope"]
    top = _members({k: v for k, v in base.items() if k not in ("header", "envelope")})
    envelopes = {
        "payload-object": _pairs(
            *_members(envelope)[:2],
            ('"payload"', b'{"a":1,"a":2,"\\u0061":3,"b":[{"c":1,"c":{"d":0}}]}'),
            *_members(envelope)[3:],
        ),
        "envelope-key": _pairs(('"payload"', "first"), *_members(envelope)),
        "escaped-envelope-key": _pairs(*_members(envelope), ('"p\\u0061yload"', "last")),
        "routing-metadata": _pairs(
            *_members(envelope), ('"routingMetadata"', {"retries": 9}), ('"intent"', {"x": 1})
        ),
        "escaped-routing-metadata": _pairs(
            ('"routingM\\u0065tadata"', 1), *_members(envelope), ('"routin\\u0067Metadata"', 2)
        ),
        "plain": _pairs(*_members(envelope)),
    }
    for where, envelope_text in envelopes.items():
        # The header's hash is right for the envelope orjson reads (the last of each key),
        # or for the one a first-wins reader would see.
        for wins, parsed in (
            ("last", orjson.loads(envelope_text)),
            ("first", _first_wins(envelope_text)),
        ):
            for form, digest in (
                ("runtime", runtime_envelope_hash(parsed)),
                ("documented", documented_envelope_hash(parsed)),
            ):
                header_text = _pairs(*_members({**header, "envelopeHash": digest}))
                yield (
                    f"{where}-{wins}-{form}",
                    _pairs(('"header"', header_text), ('"envelope"', envelope_text), *top),
                )
    # Repeated sections and header fields: the one orjson keeps decides, or the lane declines.
    headers = {
        "hash": _pairs(*_members(header), ('"envelopeHash"', "0" * 64)),
        "hash-right-last": _pairs(('"envelopeHash"', "0" * 64), *_members(header)),
        "escaped-hash": _pairs(*_members(header), ('"envelope\\u0048ash"', "1" * 64)),
        "id": _pairs(*_members(header), ('"executionId"', "other")),
        "id-right-last": _pairs(('"executionId"', "other"), *_members(header)),
        "replayable": _pairs(*_members(header), ('"replayable"', "yes")),
        "replayable-false": _pairs(*_members(header), ('"replayable"', False)),
        "reason": _pairs(*_members(header), ('"replayableReason"', "why")),
    }
    for where, header_text in headers.items():
        yield (
            f"header-{where}",
            _pairs(('"header"', header_text), ('"envelope"', envelope), *top),
        )
    sections = _members(base)
    other = {**header, "executionId": "other"}
    yield "header-twice", _pairs(*sections, ('"header"', other))
    yield "header-twice-escaped", _pairs(*sections, ('"h\\u0065ader"', {**header, "replayable": 0}))
    yield "header-twice-right-last", _pairs(('"header"', {"executionId": "e2"}), *sections)
    yield "envelope-twice", _pairs(*sections, ('"envelope"', {**envelope, "payload": 1}))
    yield "envelope-twice-right-last", _pairs(('"envelope"', {"payload": 1}), *sections)
    yield "envelope-twice-escaped", _pairs(*sections, ('"\\u0065nvelope"', {"intent": {}}))
    yield "events-twice", _pairs(*sections, ('"events"', base["events"][:2]))
    yield "events-twice-bad", _pairs(*sections, ('"events"', {"seq": 1}))
    yield "events-twice-right-last", _pairs(('"events"', 5), *sections)
    yield "final-twice", _pairs(*sections, ('"finalResponse"', None))
    yield "final-twice-right-last", _pairs(('"finalResponse"', None), *sections)
    yield "decision-twice", _pairs(*sections, ('"routerDecision"', {"agent": "zzz"}))
    yield "decision-escaped", _pairs(*sections, ('"r\\u006futerDecision"', {"agent": "zzz"}))
    event = dict(base["events"][2])
    events_text = orjson.dumps(base["events"]).replace(
        orjson.dumps(event), _pairs(*_members(event), ('"payload"', {"agent": "q", "status": "ok"}))
    )
    yield (
        "event-payload-twice",
        _pairs(*[m for m in sections if m[0] != '"events"'], ('"events"', events_text)),
    )


_DUPLICATES = dict(_duplicate_texts())


@pytest.mark.parametrize("name", list(_DUPLICATES))
def test_repeated_keys_are_read_as_orjson_reads_them_or_declined(name: str) -> None:
    data = _DUPLICATES[name]
    check(data)
    check(data.replace(b",", b",\n  "))


def _double_records(doubles: list[float], form: str) -> dict[str, Any]:
    record = make_record(execution_id="e1", documented=form == "documented")
    record["envelope"]["payload"] = {
        "doubles": doubles,
        "one": doubles[0],
        "neg": [-d for d in doubles[:9]],
    }
    return with_hash(record, form)


def _random_doubles(rng: random.Random, kind: int, count: int) -> list[float]:
    """Finite doubles: any bits, decimal-looking, or where repr writes no exponent."""
    if kind == 0:
        doubles = [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(count)]
    elif kind == 1:
        doubles = [
            float(f"{rng.randint(1, 10**17)}e{rng.randint(-330, 310)}") for _ in range(count)
        ]
    elif kind == 2:  # any mantissa, from 0.01 to 1e16: no exponent, no 19-digit run
        bits = [
            rng.getrandbits(1) << 63 | rng.randint(1016, 1076) << 52 | rng.getrandbits(52)
            for _ in range(count)
        ]
        doubles = [struct.unpack("<d", struct.pack("<Q", b))[0] for b in bits]
        doubles = [d for d in doubles if 0.01 <= abs(d) < 1e16]
    elif kind == 3:
        doubles = [round(rng.uniform(-1e6, 1e6), rng.randint(0, 12)) for _ in range(count)]
    else:
        doubles = [float(f"0.{rng.randint(0, 10 ** rng.randint(1, 17))}") for _ in range(count)]
    return [d for d in doubles if d == d and abs(d) != float("inf")]


def test_every_double_written_by_repr_is_hashed_like_the_definition() -> None:
    # The canonical JSON writes each double as repr writes it, whatever the text spelled.
    rng = random.Random(20261123)
    batches = [_random_doubles(rng, batch % 5, 300) for batch in range(20)]
    batches += [_random_doubles(rng, batch % 5, 12) for batch in range(150)]  # more taken whole
    batches.append(
        TRICKY_FLOATS + [-f for f in TRICKY_FLOATS] + [5e-324, 1e23, 2.0**-1074, 2.0**1023]
    )
    batches.append([f for f in TRICKY_FLOATS if "e" not in repr(f)] + [0.5, -0.0, 1.0, 1e15])
    for index, doubles in enumerate(batches):
        record = _double_records(doubles, "documented" if index % 3 == 0 else "runtime")
        for _, data in written_every_way(record):
            check(data)
        for anywhere in (True, False):  # the same doubles, spelled other ways
            check(hand_written(record, rng, anywhere=anywhere))
        check(envelope_hand_written(record, rng))


# Valid spellings of numbers, and near-misses orjson refuses.
NUMBER_TEXTS = [
    "1e5", "1E+05", "1e+005", "100000.0", "100000", "0.1000", "0.1", "1.0", "1.00e0", "-0.0",
    "-0", "0", "-0e0", "0.0E-0", "1.5e-7", "15e-8", "0.00000015", "123456789012345678",
    "-123456789012345678", "9007199254740993", "1.7976931348623157e308", "1.7976931348623158e308",
    "1.7976931348623159e308", "1e400", "-1e400", "1e-400", "4.9e-324", "2.4703282292062328e-324",
    "2.4703282292062327e-324", "5e-324", "0.30000000000000004", "0.3000000000000000444089",
    "2.2250738585072011e-308", "1e22", "1e23", "8.98846567431158e307", "9223372036854775807",
    "-9223372036854775808", "9223372036854775808", "18446744073709551615", "1234567890123456789",
    "12345678901234567890", "1.234567890123456789", "0.0000000000000000001", "1" + "0" * 18,
    "01", "-01", "00", "1.", ".5", "+1", "-", "1e", "1e+", "1.e5", "0x10", "1_0", "--1", "1ee5",
    "NaN", "Infinity", "-Infinity", "nan", "inf",
]  # fmt: skip


@pytest.mark.parametrize("number", NUMBER_TEXTS)
def test_a_number_spelled_any_way_is_hashed_like_its_value_or_declined(number: str) -> None:
    record = make_record(execution_id="e1")
    record["envelope"]["payload"] = {"x": "__NUM__", "l": ["__NUM__", {"y": "__NUM__"}]}
    record["header"]["envelopeHash"] = "__HASH__"
    for write in (dump_json, orjson.dumps):
        text = write(record).replace(b'"__NUM__"', number.encode())
        try:
            envelope = orjson.loads(text)["envelope"]
        except orjson.JSONDecodeError:
            envelope = None
        digests = ["0" * 64]
        if envelope is not None:
            digests = [runtime_envelope_hash(envelope), documented_envelope_hash(envelope)]
        for digest in digests:
            check(text.replace(b"__HASH__", digest.encode()))


# ---------------------------------------------------------------------------
# 4. Damaged bytes are never taken unless orjson takes them
# ---------------------------------------------------------------------------

_REALISTIC = make_record(
    execution_id="e1", agents=(("a", "error"), ("b", "ok")), intent="Résumé “Q3” 😀"
)


def test_a_record_cut_at_any_byte_is_never_taken_unless_whole() -> None:
    data = dump_json(_REALISTIC)
    assert check(data) is not None
    for cut in range(len(data)):
        check(data[:cut])
        check(data[:cut] + b"}")
    compact = WRITERS["ascii-compact"](_REALISTIC)
    for cut in range(len(compact)):
        check(compact[:cut] + b"]}")


_BYTE_CHOICES = b'{}[]",:\\ \n\t01-9eE.+tfnul\x00\x1f\x7f\x80\xbf\xc0\xc3\xe2\xed\xf0\xf4\xff'


def _mutated(data: bytes, rng: random.Random) -> bytes:
    at = rng.randrange(len(data))
    byte = rng.choice(_BYTE_CHOICES) if rng.randrange(2) else rng.randrange(256)
    how = rng.randrange(3)
    if how == 0:
        return data[:at] + bytes([byte]) + data[at + 1 :]
    if how == 1:
        return data[:at] + data[at + 1 :]
    return data[:at] + bytes([byte]) + data[at:]


def test_random_byte_damage_is_never_taken_unless_orjson_reads_it() -> None:
    rng = random.Random(20261124)
    generator = _load_generator()
    sources: list[tuple[str, bytes]] = [
        ("e1", dump_json(_REALISTIC)),
        ("e1", orjson.dumps(_REALISTIC)),
        ("e1", WRITERS["tab-sorted"](make_record(execution_id="e1", documented=True))),
    ]
    while len(sources) < 8:
        execution_id, text = generator.make_one(rng)
        if '"status": "success"' in text:
            sources.append((execution_id, text.encode()))
    taken = 0
    for number in range(2000):
        stem, data = sources[number % len(sources)]
        for _ in range(1 + (number % 7 == 0)):  # now and then two bytes
            data = _mutated(data, rng)
        taken += check(data, key=stem + ".json", stem=stem) is not None
    assert taken > 0  # damage inside a string leaves valid JSON: the lane still read those


# Damage inside a string's quotes: bytes that are not UTF-8, escapes that are not JSON,
# characters JSON requires escaped; and for contrast, a few that are valid.
STRING_DAMAGE = {
    "xff": b"\xff", "overlong-slash": b"\xc0\xaf", "overlong-nul": b"\xc0\x80",
    "encoded-surrogate": b"\xed\xa0\x80", "encoded-low-surrogate": b"\xed\xbf\xbf",
    "above-10ffff": b"\xf4\x90\x80\x80", "five-byte": b"\xf8\x88\x80\x80\x80",
    "lone-continuation": b"a\x80b", "cut-2-byte": b"\xc3", "cut-3-byte": b"\xe2\x82",
    "cut-4-byte": b"\xf0\x9f\x98", "latin-1": b"f\xfcr", "cesu-emoji": b"\xed\xa0\xbd\xed\xb8\x80",
    "lone-high": b"\\ud800", "lone-low": b"\\udfff", "high-then-char": b"\\ud800\\u0041",
    "reversed-pair": b"\\udc00\\ud800", "lone-emoji-half": b"\\ud83dx", "high-high": b"\\ud83d\\ud83d",
    "raw-nul": b"a\x00b", "raw-01": b"\x01", "raw-1f": b"\x1f", "raw-newline": b"a\nb",
    "raw-tab": b"\t", "raw-cr": b"\r", "escape-x": b"\\x41", "short-u": b"\\u12",
    "bad-hex": b"\\u12g4", "upper-U": b"\\U0001F600", "escaped-quote-1": b"\\'", "escape-a": b"\\a",
    "escape-0": b"\\0", "escape-space": b"\\ ", "unescaped-quote": b'a"b',
    "valid-pair": b"\\ud83d\\ude00", "valid-del": b"\x7f", "valid-nul-escape": b"\\u0000",
    "valid-u2028": "\u2028".encode(), "valid-bom-inside": b"\xef\xbb\xbf",
    "valid-noncharacter": "\uffff\U0010ffff".encode(), "valid-solidus": b"\\/",
}  # fmt: skip

# Damage replacing a whole value: tokens that are not JSON, bad numbers, broken containers,
# whitespace JSON does not allow, nesting orjson refuses; and a few valid values.
VALUE_DAMAGE = {
    "NaN": b"NaN", "Infinity": b"Infinity", "-Infinity": b"-Infinity", "nan": b"nan",
    "leading-zero": b"01", "neg-leading-zero": b"-01", "double-zero": b"00", "dot-end": b"1.",
    "dot-start": b".5", "plus": b"+1", "minus": b"-", "e-end": b"1e", "e-plus-end": b"1e+",
    "dot-e": b"1.e5", "hex": b"0x10", "underscore": b"1_000", "overflow": b"1e400",
    "19-digits": b"9" * 19, "2**64": b"18446744073709551616", "True": b"True", "None": b"None",
    "tru": b"tru", "nul": b"nul", "falsey": b"falsee", "single-quotes": b"'s'",
    "array-trailing-comma": b"[1,]", "array-leading-comma": b"[,1]", "array-no-comma": b"[1 2]",
    "object-trailing-comma": b'{"a":1,}', "object-no-colon": b'{"a" 1}', "bare-key": b"{a:1}",
    "object-no-value": b'{"a":}', "number-key": b"{1:2}", "unclosed-array": b"[1",
    "unclosed-object": b'{"a":1', "extra-close": b"[1]]", "form-feed": b"\x0c1",
    "vertical-tab": b"\x0b1", "nbsp": b"\xc2\xa01", "nul-after": b"1\x00", "bom-inside": b"\xef\xbb\xbf1",
    "comment": b"1 /* c */", "line-comment": b"1 // c\n", "deep-1025": b"[" * 1025 + b"]" * 1025,
    "deep-10000": b"[" * 10_000 + b"]" * 10_000,
    "deep-objects": b'{"a":' * 10_000 + b"1" + b"}" * 10_000,
    "deep-mixed": b'[{"a":' * 5_000 + b"[]" + b"}]" * 5_000,
    "digit-then-letter": b"1x", "number-then-literal": b"1true", "two-points": b"1.5.5",
    "two-exponents": b"1e5e5", "minus-inside": b"1-2", "minus-space": b"- 1",
    "literals-joined": b"truefalse", "null-then-digit": b"null1", "object-comma": b"{,}",
    "double-colon": b'{"a"::1}', "double-comma": b'{"a":1,,"b":2}', "array-double-comma": b"[1,,2]",
    "object-no-comma": b'{"a":1 "b":2}', "strings-no-comma": b'["a" "b"]', "key-only": b'{"a"}',
    "two-values": b'{"a":1:2}', "crossed-1": b"[}", "crossed-2": b"{]", "unterminated": b'"abc',
    "quote-inside": b'"a"b"', "high-byte": b"\xff1", "escape-outside": b"\\n1",
    "valid-deep-500": b"[" * 500 + b"]" * 500, "valid-deep-1000": b"[" * 1000 + b"]" * 1000,
    "valid-exponent": b"1E+05", "valid-minus-zero": b"-0", "valid-empty": b"{}",
    "valid-spaced": b" [ 1 , { } ] ",
}  # fmt: skip


def _placed(place: str) -> dict[str, Any]:
    """A realistic record with ``"__X__"`` in one place (as a value; in ``*-key``, a key)."""
    record = make_record(execution_id="e1", agents=(("a", "error"), ("b", "ok")))
    mark: Any = "__X__"
    where = {
        "envelope-payload": lambda: record["envelope"].__setitem__("payload", {"k": mark}),
        "envelope-payload-key": lambda: record["envelope"].__setitem__("payload", {mark: 1}),
        "envelope-top-key": lambda: record["envelope"].__setitem__(mark, 1),
        "routing-metadata": lambda: record["envelope"]["routingMetadata"].__setitem__("x", mark),
        "header-extra": lambda: record["header"].__setitem__("extra", mark),
        "header-reason": lambda: record["header"].__setitem__("replayableReason", mark),
        "event-payload": lambda: record["events"][2]["payload"].__setitem__("note", mark),
        "event-key": lambda: record["events"][2]["payload"].__setitem__(mark, 1),
        "final-payload": lambda: record["finalResponse"].__setitem__("payload", [mark]),
        "top-extra": lambda: record.__setitem__("extra", mark),
        "top-key": lambda: record.__setitem__(mark, {"a": [1]}),
        "last-value": lambda: record.__setitem__("zzz", mark),
    }
    where[place]()
    record["header"]["envelopeHash"] = "__HASH__"
    return record


def hashed(text: bytes) -> bytes:
    """``text`` with ``"__HASH__"`` replaced by its envelope's hash as orjson reads it (a
    valid text then takes the lane as a usual record would); by a wrong hash if it cannot."""
    try:
        envelope = orjson.loads(text)["envelope"]
        digest = runtime_envelope_hash(envelope)
    except (orjson.JSONDecodeError, TypeError, KeyError, ValueError, RecursionError):
        digest = "0" * 64
    return text.replace(b"__HASH__", digest.encode())


_PLACES = [
    "envelope-payload", "envelope-payload-key", "envelope-top-key", "routing-metadata",
    "header-extra", "header-reason", "event-payload", "event-key", "final-payload", "top-extra",
    "top-key", "last-value",
]  # fmt: skip
_VALUE_PLACES = [place for place in _PLACES if not place.endswith("-key")]


@pytest.mark.parametrize("damage", list(STRING_DAMAGE))
def test_a_string_orjson_refuses_is_never_taken_wherever_it_is(damage: str) -> None:
    for place in _PLACES:
        for write in (dump_json, orjson.dumps):
            data = write(_placed(place)).replace(b"__X__", STRING_DAMAGE[damage])
            check(hashed(data))


@pytest.mark.parametrize("damage", list(VALUE_DAMAGE))
def test_a_value_orjson_refuses_is_never_taken_wherever_it_is(damage: str) -> None:
    for place in _VALUE_PLACES:
        for write in (dump_json, orjson.dumps):
            data = write(_placed(place)).replace(b'"__X__"', VALUE_DAMAGE[damage])
            check(hashed(data))


def _whole_documents() -> dict[str, bytes]:
    good = dump_json(_REALISTIC)
    compact = orjson.dumps(_REALISTIC)
    out = {
        "bom": b"\xef\xbb\xbf" + good,
        "bom-compact": b"\xef\xbb\xbf" + compact,
        "utf-16": json.dumps(_REALISTIC).encode("utf-16"),
        "utf-16-le": json.dumps(_REALISTIC).encode("utf-16-le"),
        "utf-32": json.dumps(_REALISTIC).encode("utf-32"),
        "no-close": good.rstrip()[:-1],
        "extra-close": good + b"}",
        "twice": good + good,
        "twice-compact": compact + compact,
        "top-array": b"[" + good + b"]",
        "top-string": json.dumps(good.decode()).encode(),
        "top-number": b"12.5e3",
        "top-null": b"null",
        "top-true": b"true",
        "empty": b"",
        "spaces": b" \n\t\r ",
        "deep-top": b"[" * 10_000 + good + b"]" * 10_000,
        "deep-object-top": b'{"a":' * 10_000 + good + b"}" * 10_000,
        "leading-form-feed": b"\x0c" + good,
        "leading-nbsp": b"\xc2\xa0" + good,
        "nul-inside-whitespace": good.replace(b"\n", b"\n\x00", 1),
        "single-quoted-keys": good.replace(b'"header"', b"'header'"),
        "valid-leading-whitespace": b" \r\n\t" + good,
        "valid-trailing-whitespace": good + b" \r\n\t\n",
        "valid-crlf": good.replace(b"\n", b"\r\n"),
        "valid-tabs": good.replace(b"  ", b"\t"),
        "valid-no-whitespace": compact,
    }
    for garbage in (b"x", b"}", b"]", b",", b"{}", b"\x00", b"\xff", b" 1", b"null", b"\x1a"):
        out[f"trailing-{garbage!r}"] = good + garbage
        out[f"trailing-spaced-{garbage!r}"] = compact + b"\n" + garbage
    return out


_WHOLE = _whole_documents()


@pytest.mark.parametrize("name", list(_WHOLE))
def test_a_document_orjson_refuses_is_never_taken(name: str) -> None:
    values = check(_WHOLE[name])
    if not name.startswith("valid-"):
        assert values is None


# ---------------------------------------------------------------------------
# 5. The hostile corpus
# ---------------------------------------------------------------------------


def test_every_hostile_file_is_summarized_as_the_definition_or_declined(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path / "c")
    checked = taken = 0
    for path in sorted(corpus.records_dir.glob("*.json")):
        if path.is_symlink() or not path.is_file():
            continue
        try:
            data = path.read_bytes()
        except PermissionError:
            continue  # mode 000, not running as root
        stat = path.stat()
        stem = path.name.removesuffix(".json")
        taken += (
            check(data, key=path.name, stem=stem, size=stat.st_size, mtime_ns=stat.st_mtime_ns)
            is not None
        )
        checked += 1
    assert checked >= 40
    assert taken >= 1  # good-1.json at least


# ---------------------------------------------------------------------------
# 7. The native read in front of the lane
# ---------------------------------------------------------------------------


def test_the_native_read_gives_the_files_stamp_bytes_and_lane_values(tmp_path: Path) -> None:
    from intentus_tui.core.index.directory import _read_for_index, _read_plain

    record = make_record(execution_id="e1")
    path = tmp_path / "e1.json"
    path.write_bytes(dump_json(record))
    read = _read_for_index(str(path))
    assert read is not None
    size, mtime_ns, ctime_ns, inode, data, values = read
    st = os.stat(path)
    assert (size, mtime_ns, ctime_ns, inode) == (
        st.st_size,
        st.st_mtime_ns,
        st.st_ctime_ns,
        st.st_ino,
    )
    assert data == path.read_bytes() == _read_plain(str(path))[0]
    assert values is not None and values == check(data, "e1.json", "e1", size, mtime_ns)


def test_the_native_read_leaves_anything_but_a_plain_file_to_the_careful_reader(
    tmp_path: Path,
) -> None:
    from intentus_tui.core.index.directory import _read_for_index, _read_plain
    from intentus_tui.core.records.load import HUGE_FILE_BYTES

    plain = tmp_path / "plain.json"
    plain.write_bytes(dump_json(make_record(execution_id="plain")))
    (tmp_path / "link.json").symlink_to(plain)
    (tmp_path / "dir.json").mkdir()
    os.mkfifo(tmp_path / "fifo.json")  # opened without blocking, then refused
    big = tmp_path / "big.json"
    with big.open("wb") as f:
        f.truncate(HUGE_FILE_BYTES + 1)  # sparse: over the limit without the disk space
    for name in ("link.json", "dir.json", "fifo.json", "big.json", "missing.json"):
        path = str(tmp_path / name)
        assert _read_for_index(path) is None, name
        assert _read_plain(path) is None, name  # the Python reader says the same
    # A file whose record is not well-formed is read, and left to the orjson lane.
    odd = tmp_path / "odd.json"
    odd.write_bytes(b'{"header": 1}')
    read = _read_for_index(str(odd))
    assert read is not None and read[4] == b'{"header": 1}' and read[5] is None
