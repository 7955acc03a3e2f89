"""The shared summary type: built by keyword only, and unchanged by a trip through JSON
(how summaries come back from worker processes and the cache)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import orjson
import pytest

from intentus_tui.core.index.summarize import summarize_path
from intentus_tui.core.model import ExecutionSummary, summary_from_fields
from tests.factories import make_record, write_record


def _summary(tmp_path: Path) -> ExecutionSummary:
    write_record(tmp_path, make_record(execution_id="e1", intent="Résumé “Q3”"))
    return summarize_path(tmp_path / "e1.json")


def test_a_summary_is_built_by_keyword_only(tmp_path: Path) -> None:
    summary = _summary(tmp_path)
    values = [getattr(summary, f.name) for f in dataclasses.fields(summary)]
    with pytest.raises(TypeError):
        ExecutionSummary(*values)  # type: ignore[misc]


def test_a_summary_comes_back_from_json_as_the_same_frozen_summary(tmp_path: Path) -> None:
    summary = _summary(tmp_path)
    for travelled in (orjson.loads(orjson.dumps(summary)), json.loads(orjson.dumps(summary))):
        rebuilt = summary_from_fields(travelled)
        assert rebuilt == summary and type(rebuilt) is ExecutionSummary
        assert type(rebuilt.state) is type(summary.state)
        with pytest.raises(dataclasses.FrozenInstanceError):
            rebuilt.intent = "changed"  # type: ignore[misc]


def test_a_summary_missing_a_field_or_with_an_unknown_one_is_refused(tmp_path: Path) -> None:
    fields = orjson.loads(orjson.dumps(_summary(tmp_path)))
    del fields["intent"]
    with pytest.raises(TypeError):
        summary_from_fields(fields)
    with pytest.raises(TypeError):
        summary_from_fields({**orjson.loads(orjson.dumps(_summary(tmp_path))), "extra": 1})


def test_a_table_of_summaries_comes_back_by_its_header_in_any_order(tmp_path: Path) -> None:
    from intentus_tui.core.model import FIELD_NAMES, summaries_from_table

    summary = _summary(tmp_path)
    names = list(reversed(FIELD_NAMES))  # the header is the only order there is
    row = [getattr(summary, name) for name in names]
    (rebuilt,) = summaries_from_table(names, orjson.loads(orjson.dumps([row])))
    assert rebuilt == summary and type(rebuilt.hash_status) is type(summary.hash_status)
    with pytest.raises(TypeError):
        summaries_from_table(names[:-1], [row[:-1]])  # no "key": refused


def test_the_fast_makers_make_the_same_frozen_summary_as_the_class(tmp_path: Path) -> None:
    from intentus_tui.core.model import FIELD_NAMES, new_summary, summary_maker

    summary = _summary(tmp_path)
    values = {name: getattr(summary, name) for name in FIELD_NAMES}
    by_keyword = new_summary(**values)
    names = list(reversed(FIELD_NAMES))
    positional = summary_maker(names[:-2], fixed={n: values[n] for n in names[-2:]})
    by_header = positional(*[values[n] for n in names[:-2]])
    for made in (by_keyword, by_header):
        assert made == summary == ExecutionSummary(**values)
        assert type(made) is ExecutionSummary
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.intent = "changed"  # type: ignore[misc]
    with pytest.raises(TypeError):
        new_summary(*values.values())
    with pytest.raises(TypeError):
        summary_maker(names[:-2])  # two fields without a value or a default


def test_a_table_row_of_the_wrong_length_is_refused(tmp_path: Path) -> None:
    from intentus_tui.core.model import FIELD_NAMES, summaries_from_table

    summary = _summary(tmp_path)
    row = [getattr(summary, name) for name in FIELD_NAMES]
    with pytest.raises(ValueError):
        summaries_from_table(FIELD_NAMES, [row[:-1]])
    with pytest.raises(KeyError):
        summaries_from_table(FIELD_NAMES, [[*row[:6], "no such state", *row[7:]]])
