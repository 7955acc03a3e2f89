"""The index's fast lanes give exactly the general path's summary.

``_summarize_well_formed`` (a parsed well-formed record) and ``_quick_row`` (a file read,
parsed by orjson and summarized in one pass, hash checked without a type walk) must each
either step aside (None) or agree with ``summarize_general`` field for field.
"""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.index.directory import (
    _FIELDS,
    _quick_row,
    _summarize_chunk,
    _summarize_salvaged,
    _summarize_well_formed,
    summarize,
    summarize_general,
)
from intentus_tui.core.records.hashing import runtime_envelope_hash
from intentus_tui.core.records.load import (
    LoadStatus,
    has_long_digit_run,
    load_record_bytes,
    load_record_file,
)
from tests.factories import make_record
from tests.hostile.corpus import build_corpus

agents = st.sampled_from(["a", "b", "fb-primary", "évil\x1b[2J", "[b]x[/b]", ""])
statuses = st.sampled_from(["ok", "error", "success", "FAILED", "in_flight", "weird", None])
kinds = st.sampled_from(
    [
        "AGENT_ATTEMPT_START",
        "AGENT_ATTEMPT_END",
        "FALLBACK_TRIGGERED",
        "MODEL_CALL",
        "ROUTER_DECISION",
    ]
)


@st.composite
def records(draw: st.DrawFn) -> dict:
    record = make_record(
        execution_id="e1",
        agents=tuple(
            draw(
                st.lists(
                    st.tuples(agents, st.sampled_from(["ok", "error"])), min_size=1, max_size=4
                )
            )
        ),
        final_status=draw(st.sampled_from(["success", "error", None])),
        replayable=draw(st.booleans()),
        reason=draw(st.sampled_from([None, "manually_invalidated", "recording_failure"])),
        documented=draw(st.booleans()),
    )
    record = json.loads(json.dumps(record))
    extra = draw(st.lists(st.tuples(kinds, agents, statuses), max_size=4))
    for kind, agent, status in extra:  # shuffle in odd events: unmatched ends, unknown types
        payload = {"agent": agent, "status": status} if status is not None else {"agent": agent}
        record["events"].insert(
            draw(st.integers(0, len(record["events"]))),
            {"seq": 0, "type": kind, "payload": payload},
        )
    for seq, event in enumerate(record["events"], start=1):
        event["seq"] = seq
    if draw(st.booleans()):
        record["finalResponse"] = draw(st.sampled_from([{}, None, record["finalResponse"]]))
    if draw(st.booleans()):
        record["envelope"]["payload"] = {"text": draw(st.text(max_size=20))}
    return record


envelope_values = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**63), 2**64 - 1),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(alphabet=st.sampled_from('aé\\"x\x7f\x1b😀 U:,0.e-5'), max_size=6),
    ),
    lambda children: st.one_of(
        st.lists(children, max_size=3), st.dictionaries(st.text(max_size=3), children, max_size=3)
    ),
    max_leaves=8,
)


@st.composite
def record_files(draw: st.DrawFn) -> dict:
    """Records as files: odd envelopes, hashes in either form, some stale (a mismatch)."""
    record = draw(records())
    record["envelope"]["payload"] = draw(envelope_values)
    stored = runtime_envelope_hash(record["envelope"])
    record["header"]["envelopeHash"] = draw(
        st.sampled_from([stored, stored.upper(), "sha256:" + stored, "ab" * 32, "not-a-hash"])
    )
    return record


def _general_row(path: Path) -> tuple:
    result = load_record_file(path)
    summary = summarize_general(result)
    return result.stamp, tuple(getattr(summary, f) for f in _FIELDS)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(record_files())
def test_quick_lane_equals_general_path(tmp_path_factory, record: dict) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("quick") / "e1.json"
    data = json.dumps(record).encode()
    path.write_bytes(data)
    quick = _quick_row(str(path))
    # 19+ digits in a row could be an integer orjson would round: the general path reads it.
    assert quick is not None or has_long_digit_run(data)
    assert quick in (None, _general_row(path))


def test_quick_lane_steps_aside_or_agrees_on_every_hostile_file(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path)
    taken = 0
    for path in corpus.record_paths():
        quick = _quick_row(str(path))
        if quick is not None:
            taken += 1
            assert quick == _general_row(path), path.name
        ((stamp, values, _line),) = _summarize_chunk([str(path)])
        assert (stamp, values) == (quick or _general_row(path)), path.name
    assert taken > 0


@settings(max_examples=300, deadline=None, derandomize=True)
@given(records())
def test_fast_path_equals_general_path(record: dict) -> None:
    result = load_record_bytes(Path("e1.json"), json.dumps(record).encode())
    fast = _summarize_well_formed(result)
    assert fast is not None
    assert fast == summarize_general(result)


def test_unusual_records_leave_the_fast_path() -> None:
    for mutate in (
        lambda r: r["events"][1].update(seq=7),
        lambda r: r["header"].update(replayable="yes"),
        lambda r: r["header"].update(executionId="other"),
        lambda r: r["events"][1]["payload"].update(agent=5),
        lambda r: r.update(finalResponse=[1]),
    ):
        record = json.loads(json.dumps(make_record(execution_id="e1")))
        mutate(record)
        assert (
            _summarize_well_formed(load_record_bytes(Path("e1.json"), json.dumps(record).encode()))
            is None
        )


def test_summaries_rebuilt_from_values_are_the_same_frozen_summaries(tmp_path: Path) -> None:
    import dataclasses

    import pytest

    from intentus_tui.core.index.directory import _summary_of, _values_of

    path = tmp_path / "e1.json"
    path.write_text(json.dumps(make_record(execution_id="e1")))
    summary = summarize_general(load_record_file(path))
    rebuilt = _summary_of(json.loads(json.dumps(_values_of(summary))))  # as from a helper
    assert rebuilt == summary and type(rebuilt) is type(summary)
    with pytest.raises(dataclasses.FrozenInstanceError):
        rebuilt.intent = "changed"  # type: ignore[misc]


def _cut_everywhere(record: dict, step: int) -> tuple[int, int]:
    """Summaries of ``record`` cut short at every ``step``-th byte: the salvaged lane must
    step aside or agree with the general path. Returns (cuts salvaged, cuts it took)."""
    data = json.dumps(record, indent=2, ensure_ascii=False).encode()
    salvaged = taken = 0
    for cut in range(1, len(data), step):
        result = load_record_bytes(Path("e1.json"), data[:cut])
        if result.status is not LoadStatus.SALVAGED:
            continue
        salvaged += 1
        fast = _summarize_salvaged(result)
        if fast is not None:
            taken += 1
            assert fast == summarize_general(result), cut
        assert summarize(result) == (fast or summarize_general(result))
    return salvaged, taken


def test_salvaged_lane_equals_general_path_at_every_cut() -> None:
    # Cut anywhere in the events or after them: recovered sections well-formed, events
    # partial or whole; cut earlier: the general path explains what is missing.
    for documented in (False, True):
        record = make_record(
            execution_id="e1",
            agents=(("primäry", "error"), ("fallback", "ok")),
            intent="Résumé “Q3”",
            documented=documented,
        )
        salvaged, taken = _cut_everywhere(record, step=1)
        assert salvaged > 100 and taken > salvaged // 3


@settings(max_examples=40, deadline=None, derandomize=True)
@given(records(), st.integers(7, 23))
def test_salvaged_lane_equals_general_path_for_odd_records(record: dict, step: int) -> None:
    _cut_everywhere(record, step)
