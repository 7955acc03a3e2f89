"""Canonical encoders and hashes for every form this debugger verifies.

- IntentusNet runtime form (what 1.3.0 writes): sha256 over
  ``json.dumps(envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=True)``
  of the whole envelope, as bare lowercase hex.
- IntentusNet documented form (seed 000): the same without the top-level
  ``routingMetadata`` key, with ``default=str``, written as ``sha256:<hex>``.
- Verist form (seed 004): see ``verist_stringify``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

HashForm = Literal["runtime", "documented"]

DOCUMENTED_PREFIX = "sha256:"


def runtime_canonical(value: Any) -> bytes:
    """The exact bytes IntentusNet 1.3.0 hashes (``stable_hash``)."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode(
        "utf-8"
    )


def documented_canonical(envelope: Any) -> bytes:
    """The exact bytes the documented ``compute_envelope_hash`` hashes."""
    if isinstance(envelope, dict):
        envelope = {k: v for k, v in envelope.items() if k != "routingMetadata"}
    return json.dumps(
        envelope, sort_keys=True, separators=(",", ":"), ensure_ascii=True, default=str
    ).encode("utf-8")


def runtime_envelope_hash(envelope: Any) -> str:
    """Bare hex sha256, as in ``header.envelopeHash`` written by IntentusNet 1.3.0."""
    return hashlib.sha256(runtime_canonical(envelope)).hexdigest()


def documented_envelope_hash(envelope: Any) -> str:
    """``sha256:<hex>``, as in the documented record form."""
    return DOCUMENTED_PREFIX + hashlib.sha256(documented_canonical(envelope)).hexdigest()
