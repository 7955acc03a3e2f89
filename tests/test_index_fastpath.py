"""The index's fast path for well-formed records gives exactly the general path's summary."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.formats import load_record_bytes
from intentus_tui.core.index import _summarize_well_formed, summarize_general
from tests.factories import make_record

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
