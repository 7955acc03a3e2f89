"""Two event streams aligned event by event: who did what decides which events pair up."""

from __future__ import annotations

from intentus_tui.core.compare.events import align_events, record_event_key
from tests.factories import make_record


def test_events_of_different_types_face_gaps_and_are_never_one_changed_event() -> None:
    """A fallback run against a direct one: A's fallback and second attempt are A's alone;
    the two routers' decisions (for different agents) are one pair whose agent differs;
    A's fallback is never paired with B's decision as if one event had changed its type."""
    a = make_record(execution_id="a", agents=(("agent-a", "error"), ("agent-b", "ok")))["events"]
    b = make_record(execution_id="b", agents=(("agent-a", "ok"),))["events"]
    pairs = align_events(a, b, record_event_key)
    for i, j in pairs:
        if i is not None and j is not None:
            assert a[i]["type"] == b[j]["type"], (a[i], b[j])
    assert sorted(i for i, _ in pairs if i is not None) == list(range(len(a)))
    assert sorted(j for _, j in pairs if j is not None) == list(range(len(b)))
    assert [i for i, _ in pairs if i is not None] == sorted(i for i, _ in pairs if i is not None)
    assert [j for _, j in pairs if j is not None] == sorted(j for _, j in pairs if j is not None)
    only_a = [a[i]["type"] for i, j in pairs if j is None and i is not None]
    only_b = [b[j]["type"] for i, j in pairs if i is None and j is not None]
    assert only_a == ["FALLBACK_TRIGGERED", "AGENT_ATTEMPT_START", "AGENT_ATTEMPT_END"]
    assert only_b == []
    decisions = [(i, j) for i, j in pairs if i is not None and a[i]["type"] == "ROUTER_DECISION"]
    assert decisions == [(6, 3)]  # agent-b's decision and agent-a's: the step went elsewhere


def test_a_second_attempt_by_another_agent_pairs_step_by_step() -> None:
    a = make_record(execution_id="a", agents=(("p", "error"), ("q", "ok")))["events"]
    b = make_record(execution_id="b", agents=(("p", "error"), ("r", "ok")))["events"]
    assert align_events(a, b, record_event_key) == [(k, k) for k in range(len(a))]


def test_an_event_changed_in_place_stays_one_pair() -> None:
    a = make_record(execution_id="a", agents=(("agent-a", "error"), ("agent-b", "ok")))["events"]
    b = [dict(e) for e in a]
    b[2] = {**b[2], "payload": {**b[2]["payload"], "exception": "timed out"}}
    assert align_events(a, b, record_event_key) == [(k, k) for k in range(len(a))]
