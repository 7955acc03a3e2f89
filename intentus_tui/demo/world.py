"""A realistic ``.intentusnet`` tree for demos, screenshots and tests.

A small simulated router and its agents produce records the way the real writers do:

- **runtime form**: what IntentusNet 1.3.0's ``IntentRouter`` + ``FileExecutionStore`` write
  (UUID ids, bare-hex envelope hash, ``{agent, strategy, index?}`` event payloads, the
  envelope's ``routingMetadata`` included, ``json.dump(..., ensure_ascii=False, indent=2)``
  in place). Like 1.3.0, a response carrying an error is not JSON-serializable, so the file
  stops right after ``"error": `` -- the demo runs the very same ``json.dump`` call over an
  equally unserializable object, so the truncation is byte-for-byte what 1.3.0 leaves.
- **documented form** (seeds 000/001/003): ``exec-xxxxxxxx`` ids, ``sha256:`` hash without
  ``routingMetadata``, ``latency_ms``/``attempt_num``/``reason`` in events, written whole
  with ``json.dump(record, f)``, and a write-ahead log beside each record.

Everything is derived from one seeded RNG and a fake clock: the same seed gives the same
bytes. No intentusnet import: it is only a test dependency.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, Literal

from intentus_tui.core.fsio import atomic_write, temp_target
from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.wal.read import encode_wal_line, make_wal_entry
from intentus_tui.demo.recorder import ExecutionRecorder

MANIFEST_NAME = "demo-manifest.json"
DEMO_EPOCH = datetime(2026, 1, 5, 9, 0, 0, tzinfo=UTC)

Form = Literal["runtime", "documented", "wal_only", "recorder"]
Outcome = Literal["ok", "error", "exception"]

# Scenario name -> what it shows. Every one of these is realised at least once.
SCENARIOS: dict[str, str] = {
    "success": "completed on the first attempt",
    "fallback_chain": "fallback through 2-4 attempts (errors and exceptions), ending in success",
    "broadcast": "broadcast to every agent; the last success answers (1.3.0)",
    "parallel": "parallel attempts; the first success answers (1.3.0)",
    "all_agents_failed": "every agent failed: a complete record with an error response",
    "crash_mid_attempt": "the process died while an attempt was in flight: partial record + WAL",
    "crash_wal_only": "the process died before any record file existed: only the WAL remains",
    "manually_invalidated": "an operator marked the record not replayable",
    "recording_failure": "the recorder lost an event; the record is marked not replayable",
    "tampered_envelope": "the envelope was edited after it was hashed",
    "tampered_final_response": "the final response was edited after it was recorded",
    "truncated_error_record": 'an error response as 1.3.0 writes it: the file ends after "error": ',
    "large_payload": "an envelope payload over 1 MB",
    "wal_torn_tail": "the process died while appending to the WAL: its last line is torn",
    "wal_tampered": "a WAL entry was edited after it was written: the hash chain breaks",
    "runtime_form": "records exactly as IntentusNet 1.3.0 writes them",
    "documented_form": "records in the documented form (exec- ids, sha256: hashes)",
}

# Scenarios that need a dedicated execution (the two *_form entries are derived).
_SPECIAL = (
    "fallback_chain",
    "fallback_chain",
    "fallback_chain",
    "broadcast",
    "parallel",
    "all_agents_failed",
    "crash_mid_attempt",
    "crash_mid_attempt",
    "crash_wal_only",
    "manually_invalidated",
    "recording_failure",
    "tampered_envelope",
    "tampered_envelope",
    "tampered_final_response",
    "truncated_error_record",
    "large_payload",
    "wal_torn_tail",
    "wal_tampered",
    "success",
    "success",
)
MIN_COUNT = len(_SPECIAL)
LARGE_PAYLOAD_BYTES = 1_200_000


class DemoError(Exception):
    """The demo world cannot be written where asked."""


@dataclass(frozen=True)
class DemoManifest:
    """Which execution ids realise which scenario, and in which form each was written."""

    root: Path  # the .intentusnet directory
    seed: int
    scenarios: Mapping[str, tuple[str, ...]]
    forms: Mapping[str, Form]
    files: tuple[str, ...] = ()  # every file written, relative to ``root``

    @property
    def records_dir(self) -> Path:
        return self.root / "records"

    @property
    def wal_dir(self) -> Path:
        return self.root / "wal"

    @property
    def execution_ids(self) -> tuple[str, ...]:
        return tuple(self.forms)

    def ids(self, scenario: str) -> tuple[str, ...]:
        return self.scenarios.get(scenario, ())

    def first(self, scenario: str) -> str:
        ids = self.ids(scenario)
        if not ids:
            raise KeyError(scenario)
        return ids[0]

    def record_path(self, execution_id: str) -> Path:
        return self.records_dir / f"{execution_id}.json"

    def wal_path(self, execution_id: str) -> Path:
        return self.wal_dir / f"{execution_id}.wal"

    def to_json(self) -> dict[str, Any]:
        return {
            "seed": self.seed,
            "scenarios": {k: list(v) for k, v in self.scenarios.items()},
            "descriptions": SCENARIOS,
            "forms": dict(self.forms),
            "files": list(self.files),
        }


# --------------------------------------------------------------------------------------
# Deterministic sources: a fake clock and RNG-derived ids
# --------------------------------------------------------------------------------------


class FakeClock:
    """Wall-clock-looking timestamps from a fixed start, advanced explicitly.

    Each reading also moves time on by a few (seeded) microseconds, as a real clock would
    between two ``now_iso()`` calls.
    """

    def __init__(self, rng: random.Random, start: datetime = DEMO_EPOCH) -> None:
        self.rng = rng
        self.now = start

    def advance(self, ms: float) -> None:
        self.now += timedelta(milliseconds=ms)

    def iso(self) -> str:
        """``datetime.isoformat()`` as IntentusNet's ``now_iso`` prints it."""
        self.now += timedelta(microseconds=self.rng.randint(3, 60))
        return self.now.isoformat()

    def iso_z(self) -> str:
        return self.now.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


class IdSource:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def uuid4(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def hex(self, digits: int) -> str:
        return f"{self.rng.getrandbits(4 * digits):0{digits}x}"

    def exec_id(self) -> str:
        return f"exec-{self.hex(8)}"


# --------------------------------------------------------------------------------------
# The simulated world: intents, agents, behaviours
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class IntentSpec:
    name: str
    agents: tuple[str, ...]  # in the router's (deterministic) order
    side_effect: str  # read_only | reversible | irreversible
    make_payload: Callable[[random.Random], dict[str, Any]]
    make_output: Callable[[random.Random], dict[str, Any]]


def _pick(rng: random.Random, options: tuple[Any, ...]) -> Any:
    return options[rng.randrange(len(options))]


_DOCS = (
    "Q3 board minutes",
    "Incident 4471 post-mortem",
    "Vendor contract (Müller GmbH)",
    "東京オフィス移転計画",
)
_TEXTS = ("Grüße aus München!", "Où est la gare ?", "東京の天気はどうですか", "Привет, как дела?")
_QUERIES = (
    "reset 2FA for SSO users",
    "refund policy EU",
    "rate limits for /v2/search",
    "on-call rota ✓",
)

INTENTS: tuple[IntentSpec, ...] = (
    IntentSpec(
        "SummarizeDocument",
        ("summarizer-gpt", "summarizer-claude", "summarizer-local", "summarizer-extractive"),
        "read_only",
        lambda r: {
            "documentTitle": _pick(r, _DOCS),
            "maxWords": _pick(r, (80, 120, 200)),
            "language": "en",
        },
        lambda r: {
            "summary": "Revenue grew 12% quarter on quarter; two risks flagged for follow-up.",
            "wordCount": r.randint(40, 120),
            "model": _pick(r, ("gpt-4o-mini", "claude-3-haiku", "llama-3-8b")),
        },
    ),
    IntentSpec(
        "TranslateText",
        ("translator-deepl", "translator-llm", "translator-opus-mt"),
        "read_only",
        lambda r: {"text": _pick(r, _TEXTS), "targetLanguage": "en"},
        lambda r: {
            "translation": "Greetings from Munich!",
            "detectedSource": "de",
            "confidence": round(r.uniform(0.8, 0.99), 3),
        },
    ),
    IntentSpec(
        "SearchKnowledgeBase",
        ("kb-search-primary", "kb-search-replica", "kb-search-cache", "kb-search-cold"),
        "read_only",
        lambda r: {"query": _pick(r, _QUERIES), "topK": 3},
        lambda r: {
            "hits": [
                {
                    "id": f"kb-{r.randint(100, 999)}",
                    "score": round(r.uniform(0.5, 0.95), 3),
                    "title": t,
                }
                for t in ("SSO troubleshooting", "Security FAQ", "Account recovery")
            ]
        },
    ),
    IntentSpec(
        "ClassifyTicket",
        ("ticket-classifier", "ticket-classifier-backup"),
        "read_only",
        lambda r: {
            "ticketId": f"T-{r.randint(1000, 9999)}",
            "subject": "Charged twice for March invoice",
        },
        lambda r: {
            "label": _pick(r, ("billing", "bug", "access")),
            "confidence": round(r.uniform(0.6, 0.99), 3),
        },
    ),
    IntentSpec(
        "UpdateCustomerRecord",
        ("crm-writer", "crm-writer-eu"),
        "reversible",
        lambda r: {
            "customerId": f"cus_{r.getrandbits(40):010x}",
            "fields": {"tier": "gold", "city": "Zürich"},
        },
        lambda r: {"updated": True, "version": r.randint(2, 40)},
    ),
    IntentSpec(
        "ChargeCard",
        ("payments-stripe", "payments-adyen"),
        "irreversible",
        lambda r: {
            "customerId": f"cus_{r.getrandbits(40):010x}",
            "amountCents": r.choice((4599, 1299, 25000)),
            "currency": "EUR",
        },
        lambda r: {"chargeId": f"ch_{r.getrandbits(64):016x}", "status": "captured"},
    ),
    IntentSpec(
        "SendEmail",
        ("mailer-ses", "mailer-smtp"),
        "irreversible",
        lambda r: {"to": "ops@example.com", "template": "incident-update", "locale": "de-DE"},
        lambda r: {"messageId": f"<{r.getrandbits(48):012x}@mail.example.com>"},
    ),
)
_INTENTS_BY_NAME = {spec.name: spec for spec in INTENTS}

_ERRORS: tuple[tuple[str, str, str], ...] = (  # code, message, documented fallback reason
    ("AGENT_TIMEOUT", "upstream model did not answer within 30000 ms", "timeout"),
    ("RATE_LIMIT", "429 Too Many Requests: retry after 12s", "rate_limited"),
    ("INTERNAL_AGENT_ERROR", "model returned invalid JSON: Expecting ',' delimiter", "agent_error"),
    ("AGENT_UNAVAILABLE", "circuit breaker open for summarizer pool", "unavailable"),
)
_EXCEPTIONS: tuple[str, ...] = (
    "ConnectionError: [Errno 111] Connection refused",
    "TimeoutError: remote agent did not answer within 10.0s",
    "ssl.SSLError: [SSL: WRONG_VERSION_NUMBER] wrong version number",
)


@dataclass(frozen=True)
class AgentRun:
    """How one agent behaves in one execution."""

    name: str
    outcome: Outcome
    latency_ms: float
    error_code: str = ""
    message: str = ""
    reason: str = ""  # the documented form's fallback reason


class ErrorInfo:
    """Stands in for ``intentusnet.protocol.response.ErrorInfo``: a dataclass json can't encode.

    1.3.0 stores the response's ``__dict__`` in the record, so this object reaches
    ``json.dump`` and stops it -- exactly where and how the real one does.
    """

    def __init__(self, code: str, message: str, retryable: bool = False) -> None:
        self.code = code
        self.message = message
        self.retryable = retryable
        self.details: dict[str, Any] = {}

    def as_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "message": self.message,
            "retryable": self.retryable,
            "details": self.details,
        }


def dump_like_intentusnet_1_3_0(record: Mapping[str, Any]) -> bytes:
    """What ``FileExecutionStore.save`` leaves on disk for ``record`` (truncated if it raises)."""
    buffer = io.StringIO()
    with contextlib.suppress(TypeError):
        json.dump(record, buffer, ensure_ascii=False, indent=2)
    return buffer.getvalue().encode("utf-8")


def dump_documented(record: Mapping[str, Any]) -> bytes:
    """The documented store's ``json.dump(record.to_dict(), f)``: defaults, one line."""
    return json.dumps(record).encode("utf-8")


# --------------------------------------------------------------------------------------
# One simulated execution
# --------------------------------------------------------------------------------------


@dataclass
class _Events:
    items: list[dict[str, Any]] = field(default_factory=list)

    def add(self, event_type: str, payload: dict[str, Any]) -> None:
        self.items.append({"seq": len(self.items) + 1, "type": event_type, "payload": payload})


@dataclass
class _Wal:
    """WAL entries as (entry_type, payload, timestamp) until rendered with their hash chain."""

    execution_id: str
    entries: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)

    def add(self, clock: FakeClock, entry_type: str, payload: dict[str, Any]) -> None:
        self.entries.append((entry_type, payload, clock.iso()))

    def render(self) -> bytes:
        out = io.BytesIO()
        prev: str | None = None
        for seq, (entry_type, payload, ts) in enumerate(self.entries, start=1):
            entry = make_wal_entry(
                seq=seq,
                execution_id=self.execution_id,
                timestamp_iso=ts,
                entry_type=entry_type,
                payload=payload,
                prev_hash=prev,
            )
            prev = entry["entry_hash"]
            out.write(encode_wal_line(entry))
        return out.getvalue()


@dataclass
class Execution:
    """One simulated execution and the files it leaves behind."""

    execution_id: str
    form: Form
    created: datetime
    scenarios: list[str]
    record: dict[str, Any] | None = None  # None: no record file
    wal: _Wal | None = None
    record_bytes: bytes | None = None  # set when rendered
    wal_bytes: bytes | None = None

    def render(self) -> None:
        if self.record is not None and self.record_bytes is None:
            dump = dump_documented if self.form == "documented" else dump_like_intentusnet_1_3_0
            self.record_bytes = dump(self.record)
        if self.wal is not None and self.wal_bytes is None:
            self.wal_bytes = self.wal.render()


def _digest(rng: random.Random) -> str:
    return f"{rng.getrandbits(256):064x}"


class DemoSimulator:
    """A tiny router + agents that write what IntentusNet would write."""

    def __init__(self, seed: int, start: datetime = DEMO_EPOCH) -> None:
        self.rng = random.Random(seed)
        self.clock = FakeClock(self.rng, start)
        self.ids = IdSource(self.rng)
        self.seen: Counter[str] = Counter()  # scenario -> how many built so far (variants)

    # ---- shared pieces -----------------------------------------------------------------

    def agent_runs(self, spec: IntentSpec, outcomes: list[Outcome]) -> list[AgentRun]:
        runs = []
        for name, outcome in zip(spec.agents, outcomes, strict=False):
            code, message, reason = _pick(self.rng, _ERRORS)
            if outcome == "exception":
                message, reason = _pick(self.rng, _EXCEPTIONS), "exception"
            latency = round(
                self.rng.uniform(35, 900) if outcome != "error" else self.rng.uniform(200, 3000), 1
            )
            runs.append(AgentRun(name, outcome, latency, code, message, reason))
        return runs

    def envelope(
        self,
        spec: IntentSpec,
        strategy: str,
        trace_id: str,
        *,
        payload: dict[str, Any] | None = None,
        target: str | None = None,
    ) -> dict[str, Any]:
        sent = self.clock.iso()
        return {
            "version": "1.0",
            "intent": {"name": spec.name, "version": "1.0"},
            "payload": payload if payload is not None else spec.make_payload(self.rng),
            "context": {
                "sourceAgent": "api-gateway",
                "timestamp": sent,
                "priority": _pick(self.rng, ("normal", "normal", "high")),
                "tags": ["tenant:acme", _pick(self.rng, ("env:prod", "env:staging"))],
            },
            "metadata": {
                "requestId": self.ids.uuid4(),
                "source": "api-gateway",
                "createdAt": sent,
                "traceId": trace_id,
                "identityChain": [],
            },
            "routing": {"strategy": strategy, "targetAgent": target, "fallbackAgents": []},
            "routingMetadata": {"decisionPath": [], "retries": 0},
        }

    def agent_response(self, spec: IntentSpec, run: AgentRun, trace_id: str) -> dict[str, Any]:
        """``BaseAgent.handle``'s response as the router stores it (``response.__dict__``)."""
        ok = run.outcome == "ok"
        return {
            "version": "1.0",
            "status": "success" if ok else "error",
            "payload": spec.make_output(self.rng) if ok else None,
            "metadata": {"agent": run.name, "traceId": trace_id, "timestamp": self.clock.iso()},
            "error": None if ok else ErrorInfo(run.error_code, run.message),
        }

    # ---- runtime form: IntentusNet 1.3.0's IntentRouter.route_intent --------------------

    def runtime(
        self,
        spec: IntentSpec,
        strategy: str,
        runs: list[AgentRun],
        *,
        payload: dict[str, Any] | None = None,
    ) -> Execution:
        self.clock.advance(self.rng.uniform(2_000, 90_000))
        trace_id = self.ids.uuid4()
        target = runs[0].name if strategy == "direct" and self.rng.random() < 0.5 else None
        env = self.envelope(spec, strategy, trace_id, payload=payload, target=target)
        self.clock.advance(self.rng.uniform(0.2, 3))
        execution_id = self.ids.uuid4()
        created = self.clock.now
        header = {
            "executionId": execution_id,
            "createdUtcIso": self.clock.iso(),
            "envelopeHash": runtime_envelope_hash(env),
            "replayable": True,
            "replayableReason": None,
        }
        events = _Events()
        events.add("INTENT_RECEIVED", {"traceId": trace_id, "intent": spec.name})
        route = {
            "direct": self._route_direct,
            "fallback": self._route_fallback,
            "broadcast": self._route_broadcast,
            "parallel": self._route_parallel,
        }[strategy]
        decision, final = route(spec, runs, trace_id, events)
        if decision is not None:
            events.add("ROUTER_DECISION", decision)
        events.add("FINAL_RESPONSE", final)
        record = {
            "header": header,
            "envelope": env,
            "routerDecision": decision,
            "events": events.items,
            "finalResponse": final,
        }
        return Execution(execution_id, "runtime", created, [], record)

    def _decision(self, agent: str, intent: str, reason: str) -> dict[str, Any]:
        return {"agent": agent, "intent": intent, "reason": reason, "timestamp": self.clock.iso()}

    def _router_error(self, agent: str, trace_id: str, error: ErrorInfo) -> dict[str, Any]:
        """The response ``route_intent`` builds when no agent produced a usable one."""
        return {
            "version": "1.0",
            "status": "error",
            "payload": None,
            "metadata": {"traceId": trace_id, "agent": agent, "timestamp": self.clock.iso()},
            "error": error,
        }

    def _route_direct(
        self, spec: IntentSpec, runs: list[AgentRun], trace_id: str, events: _Events
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        run = runs[0]
        events.add("AGENT_ATTEMPT_START", {"agent": run.name, "strategy": "DIRECT"})
        self.clock.advance(run.latency_ms)
        if run.outcome == "exception":
            # agent.handle raised: route_intent's except-branch answers; no end, no decision.
            response = {
                "version": "1.0",
                "status": "error",
                "payload": None,
                "metadata": {"agent": run.name, "timestamp": self.clock.iso(), "traceId": trace_id},
                "error": ErrorInfo("ROUTING_ERROR", run.message),
            }
            return None, response
        response = self.agent_response(spec, run, trace_id)
        ok = run.outcome == "ok"
        events.add("AGENT_ATTEMPT_END", {"agent": run.name, "status": "ok" if ok else "error"})
        return self._decision(
            run.name, spec.name, "direct match" if ok else "routing failed"
        ), response

    def _all_failed(
        self, strategy: str, spec: IntentSpec, trace_id: str, last_error: ErrorInfo | None
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        """1.3.0's ending when no agent succeeded: a "routing failed" decision, error response."""
        decision = self._decision(strategy, spec.name, "routing failed")
        error = last_error or ErrorInfo("ROUTING_ERROR", f"All {strategy} agents failed")
        return decision, self._router_error(strategy, trace_id, error)

    def _route_fallback(
        self, spec: IntentSpec, runs: list[AgentRun], trace_id: str, events: _Events
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        last_error: ErrorInfo | None = None
        for index, run in enumerate(runs):
            events.add(
                "AGENT_ATTEMPT_START", {"agent": run.name, "strategy": "FALLBACK", "index": index}
            )
            self.clock.advance(run.latency_ms)
            if run.outcome == "exception":
                last_error = ErrorInfo("INTERNAL_AGENT_ERROR", run.message)
                events.add(
                    "AGENT_ATTEMPT_END",
                    {"agent": run.name, "status": "error", "exception": run.message},
                )
            else:
                response = self.agent_response(spec, run, trace_id)
                events.add(
                    "AGENT_ATTEMPT_END",
                    {"agent": run.name, "status": "ok" if run.outcome == "ok" else "error"},
                )
                if run.outcome == "ok":
                    return self._decision(
                        run.name, spec.name, f"fallback success at index {index}"
                    ), response
                last_error = response["error"]
            if index + 1 < len(runs):
                events.add("FALLBACK_TRIGGERED", {"from": run.name, "to": runs[index + 1].name})
        return self._all_failed("fallback", spec, trace_id, last_error)

    def _route_broadcast(
        self, spec: IntentSpec, runs: list[AgentRun], trace_id: str, events: _Events
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        last_success: dict[str, Any] | None = None
        last_agent = "broadcast"
        last_error: ErrorInfo | None = None
        for run in runs:
            events.add("AGENT_ATTEMPT_START", {"agent": run.name, "strategy": "BROADCAST"})
            self.clock.advance(run.latency_ms)
            if run.outcome == "exception":
                last_error = ErrorInfo("INTERNAL_AGENT_ERROR", run.message)
            else:
                response = self.agent_response(spec, run, trace_id)
                if run.outcome == "ok":
                    last_success, last_agent = response, run.name
                else:
                    last_error = response["error"]
            # 1.3.0 marks "ok" only the agent that is (so far) the last success.
            status = "ok" if last_success is not None and last_agent == run.name else "error"
            events.add("AGENT_ATTEMPT_END", {"agent": run.name, "status": status})
        if last_success is not None:
            return self._decision(last_agent, spec.name, "broadcast last success"), last_success
        return self._all_failed("broadcast", spec, trace_id, last_error)

    def _route_parallel(
        self, spec: IntentSpec, runs: list[AgentRun], trace_id: str, events: _Events
    ) -> tuple[dict[str, Any] | None, dict[str, Any]]:
        last_error: ErrorInfo | None = None
        elapsed = 0.0
        for run in sorted(runs, key=lambda r: r.latency_ms):  # as_completed order
            events.add("AGENT_ATTEMPT_START", {"agent": run.name, "strategy": "PARALLEL"})
            self.clock.advance(run.latency_ms - elapsed)
            elapsed = run.latency_ms
            if run.outcome == "exception":
                last_error = ErrorInfo("INTERNAL_AGENT_ERROR", run.message)
                events.add(
                    "AGENT_ATTEMPT_END",
                    {"agent": run.name, "status": "error", "exception": run.message},
                )
                continue
            response = self.agent_response(spec, run, trace_id)
            events.add(
                "AGENT_ATTEMPT_END",
                {"agent": run.name, "status": "ok" if run.outcome == "ok" else "error"},
            )
            if run.outcome == "ok":
                return self._decision(run.name, spec.name, "parallel first success"), response
            last_error = response["error"]
        return self._all_failed("parallel", spec, trace_id, last_error)

    # ---- documented form, recorded with a WAL -------------------------------------------

    def documented(
        self,
        spec: IntentSpec,
        runs: list[AgentRun],
        *,
        crash_in: int | None = None,
        fallback_keys: tuple[str, str] = ("from", "to"),
    ) -> Execution:
        """Fallback routing as the documented recorder tells it. ``crash_in``: index of the
        attempt during which the process dies (no end, no final response)."""
        self.clock.advance(self.rng.uniform(2_000, 90_000))
        strategy = "fallback" if len(runs) > 1 else "direct"
        env = self.envelope(spec, strategy, self.ids.uuid4())
        execution_id = self.ids.exec_id()
        created = self.clock.now
        envelope_hash = documented_envelope_hash(env)
        events = _Events()
        wal = _Wal(execution_id)
        events.add("INTENT_RECEIVED", {"intent": spec.name, "timestamp": self.clock.iso_z()})
        wal.add(
            self.clock,
            "execution.started",
            {
                "execution_id": execution_id,
                "envelope_hash": envelope_hash,
                "intent_name": spec.name,
            },
        )
        answer: tuple[AgentRun, dict[str, Any]] | None = None
        for index, run in enumerate(runs):
            step_id = f"attempt-{index + 1}"
            events.add("AGENT_ATTEMPT_START", {"agent": run.name, "attempt_num": index + 1})
            wal.add(
                self.clock,
                "step.started",
                {
                    "step_id": step_id,
                    "agent_name": run.name,
                    "side_effect": spec.side_effect,
                    "contracts": {"timeout_ms": 30000},
                    "input_hash": _digest(self.rng),
                },
            )
            self.clock.advance(run.latency_ms)
            if index == crash_in:
                header = self._documented_header(
                    execution_id,
                    created,
                    envelope_hash,
                    replayable=False,
                    reason="execution_incomplete",
                )
                record = {
                    "header": header,
                    "envelope": env,
                    "routerDecision": None,
                    "events": events.items,
                    "finalResponse": None,
                }
                return Execution(execution_id, "documented", created, [], record, wal)
            if run.outcome == "ok":
                events.add(
                    "AGENT_ATTEMPT_END",
                    {"agent": run.name, "status": "success", "latency_ms": run.latency_ms},
                )
                wal.add(
                    self.clock,
                    "step.completed",
                    {"step_id": step_id, "output_hash": _digest(self.rng), "success": True},
                )
                answer = (run, spec.make_output(self.rng))
                break
            end = {
                "agent": run.name,
                "status": "error",
                "latency_ms": run.latency_ms,
                "error": run.message,
            }
            events.add("AGENT_ATTEMPT_END", end)
            wal.add(
                self.clock,
                "step.failed",
                {
                    "step_id": step_id,
                    "failure_type": run.reason,
                    "reason": run.message,
                    "recoverable": True,
                },
            )
            if index + 1 < len(runs):
                src, dst = fallback_keys
                events.add(
                    "FALLBACK_TRIGGERED",
                    {src: run.name, dst: runs[index + 1].name, "reason": run.reason},
                )
                wal.add(
                    self.clock,
                    "fallback.triggered",
                    {
                        "from_agent": run.name,
                        "to_agent": runs[index + 1].name,
                        "reason": run.reason,
                    },
                )
        if answer is not None:
            run, output = answer
            decision = {
                "agent": run.name,
                "intent": spec.name,
                "reason": "first healthy agent" if run is runs[0] else "fallback succeeded",
            }
            final = {
                "version": "1.0",
                "status": "success",
                "payload": output,
                "metadata": {"agent": run.name, "latency_ms": run.latency_ms},
                "error": None,
            }
        else:
            last = runs[-1]
            wal.add(
                self.clock,
                "fallback.exhausted",
                {"tried": [r.name for r in runs], "reason": "all agents failed"},
            )
            decision = {"agent": last.name, "intent": spec.name, "reason": "all agents failed"}
            error = ErrorInfo(
                last.error_code or "ROUTING_ERROR", "All fallback agents failed"
            ).as_dict()
            error["details"] = {"attempts": len(runs), "last_error": last.message}
            final = {
                "version": "1.0",
                "status": "error",
                "payload": None,
                "metadata": {"agent": last.name},
                "error": error,
            }
        events.add("ROUTER_DECISION", decision)
        events.add(
            "FINAL_RESPONSE", {"status": final["status"], "has_error": final["error"] is not None}
        )
        if answer is not None:
            wal.add(
                self.clock,
                "execution.completed",
                {"execution_id": execution_id, "response_hash": _digest(self.rng)},
            )
        else:
            wal.add(
                self.clock,
                "execution.failed",
                {
                    "execution_id": execution_id,
                    "failure_type": "fallback_exhausted",
                    "reason": "all agents failed",
                    "recoverable": False,
                },
            )
        header = self._documented_header(execution_id, created, envelope_hash)
        record = {
            "header": header,
            "envelope": env,
            "routerDecision": decision,
            "events": events.items,
            "finalResponse": final,
        }
        return Execution(execution_id, "documented", created, [], record, wal)

    def _documented_header(
        self,
        execution_id: str,
        created: datetime,
        envelope_hash: str,
        *,
        replayable: bool = True,
        reason: str | None = None,
    ) -> dict[str, Any]:
        header: dict[str, Any] = {
            "executionId": execution_id,
            "createdUtcIso": created.strftime("%Y-%m-%dT%H:%M:%SZ"),
            "envelopeHash": envelope_hash,
            "replayable": replayable,
        }
        if reason is not None:
            header["replayableReason"] = reason
        return header


# --------------------------------------------------------------------------------------
# Scenarios
# --------------------------------------------------------------------------------------


def _spec(name: str) -> IntentSpec:
    return _INTENTS_BY_NAME[name]


def _realise(sim: DemoSimulator, scenario: str) -> Execution:
    """Build one execution that shows ``scenario``."""
    rng = sim.rng
    variant = sim.seen[scenario]
    sim.seen[scenario] += 1
    if scenario == "success":
        spec = _pick(rng, INTENTS)
        if rng.random() < 0.35:
            execution = sim.documented(spec, sim.agent_runs(spec, ["ok"]))
        else:
            execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]))
    elif scenario == "fallback_chain":
        execution = _fallback_chain(sim)
    elif scenario in ("broadcast", "parallel"):
        spec = _spec("SearchKnowledgeBase")
        outcomes: list[Outcome] = (
            ["error", "ok", "exception", "ok"]
            if scenario == "broadcast"
            else ["exception", "error", "ok", "ok"]
        )
        execution = sim.runtime(spec, scenario, sim.agent_runs(spec, outcomes))
    elif scenario == "all_agents_failed":
        spec = _spec("TranslateText")
        execution = sim.documented(
            spec,
            sim.agent_runs(spec, ["error", "exception", "error"]),
            fallback_keys=("from_agent", "to_agent"),
        )
    elif scenario == "crash_mid_attempt":
        execution = _crash_mid_attempt(sim, variant)
    elif scenario == "crash_wal_only":
        spec = _spec("UpdateCustomerRecord")
        execution = sim.documented(spec, sim.agent_runs(spec, ["ok"]), crash_in=0)
        execution.record, execution.form = None, "wal_only"
    elif scenario == "wal_torn_tail":
        spec = _spec("SendEmail")
        execution = sim.documented(spec, sim.agent_runs(spec, ["error", "ok"]), crash_in=1)
        assert execution.wal is not None
        execution.wal.add(
            sim.clock,
            "step.completed",
            {"step_id": "attempt-2", "output_hash": _digest(rng), "success": True},
        )
        whole = execution.wal.render()
        execution.wal_bytes = whole[: len(whole) - 57]  # the last append was cut short
    elif scenario == "wal_tampered":
        spec = _spec("ClassifyTicket")
        execution = sim.documented(spec, sim.agent_runs(spec, ["error", "ok"]))
        _tamper_wal(execution)
    elif scenario == "truncated_error_record":
        spec = _spec("SummarizeDocument")
        execution = sim.runtime(
            spec, "fallback", sim.agent_runs(spec, ["error", "exception", "error"])
        )
    elif scenario == "large_payload":
        spec = _spec("SummarizeDocument")
        payload = {
            "documentTitle": "Annual report 2025 (full text)",
            "maxWords": 300,
            "language": "en",
            "document": _large_text(rng, LARGE_PAYLOAD_BYTES),
        }
        execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]), payload=payload)
    elif scenario == "manually_invalidated":
        spec = _spec("ChargeCard")
        execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]))
        assert execution.record is not None
        execution.record["header"].update(replayable=False, replayableReason="manually_invalidated")
    elif scenario == "recording_failure":
        spec = _spec("SummarizeDocument")
        execution = sim.documented(spec, sim.agent_runs(spec, ["error", "ok"]))
        assert execution.record is not None
        events = execution.record["events"]
        lost = next(i for i, e in enumerate(events) if e["type"] == "AGENT_ATTEMPT_END")
        del events[lost]  # the recorder failed to persist this event; its seq is gone too
        execution.record["header"].update(replayable=False, replayableReason="recording_failure")
    elif scenario == "tampered_envelope":
        execution = _tampered_envelope(sim, variant)
    elif scenario == "tampered_final_response":
        spec = _spec("ClassifyTicket")
        execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]))
        assert execution.record is not None
        final = execution.record["finalResponse"]
        # a new dict: the FINAL_RESPONSE event keeps what was really answered
        execution.record["finalResponse"] = {
            **final,
            "payload": {"label": "refund_approved", "confidence": 0.99},
        }
    else:  # pragma: no cover - programming error
        raise ValueError(scenario)
    execution.scenarios.append(scenario)
    return execution


def _fallback_chain(sim: DemoSimulator) -> Execution:
    rng = sim.rng
    spec = _pick(rng, (_spec("SummarizeDocument"), _spec("SearchKnowledgeBase")))
    failures = rng.randint(1, 3)  # 2-4 attempts in all
    outcomes: list[Outcome] = [_pick(rng, ("error", "exception")) for _ in range(failures)]
    if "exception" not in outcomes:
        outcomes[-1] = "exception"
    runs = sim.agent_runs(spec, [*outcomes, "ok"])
    if rng.random() < 0.3:
        # The documented recorder has no "exception" payload; it says why in "error".
        return sim.documented(spec, runs)
    return sim.runtime(spec, "fallback", runs)


def _crash_mid_attempt(sim: DemoSimulator, variant: int) -> Execution:
    # Alternate: an irreversible step in flight after a fallback, or a read-only first attempt.
    if variant % 2 == 0:
        spec = _spec("ChargeCard")
        return sim.documented(spec, sim.agent_runs(spec, ["error", "ok"]), crash_in=1)
    spec = _spec("SearchKnowledgeBase")
    return sim.documented(spec, sim.agent_runs(spec, ["ok"]), crash_in=0)


def _tampered_envelope(sim: DemoSimulator, variant: int) -> Execution:
    if variant % 2 == 0:
        spec = _spec("ChargeCard")
        execution = sim.runtime(spec, "direct", sim.agent_runs(spec, ["ok"]))
    else:
        spec = _spec("TranslateText")
        execution = sim.documented(spec, sim.agent_runs(spec, ["ok"]))
    assert execution.record is not None
    payload = execution.record["envelope"]["payload"]
    if "amountCents" in payload:
        payload["amountCents"] = payload["amountCents"] * 100  # someone added two zeros
    else:
        payload["text"] = payload["text"] + " (edited)"
    return execution


def _tamper_wal(execution: Execution) -> None:
    assert execution.wal is not None
    entries = execution.wal.entries
    rendered = execution.wal.render().splitlines(keepends=True)
    index = next(i for i, (kind, _, _) in enumerate(entries) if kind == "step.failed")
    entry = json.loads(rendered[index])
    entry["payload"]["recoverable"] = False  # edited in place, hash left as it was
    rendered[index] = (json.dumps(entry, ensure_ascii=False) + "\n").encode("utf-8")
    execution.wal_bytes = b"".join(rendered)


_WORDS = (
    "revenue",
    "quarter",
    "growth",
    "risk",
    "customer",
    "churn",
    "margin",
    "pipeline",
    "forecast",
    "operating",
    "expenses",
    "headcount",
    "Zürich",
    "region",
    "contract",
    "renewal",
    "latency",
)


def _large_text(rng: random.Random, size: int) -> str:
    paragraphs: list[str] = []
    total = 0
    while total < size:
        sentence = (
            " ".join(rng.choice(_WORDS) for _ in range(rng.randint(8, 20))).capitalize() + ". "
        )
        paragraphs.append(sentence)
        total += len(sentence.encode("utf-8"))
    return "".join(paragraphs)


def _filler(sim: DemoSimulator) -> Execution:
    """A realistic everyday execution: mostly first-try successes, some fallbacks."""
    if sim.rng.random() < 0.25:
        execution = _fallback_chain(sim)
        execution.scenarios.append("fallback_chain")
        return execution
    return _realise(sim, "success")


# --------------------------------------------------------------------------------------
# Writing the tree
# --------------------------------------------------------------------------------------


def build_demo_world(
    root: str | os.PathLike[str], *, count: int = 40, seed: int = 7
) -> DemoManifest:
    """Write ``root/.intentusnet/{records,wal}`` with ``max(count, MIN_COUNT)`` executions.

    Refuses (``DemoError``) to write into an ``.intentusnet`` that holds anything but an
    earlier demo world; an earlier demo world is replaced.
    """
    base = Path(root) / ".intentusnet"
    _prepare(base)
    sim = DemoSimulator(seed)
    order = list(_SPECIAL) + ["filler"] * max(0, count - len(_SPECIAL))
    sim.rng.shuffle(order)
    executions = [_filler(sim) if name == "filler" else _realise(sim, name) for name in order]
    return _write(base, seed, executions)


def _prepare(base: Path) -> None:
    records, wal = base / "records", base / "wal"
    manifest = base / MANIFEST_NAME
    previous: list[str] = []
    if manifest.is_file():
        with contextlib.suppress(OSError, ValueError, TypeError, AttributeError):
            previous = list(json.loads(manifest.read_text(encoding="utf-8")).get("files", []))
    for directory in (records, wal):
        if not directory.is_dir():
            continue
        foreign = [
            p.name for p in directory.iterdir() if not _is_demo_file(directory, p.name, previous)
        ]
        if foreign:
            raise DemoError(
                f"{directory} already holds files that are not from a demo world "
                f"(e.g. {foreign[0]!r}); choose an empty directory"
            )
    for directory in (records, wal):
        if directory.is_dir():
            for path in directory.iterdir():
                with contextlib.suppress(OSError):
                    path.unlink()  # all demo files: checked above
    records.mkdir(parents=True, exist_ok=True)
    wal.mkdir(parents=True, exist_ok=True)


def _is_demo_file(directory: Path, name: str, previous: list[str]) -> bool:
    """Listed in the earlier manifest, or the temp file of one (a live run killed mid-write)."""
    name = temp_target(name) or name
    return f"{directory.name}/{name}" in previous


def _write(base: Path, seed: int, executions: list[Execution]) -> DemoManifest:
    scenarios: dict[str, list[str]] = {name: [] for name in SCENARIOS}
    forms: dict[str, Form] = {}
    files: list[str] = []
    for execution in executions:
        execution.render()
        stamp = execution.created.timestamp()
        if execution.record_bytes is not None:
            path = base / "records" / f"{execution.execution_id}.json"
            path.write_bytes(execution.record_bytes)
            os.utime(path, (stamp, stamp))
            files.append(f"records/{path.name}")
        if execution.wal_bytes is not None:
            path = base / "wal" / f"{execution.execution_id}.wal"
            path.write_bytes(execution.wal_bytes)
            os.utime(path, (stamp, stamp))
            files.append(f"wal/{path.name}")
        forms[execution.execution_id] = execution.form
        for scenario in execution.scenarios:
            scenarios[scenario].append(execution.execution_id)
        if execution.form in ("runtime", "documented"):
            scenarios[f"{execution.form}_form"].append(execution.execution_id)
    manifest = DemoManifest(
        root=base,
        seed=seed,
        scenarios={k: tuple(v) for k, v in scenarios.items()},
        forms=forms,
        files=tuple(files),
    )
    _save_manifest(manifest)
    return manifest


def _save_manifest(manifest: DemoManifest) -> None:
    data = (json.dumps(manifest.to_json(), indent=2) + "\n").encode("utf-8")
    atomic_write(manifest.root / MANIFEST_NAME, data, durable=False)


def load_manifest(base: str | os.PathLike[str]) -> DemoManifest | None:
    """Read ``<.intentusnet>/demo-manifest.json`` back (None if absent or unreadable)."""
    directory = Path(base)
    try:
        data = json.loads((directory / MANIFEST_NAME).read_text(encoding="utf-8"))
        return DemoManifest(
            root=directory,
            seed=int(data["seed"]),
            scenarios={str(k): tuple(str(i) for i in v) for k, v in data["scenarios"].items()},
            forms={str(k): v for k, v in data["forms"].items()},
            files=tuple(str(f) for f in data.get("files", [])),
        )
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


# --------------------------------------------------------------------------------------
# Live mode: executions recorded as they happen, by the crash-safe recorder
# --------------------------------------------------------------------------------------

LIVE_SCENARIO = "live"
ProgressCallback = Callable[[str, str], None]  # (execution id, event type just flushed)


@dataclass(frozen=True)
class LivePlan:
    """One live execution, decided up front (the RNG is not shared with worker threads)."""

    execution_id: str
    spec: IntentSpec
    envelope: dict[str, Any]
    runs: tuple[AgentRun, ...]  # tried in order until one is ok
    output: dict[str, Any]
    hash_form: Literal["runtime", "documented"]


@dataclass
class LiveStats:
    started: int = 0
    finished: int = 0
    ids: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


class LiveDemo:
    """Keeps recording executions into ``base`` (an ``.intentusnet`` dir) until told to stop.

    A few executions start per second; most attempts take tens to hundreds of milliseconds,
    about one in four takes seconds, so partial records and WAL lines are visibly there
    before the final record. ``time_scale`` shrinks every latency (tests).
    """

    def __init__(
        self,
        base: Path,
        *,
        seed: int = 7,
        rate: float = 3.0,
        time_scale: float = 1.0,
        fsync: bool = True,
        on_progress: ProgressCallback | None = None,
        on_finished: Callable[[LivePlan, float], None] | None = None,
    ) -> None:
        self.base = base
        self.rate = rate
        self.time_scale = time_scale
        self.fsync = fsync
        self.on_progress = on_progress
        self.on_finished = on_finished
        self.sim = DemoSimulator(seed + 1_000_003)
        self.stop_event = threading.Event()
        self.stats = LiveStats()
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()
        self._manifest = load_manifest(base)

    def plan(self) -> LivePlan:
        sim, rng = self.sim, self.sim.rng
        sim.clock.now = datetime.now(UTC)
        spec: IntentSpec = _pick(rng, INTENTS)
        failures = min(rng.choice((0, 0, 0, 1, 1, 2)), len(spec.agents) - 1)
        outcomes: list[Outcome] = [_pick(rng, ("error", "exception")) for _ in range(failures)]
        runs = sim.agent_runs(spec, [*outcomes, "ok"])
        if rng.random() < 0.25:  # a slow one: visibly in flight for a few seconds
            slow = runs[-1]
            runs[-1] = AgentRun(slow.name, "ok", round(rng.uniform(1500, 4500), 1))
        documented = rng.random() < 0.3
        strategy = "fallback" if len(runs) > 1 else "direct"
        return LivePlan(
            execution_id=sim.ids.exec_id() if documented else sim.ids.uuid4(),
            spec=spec,
            envelope=sim.envelope(spec, strategy, sim.ids.uuid4()),
            runs=tuple(runs),
            output=spec.make_output(rng),
            hash_form="documented" if documented else "runtime",
        )

    def run(self, *, max_executions: int | None = None, duration: float | None = None) -> LiveStats:
        """Start executions until ``max_executions``, ``duration`` or ``stop()``; then wait for
        the ones in flight (which finish at once after ``stop()``)."""
        deadline = None if duration is None else time.monotonic() + duration
        try:
            while not self.stop_event.is_set():
                if max_executions is not None and self.stats.started >= max_executions:
                    break
                if deadline is not None and time.monotonic() >= deadline:
                    break
                self._launch(self.plan())
                self.stop_event.wait(self.sim.rng.expovariate(self.rate))
        except BaseException:  # Ctrl-C: the executions in flight finish at once
            self.stop()
            raise
        finally:
            self.join()
        return self.stats

    def stop(self) -> None:
        self.stop_event.set()

    def join(self) -> None:
        """Wait for the executions in flight."""
        for thread in self._threads:
            while thread.is_alive():
                thread.join(timeout=0.2)  # short joins keep Ctrl-C responsive

    def _launch(self, plan: LivePlan) -> None:
        self._remember(plan.execution_id)
        self.stats.started += 1
        thread = threading.Thread(
            target=self._execute, args=(plan,), name=f"live-{plan.execution_id[:8]}"
        )
        self._threads = [t for t in self._threads if t.is_alive()]
        self._threads.append(thread)
        thread.start()

    def _remember(self, execution_id: str) -> None:
        """List the new files in the manifest first, so a rebuild knows they are the demo's."""
        with self._lock:
            manifest = self._manifest or DemoManifest(self.base, -1, {}, {})
            scenarios = dict(manifest.scenarios)
            scenarios[LIVE_SCENARIO] = (*scenarios.get(LIVE_SCENARIO, ()), execution_id)
            files = (*manifest.files, f"records/{execution_id}.json", f"wal/{execution_id}.wal")
            forms: dict[str, Form] = {**manifest.forms, execution_id: "recorder"}
            self._manifest = DemoManifest(manifest.root, manifest.seed, scenarios, forms, files)
            _save_manifest(self._manifest)
            self.stats.ids.append(execution_id)

    def _sleep(self, ms: float) -> None:
        self.stop_event.wait(ms / 1000 * self.time_scale)  # returns at once when stopping

    def _progress(self, execution_id: str, event_type: str) -> None:
        if self.on_progress is not None:
            self.on_progress(execution_id, event_type)

    def _execute(self, plan: LivePlan) -> None:
        try:
            self._record(plan)
        except OSError as exc:  # disk full, directory removed...: stop, and say why
            with self._lock:
                self.stats.errors.append(f"{plan.execution_id}: {exc}")
            self.stop()

    def _record(self, plan: LivePlan) -> None:
        started = time.monotonic()
        rec = ExecutionRecorder(
            self.base,
            plan.envelope,
            execution_id=plan.execution_id,
            hash_form=plan.hash_form,
            fsync=self.fsync,
        )
        strategy = "FALLBACK" if len(plan.runs) > 1 else "DIRECT"
        with rec:
            rec.intent_received()
            self._progress(plan.execution_id, "INTENT_RECEIVED")
            for index, run in enumerate(plan.runs):
                rec.attempt_start(run.name, strategy=strategy, side_effect=plan.spec.side_effect)
                self._progress(plan.execution_id, "AGENT_ATTEMPT_START")
                self._sleep(run.latency_ms)
                if run.outcome == "ok":
                    rec.attempt_end(run.name, "ok", latency_ms=run.latency_ms)
                    reason = f"fallback success at index {index}" if index else "direct match"
                    rec.router_decision(run.name, reason)
                    break
                exception = run.message if run.outcome == "exception" else None
                rec.attempt_end(run.name, "error", latency_ms=run.latency_ms, exception=exception)
                rec.fallback_triggered(run.name, plan.runs[index + 1].name, run.reason)
            rec.final_response(
                {
                    "version": "1.0",
                    "status": "success",
                    "payload": plan.output,
                    "metadata": {
                        "agent": plan.runs[-1].name,
                        "timestamp": datetime.now(UTC).isoformat(),
                    },
                    "error": None,
                }
            )
        self._progress(plan.execution_id, "FINAL_RESPONSE")
        with self._lock:
            self.stats.finished += 1
        if self.on_finished is not None:
            self.on_finished(plan, time.monotonic() - started)
