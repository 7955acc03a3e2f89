"""Properties of the diff engine, and agreement with Verist's own algorithm on stored vectors."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from intentus_tui.core.verist.apply import apply_diff
from intentus_tui.core.verist.diff import diff
from intentus_tui.core.verist.format import format_diff
from intentus_tui.core.verist.missing import MISSING

VECTORS = Path(__file__).parents[2] / "data" / "verist_diff_vectors.json"

# A small key alphabet (with integer-like and astral keys) so two values share structure.
KEYS = st.sampled_from(["a", "b", "B", "0", "9", "10", "é", "\U0001f600", "\uff5e", "a.b"])
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
)
JSON = st.recursive(
    SCALARS,
    lambda children: st.lists(children, max_size=5) | st.dictionaries(KEYS, children, max_size=5),
    max_leaves=25,
)


def js_equal(x: Any, y: Any) -> bool:
    """Deep equality with JavaScript's types: true is not 1, but 1 is 1.0."""
    if isinstance(x, bool) or isinstance(y, bool):
        return type(x) is type(y) and x == y
    if isinstance(x, int | float) and isinstance(y, int | float):
        return x == y
    if isinstance(x, dict) and isinstance(y, dict):
        return x.keys() == y.keys() and all(js_equal(x[k], y[k]) for k in x)
    if isinstance(x, list) and isinstance(y, list):
        return len(x) == len(y) and all(js_equal(a, b) for a, b in zip(x, y, strict=True))
    return type(x) is type(y) and x == y


@settings(max_examples=250, suppress_health_check=[HealthCheck.too_slow])
@given(JSON, JSON)
def test_apply_diff_reproduces_after(before: Any, after: Any) -> None:
    result = diff(before, after)
    assert js_equal(apply_diff(before, result), after)
    assert result.equal == (len(result.entries) == 0)
    assert result.equal == js_equal(before, after)


@settings(max_examples=250, suppress_health_check=[HealthCheck.too_slow])
@given(JSON, JSON)
def test_aligned_apply_diff_reproduces_after(before: Any, after: Any) -> None:
    result = diff(before, after, aligned=True)
    assert js_equal(apply_diff(before, result), after)
    assert result.equal == js_equal(before, after)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 6), max_size=40), st.lists(st.integers(0, 6), max_size=40))
def test_aligned_arrays_of_scalars_apply_and_are_no_longer_than_by_index(
    before: list[int], after: list[int]
) -> None:
    aligned = diff(before, after, aligned=True)
    assert apply_diff(before, aligned) == after
    assert len(aligned.entries) <= max(len(before), len(after))


@settings(max_examples=200)
@given(JSON)
def test_diff_with_itself_and_a_copy_is_equal(value: Any) -> None:
    assert diff(value, value).equal
    assert diff(value, json.loads(json.dumps(value))).equal
    assert format_diff(diff(value, value)) == "(no changes)"


@settings(max_examples=200)
@given(JSON, JSON)
def test_diff_does_not_mutate_inputs(before: Any, after: Any) -> None:
    frozen_before, frozen_after = json.dumps(before), json.dumps(after)
    apply_diff(before, diff(before, after))
    apply_diff(before, diff(before, after, aligned=True))
    assert json.dumps(before) == frozen_before
    assert json.dumps(after) == frozen_after


def undef(value: Any) -> Any:
    return MISSING if value == {"$undef": True} else value


def same_number_model(x: Any, y: Any) -> bool:
    """js_equal, but NaN-free floats from JSON text compare by value."""
    if isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y):
        return True
    return js_equal(x, y)


def load_vectors() -> list[dict[str, Any]]:
    vectors: list[dict[str, Any]] = json.loads(VECTORS.read_text(encoding="utf-8"))["vectors"]
    return vectors


@pytest.mark.parametrize("index", range(len(load_vectors())))
def test_agrees_with_verist_on_stored_vectors(index: int) -> None:
    vector = load_vectors()[index]
    result = diff(vector["before"], vector["after"])
    got = [(list(e.path), e.before, e.after) for e in result.entries]
    want = [(e["path"], undef(e["before"]), undef(e["after"])) for e in vector["entries"]]
    assert len(got) == len(want)
    for (gp, gb, ga), (wp, wb, wa) in zip(got, want, strict=True):
        assert gp == wp
        assert gb is MISSING if wb is MISSING else same_number_model(gb, wb)
        assert ga is MISSING if wa is MISSING else same_number_model(ga, wa)
    assert format_diff(result) == vector["format"]
    applied = apply_diff(vector["before"], result)
    expected = undef(vector["applied"])
    assert applied is MISSING if expected is MISSING else same_number_model(applied, expected)
