"""What the demo tests share: id shapes and reading a demo record back."""

from __future__ import annotations

import json
import re
from typing import Any

from intentus_tui.demo.writer import DemoManifest

UUID4 = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$")
EXEC_ID = re.compile(r"^exec-[0-9a-f]{8}$")


def load(manifest: DemoManifest, execution_id: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(manifest.record_path(execution_id).read_bytes())
    return data


def types(record: dict[str, Any]) -> list[str]:
    return [e["type"] for e in record["events"]]
