"""Records written by the REAL intentusnet 1.3.0 for envelopes carrying chosen payloads."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from intentusnet import IntentusRuntime
from intentusnet.protocol.enums import RoutingStrategy

from tests.intentusnet_world import _agent, _envelope


def write_real_records(base: Path, payloads: Mapping[str, Any]) -> dict[str, str]:
    """Route one intent per payload through a real ``IntentusRuntime`` recording under
    ``base/.intentusnet/records``; returns name -> execution id of the record written."""
    records = base / ".intentusnet" / "records"
    logging.getLogger("intentusnet").setLevel(logging.CRITICAL)
    old_cwd = os.getcwd()
    os.chdir(base)  # 1.3.0 writes relative to the current directory
    written: dict[str, str] = {}
    try:
        runtime = IntentusRuntime(record_dir=str(records))
        runtime.register_agent(_agent("worker", False, 10))
        for name, payload in payloads.items():
            envelope = _envelope(RoutingStrategy.DIRECT, [], "worker")
            envelope.payload = payload
            before = {p.stem for p in records.glob("*.json")}
            runtime.router.route_intent(envelope)
            (new,) = {p.stem for p in records.glob("*.json")} - before
            written[name] = new
    finally:
        os.chdir(old_cwd)
    return written
