from __future__ import annotations

from intentus_tui.core.records.load import ExecutionRecord, LoadStatus
from intentus_tui.core.records.timeline import ExecutionState, build_timeline
from tests.factories import make_record


def test_fallback_chain_and_attempts() -> None:
    data = make_record(
        agents=(("fb-primary", "error"), ("fb-secondary", "error"), ("fb-tertiary", "ok"))
    )
    timeline = build_timeline(ExecutionRecord.from_json(data))
    assert timeline.chain == "fb-primary ✗ → fb-secondary ✗ → fb-tertiary ✓"
    assert timeline.state is ExecutionState.COMPLETED
    assert [a.exception for a in timeline.attempts] == [
        "fb-primary failed",
        "fb-secondary failed",
        None,
    ]
    assert [(f.from_agent, f.to_agent) for f in timeline.fallbacks] == [
        ("fb-primary", "fb-secondary"),
        ("fb-secondary", "fb-tertiary"),
    ]
    assert timeline.final_status == "ok"
    assert [r.is_fallback for r in timeline.rows].count(True) == 2


def test_crash_mid_attempt_marks_the_attempt_in_flight() -> None:
    data = make_record(agents=(("a", "error"), ("b", "ok")), final_status=None)
    data["events"] = data["events"][:-1]  # b started, never ended
    data["header"].update(replayable=False, replayableReason="execution_incomplete")
    timeline = build_timeline(ExecutionRecord.from_json(data))
    assert timeline.state is ExecutionState.INCOMPLETE
    assert [a.agent for a in timeline.in_flight] == ["b"]
    assert timeline.last_event is not None and timeline.last_event.type == "AGENT_ATTEMPT_START"
    assert timeline.rows[-1].in_flight and timeline.chain == "a ✗ → b …"


def test_documented_payload_fields_and_unknown_events() -> None:
    data = make_record()
    data["events"][2]["payload"]["latency_ms"] = 42
    data["events"].insert(
        3, {"seq": 99, "type": "MODEL_CALL", "payload": {"model": "m1", "tokens": 7}}
    )
    data["events"].append(
        {
            "seq": 100,
            "type": "FALLBACK_TRIGGERED",
            "payload": {"from_agent": "x", "to_agent": "y", "reason": "timeout"},
        }
    )
    timeline = build_timeline(ExecutionRecord.from_json(data))
    assert timeline.attempts[0].latency_ms == 42
    end = next(r for r in timeline.rows if r.type == "AGENT_ATTEMPT_END")
    assert "42ms" in end.summary  # one word, as the post-mortem and the times say it
    model = next(r for r in timeline.rows if r.type == "MODEL_CALL")
    assert "m1" in model.summary
    assert (
        timeline.fallbacks[-1].reason == "timeout"
        and timeline.rows[-1].summary == "x → y  (timeout)"
    )


def test_hostile_strings_are_sanitized_in_rows() -> None:
    data = make_record(agents=(("evil\x1b[2J\u202eagent", "ok"),))
    timeline = build_timeline(ExecutionRecord.from_json(data))
    text = " ".join(r.summary + r.agent for r in timeline.rows) + timeline.chain
    assert "\x1b" not in text and "\u202e" not in text and "␛[2J" in text


def test_salvaged_state_is_corrupted() -> None:
    timeline = build_timeline(ExecutionRecord.from_json(make_record()), LoadStatus.SALVAGED)
    assert timeline.state is ExecutionState.CORRUPTED
