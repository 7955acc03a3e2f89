"""The native speed-ups are byte-identical twins of the pure-Python definitions.

``canonical_json`` must write exactly what ``json.dumps(sort_keys=True, separators=(",",
":"), ensure_ascii=True)`` writes, or decline (None) and leave the value to it;
``has_long_digit_run`` must answer as the pure scan does. The module is built by
``pip install -e .`` (setup.py); where it cannot be built the pure code runs, and these
tests say so unless ``INTENTUS_TUI_PURE_PYTHON`` asked for that on purpose.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import random
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from intentus_tui.core import native
from intentus_tui.core.index.directory import (
    _FIELDS,
    _NATIVE_HOOKS_LOADED,
    _NATIVE_HOOKS_PARSED,
    _ROW_SPEC,
    _SLOT_MEMBERS,
    ExecutionSummary,
    event_facts_python,
    python_row_of_values,
    stamps_of_python,
    summarize,
    summary_from_slots,
    well_formed_values_python,
)
from intentus_tui.core.records.hashing import reference_runtime_canonical
from intentus_tui.core.records.load import (
    LoadStatus,
    _Salvage,
    load_record_bytes,
    load_record_file,
    pure_has_long_digit_run,
)
from intentus_tui.core.records.timeline import ExecutionState
from intentus_tui.core.records.verify import HashStatus
from intentus_tui.core.sanitize import _JSON_UNSAFE, sanitize_line
from tests.core.records.test_hashing import NOT_JSON, TRICKY_CHARS, json_values
from tests.factories import make_record
from tests.hostile.corpus import build_corpus, dump_json

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("INTENTUS_TUI_PURE_PYTHON")), reason="native speed-ups turned off"
)

# Characters json_text_safe escapes, their neighbours, and others sharing their lead bytes.
TERMINAL_EDGES = [
    "a", "\x7e", "\x7f", "\x80", "\x9f", "\xa0", "\u061b", "\u061c", "\u061d", "\u200a",
    "\u200b", "\u200f", "\u2010", "\u2029", "\u202a", "\u202e", "\u202f", "\u205f", "\u2060",
    "\u2069", "\u206a", "\u2192", "\ufefe", "\ufeff", "\uff00", "😀", "é", "\u0600",
]  # fmt: skip

PROOF = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _canonical(value: Any) -> bytes | None:
    assert native.canonical_json is not None
    return native.canonical_json(value)


def _reference(value: Any) -> bytes | type[BaseException]:
    try:
        return reference_runtime_canonical(value)
    except (ValueError, TypeError, RecursionError) as error:
        return type(error)


def test_the_native_module_is_built() -> None:
    # setup.py builds it on install; a machine without a C compiler runs the pure code.
    assert native.AVAILABLE, "intentus_tui.core._speedups was not built (no C compiler?)"


@PROOF
@given(json_values)
def test_canonical_json_is_byte_identical_to_json_dumps(value: Any) -> None:
    got = _canonical(value)
    assert got is not None  # every value of these strategies is made of exact JSON types
    assert got == _reference(value)


@PROOF
@given(st.text(alphabet=st.sampled_from(TRICKY_CHARS), max_size=60))
def test_strings_and_keys_are_escaped_like_json(text: str) -> None:
    value = [text, {text: text, "k" + text: [text], text + "\x7f": None}]
    assert _canonical(value) == _reference(value)


def test_an_escape_is_found_at_every_place_in_a_plain_run() -> None:
    # Plain ASCII is copied 8 bytes at a time: an escape at each offset of a word, in
    # ASCII and Latin-1 strings, and output far past the encoder's first (stack) buffer.
    bytewise = [chr(code) for code in range(256)]
    for length in (7, 8, 9, 16, 17, 40):
        for at in range(length):
            for char in [*TRICKY_CHARS, *bytewise]:
                text = "p" * at + char + "q" * (length - at - 1)
                assert _canonical(text) == _reference(text), (length, at, char)
    big = {"k": "x" * 9000 + "é", "l": ["y" * 3000 + "\x1f"] * 5, "m": "z" * 20000}
    assert _canonical(big) == _reference(big)


def test_big_dicts_are_sorted_like_json() -> None:
    # Small dicts are insertion-sorted, big ones go through qsort: both by code point.
    rng = random.Random(5)
    alphabet = [*TRICKY_CHARS, "A", "b", "ÿ", "Ā"]
    for size in [31, 32, 33, 64, 500, 5000]:
        keys = {"".join(rng.choices(alphabet, k=rng.randint(0, 4))) for _ in range(size)}
        value = {key: index for index, key in enumerate(keys)}
        assert _canonical(value) == _reference(value)


def test_every_double_is_written_like_repr() -> None:
    rng = random.Random(20261122)
    doubles = [struct.unpack("<d", rng.randbytes(8))[0] for _ in range(50_000)]
    doubles += [float(f"{rng.randint(1, 10**17)}e{rng.randint(-330, 310)}") for _ in range(20_000)]
    doubles += [0.0, -0.0, float("nan"), float("inf"), -float("inf"), 5e-324, 1e16, 1e-5]
    assert _canonical(doubles) == _reference(doubles)


def test_ints_of_every_size_are_written_like_repr() -> None:
    ints = [0, -1, 2**63 - 1, -(2**63), 2**63, -(2**63) - 1, 2**64, 10**300, -(10**200)]
    ints += [random.Random(7).randint(-(2**70), 2**70) for _ in range(2_000)]
    assert _canonical(ints) == _reference(ints)


@pytest.mark.parametrize("value", NOT_JSON, ids=lambda v: type(v).__name__ + repr(v)[:30])
def test_anything_but_exact_json_types_is_declined(value: Any) -> None:
    assert _canonical(value) is None


def test_subclasses_and_odd_values_are_declined() -> None:
    class Text(str):
        pass

    class Number(int):
        pass

    for value in [Text("a"), {"k": Number(3)}, [1, {"k": {Text("k"): 1}}], {None: 1}, {1.5: 2}]:
        assert _canonical(value) is None


def test_an_int_too_long_for_repr_is_declined_for_json_to_refuse() -> None:
    # int.__repr__ refuses more than sys.get_int_max_str_digits() digits: json.dumps raises,
    # so the native encoder must not write anything for it.
    huge = 10 ** (sys.get_int_max_str_digits() + 5)
    assert _canonical([huge]) is None
    assert _reference([huge]) is ValueError


@pytest.mark.parametrize("depth", [0, 1, 150, 199, 200, 201, 400, 5000])
def test_deep_nesting_is_written_or_declined_never_a_crash(depth: int) -> None:
    value: Any = {"leaf": "é"}
    for i in range(depth):
        value = [value] if i % 2 else {"k": value}
    got = _canonical(value)
    assert got is None or got == _reference(value)
    assert (got is None) == (depth >= 200)


def test_a_self_containing_value_is_declined_not_looped_forever() -> None:
    looped: list[Any] = []
    looped.append(looped)
    assert _canonical(looped) is None
    assert _reference(looped) is ValueError  # json.dumps: "Circular reference detected"


@settings(max_examples=1000, deadline=None)
@given(
    st.binary(max_size=80)
    | st.lists(st.sampled_from([b"1", b"9", b"0", b"x", b" ", b"-", b"."]), max_size=80).map(
        b"".join
    )
)
def test_digit_runs_are_found_like_the_pure_scan(data: bytes) -> None:
    assert native.has_long_digit_run is not None
    assert native.has_long_digit_run(data) == pure_has_long_digit_run(data)


@pytest.mark.parametrize("at", [0, 1, 17, 18, 19, 37, 100])
@pytest.mark.parametrize("length", [18, 19, 20, 40])
def test_digit_runs_at_every_offset(at: int, length: int) -> None:
    assert native.has_long_digit_run is not None
    for filler in (b"x", b"1234567x"):
        data = (filler * 30)[:at] + b" " + b"7" * length + b"]" + filler * 3
        assert native.has_long_digit_run(data) == pure_has_long_digit_run(data) == (length >= 19)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet=st.sampled_from(TERMINAL_EDGES), max_size=16))
def test_terminal_controls_are_found_like_the_regex(text: str) -> None:
    assert native.has_terminal_controls is not None
    data = text.encode("utf-8", "surrogatepass")
    assert native.has_terminal_controls(data) == (_JSON_UNSAFE.search(text) is not None)
    for cut in range(len(data)):  # a sequence cut at the end of the buffer is not read past it
        native.has_terminal_controls(data[:cut])


# A listing row's values: every kind of character a summary or file name may hold, the enum
# fields as members, None where allowed; in one row out of eight, what orjson refuses too
# (lone surrogates, ints beyond 64 bits), which must make the native writer decline.
_ROW_CHARS = TRICKY_CHARS + TERMINAL_EDGES + ["\x1b", "\t"]
_SURROGATES = [c for c in _ROW_CHARS if "\ud800" <= c <= "\udfff"]
_ROW_TEXT = {
    False: st.text(alphabet=st.sampled_from([c for c in _ROW_CHARS if c not in _SURROGATES])),
    True: st.text(alphabet=st.sampled_from(_ROW_CHARS)),
}
_ROW_INT = {
    False: st.one_of(st.integers(0, 10**6), st.sampled_from([-(2**63), 2**63, 2**64 - 1])),
    True: st.one_of(st.integers(0, 10), st.sampled_from([-(2**63) - 1, 2**64])),
}
_ROW_FIELD_VALUES = {
    "state": st.sampled_from(list(ExecutionState)),
    "load_status": st.sampled_from(list(LoadStatus)),
    "hash_status": st.sampled_from(list(HashStatus)),
    "replayable": st.booleans(),
}


@st.composite
def _row_values(draw: st.DrawFn) -> list[Any]:
    odd = draw(st.integers(0, 7)) == 0
    text, number = _ROW_TEXT[odd], _ROW_INT[odd]
    values = []
    for field in dataclasses.fields(ExecutionSummary):
        if field.name in _ROW_FIELD_VALUES:
            values.append(draw(_ROW_FIELD_VALUES[field.name]))
        elif field.type == "int":
            values.append(draw(number))
        elif "None" in str(field.type):
            values.append(draw(st.one_of(st.none(), text)))
        else:
            values.append(draw(st.one_of(st.just(""), text)))
    return values


@settings(max_examples=1500, deadline=None)
@given(_row_values())
def test_listing_rows_written_in_c_are_the_python_rows(values: list[Any]) -> None:
    # Declined (None) only where orjson itself refuses: a lone surrogate, an int beyond
    # 64 bits; the Python path then writes the row (its fallback replaces the surrogate).
    assert native.json_row is not None
    line = native.json_row(_ROW_SPEC, values)
    if line is None:
        refused = any(
            (type(v) is int and not -(2**63) <= v < 2**64)
            or (isinstance(v, str) and any("\ud800" <= c <= "\udfff" for c in v))
            for v in values
        )
        assert refused
    else:
        assert line == python_row_of_values(values)
        json.loads(line)


def test_ascii_row_strings_are_escaped_at_every_place_in_a_word() -> None:
    # ASCII strings take the 8-bytes-at-a-time writer: each ASCII character at each offset.
    summary = make_summary_values()
    message = _FIELDS.index("message")
    for length in (7, 8, 9, 17):
        for at in range(length):
            for code in range(128):
                values = list(summary)
                values[message] = "p" * at + chr(code) + "q" * (length - at - 1)
                assert native.json_row is not None
                assert native.json_row(_ROW_SPEC, values) == python_row_of_values(values)


def make_summary_values() -> list[Any]:
    record = make_record(execution_id="e1")
    summary = summarize(load_record_bytes(Path("e1.json"), dump_json(record)))
    return [getattr(summary, name) for name in _FIELDS]


def test_a_malformed_row_spec_is_refused_not_read() -> None:
    values = [None] * len(_FIELDS)
    assert native.json_row is not None
    with pytest.raises(IndexError):
        native.json_row(((b"{", len(_FIELDS), False),), values)
    with pytest.raises(TypeError):
        native.json_row(((b"{", 0),), values)
    assert native.json_row(((b"{", 0, False),), [object()]) is None


# Every field the well-formed lane reads, odd in each way it can be: wrong types, names a
# terminal acts on, empty strings, statuses only lower() makes known, final responses that
# differ from the FINAL_RESPONSE event, or take its documented summary form.
_odd_text = st.sampled_from(["x", "", "évil\x1b[2J", "tab\there", "\u202e", "O\u212a", "Weird"])
_odd_value = st.one_of(_odd_text, st.sampled_from([None, 3, True, 1.5, ["a"], {"a": 1}]))
_MISSING = object()
_RECORD_PLACES = {
    ("header", "executionId"): st.one_of(st.just("e1"), _odd_value),
    ("header", "createdUtcIso"): _odd_value,
    ("header", "replayable"): st.one_of(st.booleans(), _odd_value),
    ("header", "replayableReason"): _odd_value,
    ("header", "envelopeHash"): _odd_value,
    ("envelope", "intent"): st.one_of(st.fixed_dictionaries({"name": _odd_value}), _odd_value),
    ("envelope", "routing"): st.one_of(st.fixed_dictionaries({"strategy": _odd_value}), _odd_value),
    ("routerDecision",): st.one_of(st.fixed_dictionaries({"agent": _odd_value}), _odd_value),
    ("finalResponse",): st.one_of(
        st.fixed_dictionaries({"status": _odd_value, "payload": _odd_value}),
        st.just({}),
        _odd_value,
    ),
}


@st.composite
def _odd_records(draw: st.DrawFn) -> dict[str, Any]:
    record = make_record(
        execution_id="e1",
        agents=(("a", "error"), ("b", draw(st.sampled_from(["ok", "error"])))),
        documented=draw(st.booleans()),
        replayable=draw(st.booleans()),
    )
    for place, values in _RECORD_PLACES.items():
        if draw(st.integers(0, 3)):
            continue  # most places keep their usual value
        *parents, last = place
        holder = record
        for parent in parents:
            holder = holder[parent]
        value = draw(st.one_of(values, st.just(_MISSING)))
        if value is _MISSING:
            holder.pop(last, None)
        else:
            holder[last] = value
    finals = [e for e in record["events"] if e["type"] == "FINAL_RESPONSE"]
    final = record.get("finalResponse")
    if finals and isinstance(final, dict):
        finals[-1]["payload"] = draw(
            st.sampled_from(
                [
                    dict(final),
                    {**final, "status": "other"},
                    {"has_error": bool(final.get("error")), "status": final.get("status")},
                    {"has_error": True, "payload": 1},
                ]
            )
        )
    return record


@settings(max_examples=1500, deadline=None)
@given(_odd_records(), st.booleans())
def test_well_formed_values_in_c_are_the_python_definition(record: Any, parsed: bool) -> None:
    assert native.well_formed_values is not None
    hooks = _NATIVE_HOOKS_PARSED if parsed else _NATIVE_HOOKS_LOADED
    expected = well_formed_values_python("e1.json", record, "e1", 1234, 5678, parsed=parsed)
    assert native.well_formed_values(record, "e1.json", "e1", 1234, 5678, hooks) == expected


def test_well_formed_values_take_the_usual_record_in_c() -> None:
    # The proof above would pass if C declined everything: the usual record is not declined.
    record = make_record(execution_id="e1")
    assert native.well_formed_values is not None
    values = native.well_formed_values(record, "e1.json", "e1", 1, 2, _NATIVE_HOOKS_LOADED)
    assert values is not None and values[1] == "e1"
    assert values == well_formed_values_python("e1.json", record, "e1", 1, 2, parsed=False)


def _walked(text: str, encoded: bytes | None) -> tuple[Any, ...]:
    salvage = _Salvage(text)
    stop = salvage.run(encoded)
    return salvage.found, salvage.in_events, salvage.pos, stop.msg, stop.pos


_RECORD = make_record(execution_id="e1", agents=(("a", "error"), ("b", "ok")))
_CUT_TEXTS = {
    "indented": dump_json(_RECORD),
    "compact": json.dumps(_RECORD, ensure_ascii=False, separators=(",", ":")).encode(),
    # escaped keys, scalars, "events" twice (and once escaped), nested arrays, non-ASCII,
    # brackets in strings, an integer orjson would round, NaN (orjson refuses it)
    "odd": (
        '{"h\\u00e9": {"s": "}]\\"\\\\", "n": [1.5e3, -0, true, null]},'
        ' "events": [{"seq": 1}, [[]], {"k": "日本\\u001b"}],'
        ' "x": "a string value", "ev\\u0065nts": [{"a": 1}, {"b": [2, {"c": 3}]}],'
        ' "n": {"big": 12345678901234567890123}, "f": [NaN],'
        ' "events" : [ {"seq": 2, "payload": {"t": "ééééé"}} , {"seq": 3}, 7, {"seq": 4} ],'
        ' "tail": {"z": 1}}'
    ).encode(),
}


@pytest.mark.parametrize("name", list(_CUT_TEXTS))
def test_salvage_reading_whole_sections_with_orjson_is_the_walk(name: str) -> None:
    # A record cut at every byte: the walk that reads whole sections with orjson first
    # recovers the same sections and events and stops at the same place, with the same
    # words, as the stdlib walk alone.
    data = _CUT_TEXTS[name]
    read_whole = 0
    for cut in range(1, len(data)):
        encoded = data[:cut]
        try:
            text = encoded.decode()
        except UnicodeDecodeError:
            continue
        assert _walked(text, encoded) == _walked(text, None), cut
        read_whole += _Salvage(text)._read_whole(encoded)
    assert read_whole > len(data) / 2  # orjson read whole sections for most cuts


# Events as records hold them, and every way they can be odd: seq gaps, bools and floats for
# ints, unknown kinds, missing or non-str agents, statuses that only lower() makes known.
_agents = st.sampled_from(["a", "b", "fb-primary", "évil\x1b[2J", "tab\there", "", "\u202e"])
_statuses = st.sampled_from(
    ["ok", "OK", "Succeeded", "error", "TIMEOUT", "in_flight", "IN_FLIGHT", "O\u212a", "weird",
     "\x9b", 3, None, "MISSING"]
)  # fmt: skip
_kinds = st.sampled_from(
    ["AGENT_ATTEMPT_START", "AGENT_ATTEMPT_END", "FALLBACK_TRIGGERED", "FINAL_RESPONSE",
     "MODEL_CALL", "agent_attempt_start"]
)  # fmt: skip


@st.composite
def _events(draw: st.DrawFn) -> Any:
    events: list[Any] = []
    for number in range(1, draw(st.integers(0, 8)) + 1):
        payload: dict[str, Any] = {}
        agent = draw(st.one_of(_agents, st.sampled_from([None, 7, "MISSING"])))
        if agent != "MISSING":
            payload["agent"] = agent
        status = draw(_statuses)
        if status != "MISSING":
            payload["status"] = status
        event: dict[str, Any] = {"seq": number, "type": draw(_kinds), "payload": payload}
        oddity = draw(st.integers(0, 30))
        if oddity == 0:
            event["seq"] = draw(st.sampled_from([True, float(number), number + 1, 2**70, "1"]))
        elif oddity == 1:
            event["type"] = 5
        elif oddity == 2:
            event["payload"] = [payload]
        elif oddity == 3:
            event = [event]  # type: ignore[assignment]
        events.append(event)
    return tuple(events) if draw(st.integers(0, 40)) == 0 else events


@settings(max_examples=2000, deadline=None)
@given(_events())
def test_event_facts_are_the_python_definition(events: Any) -> None:
    assert native.event_facts is not None
    assert native.event_facts(events, sanitize_line) == event_facts_python(events)


def test_the_pure_python_switch_turns_the_speedups_off() -> None:
    code = "from intentus_tui.core import native; print(native.AVAILABLE)"
    env = {**os.environ, "INTENTUS_TUI_PURE_PYTHON": "1"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "False"


def test_listings_are_identical_with_and_without_the_speedups(tmp_path: Path) -> None:
    # What a user sees: the same ``inspect --list --json`` bytes for the hostile corpus
    # (damaged files, escapes, odd numbers) and a few hundred realistic records.
    records = build_corpus(tmp_path / "corpus").records_dir
    intents = ["Summarize", "Résumé “Q3” — 日本語 😀", "tab\there\x7f", "e-7 0.00001 1e-05"]
    for number in range(200):
        record = make_record(
            intent=intents[number % 4], documented=number % 3 == 0, replayable=number % 5 > 0
        )
        record["envelope"]["payload"] = {"score": number / 7e5, "n": number * 10**12}
        if number % 4:  # the header's hash follows the new payload (else: tampered)
            stable = record["envelope"]
            if record["header"]["envelopeHash"].startswith("sha256:"):
                stable = {k: v for k, v in stable.items() if k != "routingMetadata"}
            text = json.dumps(stable, sort_keys=True, separators=(",", ":"))
            digest = hashlib.sha256(text.encode()).hexdigest()
            prefix = "sha256:" if record["header"]["envelopeHash"].startswith("sha256:") else ""
            record["header"]["envelopeHash"] = prefix + digest
        name = f"{record['header']['executionId']}.json"
        (records / name).write_bytes(dump_json(record))
    outputs = []
    for pure in ("", "1"):
        env = {**os.environ, "INTENTUS_TUI_PURE_PYTHON": pure}
        argv = [sys.executable, "-m", "intentus_tui.cli", "inspect", "--list", "--json"]
        run = subprocess.run(
            [*argv, "--no-cache", str(records)], env=env, capture_output=True, check=False
        )
        assert run.returncode in (0, 1), run.stderr
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    rows = json.loads(outputs[0])["executions"]
    statuses = {row["hash_status"] for row in rows}
    assert {"match", "mismatch", "unverifiable"} <= statuses


def test_summaries_built_in_c_are_the_frozen_dataclass_built_in_python(tmp_path: Path) -> None:
    # Every hostile file's summary, rebuilt both ways from its values: equal, hashable,
    # the same repr, still frozen; a wrong class or member list is refused, not written.
    corpus = build_corpus(tmp_path)
    summaries = [summarize(load_record_file(path)) for path in corpus.record_paths()]
    assert native.new_slotted is not None
    for summary in summaries:
        values = [getattr(summary, name) for name in _FIELDS]
        built = native.new_slotted(ExecutionSummary, _SLOT_MEMBERS, values)
        assert type(built) is ExecutionSummary
        assert built == summary == summary_from_slots(values)
        assert hash(built) == hash(summary) and repr(built) == repr(summary)
        with pytest.raises(dataclasses.FrozenInstanceError):
            built.intent = "changed"  # type: ignore[misc]
    values = [getattr(summaries[0], name) for name in _FIELDS]
    with pytest.raises(ValueError):
        native.new_slotted(ExecutionSummary, _SLOT_MEMBERS, values[:-1])
    with pytest.raises(TypeError):
        native.new_slotted(dict, _SLOT_MEMBERS, values)
    with pytest.raises(TypeError):
        native.new_slotted(ExecutionSummary, (len,) * len(values), values)


def test_stat_stamps_are_the_python_loop(tmp_path: Path) -> None:
    # Every kind of entry a record directory can hold, and names that are not there.
    (tmp_path / "plain.json").write_bytes(b"{}")
    (tmp_path / "big.json").write_bytes(b"x" * 70_000)
    (tmp_path / "dir.json").mkdir()
    os.mkfifo(tmp_path / "fifo.json")
    (tmp_path / "link.json").symlink_to("plain.json")
    (tmp_path / "dangling.json").symlink_to("nowhere.json")
    (tmp_path / "loop.json").symlink_to("loop.json")
    odd = os.fsdecode(b"caf\xe9-\xff.json")  # not UTF-8: a surrogate-escaped str
    (tmp_path / odd).write_bytes(b"1")
    names = [*sorted(os.listdir(tmp_path)), "vanished.json", "sub/../plain.json"]
    fd = os.open(tmp_path, os.O_RDONLY)
    try:
        assert native.stat_stamps is not None
        packed = native.stat_stamps(fd, names)
        expected = stamps_of_python(names, fd)
    finally:
        os.close(fd)
    assert packed == expected.tobytes()
    stamps = [tuple(expected[i : i + 4]) for i in range(0, len(expected), 4)]
    assert stamps[names.index("vanished.json")] == (-1, -1, -1, -1)
    assert stamps[names.index("link.json")] == stamps[names.index("plain.json")]
    assert stamps[names.index("big.json")][0] == 70_000
