"""Numeric dict keys: IntentusNet 1.3.0 hashes them as numbers and stores them as strings.

Records are written by the real ``intentusnet`` 1.3.0 runtime; the library's own
``stable_hash`` of what it stored is the reference for "the hash differs".
"""

from __future__ import annotations

import copy
import json
import math
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from intentusnet.recording.models import stable_hash
from intentusnet.recording.store import FileExecutionStore as RealStore

from intentus_tui.core.records.hashing import (
    DOCUMENTED_PREFIX,
    reference_documented_canonical,
    runtime_canonical,
    sha256_hex,
)
from intentus_tui.core.records.load import ExecutionRecord, load_record_file
from intentus_tui.core.records.numeric_keys import (
    _NUMERIC_LOOKING_KEY,
    find_numeric_key_dicts,
    numeric_key,
)
from intentus_tui.core.records.verify import (
    HashStatus,
    benign_story,
    check_envelope_hash,
    verify_load_result,
)
from tests.intentusnet_payloads import write_real_records

PAYLOADS: dict[str, Any] = {
    "ints": {"items": {1: "one", 2: "two", 10: "ten", 100: "hundred"}},
    "floats_and_negatives": {
        "scores": {
            -1: "minus one",
            -10: "minus ten",
            2.5: "two and a half",
            0.5: "half",
            1e16: "big",
            1e-05: "tiny",
            math.inf: "infinity",
            -math.inf: "minus infinity",
        }
    },
    "nested": {
        "outer": {
            3: {20: "a", 3: "b"},
            10: [{2: "x", -10: "y", 10: "z"}, {-2: "same", -10: "order"}],
            1: "c",
        },
        "text": "héllo wörld",
    },
    "bools_with_numbers": {"flags": {True: "t", False: "f", 2: "two", -1: "neg"}},
    "nan_key": {"m": {2: "a", math.nan: "b", -1: "c"}},
    # Genuine string keys that look numeric, beside a dict whose keys were numbers.
    "string_codes_beside_numbers": {
        "codes": {"1": "a", "10": "b", "2": "c"},
        "items": {1: "a", 10: "b", 2: "c"},
    },
    "same_order_either_way": {"items": {1: "a", 2: "b", 3: "c"}, "solo": {None: "n"}},
}
# The path and the keys (in the order IntentusNet hashed them) each story must name.
NAMED: dict[str, list[str]] = {
    "ints": ["payload.items: 1, 2, 10, 100"],
    "floats_and_negatives": [
        "payload.scores: -Infinity, -10, -1, 1e-05, 0.5, 2.5, 1e+16, Infinity"
    ],
    "nested": [
        "payload.outer: 1, 3, 10",
        "payload.outer[3]: 3, 20",
        "payload.outer[10][0]: -10, 2, 10",
    ],
    "bools_with_numbers": ["payload.flags: -1, false, true, 2"],
    "nan_key": ["payload.m: ", "NaN"],
    "string_codes_beside_numbers": ["payload.items: 1, 2, 10"],
}


@pytest.fixture(scope="module")
def real_records(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    base = tmp_path_factory.mktemp("numeric")
    return base / ".intentusnet" / "records", write_real_records(base, PAYLOADS)


def _load(records: Path, execution_id: str) -> ExecutionRecord:
    result = load_record_file(records / f"{execution_id}.json")
    assert result.record is not None, result.message
    return result.record


@pytest.mark.parametrize("name", sorted(NAMED))
def test_the_real_library_hashed_numbers_and_our_verify_calls_it_benign(
    real_records: tuple[Path, dict[str, str]], name: str
) -> None:
    records, ids = real_records
    stored_record = RealStore(str(records)).load(ids[name])
    stored = stored_record.header.envelopeHash
    # The library's own stable_hash: it hashed the numeric keys, and cannot reproduce its
    # hash from the file it wrote.
    as_hashed = {**stored_record.envelope, "payload": PAYLOADS[name]}
    assert stable_hash(as_hashed) == stored
    assert stable_hash(stored_record.envelope) != stored

    check = check_envelope_hash(_load(records, ids[name]))
    assert check.status is HashStatus.MISMATCH
    assert check.benign is not None and "numeric dict keys" in check.benign
    assert "tampering" not in check.explanation and "benign" in check.explanation
    for named in NAMED[name]:
        assert named in check.benign
    assert "the envelope is unchanged" in check.benign
    assert benign_story(_load(records, ids[name]).envelope, stored) == check.benign


def test_only_the_dicts_that_had_numbers_are_named(
    real_records: tuple[Path, dict[str, str]],
) -> None:
    records, ids = real_records
    story = check_envelope_hash(_load(records, ids["string_codes_beside_numbers"])).benign
    assert story is not None and "payload.codes" not in story
    # Numeric keys that sort the same as text changed nothing, so are not named either.
    nested = check_envelope_hash(_load(records, ids["nested"])).benign
    assert nested is not None and "payload.outer[10][1]" not in nested


def _many_dicts(numeric_at: int | None, count: int) -> dict[str, Any]:
    """``count`` dicts of keys "1", "10", "2": strings, except the one at ``numeric_at``."""
    return {
        f"d{i}": ({1: "a", 10: "b", 2: "c"} if i == numeric_at else {"1": "a", "10": "b", "2": "c"})
        for i in range(count)
    }


def test_many_look_alike_dicts_one_of_which_had_numbers() -> None:
    original = {"intent": {"name": "x"}, "payload": _many_dicts(numeric_at=9, count=15)}
    story = benign_story(json.loads(json.dumps(original)), stable_hash(original))
    assert story is not None and "payload.d9: 1, 2, 10" in story
    assert "payload.d8" not in story
    many = {"intent": {"name": "x"}, "payload": _many_dicts(numeric_at=None, count=15)}
    record = ExecutionRecord.from_json(
        {"header": {"envelopeHash": "0" * 64}, "envelope": many, "events": []}
    )
    check = check_envelope_hash(record)
    assert check.benign is None and "possible tampering" in check.explanation
    assert "15 dicts have keys that may have been numbers" in check.explanation


def test_a_long_key_list_is_shortened_in_the_story() -> None:
    original = {"payload": {"items": {i: "x" for i in range(1, 30)}}}
    story = benign_story(json.loads(json.dumps(original)), stable_hash(original))
    assert story is not None and "payload.items: 1, 2, 3, 4, 5, 6, 7, 8, …" in story


def test_numeric_keys_in_the_same_order_either_way_match(
    real_records: tuple[Path, dict[str, str]],
) -> None:
    records, ids = real_records
    check = check_envelope_hash(_load(records, ids["same_order_either_way"]))
    assert check.status is HashStatus.MATCH and check.benign is None


def test_verify_report_lists_the_story_as_a_note_not_a_problem(
    real_records: tuple[Path, dict[str, str]],
) -> None:
    records, ids = real_records
    report = verify_load_result(load_record_file(records / f"{ids['nested']}.json"))
    assert report.ok and report.problems == ()
    assert len(report.notes) == 1 and "numeric dict keys" in report.notes[0]
    doc = report.to_json()
    assert doc["ok"] is True and doc["hash"]["benign"] == report.hash.benign  # type: ignore[union-attr]


def _edited(records: Path, execution_id: str, edit: Any) -> ExecutionRecord:
    data = json.loads((records / f"{execution_id}.json").read_text(encoding="utf-8"))
    edit(data["envelope"]["payload"])
    return ExecutionRecord.from_json(data)


def _rename(mapping: dict[str, Any], old: str, new: str) -> None:
    mapping[new] = mapping.pop(old)


@pytest.mark.parametrize(
    ("name", "edit"),
    [
        ("ints", lambda p: p["items"].update({"10": "TEN"})),
        ("ints", lambda p: _rename(p["items"], "10", "11")),
        ("ints", lambda p: p["items"].pop("100")),
        ("floats_and_negatives", lambda p: _rename(p["scores"], "2.5", "2.50")),
        ("nested", lambda p: p.update({"text": "changed"})),
        ("nested", lambda p: p["outer"]["10"][0].update({"2": "z"})),
        ("nested", lambda p: p["outer"]["10"][1].update({"-2": "z"})),
        ("bools_with_numbers", lambda p: _rename(p["flags"], "true", "1")),
        ("string_codes_beside_numbers", lambda p: p["codes"].update({"2": "C"})),
    ],
)
def test_an_edited_record_with_numeric_keys_is_still_tampering(
    real_records: tuple[Path, dict[str, str]], name: str, edit: Any
) -> None:
    records, ids = real_records
    check = check_envelope_hash(_edited(records, ids[name], edit))
    assert check.status is HashStatus.MISMATCH and check.benign is None
    assert "possible tampering" in check.explanation
    report = verify_load_result(load_record_file(records / f"{ids[name]}.json"))
    assert report.ok  # the unedited file still verifies


def test_mixed_numeric_and_string_keys_cannot_be_written_so_are_never_restored() -> None:
    # The real library cannot hash such a dict: no record of it exists to explain.
    with pytest.raises(TypeError):
        stable_hash({"payload": {1: "a", "b": "c"}})
    with pytest.raises(TypeError):
        stable_hash({"payload": {None: "a", 1: "c"}})
    assert find_numeric_key_dicts({"p": {"1": "a", "10": "b", "2": "c", "b": "d"}}) == []
    assert find_numeric_key_dicts({"p": {"null": "a", "1": "b", "10": "c"}}) == []


def test_only_text_json_dumps_writes_for_a_number_is_a_numeric_key() -> None:
    assert numeric_key("10") == 10 and numeric_key("-3") == -3
    assert numeric_key("2.5") == 2.5 and numeric_key("1e+16") == 1e16
    assert numeric_key("-0.5") == -0.5 and numeric_key("1e-05") == 1e-05
    assert numeric_key("Infinity") == math.inf and math.isnan(numeric_key("NaN"))
    assert numeric_key("true") is True and numeric_key("false") is False
    for text in ("010", "-0", "1e16", "2.50", "+1", "nan", "inf", "null", "1_000", " 1", "0x10"):
        assert numeric_key(text) is numeric_key("not a number"), text
    # 1 and 1.0 (or 1 and true) are one key in Python: such a dict had strings.
    assert find_numeric_key_dicts({"p": {"1": "a", "1.0": "b", "10": "c"}}) == []
    assert find_numeric_key_dicts({"p": {"true": "a", "1": "b", "10": "c"}}) == []


def test_documented_form_hashes_are_explained_too() -> None:
    original = {"intent": {"name": "x"}, "payload": {"items": {1: "a", 10: "b", 2: "c"}}}
    stored = DOCUMENTED_PREFIX + sha256_hex(reference_documented_canonical(original))
    on_disk = json.loads(json.dumps(original))
    story = benign_story(on_disk, stored)
    assert story is not None and "payload.items: 1, 2, 10" in story


def test_hostile_keys_in_a_path_are_made_safe() -> None:
    original = {"payload": {"\x1b[31mred\nline": {1: "a", 10: "b", 2: "c"}}}
    on_disk = json.loads(json.dumps(original))
    story = benign_story(on_disk, stable_hash(original))
    assert story is not None and "\x1b" not in story and "\n" not in story


# ---------------------------------------------------------------------------
# Property: the story is found exactly when the only difference is numeric keys
# ---------------------------------------------------------------------------

_NUMERIC_KEYS = st.one_of(
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=False),  # several NaN keys would all be written "NaN": data lost
    st.booleans(),
)
# Strings, often ones that look like numbers (those the file cannot tell from numbers).
_STRING_KEYS = st.one_of(
    st.sampled_from(["1", "2", "10", "-3", "2.5", "1e+16", "true", "Infinity", "a", "b"]),
    st.text(max_size=4),
)
_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=5))


def _values(children: Any) -> Any:
    return st.one_of(
        st.dictionaries(_NUMERIC_KEYS, children, max_size=5),
        st.dictionaries(_STRING_KEYS, children, max_size=5),
        st.lists(children, max_size=3),
    )


_PAYLOADS = st.recursive(_LEAVES, _values, max_leaves=20)


def _as_written(envelope: Any) -> Any:
    """What FileExecutionStore writes and the file gives back."""
    return json.loads(json.dumps(envelope, ensure_ascii=False, indent=2))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=_PAYLOADS)
@example(payload={"a": {10: "x", 2: "y", -1.5: "z"}, "b": {"10": 1, "2": 2}})
@example(payload=[{True: 1, 2: {"10": "s", "9": "t"}}, {3: {-1: 0, -20: 1, 4: 2}}])
def test_story_is_found_exactly_when_only_numeric_keys_differ(payload: Any) -> None:
    envelope = {"intent": {"name": "Summarize"}, "payload": payload}
    stored = stable_hash(envelope)  # the real library's hash of the in-memory envelope
    record = ExecutionRecord.from_json(
        {"header": {"envelopeHash": stored}, "envelope": _as_written(envelope), "events": []}
    )
    check = check_envelope_hash(record)
    if stable_hash(record.envelope) == stored:
        assert check.status is HashStatus.MATCH
    else:
        assert check.status is HashStatus.MISMATCH
        assert check.benign is not None and "numeric dict keys" in check.benign


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=_PAYLOADS, new_leaf=st.text(min_size=1, max_size=5), inside=st.booleans())
def test_an_edit_is_never_explained_away(payload: Any, new_leaf: str, inside: bool) -> None:
    envelope = {"intent": {"name": "Summarize"}, "payload": payload}
    stored = stable_hash(envelope)
    on_disk = _as_written(envelope)
    edited = copy.deepcopy(on_disk)
    target = edited["payload"] if inside and isinstance(edited["payload"], dict) else edited
    target["edited"] = new_leaf  # a key the writer never wrote, beside numeric ones or not
    record = ExecutionRecord.from_json(
        {"header": {"envelopeHash": stored}, "envelope": edited, "events": []}
    )
    check = check_envelope_hash(record)
    assert check.status is HashStatus.MISMATCH and check.benign is None


def test_the_cheap_path_never_looks_for_the_story(
    real_records: tuple[Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    records, ids = real_records
    record = _load(records, ids["ints"])

    def refuse(*_: Any) -> Any:
        raise AssertionError("the story was looked for on the cheap path")

    monkeypatch.setattr("intentus_tui.core.records.numeric_keys.numeric_key_story", refuse)
    check = check_envelope_hash(record, all_forms=False, explain=False)
    assert check.status is HashStatus.MISMATCH and check.benign is None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(payload=_PAYLOADS)
@example(payload={-1: "a", -20: "b"})
@example(payload=[{False: 0, math.inf: 1}, {math.nan: 0, -math.inf: 1, 0.5: 2}])
def test_the_quick_look_at_the_text_misses_no_dict_the_walk_finds(payload: Any) -> None:
    """The story first searches the canonical text for a key that could have been a
    number, and walks the envelope only if there is one: never skipping a dict it needs."""
    envelope = _as_written({"intent": {"name": "Summarize"}, "payload": payload})
    if find_numeric_key_dicts(envelope):
        assert _NUMERIC_LOOKING_KEY.search(runtime_canonical(envelope))


# The search as first written, without the lookahead that makes it fail faster.
_PLAIN_SEARCH = re.compile(rb'"(?:-?[0-9][0-9.e+-]*|true|false|-?Infinity|NaN)":')


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(
        st.sampled_from(
            [b'"', b'":', b"-", b"0", b"7", b".", b"e", b"+", b"true", b"false", b"Infinity",
             b"NaN", b"t", b"f", b"I", b"N", b"x", b"\\", b",", b"{", b"}"]
        ),
        max_size=30,
    ).map(b"".join)
)  # fmt: skip
def test_the_quick_look_matches_where_the_plain_search_does(text: bytes) -> None:
    found = _NUMERIC_LOOKING_KEY.search(text)
    plain = _PLAIN_SEARCH.search(text)
    assert (found and found.span()) == (plain and plain.span())


@pytest.mark.parametrize("name", list(PAYLOADS))
def test_the_story_is_the_same_with_the_canonical_text_given(
    real_records: tuple[Path, dict[str, str]], name: str
) -> None:
    records, ids = real_records
    record = _load(records, ids[name])
    stored = record.header.envelope_hash
    assert stored is not None
    envelope = record.envelope
    given_text = benign_story(envelope, stored, runtime_canonical(envelope))
    assert given_text == benign_story(envelope, stored)
