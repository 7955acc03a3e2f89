"""OTLP/JSON values as the encoding wants them, and ids anyone can recompute."""

from __future__ import annotations

import hashlib
import json

from google.protobuf import json_format
from opentelemetry.proto.common.v1.common_pb2 import AnyValue

from intentus_tui.core.export.attributes import (
    any_value,
    json_text,
    key_values,
    span_id_of,
    trace_id_of,
)


def test_values_take_their_otlp_json_form() -> None:
    assert any_value(True) == {"boolValue": True}  # a bool is not an int
    assert any_value(7) == {"intValue": "7"}
    assert any_value(-(2**63)) == {"intValue": str(-(2**63))}
    assert any_value(2**63) == {"stringValue": str(2**63)}  # past int64: its text
    assert any_value(0.25) == {"doubleValue": 0.25}
    assert any_value(float("nan")) == {"stringValue": "nan"}
    assert any_value("x") == {"stringValue": "x"}
    assert any_value(b"odd-\xff") == {"bytesValue": "b2RkLf8="}  # base64, as OTLP/JSON
    assert any_value(["a", 1]) == {
        "arrayValue": {"values": [{"stringValue": "a"}, {"intValue": "1"}]}
    }
    for value in (True, 7, 2**63, -(2**63), 0.25, float("inf"), "x", b"\xff", ["a", 1, 2.5]):
        json_format.Parse(json.dumps(any_value(value)), AnyValue(), ignore_unknown_fields=False)
    parsed = json_format.Parse(json.dumps(any_value(b"odd-\xff")), AnyValue())
    assert parsed.bytes_value == b"odd-\xff"
    assert key_values([("a", 1), ("b", None), ("c", "x")]) == [
        {"key": "a", "value": {"intValue": "1"}},
        {"key": "c", "value": {"stringValue": "x"}},
    ]


def test_ids_are_sha256_prefixes_of_the_execution_id() -> None:
    execution_id = "7784302e-dd18-4fa0-a7af-cf945383b42a"
    assert trace_id_of(execution_id) == hashlib.sha256(execution_id.encode()).hexdigest()[:32]
    root, attempt = span_id_of(execution_id, "root"), span_id_of(execution_id, "attempt/1")
    assert len(root) == len(attempt) == 16 and root != attempt
    assert span_id_of(execution_id, "root") == root
    assert span_id_of("another", "root") != root


def test_recorded_values_are_exact_and_inert() -> None:
    value = {"text": "héllo \x1b[31m\u202e", "n": [1, 2.5, None]}
    text = json_text(value)
    assert text.isascii() and "\x1b" not in text
    assert json.loads(text) == value
    assert json.loads(json_text({"x": float("nan")})) == {
        "x": "NaN"
    }  # as every JSON output names it
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert json.loads(json_text(deep)) == "(nested too deeply to export)"
