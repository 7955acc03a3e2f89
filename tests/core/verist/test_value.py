"""JavaScript's view of JSON values: typeof, ===, sort order, number printing, array indices."""

from __future__ import annotations

import math
from typing import Any

import pytest

from intentus_tui.core.verist.missing import MISSING
from intentus_tui.core.verist.value import (
    array_index,
    is_index,
    is_number,
    js_number_to_string,
    js_sorted,
    js_strict_equal,
    js_typeof,
    json_number,
)


@pytest.mark.parametrize(
    ("value", "kind"),
    [
        (MISSING, "undefined"),
        (None, "null"),
        (True, "boolean"),
        (0, "number"),
        (1.5, "number"),
        ("", "string"),
        ({}, "object"),
        ([], "object"),
    ],
)
def test_typeof(value: Any, kind: str) -> None:
    assert js_typeof(value) == kind


def test_strict_equality_is_javascripts_not_pythons() -> None:
    assert not js_strict_equal(True, 1)  # Python: True == 1
    assert not js_strict_equal(0, False)
    assert js_strict_equal(1, 1.0)
    assert js_strict_equal(-0.0, 0)
    nan = float("nan")
    assert not js_strict_equal(nan, nan)  # even the very same object
    assert not js_strict_equal(None, MISSING)
    assert not js_strict_equal({}, {})  # two objects are never ===


def test_numbers_and_indices_exclude_bools() -> None:
    assert is_number(3) and is_number(2.5) and not is_number(True)
    assert is_index(0) and not is_index(False) and not is_index("0")


def test_keys_sort_by_utf16_code_units() -> None:
    astral, private_use = "\U0001f600", "\uff61"  # code points: astral > U+FF61
    assert js_sorted([astral, private_use, "b", "a"]) == ["a", "b", astral, private_use]
    assert js_sorted(["b", "a", "B"]) == ["B", "a", "b"]


@pytest.mark.parametrize(
    ("key", "index"),
    [("0", 0), ("7", 7), ("4294967294", 4294967294), ("01", None), ("-1", None)],
)
def test_array_index_is_the_canonical_form_within_the_javascript_bound(
    key: str, index: int | None
) -> None:
    assert array_index(key) == index


def test_array_index_refuses_what_javascript_treats_as_a_property() -> None:
    assert array_index("4294967295") is None  # 2**32 - 1 is not an array index
    assert array_index("1.0") is None and array_index("") is None and array_index("١") is None


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1, "1"),
        (1.0, "1"),
        (-0.0, "0"),
        (0.1, "0.1"),
        (1e21, "1e+21"),
        (1e-7, "1e-7"),
        (0.000001, "0.000001"),
        (123456789012345680000.0, "123456789012345680000"),
        (2**53 + 1, "9007199254740992"),  # an int prints as the double it would become
        (10**400, "null"),  # beyond any double: Infinity in JavaScript, null in JSON
        (math.inf, "null"),
    ],
)
def test_json_number_prints_like_number_to_string(value: float, text: str) -> None:
    assert json_number(value) == text


def test_string_of_a_number_spells_out_the_non_finite_ones() -> None:
    assert js_number_to_string(math.nan) == "NaN"
    assert js_number_to_string(-math.inf) == "-Infinity"
    assert js_number_to_string(math.inf) == "Infinity"
    assert js_number_to_string(2.5) == "2.5"
