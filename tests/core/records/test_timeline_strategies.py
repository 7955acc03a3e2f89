"""Attempts drawn by the strategy that ran them, on records written by the real 1.3.0:
a fallback run is a chain, a broadcast or parallel run a fan-out, a direct run one attempt.
Both halves of the summary lane draw the list's chain exactly as the timeline does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from intentus_tui.core.detail import detail_to_json, load_detail
from intentus_tui.core.index.summarize import summarize_file, summarize_general, summarize_parsed
from intentus_tui.core.records.load import load_record_bytes, load_record_file
from intentus_tui.core.records.timeline import Timeline, timeline_of
from tests.intentusnet_strategies import StrategyWorld, build_strategy_world


@pytest.fixture(scope="module")
def strategies(tmp_path_factory: pytest.TempPathFactory) -> StrategyWorld:
    return build_strategy_world(tmp_path_factory.mktemp("strategies"))


def _path(world: StrategyWorld, execution_id: str) -> Path:
    return world.records_dir / f"{execution_id}.json"


def _timeline(world: StrategyWorld, execution_id: str) -> Timeline:
    timeline = timeline_of(load_record_file(_path(world, execution_id)))
    assert timeline is not None
    return timeline


def _raw(world: StrategyWorld, execution_id: str) -> dict:
    return json.loads(_path(world, execution_id).read_text())


def test_broadcast_is_a_fan_out_answered_by_the_last_success(strategies: StrategyWorld) -> None:
    timeline = _timeline(strategies, strategies.broadcast)
    assert timeline.strategy == "BROADCAST" and timeline.fan_out == "broadcast"
    assert timeline.chain == "⇉ primary ✗ | replica ✓ | cache ✗ | cold ✓"
    assert "→" not in timeline.chain
    # What the router really chose, from its own record.
    decision = _raw(strategies, strategies.broadcast)["routerDecision"]
    assert decision["reason"] == "broadcast last success"
    assert timeline.answered_by is not None and timeline.answered_by.agent == decision["agent"]
    assert timeline.answered_by.number == 4  # cold, the last of two successes
    assert timeline.shape_note() == "broadcast: 4 branches, no fallback chain"
    assert timeline.fallback_indexes == ()


def test_broadcast_rows_hang_each_branch_off_the_routing(strategies: StrategyWorld) -> None:
    timeline = _timeline(strategies, strategies.broadcast)
    summaries = [(row.type, row.summary) for row in timeline.rows]
    assert summaries[:9] == [
        ("INTENT_RECEIVED", "intent Summarize  ⇉ broadcast to 4 branches"),
        ("AGENT_ATTEMPT_START", "├─⇉ primary  branch 1/4"),
        ("AGENT_ATTEMPT_END", "│  └ ✗ primary  error"),
        ("AGENT_ATTEMPT_START", "├─⇉ replica  branch 2/4"),
        ("AGENT_ATTEMPT_END", "│  └ ✓ replica  ok"),
        ("AGENT_ATTEMPT_START", "├─⇉ cache  branch 3/4"),
        ("AGENT_ATTEMPT_END", "│  └ ✗ cache  error"),
        ("AGENT_ATTEMPT_START", "└─⇉ cold  branch 4/4"),
        ("AGENT_ATTEMPT_END", "   └ ✓ cold  ok  ← answer"),
    ]
    assert summaries[9] == (
        "ROUTER_DECISION",
        "cold  (broadcast last success)  · answer from branch 4 of 4",
    )
    # Jumping by attempt lands on each branch's start.
    assert [timeline.rows[i].summary[:3] for i in timeline.attempt_indexes] == [
        "├─⇉",
        "├─⇉",
        "├─⇉",
        "└─⇉",
    ]


def test_parallel_is_a_fan_out_in_finishing_order_answered_by_the_first_success(
    strategies: StrategyWorld,
) -> None:
    timeline = _timeline(strategies, strategies.parallel)
    raw = _raw(strategies, strategies.parallel)
    assert raw["routerDecision"]["reason"] == "parallel first success"
    # 1.3.0 records a branch when it finishes and stops at the first success: the fast
    # failures, then replica; cold (slower) ran but is not in the record.
    recorded = [e["payload"]["agent"] for e in raw["events"] if e["type"] == "AGENT_ATTEMPT_END"]
    assert recorded == ["primary", "cache", "replica"]
    assert timeline.fan_out == "parallel"
    assert timeline.chain == "⇉ primary ✗ | cache ✗ | replica ✓"
    assert timeline.answered_by is not None and timeline.answered_by.agent == "replica"
    assert timeline.shape_note() == "parallel: 3 branches, no fallback chain"


def test_fallback_stays_a_chain_and_direct_is_one_attempt(strategies: StrategyWorld) -> None:
    fallback = _timeline(strategies, strategies.fallback)
    assert fallback.fan_out is None
    assert fallback.chain == "primary ✗ → replica ✓"
    assert [fallback.rows[i].type for i in fallback.fallback_indexes] == ["FALLBACK_TRIGGERED"]
    assert [r.summary for r in fallback.rows][1] == "primary  strategy FALLBACK  attempt 0"
    direct = _timeline(strategies, strategies.direct)
    assert direct.fan_out is None and direct.chain == "replica ✓"
    assert direct.shape_note() == "direct: 1 attempt, no fallback chain"
    assert direct.attempt_indexes == (1,)


def test_both_summary_halves_draw_the_chain_as_the_timeline_does(
    strategies: StrategyWorld,
) -> None:
    for execution_id in (
        strategies.broadcast,
        strategies.parallel,
        strategies.fallback,
        strategies.direct,
    ):
        path = _path(strategies, execution_id)
        result = load_record_bytes(path, path.read_bytes())
        assert result.record is not None
        general = summarize_general(result)
        for parsed in (True, False):
            fast = summarize_parsed(
                path.name, result.record.raw, execution_id, result.size, 0, parsed=parsed
            )
            assert fast is not None and fast.chain == general.chain
        assert summarize_file(str(path))[1].chain == general.chain
        assert general.chain == _timeline(strategies, execution_id).chain


def test_a_single_branch_broadcast_is_still_drawn_as_a_fan_out(
    strategies: StrategyWorld,
) -> None:
    """One branch left (the others cut out of a real record): still a broadcast, in both
    halves, and the timeline says so."""
    raw = _raw(strategies, strategies.broadcast)
    raw["events"] = [
        e
        for e in raw["events"]
        if e["type"] not in ("AGENT_ATTEMPT_START", "AGENT_ATTEMPT_END")
        or e["payload"]["agent"] == "cold"
    ]
    for seq, event in enumerate(raw["events"], start=1):
        event["seq"] = seq
    data = json.dumps(raw).encode()
    result = load_record_bytes(Path(f"{strategies.broadcast}.json"), data)
    assert result.record is not None
    fast = summarize_parsed(result.path.name, raw, strategies.broadcast, len(data), 0)
    assert fast is not None
    assert fast.chain == summarize_general(result).chain == "⇉ cold ✓"


def test_the_detail_document_names_the_shape_and_the_answer(strategies: StrategyWorld) -> None:
    shapes = {}
    for name in ("broadcast", "parallel", "fallback", "direct"):
        doc = detail_to_json(load_detail(_path(strategies, getattr(strategies, name))))
        shapes[name] = (doc["attempt_shape"], doc["answered_by"])
    assert shapes == {
        "broadcast": ("fan-out", {"attempt": 4, "agent": "cold"}),
        "parallel": ("fan-out", {"attempt": 3, "agent": "replica"}),
        "fallback": ("chain", {"attempt": 2, "agent": "replica"}),
        "direct": ("single", {"attempt": 1, "agent": "replica"}),
    }
