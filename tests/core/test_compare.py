"""Record against record: section diffs, the summary, and the first divergence."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from intentus_tui.core.compare import (
    DEFAULT_RULES,
    agent_path,
    compare_records,
    find_divergence,
    first_divergence,
    path_text,
)
from intentus_tui.core.compare.divergence import event_body, event_seq, event_type
from intentus_tui.core.records.load import load_record_file
from intentus_tui.core.verist.diff import DiffError
from intentus_tui.core.verist.format import format_diff
from intentus_tui.core.verist.missing import MISSING
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld

FALLBACK = (("agent-a", "error"), ("agent-b", "ok"))


def _load(tmp_path: Path, record: dict[str, Any]) -> Any:
    result = load_record_file(write_record(tmp_path, record))
    assert result.record is not None
    return result.record.raw


def _renumber(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**e, "seq": i} for i, e in enumerate(events, start=1)]


def test_two_executions_of_the_same_thing_are_equal(tmp_path: Path) -> None:
    a = _load(tmp_path, make_record(agents=FALLBACK))
    b = _load(tmp_path, make_record(agents=FALLBACK, created="2026-02-01T00:00:00+00:00"))
    # Different ids and creation times (the header) do not make them different executions
    # once the default rules hide them; the router decision's timestamp is set the same here.
    b["routerDecision"]["timestamp"] = a["routerDecision"]["timestamp"]
    for event in b["events"]:
        if event["type"] == "ROUTER_DECISION":
            event["payload"]["timestamp"] = a["routerDecision"]["timestamp"]
        if event["type"] == "FINAL_RESPONSE":
            event["payload"]["metadata"]["timestamp"] = a["routerDecision"]["timestamp"]
    b["finalResponse"]["metadata"]["timestamp"] = a["routerDecision"]["timestamp"]
    every = compare_records(a, b)
    assert {path_text(e) for e in every.entries} == {"header.executionId", "header.createdUtcIso"}
    comparison = compare_records(a, b, ignore=DEFAULT_RULES)
    assert comparison.equal and comparison.entries == () and comparison.hidden == 2
    assert comparison.first_divergence is None
    summary = comparison.summary
    assert summary.same_intent and summary.same_agent_path and summary.same_response
    assert summary.same_envelope_hash is True
    assert summary.agent_path_a == ("agent-a", "agent-b")
    assert format_diff(comparison.result) == "(no changes)"


def test_a_different_agent_path(tmp_path: Path) -> None:
    a = _load(tmp_path, make_record(agents=(("agent-a", "ok"),)))
    b = _load(tmp_path, make_record(agents=FALLBACK))
    comparison = compare_records(a, b)
    assert not comparison.equal
    assert not comparison.summary.same_agent_path
    assert comparison.summary.agent_path_a == ("agent-a",)
    assert comparison.summary.agent_path_b == ("agent-a", "agent-b")
    assert comparison.summary.same_intent
    divergence = comparison.first_divergence
    # INTENT_RECEIVED and the first AGENT_ATTEMPT_START agree; agent-a's end does not.
    assert divergence is not None and divergence.index == 2 and divergence.kind == "payload"
    assert divergence.seq_a == divergence.seq_b == 3
    assert divergence.payload_diff is not None
    paths = {e.path for e in divergence.payload_diff.entries}
    assert ("payload", "status") in paths and ("payload", "exception") in paths
    # The envelope's routing strategy changed too (direct vs fallback): reported path by path.
    assert ("envelope", "routing", "strategy") in {e.path for e in comparison.entries}
    assert comparison.router_decision.entries[0].path == ("agent",)


def test_payload_only_drift_in_one_event(tmp_path: Path) -> None:
    record = make_record(agents=FALLBACK)
    a = _load(tmp_path, record)
    drifted = copy.deepcopy(record)
    drifted["events"][2]["payload"]["exception"] = "agent-a timed out"
    b = _load(tmp_path, drifted)
    comparison = compare_records(a, b)
    assert not comparison.equal
    summary = comparison.summary
    assert summary.same_agent_path and summary.same_response and summary.same_intent
    divergence = comparison.first_divergence
    assert divergence is not None and divergence.kind == "payload" and divergence.index == 2
    assert divergence.type_a == divergence.type_b == "AGENT_ATTEMPT_END"
    assert divergence.payload_diff is not None
    [entry] = divergence.payload_diff.entries
    assert entry.path == ("payload", "exception")
    assert (entry.before, entry.after) == ("agent-a failed", "agent-a timed out")
    # Events are aligned event by event; the path names the event by its position.
    assert [e.path for e in comparison.entries] == [("events", 2, "payload", "exception")]
    assert "events[2] (seq 3 / 3)" in divergence.describe()


def test_a_shorter_stream_diverges_by_length(tmp_path: Path) -> None:
    a = _load(tmp_path, make_record(agents=FALLBACK))
    crashed = make_record(agents=FALLBACK, final_status=None)  # no decision, no response
    b = _load(tmp_path, crashed)
    comparison = compare_records(a, b)
    divergence = comparison.first_divergence
    assert divergence is not None and divergence.kind == "length"
    assert divergence.index == len(b["events"])
    assert divergence.event_b is None and divergence.type_a == "ROUTER_DECISION"
    assert "B ends" in divergence.describe()
    assert not comparison.summary.same_response
    removed = [e for e in comparison.events.entries if e.kind == "removed"]
    assert len(removed) == 2


def test_an_inserted_event_diverges_as_only_in_b(tmp_path: Path) -> None:
    record = make_record(agents=(("agent-a", "ok"),))
    a = _load(tmp_path, record)
    events = copy.deepcopy(record["events"])
    events.insert(2, {"type": "MODEL_CALL", "payload": {"model": "m"}})
    b = _load(tmp_path, {**record, "events": _renumber(events)})
    comparison = compare_records(a, b)
    divergence = comparison.first_divergence
    # Named for what it is, where the comparison's timeline shows the gap: not as A's
    # AGENT_ATTEMPT_END turned into a MODEL_CALL.
    assert divergence is not None and divergence.kind == "only_b" and divergence.index == 2
    assert (divergence.type_a, divergence.type_b) == (None, "MODEL_CALL")
    assert divergence.event_a is None and divergence.seq_b == 3
    assert divergence.describe() == "events[2] (seq - / 3): only in B (MODEL_CALL)"
    # Events are aligned event by event (with or without ``aligned``): one insertion, not
    # every later event changed by its shifted seq.
    for result in (comparison, compare_records(a, b, aligned=True)):
        assert [(e.path, e.kind) for e in result.events.entries] == [((2,), "added")]
        inserted = {"seq": 3, "type": "MODEL_CALL", "payload": {"model": "m"}}
        assert result.events.entries[0].after == inserted


def test_envelope_hash_summary(tmp_path: Path) -> None:
    a = _load(tmp_path, make_record())
    b = copy.deepcopy(a)
    b["header"]["envelopeHash"] = "0" * 64
    assert compare_records(a, b).summary.same_envelope_hash is False
    del b["header"]["envelopeHash"]
    assert compare_records(a, b).summary.same_envelope_hash is None
    documented = copy.deepcopy(a)
    documented["header"]["envelopeHash"] = "sha256:" + a["header"]["envelopeHash"].upper()
    assert compare_records(a, documented).summary.same_envelope_hash is True


def test_a_different_intent(tmp_path: Path) -> None:
    a = _load(tmp_path, make_record(intent="Summarize"))
    b = _load(tmp_path, make_record(intent="Translate"))
    summary = compare_records(a, b).summary
    assert not summary.same_intent
    assert (summary.intent_a, summary.intent_b) == ("Summarize", "Translate")


def test_user_key_by_reshapes_arrays_before_the_diff(tmp_path: Path) -> None:
    record = make_record(agents=FALLBACK)
    a = _load(tmp_path, record)
    b = copy.deepcopy(a)
    b["envelope"]["metadata"]["identityChain"] = [{"id": "y"}, {"id": "x"}]
    a["envelope"]["metadata"]["identityChain"] = [{"id": "x"}, {"id": "y"}]
    assert not compare_records(a, b).equal
    keyed = compare_records(a, b, key_by_paths={"envelope.metadata.identityChain": "id"})
    assert keyed.equal
    with pytest.raises(DiffError, match="duplicate key"):
        compare_records(a, b, key_by_paths={"events": "type"})


@pytest.mark.parametrize(
    "broken",
    [
        None,
        [],
        "a string",
        {},
        {"events": "not a list"},
        {"events": [1, None, "x", {"seq": "one", "type": 7}]},
        {"events": [{"seq": 1, "type": "INTENT_RECEIVED"}, {"seq": 1, "type": "X"}]},
        {"envelope": "flat", "routerDecision": 5, "finalResponse": [1]},
        {"header": "nope", "envelope": {"intent": "Summarize"}},
    ],
)
def test_malformed_records_never_raise(tmp_path: Path, broken: Any) -> None:
    good = _load(tmp_path, make_record())
    for a, b in ((good, broken), (broken, good), (broken, broken)):
        comparison = compare_records(a, b)
        assert isinstance(comparison.equal, bool)
        assert isinstance(comparison.summary.same_agent_path, bool)
        comparison.first_divergence  # noqa: B018 - computed, must not raise
        format_diff(comparison.result)
    assert compare_records(broken, copy.deepcopy(broken)).equal


def test_a_missing_section_is_reported_as_removed(tmp_path: Path) -> None:
    a = _load(tmp_path, make_record())
    b = copy.deepcopy(a)
    del b["finalResponse"]
    comparison = compare_records(a, b)
    [entry] = comparison.final_response.entries
    assert entry.path == () and entry.after is MISSING and entry.kind == "removed"
    assert comparison.entries[-1].path == ("finalResponse",)


def test_an_event_missing_mid_stream_diverges_as_only_in_a() -> None:
    events = _renumber(copy.deepcopy(make_record(agents=FALLBACK)["events"]))
    fewer = _renumber([e for n, e in enumerate(events) if n != 2])
    divergence = first_divergence(events, fewer)
    assert divergence is not None and divergence.kind == "only_a" and divergence.index == 2
    assert divergence.type_a == events[2]["type"] and divergence.event_b is None
    assert divergence.describe().startswith("events[2] (seq 3 / -): only in A (")
    # Position by position (no alignment), the same streams part by type from there on.
    positional = find_divergence(
        events, fewer, type_of=event_type, body_of=event_body, seq_of=event_seq
    )
    assert positional is not None and positional.kind == "type" and positional.index == 2
    # At the end of the other stream it is still a difference in length.
    ended = first_divergence(events, events[:-1])
    assert ended is not None and ended.kind == "length" and "B ends" in ended.describe()


def test_first_divergence_and_agent_path_helpers() -> None:
    record = make_record(agents=FALLBACK)
    assert agent_path(record) == ("agent-a", "agent-b")
    assert first_divergence(record["events"], record["events"]) is None
    assert first_divergence("junk", []) is None
    renumbered = [{**e, "seq": e["seq"] + 10} for e in record["events"]]
    assert first_divergence(record["events"], renumbered) is None  # seq is not compared


_json = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=20,
)
_record_like = st.fixed_dictionaries(
    {},
    optional={
        "header": _json,
        "envelope": _json,
        "routerDecision": _json,
        "events": st.lists(
            st.fixed_dictionaries({}, optional={"seq": _json, "type": _json, "payload": _json}),
            max_size=5,
        )
        | _json,
        "finalResponse": _json,
    },
)


@settings(max_examples=150, deadline=None)
@given(_record_like, _record_like)
def test_any_pair_of_record_like_values_compares_without_raising(a: Any, b: Any) -> None:
    comparison = compare_records(a, b)
    assert compare_records(a, copy.deepcopy(a)).first_divergence is None
    # The combined entries are exactly the section entries, prefixed.
    assert len(comparison.entries) == sum(
        len(r.entries)
        for r in (
            comparison.header,
            comparison.envelope,
            comparison.router_decision,
            comparison.events,
            comparison.final_response,
        )
    )
    if comparison.equal:
        assert comparison.summary.same_response and comparison.summary.same_intent


# --------------------------------------------------------------------------- operands


def test_file_operand_reads_records_and_snapshots_and_names_what_it_cannot(
    tmp_path: Path,
) -> None:
    from intentus_tui.core.compare import CompareError, compare, file_operand
    from intentus_tui.core.verist.snapshot import save_snapshot, snapshot_from_record

    record = make_record(execution_id="exec-op")
    record_path = write_record(tmp_path / "records", record)
    snapshot_path = save_snapshot(snapshot_from_record(record), tmp_path / "pinned.json")
    assert file_operand("r", record_path).kind == "record"
    assert file_operand("s", snapshot_path).kind == "snapshot"
    # Asked for a snapshot file, a record is still compared as a record.
    assert file_operand("r", record_path, prefer="snapshot").kind == "record"
    # A record against its own snapshot: Verist's comparison, nothing differs.
    same = compare(file_operand("r", record_path), file_operand("s", snapshot_path))
    assert same.compared == "snapshots" and same.equal and same.entries == ()

    junk = tmp_path / "junk.json"
    junk.write_text("[1, 2", "utf-8")
    # Asked for a snapshot, a file that is no JSON is said as it is said of a record (it
    # was "Invalid JSON in File …"): as ``intentus-tui diff`` says it.
    with pytest.raises(CompareError, match="junk: Not a readable record"):
        file_operand("junk", junk, prefer="snapshot")
    with pytest.raises(CompareError, match="junk: Not a readable record"):
        file_operand("junk", junk)
    with pytest.raises(CompareError, match=r"^no such file: nope$"):
        file_operand("nope", tmp_path / "nope.json", prefer="snapshot")
    with pytest.raises(CompareError, match="is a directory"):
        file_operand("dir", tmp_path)


def test_a_run_cannot_be_compared_with_a_record(tmp_path: Path) -> None:
    from intentus_tui.core.compare import CompareError, Operand, compare, record_operand

    record = record_operand("r", make_record())
    run = Operand("db#run", "run")
    with pytest.raises(CompareError, match="cannot compare an Active Graph run"):
        compare(record, run)


def test_a_write_ahead_log_given_as_a_file_to_compare_is_named_as_one(tmp_path: Path) -> None:
    # The D picker said "Invalid JSON in Snapshot file ...wal: Extra data" of a log typed in.
    from intentus_tui.core.compare import CompareError, file_operand
    from tests.core.wal.support import NAMES, write_incident_logs

    write_incident_logs(tmp_path / "wal")
    log = tmp_path / "wal" / f"{NAMES['clean']}.wal"
    for prefer in ("record", "snapshot"):
        with pytest.raises(CompareError, match="is a write-ahead log, not a record"):
            file_operand(log.name, log, prefer=prefer)  # type: ignore[arg-type]


def test_a_file_that_is_no_text_is_not_called_a_snapshot(tmp_path: Path) -> None:
    """D with a path typed reads it as a snapshot first: a record file of random bytes was
    "Snapshot file .../86417b60.json is not UTF-8", though it was no snapshot at all."""
    from intentus_tui.core.compare import CompareError, file_operand

    garbage = tmp_path / "records" / "86417b60.json"
    garbage.parent.mkdir()
    garbage.write_bytes(b"\x00\xff\xfe binary \x81\x82")
    with pytest.raises(CompareError) as caught:
        file_operand("86417b60.json", garbage, prefer="snapshot")
    said = str(caught.value)
    assert said == "86417b60.json: Not UTF-8 text: invalid UTF-8 at byte 1", said


def test_a_record_cut_before_its_events_is_compared_event_by_event(
    real_world: RealWorld,
) -> None:
    # The other side's events were one value ("+ events: [...]"): no event counted.
    from intentus_tui.core.compare.records import compare_records

    whole = json.loads((real_world.records_dir / f"{real_world.success}.json").read_text())
    cut = {key: value for key, value in whole.items() if key != "events"}
    found = compare_records(cut, whole)
    count = len(whole["events"])
    assert found.changed_events == count
    added = [e.path for e in found.entries if e.path[0] == "events"]
    assert added == [("events", index) for index in range(count)]
    back = compare_records(whole, cut)
    assert back.changed_events == count


def test_the_side_by_side_of_a_record_cut_before_its_events_counts_as_the_diff_does(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # The debugger showed "13 changed values · at value 1/3", no timeline and no changed
    # events, where the command line said "13 changed values, 11 changed events".
    from intentus_tui.core.actions import compare_side_by_side, file_operand
    from intentus_tui.core.compare.ignore import IgnoreRules

    source = real_world.records_dir / f"{real_world.success}.json"
    whole = json.loads(source.read_text())
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps({k: v for k, v in whole.items() if k != "events"}))
    layout = compare_side_by_side(
        file_operand("a", cut), file_operand("b", source), IgnoreRules(())
    )
    count = len(whole["events"])
    assert layout.comparison.changed_events == count
    assert len(layout.timeline) == count and len(layout.timeline_differences(True)) == count
    assert len(layout.fold(True, context=3).differences) == len(layout.comparison.entries)
