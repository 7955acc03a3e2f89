"""One execution as one OTLP ``TracesData`` document (a line of an OTLP JSON Lines file, as
the OpenTelemetry file exporter writes them and the Collector's ``otlpjsonfile`` receiver
reads them).

The mapping:

- the execution is a trace; its trace id is the first 16 bytes of the sha256 of the
  execution id (``attributes.trace_id_of``), or of the id and the file's name for a file
  not named after it (``id_source``: a copy is a trace of its own);
- the routing of the intent is the root span, ``invoke_workflow {intent}``
  (``gen_ai.operation.name = invoke_workflow``, OpenInference kind ``CHAIN``), carrying the
  envelope (``input.value``), the final response (``output.value``), the envelope hash
  and the verdict (``intentus.verdict.*``, the same as every screen shows);
- each agent attempt is a child span, ``invoke_agent {agent}``
  (``gen_ai.operation.name = invoke_agent``, OpenInference kind ``AGENT``): status OK or
  ERROR as recorded, an ``exception`` event with the exception the attempt recorded;
  a WAL-only execution's steps are its attempts;
- an untrusted execution (its verdict's integrity tampered or chain broken): every span
  says ``intentus.trusted = false`` and why (``intentus.untrusted_reason``); the root's
  status is ERROR with that reason (``error.type`` the integrity), and no span claims OK
  or ERROR from what the record or log says of itself (status unset), so that a trace
  viewer never shows a claim that cannot be believed as a healthy span; its envelope and
  final response are ``intentus.claimed.input.value``/``intentus.claimed.output.value``,
  never ``input.value``/``output.value``, which a viewer shows as fact;
- a fallback from one attempt to the next is a link from the later attempt's span to the
  failed one's;
- every record event and every WAL entry is an event of the root span.

Attribute names follow the OpenTelemetry semantic conventions for generative AI, version
``SEMCONV_VERSION`` (invoke-agent and invoke-workflow spans), and OpenInference's
``openinference.span.kind``, ``input.*`` and ``output.*``. IntentusNet's own facts are under
``intentus.``. Times: see ``core.export.times``; an attempt's span starts and ends when
every view says it did (``detail.times``: its events' own times, its write-ahead log's, the
log's end of an attempt the record left open, named by ``intentus.attempt.log_end_seq``);
a span or event whose time was not recorded says ``intentus.synthetic_time = true``. A log
entry past its chain's first break has a synthetic time too: its recorded one is a claim
(``intentus.claimed.time``), which inspect's times leave out and the trace does not follow.

Strings that label things (span names, agent names, event names, verdict reasons) are
sanitized like everything the tool shows; recorded values (``input.value``,
``output.value``, event payloads) are exact JSON text with every non-ASCII character
escaped, so nothing in an export can drive a terminal that displays it. The file's name
(``intentus.file``) is exact, as ``inspect --list --json`` and the json export give it:
the line's JSON escapes what a terminal would act on.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from intentus_tui.core.detail import ExecutionDetail
from intentus_tui.core.export.attributes import (
    json_text,
    key_values,
    span_id_of,
    trace_id_of,
)
from intentus_tui.core.export.source import listed_file
from intentus_tui.core.export.times import Moment, file_time_ns, fill_times, nano_of, unix_nano
from intentus_tui.core.model import Outcome, Verdict
from intentus_tui.core.records.load import ExecutionEvent, ExecutionRecord
from intentus_tui.core.records.timeline import FALLBACK, Attempt
from intentus_tui.core.records.times import DURATION_LATENCY, AttemptTimes
from intentus_tui.core.sanitize import sanitize_line
from intentus_tui.core.wal.read import WalLog

# The OpenTelemetry semantic conventions the attributes follow (GenAI agent spans).
SEMCONV_VERSION = "1.41.0"
SCHEMA_URL = f"https://opentelemetry.io/schemas/{SEMCONV_VERSION}"
# ``gen_ai.provider.name`` is required on invoke-agent spans; the runtime that invoked the
# agents is what a record knows (the model behind an agent, if any, it does not).
PROVIDER_NAME = "intentusnet"
SERVICE_NAME = "intentusnet"
SCOPE_NAME = "intentus-tui"
CLAIMED_PREFIX = "intentus.claimed."  # an untrusted execution's recorded input and output
JSON_MIME = "application/json"

SPAN_KIND_INTERNAL = 1
# A span is OK only where the record says so in as many words (an attempt's "ok", a
# succeeded verdict): an explicit final status, not an instrumentation's guess, which is
# why it is not left unset as live instrumentation leaves a success.
STATUS_UNSET, STATUS_OK, STATUS_ERROR = 0, 1, 2
# ``error.type`` when the error has no class of its own (the conventions' fallback value).
OTHER_ERROR = "_OTHER"


@dataclass
class _Span:
    """A span being built; ``to_json`` gives its OTLP/JSON form."""

    span_id: str
    name: str
    start: Moment
    end: Moment
    parent_span_id: str | None = None
    attributes: list[tuple[str, object]] = field(default_factory=list)
    events: list[dict[str, Any]] = field(default_factory=list)
    links: list[dict[str, Any]] = field(default_factory=list)
    status_code: int = STATUS_UNSET
    status_message: str = ""
    # Events made only as they are written, after ``events``: the root span's record
    # events and log entries (hundreds of thousands in a huge record), each a maker of
    # them and how many it makes.
    later_events: list[tuple[int, Callable[[], Iterator[dict[str, Any]]]]] = field(
        default_factory=list
    )

    def all_events(self) -> Iterator[dict[str, Any]]:
        """The events made as they are written (``later_events``), in order."""
        for _, make in self.later_events:
            yield from make()

    def to_json(self, trace_id: str, mark: str | None = None) -> dict[str, Any]:
        """The span's OTLP/JSON form; with ``mark``, its events made later stand as that
        one string in its events (``streamed_traces_data``)."""
        end = self.end if self.end.unix_nano >= self.start.unix_nano else self.start
        synthetic = self.start.synthetic or end.synthetic
        span: dict[str, Any] = {"traceId": trace_id, "spanId": self.span_id}
        if self.parent_span_id is not None:
            span["parentSpanId"] = self.parent_span_id
        span.update(
            name=self.name,
            kind=SPAN_KIND_INTERNAL,
            startTimeUnixNano=str(self.start.unix_nano),
            endTimeUnixNano=str(end.unix_nano),
            attributes=key_values([*self.attributes, ("intentus.synthetic_time", synthetic)]),
        )
        later = any(count for count, _ in self.later_events)
        if self.events or later:
            if not later:
                span["events"] = self.events
            elif mark is None:
                span["events"] = [*self.events, *self.all_events()]
            else:
                span["events"] = [*self.events, mark]
        if self.links:
            span["links"] = self.links
        status: dict[str, Any] = {}
        if self.status_message:
            status["message"] = self.status_message
        if self.status_code != STATUS_UNSET:
            status["code"] = self.status_code
        span["status"] = status
        return span


def _event(name: str, moment: Moment, attributes: Iterable[tuple[str, object]]) -> dict[str, Any]:
    return {
        "timeUnixNano": str(moment.unix_nano),
        "name": name,
        "attributes": key_values([*attributes, ("intentus.synthetic_time", moment.synthetic)]),
    }


def _recorded(moment: datetime | None) -> Moment | None:
    """A recorded instant as a moment (None: none, or one OTLP cannot carry)."""
    nanos = nano_of(moment) if moment is not None else None
    return Moment(nanos, False) if nanos is not None else None


def _latency_end(timed: AttemptTimes) -> datetime | None:
    """An attempt's start plus the latency it recorded (as the waterfall draws it)."""
    if timed.start is None or timed.duration is None:
        return None
    if timed.duration_source != DURATION_LATENCY:
        return None
    try:
        return timed.start + timedelta(seconds=timed.duration)
    except OverflowError:
        return None


def _later(moment: Moment) -> tuple[int, bool]:
    """The order in which the later of two equal times is the recorded one."""
    return moment.unix_nano, not moment.synthetic


def _label(value: object) -> str:
    """A recorded string used as a name: inert, on one line."""
    if value is None:
        return ""
    return sanitize_line(value if isinstance(value, str) else json_text(value))


def _exact_name(name: str) -> str | bytes:
    """A file's name exactly, as the listing's and the json export's JSON give it (their
    JSON escapes what a terminal would act on, as this line's does); a name whose bytes
    are not UTF-8, which an OTLP string cannot hold, as those bytes (``bytesValue``)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(name)
    return name


def _first(payload: Mapping[str, Any], *keys: str) -> Any:
    for key in keys:
        if payload.get(key) is not None:
            return payload[key]
    return None


def execution_id_of(detail: ExecutionDetail) -> str:
    """The id the execution is known by: the record's own, else its file's name."""
    record = detail.result.record
    own = record.execution_id if record is not None else None
    return own or detail.result.stem


def id_source(detail: ExecutionDetail, execution_id: str) -> str:
    """What the trace and span ids are derived from: the execution id; for a file not
    named after it (a copy kept beside the original, a renamed or cut copy), the id and
    the file's name: two files of one execution are two traces, never one trace whose
    spans collide (a tampered copy's root span took the genuine one's id)."""
    if detail.result.stem == execution_id:
        return execution_id
    return f"{execution_id}\x00{detail.result.path.name}"


def traces_data(
    detail: ExecutionDetail, *, producer_version: str, root: str = ""
) -> dict[str, Any]:
    """The ``TracesData`` JSON object of one execution (record, record and WAL, or WAL
    alone). Never raises on what a file holds: a damaged record exports what was
    recovered, with its verdict. ``root``: with several roots, the label of the one it was
    read from (``intentus.root``, a resource attribute: where the telemetry came from)."""
    return streamed_traces_data(detail, producer_version=producer_version, root=root)[0]


def streamed_traces_data(
    detail: ExecutionDetail, *, producer_version: str, root: str = "", mark: str | None = None
) -> tuple[dict[str, Any], Iterator[dict[str, Any]] | None]:
    """``traces_data``, its root span's record events and log entries not made yet: with
    ``mark``, they stand as that one string at the end of its events, and the iterator
    makes them, in order, to be written in its place (one at a time: a huge record's
    line is not held whole). None instead when there are none (nothing stands for them),
    or without ``mark`` (the document is whole)."""
    execution_id = execution_id_of(detail)
    builder = _TraceBuilder(detail, execution_id)
    trace_id = trace_id_of(builder.id_source)
    made = builder.spans()
    spans = [span.to_json(trace_id, mark) for span in made]
    streamed = mark is not None and any(count for count, _ in made[0].later_events)
    later = made[0].all_events() if streamed else None
    resource = key_values([("service.name", SERVICE_NAME), ("intentus.root", root or None)])
    doc = {
        "resourceSpans": [
            {
                "resource": {"attributes": resource},
                "scopeSpans": [
                    {
                        "scope": {"name": SCOPE_NAME, "version": producer_version},
                        "spans": spans,
                        "schemaUrl": SCHEMA_URL,
                    }
                ],
                "schemaUrl": SCHEMA_URL,
            }
        ]
    }
    return doc, later


def verdict_attributes(verdict: Verdict | None) -> list[tuple[str, object]]:
    """The verdict as ``intentus.verdict.*`` attributes (reasons sanitized, as shown)."""
    if verdict is None:
        return []
    return [
        ("intentus.verdict.outcome", verdict.outcome.value),
        ("intentus.verdict.outcome_reason", sanitize_line(verdict.outcome_reason)),
        ("intentus.verdict.integrity", verdict.integrity.value),
        ("intentus.verdict.integrity_reason", sanitize_line(verdict.integrity_reason)),
        ("intentus.verdict.replayable", verdict.replayable),
        ("intentus.verdict.replay", verdict.replay.value),
        ("intentus.verdict.replay_reason", sanitize_line(verdict.replay_reason)),
        ("intentus.verdict.needs_attention", verdict.needs_attention),
    ]


class _TraceBuilder:
    """The spans of one execution."""

    def __init__(self, detail: ExecutionDetail, execution_id: str) -> None:
        self.detail = detail
        self.execution_id = execution_id
        verdict = detail.verdict
        # Why nothing the execution says of itself can be believed (None: it can be).
        self.distrust: str | None = (
            sanitize_line(f"untrusted ({verdict.integrity.value}): {verdict.integrity_reason}")
            if verdict is not None and not verdict.trusted
            else None
        )
        self.id_source = id_source(detail, execution_id)  # what the ids are made from
        self.record = detail.result.record
        self.wal = detail.wal
        # Record moments: [header creation, event 1, ..., event n].
        self.record_moments: list[Moment] = []
        if self.record is not None:
            created = unix_nano(self.record.header.created_utc_iso)
            recorded = [created] + [
                self._event_nano(index) for index in range(len(self.record.events))
            ]
            mtime = detail.result.mtime_ns or file_time_ns(detail.result.path)
            self.record_moments = fill_times(recorded, mtime)
        self.wal_moments: list[Moment] = []
        if self.wal is not None and self.wal.entries:
            # From the chain's first break on, an entry's time is its claim (inspect's
            # times leave it out): it places nothing, the entry carries it as a claim.
            trusted = self.wal.trusted_count
            recorded = [
                unix_nano(entry.timestamp_iso) if index < trusted else None
                for index, entry in enumerate(self.wal.entries)
            ]
            # None believed: they end with the record's story, else at the log's file time.
            end = self.record_moments[-1].unix_nano if self.record_moments else None
            self.wal_moments = fill_times(recorded, end or file_time_ns(self.wal.path))

    def _event_nano(self, index: int) -> int | None:
        """The time inspect shows for event ``index`` (its joined WAL entry's, else its
        own), in nanoseconds; None where inspect shows none (then it is synthetic)."""
        times = self.detail.times
        known = times.event_time(index) if times is not None else None
        return nano_of(known.at) if known is not None else None

    # ------------------------------------------------------------------ the whole trace

    def spans(self) -> list[_Span]:
        root = self._root()
        children = (
            self._attempt_spans(root)
            if self.record is not None
            else self._wal_step_spans(root, self.wal)
            if self.wal is not None
            else []
        )
        # A child is never longer than its parent: an attempt's recorded latency may run
        # past the last recorded moment.
        root.end = max((root.end, *(child.end for child in children)), key=_later)
        spans = [root, *children]
        if self.detail.verdict is not None:
            for span in spans:
                span.attributes += [
                    ("intentus.trusted", self.distrust is None),
                    ("intentus.untrusted_reason", self.distrust),
                ]
        return spans

    def _claimed_status(
        self, span: _Span, code: int, message: str = "", error_type: str | None = None
    ) -> None:
        """Set the status an attempt or step recorded for itself, unless the execution is
        untrusted: then neither OK nor ERROR can be believed, and it stays unset."""
        if self.distrust is not None:
            return
        span.status_code, span.status_message = code, message
        if error_type is not None:
            span.attributes.append(("error.type", error_type))

    def _all_moments(self) -> list[Moment]:
        return [*self.record_moments, *self.wal_moments]

    @functools.cached_property
    def _bounds(self) -> tuple[Moment, Moment]:
        moments = self._all_moments()
        if not moments:  # nothing recorded at all: a single instant, the file's mtime
            mtime = self.detail.result.mtime_ns or file_time_ns(self.detail.result.path)
            moment = Moment(mtime, True)
            return moment, moment
        start = min(moments, key=lambda m: (m.unix_nano, m.synthetic))
        end = max(moments, key=_later)
        return start, end

    def _intent(self) -> str:
        if self.record is not None and self.record.intent_name:
            return _label(self.record.intent_name)
        if self.wal is not None and self.wal.intent_name:
            return _label(self.wal.intent_name)
        return ""

    # ------------------------------------------------------------------ the root span

    def _root(self) -> _Span:
        detail, record = self.detail, self.record
        start, end = self._bounds
        intent = self._intent()
        verdict = detail.verdict
        root = _Span(
            span_id=span_id_of(self.id_source, "root"),
            name=f"invoke_workflow {intent}" if intent else "invoke_workflow",
            start=start,
            end=end,
        )
        attrs = root.attributes
        attrs += [
            ("gen_ai.operation.name", "invoke_workflow"),
            ("gen_ai.workflow.name", intent or None),
            ("openinference.span.kind", "CHAIN"),
        ]
        if record is not None:
            attrs += _io(record.envelope, record.final_response, trusted=self.distrust is None)
        attrs += [
            ("intentus.execution_id", _label(self.execution_id)),
            ("intentus.file", _exact_name(listed_file(detail))),
            ("intentus.load_status", detail.result.status.value),
            ("intentus.source", detail.summary.source if detail.summary else None),
        ]
        attrs += self._hash_attributes()
        if record is not None:
            attrs += self._routing_attributes(record)
        attrs += verdict_attributes(verdict)
        if detail.result.damage is not None:
            attrs.append(("intentus.damage", sanitize_line(detail.result.damage.describe())))
        if self.wal is not None:
            attrs += [
                ("intentus.wal.state", self.wal.state),
                ("intentus.wal.chain_valid", self.wal.chain_valid),
                ("intentus.wal.entries", len(self.wal.entries)),
                ("intentus.wal.trusted_entries", self.wal.trusted_count),
            ]
        self._root_status(root, verdict)
        if record is not None:
            root.later_events.append((len(record.events), self._record_events))
        if self.wal is not None:
            root.later_events.append((len(self.wal.entries), self._wal_events))
        return root

    def _hash_attributes(self) -> list[tuple[str, object]]:
        hash_check = self.detail.verify.hash
        stored = self.record.header.envelope_hash if self.record is not None else None
        if stored is None and self.wal is not None:
            stored = self.wal.envelope_hash
        return [
            ("intentus.envelope_hash", _label(stored) if stored is not None else None),
            ("intentus.hash.status", hash_check.status.value if hash_check else None),
            ("intentus.hash.form", hash_check.detected_form if hash_check else None),
        ]

    def _routing_attributes(self, record: ExecutionRecord) -> list[tuple[str, object]]:
        timeline = self.detail.timeline
        decision = record.router_decision
        decision = decision if isinstance(decision, dict) else {}
        replay_reason = record.header.replayable_reason
        envelope = record.envelope if isinstance(record.envelope, dict) else {}
        metadata = envelope.get("metadata")
        metadata = metadata if isinstance(metadata, dict) else {}
        return [
            # The caller's own ids, to find this execution from the caller's telemetry.
            ("intentus.request_id", _label(metadata.get("requestId")) or None),
            ("intentus.caller_trace_id", _label(metadata.get("traceId")) or None),
            ("intentus.routing.strategy", _label(record.strategy) or None),
            ("intentus.decision.agent", _label(decision.get("agent")) or None),
            ("intentus.decision.reason", _label(decision.get("reason")) or None),
            ("intentus.final_status", timeline.final_status if timeline else None),
            ("intentus.attempts", len(timeline.attempts) if timeline else 0),
            ("intentus.record.replayable", record.header.replayable),
            ("intentus.record.replayable_reason", _label(replay_reason) or None),
        ]

    def _root_status(self, root: _Span, verdict: Verdict | None) -> None:
        final = self.record.final_response if self.record is not None else None
        error = final.get("error") if isinstance(final, dict) else None
        if error:
            error_type, message = _error_parts(error)
            root.events.append(
                _event("exception", root.end, _exception_attributes(error_type, message))
            )
        if verdict is None:
            return
        if self.distrust is not None:
            # The one status that holds whatever the record claims: its evidence is broken.
            root.status_code = STATUS_ERROR
            root.status_message = self.distrust
            root.attributes.append(("error.type", verdict.integrity.value))
        elif verdict.outcome is Outcome.SUCCEEDED:
            root.status_code = STATUS_OK
        elif verdict.outcome is Outcome.FAILED:
            root.status_code = STATUS_ERROR
            root.status_message = sanitize_line(verdict.outcome_reason)
            error_type = _error_parts(error)[0] if error else None
            root.attributes.append(("error.type", error_type or OTHER_ERROR))

    def _record_events(self) -> Iterator[dict[str, Any]]:
        if self.record is None:
            return
        for index, event in enumerate(self.record.events):
            payload = event.raw.get("payload")
            agent = event.payload.get("agent")
            yield (
                _event(
                    _label(event.type) or "event",
                    self.record_moments[index + 1],
                    [
                        ("intentus.event.seq", event.seq),
                        ("intentus.event.type", _label(event.type)),
                        ("gen_ai.agent.name", _label(agent) if isinstance(agent, str) else None),
                        ("intentus.event.payload", json_text(payload)),
                    ],
                )
            )

    def _wal_events(self) -> Iterator[dict[str, Any]]:
        log = self.wal
        if log is None:
            return
        for index, entry in enumerate(log.entries):
            agent = _first(entry.payload, "agent_name", "agent")
            yield (
                _event(
                    _label(entry.entry_type) or "wal.entry",
                    self.wal_moments[index],
                    [
                        ("intentus.wal.seq", entry.seq),
                        ("intentus.wal.entry_type", _label(entry.entry_type)),
                        ("gen_ai.agent.name", _label(agent) if isinstance(agent, str) else None),
                        ("intentus.wal.payload", json_text(entry.payload)),
                        ("intentus.wal.entry_hash", _label(entry.entry_hash) or None),
                        ("intentus.wal.hash_ok", entry.hash_ok),
                        # Entries from the first break in the hash chain on cannot be believed.
                        ("intentus.wal.trusted", index < log.trusted_count),
                        (
                            CLAIMED_PREFIX + "time",
                            None
                            if index < log.trusted_count
                            else _label(entry.timestamp_iso) or None,
                        ),
                    ],
                )
            )

    # ------------------------------------------------------------------ attempt spans

    def _attempt_spans(self, root: _Span) -> list[_Span]:
        timeline, record = self.detail.timeline, self.record
        if timeline is None or record is None:
            return []
        answer = timeline.answered_by
        _, root_end = self._bounds
        spans: list[_Span] = []
        for attempt in timeline.attempts:
            spans.append(self._attempt_span(attempt, root, root_end, attempt is answer))
        self._link_fallbacks(record.events, timeline.attempts, spans)
        return spans

    def _moment_of_event(self, index: int | None) -> Moment | None:
        if index is None or not 0 <= index + 1 < len(self.record_moments):
            return None
        return self.record_moments[index + 1]

    def _attempt_span(
        self, attempt: Attempt, root: _Span, root_end: Moment, answered: bool
    ) -> _Span:
        record = self.record
        assert record is not None
        start, end = self._attempt_moments(attempt, root.start, root_end)
        start_payload = self._payload_at(attempt.event_index)
        end_payload = self._payload_at(attempt.end_index)
        span = _Span(
            span_id=span_id_of(self.id_source, f"attempt/{attempt.number}"),
            parent_span_id=root.span_id,
            name=f"invoke_agent {attempt.agent}" if attempt.agent else "invoke_agent",
            start=start,
            end=end,
        )
        agent_id = _first(start_payload, "agent_id", "agentId")
        span.attributes += [
            ("gen_ai.operation.name", "invoke_agent"),
            ("gen_ai.provider.name", PROVIDER_NAME),
            ("gen_ai.agent.name", attempt.agent or None),
            ("gen_ai.agent.id", _label(agent_id) if agent_id is not None else None),
            ("openinference.span.kind", "AGENT"),
        ]
        final = record.final_response if answered else None
        span.attributes += _io(record.envelope, final, trusted=self.distrust is None)
        span.attributes += [
            ("intentus.attempt.number", attempt.number),
            ("intentus.attempt.strategy", attempt.strategy),
            ("intentus.attempt.index", attempt.index),
            ("intentus.attempt.status", attempt.status),
            ("intentus.attempt.latency_ms", attempt.latency_ms),
            ("intentus.attempt.start_seq", attempt.start_seq),
            ("intentus.attempt.end_seq", attempt.end_seq),
            ("intentus.attempt.answered", answered),
            ("intentus.attempt.in_flight", attempt.in_flight),
            # The write-ahead log's entry that ended it, where the record has no end for it.
            ("intentus.attempt.log_end_seq", attempt.log_end_seq),
        ]
        exception = _first(end_payload, "exception", "error")
        if exception is None and attempt.log_end_seq is not None:
            exception = self._log_end_exception(attempt.log_end_seq)
        if attempt.status == "ok":
            self._claimed_status(span, STATUS_OK)
        elif attempt.status == "error":
            error_type, message = _error_parts(exception) if exception is not None else (None, None)
            self._claimed_status(
                span,
                STATUS_ERROR,
                _label(message) if message else "the attempt ended in an error",
                _label(error_type) if error_type else OTHER_ERROR,
            )
            if exception is not None:
                span.events.append(
                    _event("exception", end, _exception_attributes(error_type, message))
                )
        return span

    def _attempt_moments(
        self, attempt: Attempt, root_start: Moment, root_end: Moment
    ) -> tuple[Moment, Moment]:
        """An attempt's start and end: the times every view shows (``detail.times``: its
        events' own, the write-ahead log's, the log's end of an attempt the record left
        open, its recorded latency from its start), else its events' synthetic times; an
        attempt with no end at all lasts as long as anything was recorded after it."""
        timed = self._attempt_times(attempt.number)
        start = _recorded(timed.start if timed else None) or (
            self._moment_of_event(attempt.event_index) or root_start
        )
        end = _recorded(timed.end if timed else None)
        if end is None and timed is not None:
            end = _recorded(_latency_end(timed))
        if end is None:
            end = self._moment_of_event(attempt.end_index) or Moment(root_end.unix_nano, True)
        return start, end

    def _attempt_times(self, number: int) -> AttemptTimes | None:
        times = self.detail.times
        if times is None or not 0 < number <= len(times.attempts):
            return None
        timed = times.attempts[number - 1]
        return timed if timed.number == number else None

    def _log_end_exception(self, seq: int) -> dict[str, Any] | None:
        """The failure the write-ahead log recorded in the entry that ended an attempt."""
        log = self.wal
        if log is None:
            return None
        for step in log.steps:
            if step.ended_seq == seq and (step.failure_type or step.reason):
                failure = {"type": step.failure_type, "message": step.reason}
                return {key: value for key, value in failure.items() if value}
        return None

    def _payload_at(self, index: int | None) -> dict[str, Any]:
        record = self.record
        if record is None or index is None or not 0 <= index < len(record.events):
            return {}
        return record.events[index].payload

    def _link_fallbacks(
        self, events: Sequence[ExecutionEvent], attempts: Sequence[Attempt], spans: list[_Span]
    ) -> None:
        """Each fallback links the attempt it started (the next attempt of the agent it
        names) to the failed attempt it replaced (the last one of the agent it comes from
        that ended before it). One pass over the events."""
        trace_id = trace_id_of(self.id_source)
        starts = {a.event_index: n for n, a in enumerate(attempts) if a.event_index is not None}
        ends = {a.end_index: n for n, a in enumerate(attempts) if a.end_index is not None}
        last_ended: dict[str, int] = {}  # agent -> its attempt that ended last
        waiting: dict[str, list[tuple[int, ExecutionEvent]]] = {}  # agent -> (from, fallback)
        for index, event in enumerate(events):
            started = starts.get(index)
            if started is not None:
                for from_position, fallback in waiting.pop(attempts[started].agent, []):
                    reason = fallback.payload.get("reason")
                    spans[started].links.append(
                        _link(trace_id, spans[from_position].span_id, fallback.seq, reason)
                    )
            ended = ends.get(index)
            if ended is not None:
                last_ended[attempts[ended].agent] = ended
            if event.type == FALLBACK:
                payload = event.payload
                from_agent = _label(_first(payload, "from", "from_agent", "fromAgent"))
                to_agent = _label(_first(payload, "to", "to_agent", "toAgent"))
                if from_agent in last_ended:
                    waiting.setdefault(to_agent, []).append((last_ended[from_agent], event))

    # ------------------------------------------------------------------ WAL-only steps

    def _wal_step_spans(self, root: _Span, log: WalLog) -> list[_Span]:
        by_seq = {entry.seq: index for index, entry in enumerate(log.entries)}
        _, root_end = self._bounds
        spans: list[_Span] = []
        for step in log.steps:
            start_index = by_seq.get(step.started_seq) if step.started_seq is not None else None
            end_index = by_seq.get(step.ended_seq) if step.ended_seq is not None else None
            start = self.wal_moments[start_index] if start_index is not None else root.start
            end = (
                self.wal_moments[end_index]
                if end_index is not None
                else Moment(root_end.unix_nano, True)
            )
            agent = _label(step.agent) if step.agent else ""
            span = _Span(
                span_id=span_id_of(self.id_source, f"step/{step.step_id}"),
                parent_span_id=root.span_id,
                name=f"invoke_agent {agent}" if agent else "invoke_agent",
                start=start,
                end=end,
            )
            span.attributes += [
                ("gen_ai.operation.name", "invoke_agent"),
                ("gen_ai.provider.name", PROVIDER_NAME),
                ("gen_ai.agent.name", agent or None),
                ("openinference.span.kind", "AGENT"),
                ("intentus.step.id", _label(step.step_id)),
                ("intentus.step.status", step.status),
                ("intentus.step.side_effect", step.side_effect),
                ("intentus.step.started_seq", step.started_seq),
                ("intentus.step.ended_seq", step.ended_seq),
                ("intentus.step.input_hash", _label(step.input_hash) if step.input_hash else None),
                (
                    "intentus.step.output_hash",
                    _label(step.output_hash) if step.output_hash else None,
                ),
                ("intentus.attempt.in_flight", step.status == "started"),
            ]
            if step.status == "completed" and step.success is not False:
                self._claimed_status(span, STATUS_OK)
            elif step.status == "failed" or step.success is False:
                self._claimed_status(
                    span,
                    STATUS_ERROR,
                    _label(step.reason) or "the step failed",
                    _label(step.failure_type) or OTHER_ERROR,
                )
                span.events.append(
                    _event("exception", end, _exception_attributes(step.failure_type, step.reason))
                )
            spans.append(span)
        self._link_wal_fallbacks(log, spans)
        return spans

    def _link_wal_fallbacks(self, log: WalLog, spans: list[_Span]) -> None:
        """As ``_link_fallbacks``, by the entries' sequence numbers."""
        trace_id = trace_id_of(self.id_source)
        # (seq, order at one seq: ends, then fallbacks, then starts; what, which)
        moments: list[tuple[int, int, int]] = []
        for n, step in enumerate(log.steps):
            if step.ended_seq is not None:
                moments.append((step.ended_seq, 0, n))
            if step.started_seq is not None:
                moments.append((step.started_seq, 2, n))
        moments += [(f.seq, 1, n) for n, f in enumerate(log.fallbacks)]
        moments.sort()
        last_ended: dict[str | None, int] = {}
        waiting: dict[str | None, list[tuple[int, int]]] = {}  # agent -> (from step, fallback)
        for _, kind, n in moments:
            if kind == 0:
                last_ended[log.steps[n].agent] = n
            elif kind == 1:
                fallback = log.fallbacks[n]
                if not fallback.exhausted and fallback.from_agent in last_ended:
                    waiting.setdefault(fallback.to_agent, []).append(
                        (last_ended[fallback.from_agent], n)
                    )
            else:
                for from_step, f in waiting.pop(log.steps[n].agent, []):
                    fallback = log.fallbacks[f]
                    spans[n].links.append(
                        _link(trace_id, spans[from_step].span_id, fallback.seq, fallback.reason)
                    )


def _io(envelope: object, response: object, *, trusted: bool) -> list[tuple[str, object]]:
    """The envelope and final response as OpenInference's ``input.*``/``output.*``; of an
    untrusted execution, under ``intentus.claimed.`` instead: possibly edited, they are
    what the record claims, and a trace viewer shows ``input.value``/``output.value`` as
    the span's facts."""
    prefix = "" if trusted else CLAIMED_PREFIX
    out: list[tuple[str, object]] = []
    for name, value in (("input", envelope), ("output", response)):
        if value is not None:
            out += [
                (f"{prefix}{name}.value", json_text(value)),
                (f"{prefix}{name}.mime_type", JSON_MIME),
            ]
    return out


def _link(trace_id: str, span_id: str, seq: int | None, reason: object) -> dict[str, Any]:
    return {
        "traceId": trace_id,
        "spanId": span_id,
        "attributes": key_values(
            [
                ("intentus.link.type", "fallback_from"),
                ("intentus.fallback.seq", seq),
                ("intentus.fallback.reason", _label(reason) if reason is not None else None),
            ]
        ),
    }


def _error_parts(error: object) -> tuple[str | None, str | None]:
    """(type, message) of a recorded error: ``{code, message}`` (IntentusNet's ErrorInfo),
    ``{type, message}``, or a bare message."""
    if isinstance(error, dict):
        kind = _first(error, "type", "code", "failure_type")
        message = _first(error, "message", "reason")
        return (
            str(kind) if kind is not None else None,
            str(message) if message is not None else json_text(error),
        )
    return None, str(error)


def _exception_attributes(error_type: str | None, message: str | None) -> list[tuple[str, object]]:
    return [
        ("exception.type", _label(error_type) if error_type else None),
        ("exception.message", _label(message) if message else None),
    ]
