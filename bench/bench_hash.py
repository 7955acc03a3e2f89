"""Envelope hashing: the orjson fast path vs the reference ``json.dumps``, same run.

Envelopes have exactly the shape IntentusNet 1.3.0 stores and hashes (built with its own
``IntentEnvelope`` and ``_to_plain``), with payloads that make 1-5 KB records: chat
messages, model options, tool results. Four text mixes, because non-ASCII strings are
what costs the fast path extra work (each is pre-encoded by json's C string encoder):

- ``ascii``: English only;
- ``accents``: LLM-style English with typographic quotes, dashes and accents;
- ``cjk``: mostly Japanese;
- ``emoji``: English with emoji (characters beyond U+FFFF: surrogate-pair escapes).

Prints, per mix and form, the median CPU time per envelope of N hashes (over R repeats,
reference and ours alternating) for the reference and for ``intentus_tui.core.records.hashing``,
the ratio, the share of envelopes that took the fast path, and what 100,000 envelopes
would cost. Both columns include the sha256 itself.

Usage: ``python bench/bench_hash.py [--n 2000] [--repeats 7] [--seed 1]``
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from intentusnet.protocol.enums import Priority, RoutingStrategy
from intentusnet.protocol.intent import (
    IntentContext,
    IntentEnvelope,
    IntentMetadata,
    IntentRef,
    RoutingMetadata,
    RoutingOptions,
)
from intentusnet.recording.models import _to_plain

from intentus_tui.core.records import hashing

WORDS = {
    "ascii": [
        "the",
        "quarterly",
        "report",
        "shows",
        "revenue",
        "growth",
        "of",
        "twelve",
        "percent",
        "while",
        "costs",
        "rose",
        "slightly",
        "in",
        "the",
        "northern",
        "region",
        "and",
        "the",
        "board",
        "asked",
        "for",
        "a",
        "summary",
    ],
    "accents": [
        "the",
        "“quarterly”",
        "report",
        "—",
        "it’s",
        "café",
        "season…",
        "naïve",
        "Zürich",
        "résumé",
        "growth",
        "of",
        "twelve",
        "percent",
        "costs",
        "rose",
        "slightly",
        "and",
        "the",
        "board",
        "asked",
        "for",
        "a",
        "summary",
    ],
    "cjk": [
        "四半期",
        "報告書",
        "によると",
        "売上",
        "は",
        "十二",
        "パーセント",
        "増加",
        "し",
        "コスト",
        "は",
        "わずか",
        "に",
        "上昇",
        "した",
        "summary",
        "report",
    ],
    "emoji": [
        "the",
        "quarterly",
        "report",
        "😀",
        "shows",
        "revenue",
        "growth",
        "🎉",
        "of",
        "twelve",
        "percent",
        "👍",
    ],
}
AGENTS = ["summarizer-a", "summarizer-b", "search-primary", "search-backup", "planner"]


def _sentence(rng: random.Random, mix: str, words: int) -> str:
    return " ".join(rng.choice(WORDS[mix]) for _ in range(words))


def _payload(rng: random.Random, mix: str) -> dict[str, Any]:
    messages = [
        {
            "role": rng.choice(["user", "assistant"]),
            "content": _sentence(rng, mix, rng.randint(8, 60)),
        }
        for _ in range(rng.randint(1, 6))
    ]
    payload: dict[str, Any] = {
        "documentId": f"doc-{rng.getrandbits(48):012x}",
        "messages": messages,
        "options": {
            "model": "gpt-4o-mini",
            "temperature": round(rng.random(), 2),
            "top_p": 0.95,
            "max_tokens": rng.choice([256, 512, 1024]),
            "stop": None,
            "stream": False,
        },
    }
    if rng.random() < 0.5:
        payload["tool_results"] = [
            {
                "title": _sentence(rng, mix, 5),
                "score": rng.random(),
                "rank": i,
                "url": f"https://ex.com/{i}",
            }
            for i in range(rng.randint(1, 5))
        ]
    return payload


def make_envelope(rng: random.Random, mix: str) -> dict[str, Any]:
    """A plain envelope exactly as IntentusNet 1.3.0 stores and hashes it."""
    stamp = f"2026-11-{rng.randint(1, 28):02d}T10:{rng.randint(0, 59):02d}:00.{rng.randint(0, 999999):06d}+00:00"
    fallbacks = rng.sample(AGENTS, rng.randint(0, 3))
    envelope = IntentEnvelope(
        version="1.0",
        intent=IntentRef(name=rng.choice(["Summarize", "Search", "Plan"]), version="1.0"),
        payload=_payload(rng, mix),
        context=IntentContext(
            sourceAgent="client", timestamp=stamp, priority=Priority.NORMAL, tags=["bench"]
        ),
        metadata=IntentMetadata(
            requestId=f"{rng.getrandbits(128):032x}",
            source="client",
            createdAt=stamp,
            traceId=f"{rng.getrandbits(128):032x}",
            identityChain=["client"],
        ),
        routing=RoutingOptions(
            strategy=RoutingStrategy.FALLBACK if fallbacks else RoutingStrategy.DIRECT,
            targetAgent=None,
            fallbackAgents=fallbacks,
        ),
        routingMetadata=RoutingMetadata(decisionPath=fallbacks[:1], retries=len(fallbacks[:1])),
    )
    plain: dict[str, Any] = _to_plain(envelope)
    return plain


def reference_runtime_hash(envelope: Any) -> str:
    return hashlib.sha256(hashing.reference_runtime_canonical(envelope)).hexdigest()


def reference_documented_hash(envelope: Any) -> str:
    return (
        hashing.DOCUMENTED_PREFIX
        + hashlib.sha256(hashing.reference_documented_canonical(envelope)).hexdigest()
    )


def time_per_item_us(function: Callable[[Any], Any], items: list[Any]) -> float:
    # CPU time of this process: other processes on a shared machine do not count.
    start = time.process_time()
    for item in items:
        function(item)
    return (time.process_time() - start) / len(items) * 1e6


def interleaved_medians(
    reference: Callable[[Any], Any], ours: Callable[[Any], Any], items: list[Any], repeats: int
) -> tuple[float, float]:
    """Median µs per item of each, alternating runs so both see the same machine load."""
    ref_runs, our_runs = [], []
    for _ in range(repeats):
        ref_runs.append(time_per_item_us(reference, items))
        our_runs.append(time_per_item_us(ours, items))
    return statistics.median(ref_runs), statistics.median(our_runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="envelopes per mix")
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    forms = [
        ("runtime", reference_runtime_hash, hashing.runtime_envelope_hash),
        ("documented", reference_documented_hash, hashing.documented_envelope_hash),
    ]
    print(f"{args.n} envelopes per mix, median of {args.repeats} runs, µs per envelope")
    print(
        f"{'mix':7} {'form':11} {'KB':>5} {'fast%':>6} {'reference':>10} {'ours':>8} {'ratio':>6} {'100k ref→ours (s)':>19}"
    )
    for mix in WORDS:
        rng = random.Random(args.seed)
        envelopes = [make_envelope(rng, mix) for _ in range(args.n)]
        size_kb = (
            statistics.mean(len(json.dumps(e, indent=2, ensure_ascii=False)) for e in envelopes)
            / 1024
        )
        fast_share = sum(hashing._fast_canonical(e) is not None for e in envelopes) / len(envelopes)
        for form, reference, ours in forms:
            assert all(reference(e) == ours(e) for e in envelopes), f"{mix}/{form}: hashes differ"
            ref_us, our_us = interleaved_medians(reference, ours, envelopes, args.repeats)
            print(
                f"{mix:7} {form:11} {size_kb:5.1f} {fast_share:6.0%} {ref_us:10.1f} {our_us:8.1f} "
                f"{ref_us / our_us:5.1f}x {ref_us / 10:8.1f} → {our_us / 10:5.1f}"
            )


if __name__ == "__main__":
    main()
