"""Executions written by the real IntentusNet 1.3.0 (records, WAL-only, salvaged) as OTLP
traces: every line is proved against the official ``opentelemetry-proto`` classes, and what
a trace viewer shows (spans, statuses, links, exceptions, verdicts, times) is what the
record says."""

from __future__ import annotations

import hashlib
import json
import shutil
from pathlib import Path

import pytest

from intentus_tui.core.detail import ExecutionDetail, load_detail
from intentus_tui.core.export.otlp import SEMCONV_VERSION, traces_data
from intentus_tui.core.export.source import is_exportable
from intentus_tui.core.export.times import nano_of, unix_nano
from intentus_tui.core.index.directory import DirectoryIndex
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.verdict import verdict_of
from intentus_tui.render.json_lines import json_line
from tests.core.export.support import (
    CrashWorld,
    attrs,
    build_crash_world,
    children_of,
    prove_otlp_line,
    root_of,
)
from tests.core.wal.support import NAMES, write_incident_logs, write_record_with_edited_log
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld, with_broken_wal_chain, with_lost_attempt_end


def export(path: Path, wal_dir: Path | None = None) -> tuple[dict, ExecutionDetail]:
    detail = load_detail(path, wal_dir)
    return prove_otlp_line(json_line(traces_data(detail, producer_version="test"))), detail


def record_path(world: RealWorld, execution_id: str) -> Path:
    return world.records_dir / f"{execution_id}.json"


@pytest.fixture(scope="module")
def crash_world(tmp_path_factory: pytest.TempPathFactory) -> CrashWorld:
    return build_crash_world(tmp_path_factory.mktemp("crash"))


@pytest.fixture(scope="module")
def wal_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("walexport") / ".intentusnet"
    (base / "records").mkdir(parents=True)
    write_incident_logs(base / "wal")
    return base


def test_a_fallback_chain_is_a_trace_of_two_linked_attempts(real_world: RealWorld) -> None:
    doc, _ = export(record_path(real_world, real_world.fallback))
    root = root_of(doc)
    first, second = children_of(doc)
    expected_trace = hashlib.sha256(real_world.fallback.encode()).hexdigest()[:32]
    assert {s["traceId"] for s in (root, first, second)} == {expected_trace}
    assert root["name"] == "invoke_workflow Summarize"
    assert (first["name"], second["name"]) == (
        "invoke_agent fb-primary",
        "invoke_agent fb-secondary",
    )
    assert first["parentSpanId"] == second["parentSpanId"] == root["spanId"]
    assert root["status"] == {"code": 1} and second["status"] == {"code": 1}
    assert first["status"]["code"] == 2
    # The fallback hop: the second attempt links to the failed first one.
    (link,) = second["links"]
    assert link["spanId"] == first["spanId"] and link["traceId"] == expected_trace
    assert attrs(link)["intentus.link.type"] == "fallback_from"
    assert attrs(link)["intentus.fallback.seq"] == 4
    assert "links" not in first

    agent = attrs(second)
    assert agent["gen_ai.operation.name"] == "invoke_agent"
    assert agent["gen_ai.agent.name"] == "fb-secondary"
    assert agent["openinference.span.kind"] == "AGENT"
    assert agent["intentus.attempt.answered"] is True
    assert json.loads(agent["output.value"])["payload"]["by"] == "fb-secondary"
    assert attrs(first)["error.type"] == "_OTHER"  # 1.3.0 recorded no exception for it

    top = attrs(root)
    assert top["openinference.span.kind"] == "CHAIN"
    assert top["gen_ai.operation.name"] == "invoke_workflow"
    assert top["input.mime_type"] == top["output.mime_type"] == "application/json"
    assert json.loads(top["input.value"])["payload"] == {"text": "héllo wörld"}
    assert "é" not in top["input.value"]  # escaped: exact data, inert text
    stored = json.loads(record_path(real_world, real_world.fallback).read_text())
    assert top["intentus.envelope_hash"] == stored["header"]["envelopeHash"]
    assert (top["intentus.request_id"], top["intentus.caller_trace_id"]) == ("r-1", "tr-1")
    assert [e["name"] for e in root["events"]] == [e["type"] for e in stored["events"]]
    assert doc["resourceSpans"][0]["schemaUrl"].endswith(SEMCONV_VERSION)


def test_recorded_times_are_used_and_the_rest_are_marked_synthetic(
    real_world: RealWorld,
) -> None:
    doc, _ = export(record_path(real_world, real_world.success))
    stored = json.loads(record_path(real_world, real_world.success).read_text())
    root = root_of(doc)
    assert int(root["startTimeUnixNano"]) == unix_nano(stored["header"]["createdUtcIso"])
    assert int(root["endTimeUnixNano"]) == unix_nano(stored["routerDecision"]["timestamp"])
    assert attrs(root)["intentus.synthetic_time"] is False
    by_name = {e["name"]: e for e in root["events"]}
    decision = by_name["ROUTER_DECISION"]
    assert int(decision["timeUnixNano"]) == unix_nano(stored["routerDecision"]["timestamp"])
    assert attrs(decision)["intentus.synthetic_time"] is False
    final = by_name["FINAL_RESPONSE"]
    assert int(final["timeUnixNano"]) == unix_nano(stored["finalResponse"]["metadata"]["timestamp"])
    for name in ("INTENT_RECEIVED", "AGENT_ATTEMPT_START", "AGENT_ATTEMPT_END"):
        event = by_name[name]
        assert attrs(event)["intentus.synthetic_time"] is True
        assert root["startTimeUnixNano"] < event["timeUnixNano"] < decision["timeUnixNano"]
    (attempt,) = children_of(doc)
    assert attrs(attempt)["intentus.synthetic_time"] is True
    assert attempt["startTimeUnixNano"] == by_name["AGENT_ATTEMPT_START"]["timeUnixNano"]
    assert attempt["endTimeUnixNano"] == by_name["AGENT_ATTEMPT_END"]["timeUnixNano"]


def test_the_exception_an_attempt_recorded_is_its_exception_event(crash_world: CrashWorld) -> None:
    records = crash_world.base / ".intentusnet" / "records"
    doc, _ = export(records / f"{crash_world.execution_id}.json")
    crasher, rescuer = children_of(doc)
    assert crasher["name"] == "invoke_agent crasher"
    (event,) = crasher["events"]
    assert event["name"] == "exception"
    message = attrs(event)["exception.message"]
    assert message.startswith("crasher lost its ") and "\x1b" not in message  # made inert
    assert crasher["status"] == {"code": 2, "message": message}
    assert event["timeUnixNano"] == crasher["endTimeUnixNano"]
    assert rescuer["status"] == {"code": 1} and rescuer["links"][0]["spanId"] == crasher["spanId"]
    assert "events" not in rescuer


def test_a_recorded_final_error_is_the_roots_exception(tmp_path: Path) -> None:
    record = make_record(agents=(("a", "error"), ("b", "error")), final_status="error")
    doc, _ = export(write_record(tmp_path / "records", record))
    root = root_of(doc)
    assert root["status"]["code"] == 2
    assert attrs(root)["error.type"] == "AGENT_ERROR"
    exception = next(e for e in root["events"] if e["name"] == "exception")
    assert attrs(exception)["exception.type"] == "AGENT_ERROR"
    assert attrs(exception)["exception.message"] == "Failed"
    a, b = children_of(doc)
    assert attrs(a)["error.type"] == "_OTHER"
    assert [attrs(e)["exception.message"] for e in a["events"]] == ["a failed"]
    assert b["status"]["code"] == 2 and b["links"][0]["spanId"] == a["spanId"]


def test_the_verdict_attributes_are_the_listings_verdict(real_world: RealWorld) -> None:
    root = resolve_root(real_world.records_dir.parent)
    listing = {s.execution_id: verdict_of(s) for s in DirectoryIndex(root, use_cache=False).scan()}
    for execution_id in (
        real_world.success,
        real_world.fallback,
        real_world.error_truncated,
        real_world.invalidated,
    ):
        doc, detail = export(record_path(real_world, execution_id), root.wal_dir)
        verdict = listing[execution_id]
        assert detail.verdict == verdict
        got = attrs(root_of(doc))
        assert got["intentus.verdict.outcome"] == verdict.outcome.value
        assert got["intentus.verdict.outcome_reason"] == verdict.outcome_reason
        assert got["intentus.verdict.integrity"] == verdict.integrity.value
        assert got["intentus.verdict.integrity_reason"] == verdict.integrity_reason
        assert got["intentus.verdict.replay"] == verdict.replay.value
        assert got["intentus.verdict.replay_reason"] == verdict.replay_reason
        assert got["intentus.verdict.replayable"] is verdict.replayable
        assert got["intentus.verdict.needs_attention"] is verdict.needs_attention
    assert (
        attrs(root_of(export(record_path(real_world, real_world.invalidated))[0]))[
            "intentus.verdict.replay"
        ]
        == "manually_invalidated"
    )


def test_a_salvaged_record_exports_what_was_recovered_with_its_verdict(
    real_world: RealWorld,
) -> None:
    doc, detail = export(record_path(real_world, real_world.error_truncated))
    root = root_of(doc)
    got = attrs(root)
    assert got["intentus.load_status"] == "salvaged"
    assert (got["intentus.verdict.outcome"], got["intentus.verdict.integrity"]) == (
        "failed",  # what survived: every attempt failed, the router gave up
        "unverifiable",
    )
    assert "truncated" in got["intentus.damage"]
    assert root["status"]["code"] == 2  # ERROR: a failed execution
    assert "output.value" not in got  # no final response survived
    assert len(root["events"]) == len(detail.result.record.events) == 4
    (attempt,) = children_of(doc)
    assert attempt["name"] == "invoke_agent fb-primary" and attempt["status"]["code"] == 2


def test_an_attempt_that_never_ended_is_in_flight(tmp_path: Path, real_world: RealWorld) -> None:
    stored = json.loads(record_path(real_world, real_world.success).read_text())
    stored["events"] = stored["events"][:2]  # INTENT_RECEIVED, AGENT_ATTEMPT_START
    stored["finalResponse"] = stored["routerDecision"] = None
    doc, _ = export(write_record(tmp_path / "records", stored))
    (attempt,) = children_of(doc)
    got = attrs(attempt)
    assert got["intentus.attempt.in_flight"] is True and attempt["status"] == {}
    assert got["intentus.synthetic_time"] is True
    assert attrs(root_of(doc))["intentus.verdict.outcome"] == "in_flight"


def test_attempt_spans_take_the_times_inspect_shows_and_the_logs_end(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # The record lost attempt 1's end; its WAL recorded step.failed (seq 3). inspect shows
    # the attempt from its step.started to that entry, and attempt 2 from its WAL times: the
    # trace ran attempt 1 to the execution's end, attempt 2 for 1 µs, both synthetic.
    base = with_lost_attempt_end(real_world, tmp_path)
    doc, detail = export(base / "records" / f"{real_world.fallback}.json", base / "wal")
    wal = base / "wal" / f"{real_world.fallback}.wal"
    when = {e["seq"]: unix_nano(e["timestamp_iso"]) for e in map(json.loads, wal.open())}
    first, second = children_of(doc)
    spans = [(int(s["startTimeUnixNano"]), int(s["endTimeUnixNano"])) for s in (first, second)]
    assert spans == [(when[2], when[3]), (when[5], when[6])]
    assert detail.times is not None
    for (start, end), timed in zip(spans, detail.times.attempts, strict=True):
        assert (start, end) == (nano_of(timed.start), nano_of(timed.end))  # inspect's times
    assert spans[0][1] < int(root_of(doc)["endTimeUnixNano"])
    got = attrs(first)
    assert got["intentus.attempt.in_flight"] is False
    assert got["intentus.synthetic_time"] is False
    assert got["intentus.attempt.log_end_seq"] == 3
    assert first["status"]["code"] == 2
    (exception,) = first["events"]
    assert int(exception["timeUnixNano"]) == when[3]
    assert attrs(exception)["exception.type"] == "unavailable"
    assert attrs(exception)["exception.message"] == "circuit breaker open"
    assert attrs(second)["intentus.synthetic_time"] is False
    assert "intentus.attempt.log_end_seq" not in attrs(second)


def test_the_root_spans_events_take_the_times_inspect_shows(
    tmp_path: Path, real_world: RealWorld
) -> None:
    # 1.3.0's events carry no time; inspect reads each attempt event's from its WAL entry.
    # The trace spaced them evenly between the record's creation and its final response.
    base = with_lost_attempt_end(real_world, tmp_path)
    doc, detail = export(base / "records" / f"{real_world.fallback}.json", base / "wal")
    assert detail.times is not None and detail.result.record is not None
    events = root_of(doc)["events"][: len(detail.result.record.events)]
    timed = 0
    for index, event in enumerate(events):
        known = detail.times.event_time(index)
        if known is not None:
            assert int(event["timeUnixNano"]) == nano_of(known.at), event["name"]
            timed += 1
    assert timed >= 4  # the attempts' starts and ends at least, from the WAL


def test_a_time_inspect_does_not_show_is_not_exported_as_recorded(tmp_path: Path) -> None:
    """An event with a top-level ``ts`` (no writer we read puts one there): inspect shows no
    time for it, so the trace marks its time synthetic rather than taking that one."""
    record = make_record()
    stray = "2026-01-05T09:00:00.500Z"
    for event in record["events"]:
        if event["type"] == "AGENT_ATTEMPT_START":
            event["ts"] = stray
            event["timestamp"] = stray
    path = write_record(tmp_path / "records", record)
    doc, detail = export(path)
    assert detail.times is not None and detail.result.record is not None
    events = root_of(doc)["events"][: len(detail.result.record.events)]
    starts = [
        (index, event)
        for index, event in enumerate(events)
        if event["name"] == "AGENT_ATTEMPT_START"
    ]
    assert starts
    for index, event in starts:
        assert detail.times.event_time(index) is None  # inspect: no time
        assert attrs(event)["intentus.synthetic_time"] is True
        assert int(event["timeUnixNano"]) != unix_nano(stray)


def test_wal_only_executions_are_traces_of_their_steps(wal_root: Path) -> None:
    wal_dir = wal_root / "wal"
    docs = {name: export(wal_dir / f"{eid}.wal", wal_dir)[0] for name, eid in NAMES.items()}

    clean = docs["clean"]
    lookup, charge = children_of(clean)
    assert (lookup["name"], charge["name"]) == (
        "invoke_agent ledger-reader",
        "invoke_agent payments-agent",
    )
    assert lookup["status"] == charge["status"] == {"code": 1}
    assert attrs(charge)["intentus.step.side_effect"] == "irreversible"
    root = root_of(clean)
    assert root["name"] == "invoke_workflow PayIntent"
    assert attrs(root)["intentus.verdict.replay"] == "no_record"
    assert attrs(root)["intentus.synthetic_time"] is False
    entries = [
        json.loads(line) for line in (wal_dir / f"{NAMES['clean']}.wal").read_text().splitlines()
    ]
    assert [e["name"] for e in root["events"]] == [e["entry_type"] for e in entries]
    assert [int(e["timeUnixNano"]) for e in root["events"]] == [
        unix_nano(e["timestamp_iso"]) for e in entries
    ]

    (failed_step,) = children_of(docs["failed"])
    (exception,) = failed_step["events"]
    assert attrs(exception)["exception.type"] == "agent_error"
    assert attrs(exception)["exception.message"] == "ledger unreachable"
    assert failed_step["status"]["code"] == 2
    assert root_of(docs["failed"])["status"]["code"] == 2

    killed = children_of(docs["killed"])
    assert attrs(killed[-1])["intentus.attempt.in_flight"] is False  # the charge completed
    assert attrs(root_of(docs["killed"]))["intentus.verdict.outcome"] == "in_flight"

    edited = root_of(docs["edited"])
    got = attrs(edited)
    assert (got["intentus.verdict.integrity"], got["intentus.verdict.outcome"]) == (
        "chain_broken",
        "unknown",
    )
    trusted = [attrs(e)["intentus.wal.trusted"] for e in edited["events"]]
    assert trusted == [True, True, True, False, False, False]
    # Its broken chain is the root's error; its steps claim nothing a viewer would believe.
    assert edited["status"]["code"] == 2
    assert edited["status"]["message"].startswith("untrusted (chain_broken): ")
    assert all(step["status"] == {} for step in children_of(docs["edited"]))
    assert all(attrs(span)["intentus.trusted"] is True for span in children_of(clean))


def test_a_record_with_its_wal_carries_the_wal_entries_as_events(
    tmp_path: Path, real_world: RealWorld
) -> None:
    base = tmp_path / ".intentusnet"
    shutil.copytree(real_world.records_dir, base / "records")
    from tests.core.wal.support import write_completed

    (base / "wal").mkdir()
    write_completed(base / "wal", real_world.success)
    doc, _ = export(base / "records" / f"{real_world.success}.json", base / "wal")
    root = root_of(doc)
    wal_events = [e for e in root["events"] if "intentus.wal.seq" in attrs(e)]
    assert [e["name"] for e in wal_events] == [
        "execution.started",
        "step.started",
        "contract.validated",
        "step.completed",
        "step.started",
        "step.completed",
        "execution.completed",
    ]
    assert all(attrs(e)["intentus.wal.trusted"] for e in wal_events)
    assert attrs(root)["intentus.source"] == "record+wal"
    assert len(children_of(doc)) == 1  # the record's attempt; the WAL adds events only
    assert root["startTimeUnixNano"] <= min(e["timeUnixNano"] for e in root["events"])
    assert root["endTimeUnixNano"] >= max(e["timeUnixNano"] for e in root["events"])


def test_no_recorded_time_at_all_gives_synthetic_times_from_the_file(tmp_path: Path) -> None:
    record = make_record()
    record["header"]["createdUtcIso"] = "not a time"
    record["routerDecision"]["timestamp"] = None
    for event in record["events"]:
        event["payload"].pop("timestamp", None)
        event["payload"].get("metadata", {}).pop("timestamp", None)
    record["finalResponse"]["metadata"].pop("timestamp")
    path = write_record(tmp_path / "records", record)
    doc, detail = export(path)
    root = root_of(doc)
    assert attrs(root)["intentus.synthetic_time"] is True
    assert int(root["endTimeUnixNano"]) == detail.result.mtime_ns
    times = [int(e["timeUnixNano"]) for e in root["events"]]
    assert times == sorted(times) and len(set(times)) == len(times)
    again, _ = export(path)
    assert again == doc


def test_a_file_with_no_record_has_nothing_to_export(tmp_path: Path) -> None:
    path = tmp_path / "records" / "broken.json"
    path.parent.mkdir()
    path.write_text("this is not json")
    assert not is_exportable(load_detail(path))


def test_a_wal_fallback_links_the_step_it_started_to_the_failed_one(tmp_path: Path) -> None:
    from intentusnet.wal.writer import WALWriter

    wal_dir = tmp_path / ".intentusnet" / "wal"
    wal_dir.mkdir(parents=True)
    execution_id = "0a11fb00-0000-4000-8000-000000000009"
    with WALWriter(str(wal_dir), execution_id) as w:
        w.execution_started("ab" * 32, "SearchIntent")
        w.step_started("s1", "search-primary", "read_only", {}, "in-1")
        w.step_failed("s1", "timeout", "no answer in 500 ms", True)
        w.fallback_triggered("search-primary", "search-backup", "timeout")
        w.step_started("s2", "search-backup", "read_only", {}, "in-2")
        w.step_completed("s2", "out-2", True)
        w.execution_completed("cd" * 32)
    doc, _ = export(wal_dir / f"{execution_id}.wal", wal_dir)
    primary, backup = children_of(doc)
    assert primary["status"]["code"] == 2 and backup["status"] == {"code": 1}
    (link,) = backup["links"]
    assert link["spanId"] == primary["spanId"]
    assert attrs(link)["intentus.fallback.reason"] == "timeout"
    assert attrs(link)["intentus.fallback.seq"] == 4
    assert "links" not in primary
    assert attrs(root_of(doc))["intentus.verdict.outcome"] == "succeeded"


def test_copies_of_one_execution_are_traces_of_their_own(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """A copy kept beside the original (or cut short) took the original's trace id and
    root span id: in a tracing backend the tampered or damaged copy's spans collided with
    the genuine ones."""
    import subprocess

    records = tmp_path / "records"
    records.mkdir()
    source = record_path(real_world, real_world.success)
    original = records / source.name
    shutil.copy(source, original)
    copy = records / "kept-copy.json"
    shutil.copy(source, copy)
    cut = records / "cut.json"
    cut.write_bytes(source.read_bytes()[:900])
    docs = {path.name: export(path)[0] for path in (original, copy, cut)}
    roots = {name: root_of(doc) for name, doc in docs.items()}
    assert roots[original.name]["traceId"] == unix_trace(real_world.success)
    assert len({root["traceId"] for root in roots.values()}) == 3
    assert len({root["spanId"] for root in roots.values()}) == 3
    # As the README says to recompute it: the id, a NUL, the file's name.
    shown = subprocess.run(
        ["sh", "-c", f"printf '%s\\0%s' {real_world.success} kept-copy.json | sha256sum"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout[:32]
    assert roots["kept-copy.json"]["traceId"] == shown


def unix_trace(execution_id: str) -> str:
    """The trace id the README says to recompute: sha256 of the id, 32 hex digits."""
    return hashlib.sha256(execution_id.encode()).hexdigest()[:32]


def _no_span_claims_ok(doc: dict, integrity: str, reason: str) -> None:
    """What a trace viewer shows of an untrusted execution: the root an error naming what
    broke, no span green or red on the record's word, each span saying it is untrusted."""
    root = root_of(doc)
    assert root["status"] == {"code": 2, "message": f"untrusted ({integrity}): {reason}"}
    assert attrs(root)["error.type"] == integrity
    for span in children_of(doc):
        assert span["status"] == {}, span["name"]
        assert "error.type" not in attrs(span)
    for span in [root, *children_of(doc)]:
        got = attrs(span)
        assert got["intentus.trusted"] is False, span["name"]
        assert got["intentus.untrusted_reason"] == f"untrusted ({integrity}): {reason}"


def test_a_tampered_records_spans_never_claim_ok(tmp_path: Path, real_world: RealWorld) -> None:
    """The demo's 65587ebf: a final response edited after recording. Its root span's status
    was unset and its answering attempt's OK, carrying the edited answer: green in a trace
    viewer; only the root's ``intentus.verdict.*`` said tampered."""
    records = tmp_path / "records"
    records.mkdir()
    stored = json.loads(record_path(real_world, real_world.fallback).read_text())
    stored["finalResponse"]["payload"] = {"by": "someone else"}
    path = records / f"{real_world.fallback}.json"
    path.write_text(json.dumps(stored), "utf-8")
    doc, detail = export(path)
    assert detail.verdict is not None and detail.verdict.integrity.value == "tampered"
    _no_span_claims_ok(doc, "tampered", detail.verdict.integrity_reason)
    failed, answered = children_of(doc)
    assert attrs(answered)["intentus.attempt.status"] == "ok"  # the claim, named as one
    assert attrs(failed)["intentus.attempt.status"] == "error"
    # The edited answer was output.value, which a viewer shows as the span's output.
    _only_claimed_io(doc, {"by": "someone else"})


def _only_claimed_io(doc: dict, payload: object) -> None:
    """No span of an untrusted execution carries ``input.value``/``output.value``: the
    recorded envelope and answer are there as claims; the answering span and the root
    claim the recorded payload ``payload``."""
    root = root_of(doc)
    for span in [root, *children_of(doc)]:
        got = attrs(span)
        assert not {"input.value", "output.value", "input.mime_type", "output.mime_type"} & set(
            got
        ), span["name"]
        assert json.loads(got["intentus.claimed.input.value"])["intent"]["name"] == "Summarize"
        assert got["intentus.claimed.input.mime_type"] == "application/json"
    claimed = json.loads(attrs(root)["intentus.claimed.output.value"])
    assert claimed["payload"] == payload
    assert json.loads(attrs(children_of(doc)[-1])["intentus.claimed.output.value"]) == claimed


def test_a_record_whose_log_chain_breaks_has_no_span_claiming_ok(
    tmp_path: Path, real_world: RealWorld
) -> None:
    """The demo's exec-3580bf82: a whole record whose write-ahead log was edited."""
    base = with_broken_wal_chain(real_world, tmp_path)
    doc, detail = export(base / "records" / f"{real_world.success}.json", base / "wal")
    assert detail.verdict is not None and detail.verdict.integrity.value == "chain_broken"
    _no_span_claims_ok(doc, "chain_broken", detail.verdict.integrity_reason)
    assert len(children_of(doc)) == 1
    recorded = detail.result.record
    assert recorded is not None and isinstance(recorded.final_response, dict)
    _only_claimed_io(doc, recorded.final_response["payload"])  # whole, but not vouched for


def test_a_trusted_executions_spans_say_so(real_world: RealWorld) -> None:
    doc, _ = export(record_path(real_world, real_world.fallback))
    spans = [root_of(doc), *children_of(doc)]
    assert [attrs(span)["intentus.trusted"] for span in spans] == [True, True, True]
    assert not any("intentus.untrusted_reason" in attrs(span) for span in spans)
    # input and output as OpenInference names them, unchanged; nothing said claimed
    assert all("input.value" in attrs(span) for span in spans)
    assert "output.value" in attrs(spans[0]) and "output.value" in attrs(spans[-1])
    assert not any(key.startswith("intentus.claimed.") for s in spans for key in attrs(s))


@pytest.mark.parametrize("broken_at", ["first entry", "third entry"])
def test_times_after_a_broken_log_chain_are_claims_not_the_traces_times(
    tmp_path: Path, real_world: RealWorld, broken_at: str
) -> None:
    """The demo's exec-3580bf82: its trace ran to its log's last entry (09:16:14.94), one
    written after the chain broke, where inspect's times end at the last entry that can
    be believed (09:16:11.72). An entry past the break places nothing: it carries its
    time as a claim, and the root span ends with what inspect shows."""
    if broken_at == "first entry":
        base = with_broken_wal_chain(real_world, tmp_path)
        path = base / "records" / f"{real_world.success}.json"
    else:
        base = tmp_path / ".intentusnet"
        path = write_record_with_edited_log(base)
    doc, detail = export(path, base / "wal")
    log, times = detail.wal, detail.times
    assert log is not None and times is not None and log.trusted_count < len(log.entries)
    assert log.trusted_count == (0 if broken_at == "first entry" else 2)
    root = root_of(doc)
    wal_events = [e for e in root["events"] if "intentus.wal.seq" in attrs(e)]
    believed, claimed = wal_events[: log.trusted_count], wal_events[log.trusted_count :]
    assert [attrs(e)["intentus.claimed.time"] for e in claimed] == [
        entry.timestamp_iso for entry in log.entries[log.trusted_count :]
    ]
    assert all(attrs(e)["intentus.synthetic_time"] is True for e in claimed)
    assert not any("intentus.claimed.time" in attrs(e) for e in believed)
    last_claim = max(unix_nano(entry.timestamp_iso) or 0 for entry in log.entries)
    assert times.last is not None and nano_of(times.last) is not None
    # The root holds its events and its attempts, and no more: inspect's last time, an
    # attempt's recorded latency, the claims' synthetic places right after.
    ends = [
        nano_of(times.last) or 0,
        *(int(child["endTimeUnixNano"]) for child in children_of(doc)),
        *(int(event["timeUnixNano"]) for event in root["events"]),
    ]
    assert int(root["endTimeUnixNano"]) == max(ends) < last_claim
