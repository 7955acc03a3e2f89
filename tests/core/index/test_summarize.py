"""The one summary lane: its orjson half answers exactly as the general half would.

``summarize_parsed`` (a record as ``orjson.loads`` returned it, one pass over plain
dicts) must either step aside (None) or agree with ``summarize_general`` field for field;
``summarize_file``, the lane's entry for a path (the first scan and live updates alike),
must give the general half's summary for every file.
"""

from __future__ import annotations

import json
from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.index.summarize import (
    load_for_index,
    summarize,
    summarize_file,
    summarize_general,
    summarize_parsed,
)
from intentus_tui.core.model import ExecutionState, LoadStatus
from intentus_tui.core.records.hashing import runtime_envelope_hash
from intentus_tui.core.records.load import load_record_bytes
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

# As 1.3.0 writes them, other spellings, and values that must not be taken for a fan-out.
recorded_strategies = st.sampled_from(
    [
        *("BROADCAST", "PARALLEL", "FALLBACK", "DIRECT", "broadcast", "Parallel", ""),
        *(None, 5, False, "BROAD\x1bCAST", "parallel\u202e", ["BROADCAST"], {"k": "PARALLEL"}),
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
    for event in record["events"]:  # the strategy each start recorded decides the shape
        if event["type"] == "AGENT_ATTEMPT_START" and draw(st.booleans()):
            event["payload"]["strategy"] = draw(recorded_strategies)
    for seq, event in enumerate(record["events"], start=1):
        event["seq"] = seq
    decision = record.get("routerDecision")
    if isinstance(decision, dict) and draw(st.booleans()):
        # The router gave up (1.3.0 names the strategy), or names an agent not tried.
        decision["agent"] = draw(st.sampled_from(["fallback", "FALLBACK", "zzz", None, 5, ""]))
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


def _definition(path: Path) -> tuple:
    result = load_for_index(path)
    return result.stamp, summarize_general(result)


@settings(max_examples=300, deadline=None, derandomize=True)
@given(record_files())
def test_a_file_is_summarized_as_the_general_half_defines(tmp_path_factory, record: dict) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("lane") / "e1.json"
    path.write_bytes(json.dumps(record).encode())
    assert summarize_file(str(path)) == _definition(path)


def test_every_hostile_file_is_summarized_as_the_general_half_defines(tmp_path: Path) -> None:
    corpus = build_corpus(tmp_path)
    taken = 0
    for path in corpus.record_paths():
        data = path.read_bytes() if path.is_file() and not path.is_symlink() else b""
        try:
            parsed = orjson.loads(data)
        except orjson.JSONDecodeError:
            parsed = None
        if type(parsed) is dict:
            stem = path.name.removesuffix(".json")
            taken += summarize_parsed(path.name, parsed, stem, len(data), 0) is not None
        assert summarize_file(str(path)) == _definition(path), path.name
    assert taken > 0  # the orjson half took some


@settings(max_examples=300, deadline=None, derandomize=True)
@given(records())
def test_the_orjson_half_agrees_with_the_general_half(record: dict) -> None:
    result = load_record_bytes(Path("e1.json"), json.dumps(record).encode())
    assert result.record is not None
    general = summarize_general(result)
    # A response in its event but null in the record contradicts itself: the general half says how.
    events = record.get("events") or []
    null_beside_event = record.get("finalResponse", {}) is None and any(
        isinstance(e, dict) and e.get("type") == "FINAL_RESPONSE" for e in events
    )
    for parsed in (True, False):
        fast = summarize_parsed("e1.json", result.record.raw, "e1", result.size, 0, parsed=parsed)
        assert fast == (None if null_beside_event else general)


def test_unusual_records_leave_the_orjson_half() -> None:
    for mutate in (
        lambda r: r["events"][1].update(seq=7),
        lambda r: r["events"][1].update(seq=True),
        lambda r: r["header"].update(replayable="yes"),
        lambda r: r["header"].update(executionId="other"),
        lambda r: r["events"][1]["payload"].update(agent=5),
        lambda r: r.update(finalResponse=[1]),
        lambda r: r.update(finalResponse=None),  # beside its FINAL_RESPONSE event
    ):
        record = json.loads(json.dumps(make_record(execution_id="e1")))
        mutate(record)
        assert summarize_parsed("e1.json", record, "e1", 1, 0) is None
        result = load_record_bytes(Path("e1.json"), json.dumps(record).encode())
        assert summarize(result) == summarize_general(result)


def test_a_record_cut_short_is_listed_as_corrupted_with_what_survived() -> None:
    record = make_record(execution_id="e1", agents=(("primäry", "error"), ("fallback", "ok")))
    data = json.dumps(record, indent=2, ensure_ascii=False).encode()
    cut = data[: data.index(b'"finalResponse"')]
    summary = summarize(load_record_bytes(Path("e1.json"), cut))
    assert summary.load_status is LoadStatus.SALVAGED
    assert summary.state is ExecutionState.CORRUPTED
    assert not summary.replayable and summary.replay_reason == "record_corrupted"
    assert summary.execution_id == "e1" and summary.attempts == 2
    assert "Damaged record" in summary.message


def _salvaged_both_ways(data: bytes) -> tuple[bool, bool]:
    """(did the orjson half take it, was it salvaged); asserts the lane agrees with the
    general half on the file ``data`` is."""
    result = load_record_bytes(Path("e1.json"), data)
    assert summarize(result) == summarize_general(result), data[-60:]
    salvaged = result.status is LoadStatus.SALVAGED
    taken = False
    if salvaged and result.record is not None:
        raw = result.record.raw
        fast = summarize_parsed("e1.json", raw, "e1", result.size, 0, damaged=result.message)
        taken = fast is not None
    return taken, salvaged


def test_every_cut_of_a_record_is_summarized_as_the_general_half_defines() -> None:
    """A record cut short at every byte (its salvaged sections, its events before the
    cut): the orjson half takes the well-formed ones, exactly as the general half says."""
    bad_hash = make_record(execution_id="e1", agents=(("a", "error"), ("b", "ok")))
    bad_hash["header"]["envelopeHash"] = "ab" * 32
    fan_out = make_record(execution_id="e1", agents=(("x", "ok"), ("y", "error")))
    for event in fan_out["events"]:
        if event["type"] == "AGENT_ATTEMPT_START":
            event["payload"]["strategy"] = "BROADCAST"
    gave_up = make_record(execution_id="e1", agents=(("a", "error"), ("b", "error")))
    gave_up["routerDecision"]["agent"] = "fallback"  # as 1.3.0 names a failed fallback run
    sources = [
        make_record(execution_id="e1", agents=(("primäry", "error"), ("fallback", "ok"))),
        gave_up,
        make_record(execution_id="e1", documented=True, intent="évil\x1b[2J ☃ \U0001f600"),
        make_record(execution_id="e1", final_status="error", replayable=False, reason="x"),
        make_record(execution_id="other", agents=(("a", "ok"),)),  # misnamed: the general half
        bad_hash,
        fan_out,
    ]
    taken = salvaged = 0
    for record in sources:
        for data in (
            json.dumps(record, indent=2, ensure_ascii=False).encode(),
            json.dumps(record, indent=2).encode(),
            json.dumps(record).encode(),
        ):
            # Every third byte, and at and after each structural one.
            structural = [i for i, b in enumerate(data) if b in b'{}[],:"']
            cuts = {*range(1, len(data), 3), *structural, *(i + 1 for i in structural)}
            for cut in sorted(cuts - {0, len(data)}):
                took, was_salvaged = _salvaged_both_ways(data[:cut])
                taken += took
                salvaged += was_salvaged
    assert taken > 2000 and salvaged > taken


@settings(max_examples=300, deadline=None, derandomize=True)
@given(records(), st.floats(0, 1), st.booleans())
def test_a_record_cut_anywhere_is_summarized_as_the_general_half_defines(
    record: dict, where: float, indented: bool
) -> None:
    data = json.dumps(record, indent=2 if indented else None, ensure_ascii=False).encode()
    _salvaged_both_ways(data[: int(len(data) * where)])
