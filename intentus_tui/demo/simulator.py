"""A small simulated router and its agents, producing records the way the real writers do:

- **runtime form**: what IntentusNet 1.3.0's ``IntentRouter`` + ``FileExecutionStore`` write
  (UUID ids, bare-hex envelope hash, ``{agent, strategy, index?}`` event payloads, the
  envelope's ``routingMetadata`` included, ``json.dump(..., ensure_ascii=False, indent=2)``
  in place). Like 1.3.0, a response carrying an error is not JSON-serializable, so the file
  stops right after ``"error": `` -- the demo runs the very same ``json.dump`` call over an
  equally unserializable object, so the truncation is byte-for-byte what 1.3.0 leaves.
- **documented form** (IntentusNet's documented record layout): ``exec-xxxxxxxx`` ids, ``sha256:`` hash without
  ``routingMetadata``, ``latency_ms``/``attempt_num``/``reason`` in events, written whole
  with ``json.dump(record, f)``, and a write-ahead log beside each record.

Everything is derived from one seeded RNG and a fake clock: the same seed gives the same
bytes. No intentusnet import: it is only a test dependency.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import uuid
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any, Literal

from intentus_tui.core.records.hashing import documented_envelope_hash, runtime_envelope_hash
from intentus_tui.core.wal.read import encode_wal_line, make_wal_entry

DEMO_EPOCH = datetime(2026, 1, 5, 9, 0, 0, tzinfo=UTC)

Form = Literal["runtime", "documented", "wal_only", "recorder"]
Outcome = Literal["ok", "error", "exception"]


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


def pick(rng: random.Random, options: tuple[Any, ...]) -> Any:
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
            "documentTitle": pick(r, _DOCS),
            "maxWords": pick(r, (80, 120, 200)),
            "language": "en",
        },
        lambda r: {
            "summary": "Revenue grew 12% quarter on quarter; two risks flagged for follow-up.",
            "wordCount": r.randint(40, 120),
            "model": pick(r, ("gpt-4o-mini", "claude-3-haiku", "llama-3-8b")),
        },
    ),
    IntentSpec(
        "TranslateText",
        ("translator-deepl", "translator-llm", "translator-opus-mt"),
        "read_only",
        lambda r: {"text": pick(r, _TEXTS), "targetLanguage": "en"},
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
        lambda r: {"query": pick(r, _QUERIES), "topK": 3},
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
            "label": pick(r, ("billing", "bug", "access")),
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
INTENTS_BY_NAME = {spec.name: spec for spec in INTENTS}

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


def digest(rng: random.Random) -> str:
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
            code, message, reason = pick(self.rng, _ERRORS)
            if outcome == "exception":
                message, reason = pick(self.rng, _EXCEPTIONS), "exception"
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
                "priority": pick(self.rng, ("normal", "normal", "high")),
                "tags": ["tenant:acme", pick(self.rng, ("env:prod", "env:staging"))],
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
                    "input_hash": digest(self.rng),
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
                    {"step_id": step_id, "output_hash": digest(self.rng), "success": True},
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
                {"execution_id": execution_id, "response_hash": digest(self.rng)},
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
