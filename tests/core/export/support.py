"""What the export tests share: the proof that a line is OTLP/JSON (checked with the official
``opentelemetry-proto`` message classes), readers for spans and attributes, and one more
real IntentusNet 1.3.0 world where an agent's crash is recorded in its attempt."""

from __future__ import annotations

import base64
import contextlib
import copy
import json
import logging
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from google.protobuf import json_format
from opentelemetry.proto.trace.v1.trace_pb2 import TracesData

HEX32 = re.compile(r"[0-9a-f]{32}")
HEX16 = re.compile(r"[0-9a-f]{16}")
DIGITS = re.compile(r"0|[1-9][0-9]*|-[1-9][0-9]*")
# Fields the OTLP/JSON encoding writes as strings because they are 64-bit integers.
INT64_FIELDS = {"startTimeUnixNano", "endTimeUnixNano", "timeUnixNano", "intValue"}
ID_FIELDS = {"traceId": HEX32, "spanId": HEX16, "parentSpanId": HEX16}


def _walk(value: Any, path: str = "") -> Iterator[tuple[str, str, Any]]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key, item
            yield from _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")


def _ids_as_base64(doc: Any) -> Any:
    """The document with its hex ids in the protobuf JSON mapping's base64, the only form
    ``json_format`` decodes bytes from (OTLP/JSON writes them in hex)."""
    if isinstance(doc, dict):
        return {
            key: base64.b64encode(bytes.fromhex(item)).decode()
            if key in ID_FIELDS and isinstance(item, str)
            else _ids_as_base64(item)
            for key, item in doc.items()
        }
    if isinstance(doc, list):
        return [_ids_as_base64(item) for item in doc]
    return doc


def prove_otlp_line(line: bytes) -> dict[str, Any]:
    """Assert that one exported line is an OTLP/JSON ``TracesData`` object and return it.

    - it is one line of UTF-8 JSON;
    - the official message classes parse it with unknown fields rejected;
    - every trace id is 32 hex digits and every span id 16, and with the ids decoded the
      message holds exactly those 16 and 8 bytes;
    - every 64-bit integer (times, ``intValue``) is a string of digits;
    - enums (span kind, status code) are integers.
    """
    assert line.endswith(b"\n") and line.count(b"\n") == 1
    text = line.decode("utf-8")
    json_format.Parse(text, TracesData(), ignore_unknown_fields=False)
    doc = json.loads(text)
    for path, key, value in _walk(doc):
        if key in ID_FIELDS:
            assert isinstance(value, str) and ID_FIELDS[key].fullmatch(value), (path, key, value)
        if key in INT64_FIELDS:
            assert isinstance(value, str) and DIGITS.fullmatch(value), (path, key, value)
        if key == "kind" or (key == "code" and path.endswith(".status")):
            assert isinstance(value, int) and not isinstance(value, bool), (path, key, value)
    decoded = json_format.Parse(
        json.dumps(_ids_as_base64(copy.deepcopy(doc))), TracesData(), ignore_unknown_fields=False
    )
    json_spans = spans_of(doc)
    proto_spans = [s for rs in decoded.resource_spans for ss in rs.scope_spans for s in ss.spans]
    assert len(proto_spans) == len(json_spans)
    for message, span in zip(proto_spans, json_spans, strict=True):
        assert message.trace_id == bytes.fromhex(span["traceId"]) and len(message.trace_id) == 16
        assert message.span_id == bytes.fromhex(span["spanId"]) and len(message.span_id) == 8
        assert message.end_time_unix_nano >= message.start_time_unix_nano
        for link in message.links:
            assert len(link.trace_id) == 16 and len(link.span_id) == 8
    return doc


def spans_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        span
        for resource_spans in doc["resourceSpans"]
        for scope_spans in resource_spans["scopeSpans"]
        for span in scope_spans["spans"]
    ]


def attrs(item: dict[str, Any]) -> dict[str, Any]:
    """A span's, event's, link's or resource's attributes as plain values (ints and bytes
    decoded)."""
    out: dict[str, Any] = {}
    for kv in item.get("attributes", []):
        ((kind, value),) = kv["value"].items()
        if kind == "intValue":
            value = int(value)
        elif kind == "bytesValue":
            value = base64.b64decode(value)
        out[kv["key"]] = value
    return out


def file_of(doc: dict[str, Any]) -> str:
    """The ``intentus.file`` of a trace as the name it is: text, or (a name that is not
    UTF-8) its bytes, as Python names such a file."""
    name = attrs(root_of(doc))["intentus.file"]
    return os.fsdecode(name) if isinstance(name, bytes) else name


def root_of(doc: dict[str, Any]) -> dict[str, Any]:
    (root,) = [s for s in spans_of(doc) if "parentSpanId" not in s]
    return root


def children_of(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for s in spans_of(doc) if "parentSpanId" in s]


# --------------------------------------------------------------------------------------
# A real 1.3.0 fallback whose first agent crashes: the router records the exception
# --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CrashWorld:
    base: Path  # holds .intentusnet/records
    execution_id: str


def build_crash_world(base: Path) -> CrashWorld:
    """A fallback run written by the real IntentusNet 1.3.0: ``crasher`` raises out of
    ``handle`` (so the router records ``exception`` in its AGENT_ATTEMPT_END), then
    ``rescuer`` answers."""
    from intentusnet import IntentusRuntime
    from intentusnet.core.agent import BaseAgent
    from intentusnet.protocol import AgentDefinition, AgentResponse, IntentRef
    from intentusnet.protocol.agent import Capability
    from intentusnet.protocol.enums import RoutingStrategy

    from tests.intentusnet_world import _envelope

    records = base / ".intentusnet" / "records"
    logging.getLogger("intentusnet").setLevel(logging.CRITICAL)

    def agent(name: str, priority: int, crash: bool) -> Any:
        class Agent(BaseAgent):
            def handle(self, env: Any) -> AgentResponse:
                if crash:
                    raise ValueError(f"{name} lost its \x1b[31mmind\x1b[0m")
                return AgentResponse.success({"by": name}, agent=name)

            def handle_intent(self, env: Any) -> AgentResponse:  # pragma: no cover
                raise AssertionError("handle is overridden")

        definition = AgentDefinition(
            name=name,
            nodePriority=priority,
            capabilities=[Capability(intent=IntentRef(name="Summarize", version="1.0"))],
        )
        return lambda router: Agent(definition, router)

    old_cwd = os.getcwd()
    os.chdir(base)
    try:
        runtime = IntentusRuntime(record_dir=str(records))
        runtime.register_agent(agent("crasher", 10, True))
        runtime.register_agent(agent("rescuer", 20, False))
        with contextlib.suppress(TypeError):
            runtime.router.route_intent(
                _envelope(RoutingStrategy.FALLBACK, ["crasher", "rescuer"], None)
            )
    finally:
        os.chdir(old_cwd)
    (path,) = records.glob("*.json")
    return CrashWorld(base, path.stem)
