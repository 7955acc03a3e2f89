"""The Verist diff engine on large inputs, as a ratio to ``json.loads`` of the same inputs.

Two workloads:

- **10 MB records**: two IntentusNet-shaped records (envelope, router decision, ~25k events
  with model-call payloads, final response) of about 10 MB of JSON each. Cases: identical,
  1% of events changed, every event changed, one event inserted at the front (by index and
  aligned). Baseline: ``json.loads`` of both texts.
- **10,000-element arrays** of small objects, by index (Verist) and aligned (beyond Verist):
  identical, front insertion, 1% changed in place, every element changed, halves swapped,
  completely different. Baseline: ``json.loads`` of both arrays' texts.

Prints the median over R repeats, the ratio to the baseline, the number of entries, and
checks that ``apply_diff(before, diff(before, after)) == after`` once per case.

    python3 bench/bench_diff.py [--mb 10] [--elements 10000] [--repeat 5]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_s
from intentus_tui.core.verist.apply import apply_diff
from intentus_tui.core.verist.diff import diff


def event(rng: random.Random, seq: int) -> dict[str, Any]:
    kind = rng.choice(["AGENT_ATTEMPT_START", "AGENT_ATTEMPT_END", "MODEL_CALL"])
    return {
        "seq": seq,
        "type": kind,
        "payload": {
            "agent": f"agent-{seq % 7}",
            "status": "ok",
            "latency_ms": round(rng.random() * 100, 3),
            "prompt": "Summarize the quarterly report. " * rng.randint(1, 8),
            "tokens": {"input": rng.randint(10, 900), "output": rng.randint(10, 300)},
            "tags": ["model", "gpt", seq % 13],
        },
    }


def record_of_size(megabytes: float, seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    record: dict[str, Any] = {
        "header": {"executionId": "0c9a9b4e", "replayable": True, "envelopeHash": "ab" * 32},
        "envelope": {
            "intent": {"name": "Summarize", "version": "1.0"},
            "payload": {"items": list(range(500)), "text": "héllo wörld"},
            "routing": {"strategy": "fallback", "fallbackAgents": ["a", "b"]},
        },
        "routerDecision": {"agent": "agent-3", "reason": "fallback"},
        "events": [],
        "finalResponse": {"status": "success", "payload": {"summary": "ok"}},
    }
    target = int(megabytes * 1_000_000)
    size = len(json.dumps(record))
    while size < target:
        ev = event(rng, len(record["events"]))
        record["events"].append(ev)
        size += len(json.dumps(ev)) + 2
    return record


def element(i: int, salt: int = 0) -> dict[str, Any]:
    return {"id": f"e{i}", "value": i * 7 + salt, "label": f"item {i}", "ok": i % 2 == 0}


def run_case(
    name: str, before_text: str, after_text: str, aligned: bool, repeat: int
) -> tuple[str, float, float, int]:
    before, after = json.loads(before_text), json.loads(after_text)
    baseline = median_s(lambda: (json.loads(before_text), json.loads(after_text)), repeat)
    result = diff(before, after, aligned=aligned)
    assert apply_diff(before, result) == after, name
    seconds = median_s(lambda: diff(before, after, aligned=aligned), repeat)
    return name, seconds, baseline, len(result.entries)


def print_rows(title: str, rows: list[tuple[str, float, float, int]]) -> None:
    print(f"\n{title}")
    print(f"  {'case':<38} {'diff':>9} {'json.loads':>11} {'ratio':>7} {'entries':>8}")
    for name, seconds, baseline, count in rows:
        print(
            f"  {name:<38} {seconds * 1000:>7.1f}ms {baseline * 1000:>9.1f}ms "
            f"{seconds / baseline:>6.2f}x {count:>8}"
        )


def records_bench(megabytes: float, repeat: int) -> None:
    base = record_of_size(megabytes)
    text = json.dumps(base)
    n = len(base["events"])

    def variant(change: Callable[[dict[str, Any]], None]) -> str:
        copy = json.loads(text)
        change(copy)
        return json.dumps(copy)

    def bump(every: int) -> Callable[[dict[str, Any]], None]:
        def change(rec: dict[str, Any]) -> None:
            for ev in rec["events"][::every]:
                ev["payload"]["latency_ms"] += 1

        return change

    def insert_front(rec: dict[str, Any]) -> None:
        rec["events"].insert(0, event(random.Random(9), -1))

    one_percent = variant(bump(100))
    every_event = variant(bump(1))
    front = variant(insert_front)
    rows = [
        run_case("identical", text, text, False, repeat),
        run_case("1% of events changed", text, one_percent, False, repeat),
        run_case("every event changed", text, every_event, False, repeat),
        run_case("event inserted at front (by index)", text, front, False, repeat),
        run_case("event inserted at front (aligned)", text, front, True, repeat),
        run_case("1% of events changed (aligned)", text, one_percent, True, repeat),
    ]
    print_rows(f"Records: {len(text) / 1e6:.1f} MB each, {n} events", rows)


def arrays_bench(count: int, repeat: int) -> None:
    base = [element(i) for i in range(count)]
    cases: dict[str, list[dict[str, Any]]] = {
        "identical": base,
        "front insertion": [element(-1), *base],
        "1% changed in place": [element(i, 1 if i % 100 == 0 else 0) for i in range(count)],
        "every element changed": [element(i, 1) for i in range(count)],
        "halves swapped": base[count // 2 :] + base[: count // 2],
        "completely different": [element(count + i) for i in range(count)],
    }
    text = json.dumps(base)
    rows = []
    for aligned in (False, True):
        for name, other in cases.items():
            label = f"{name} ({'aligned' if aligned else 'by index'})"
            rows.append(run_case(label, text, json.dumps(other), aligned, repeat))
    print_rows(f"Arrays: {count} objects each", rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=float, default=10.0, help="size of each record")
    parser.add_argument("--elements", type=int, default=10_000, help="array length")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(f"Python {sys.version.split()[0]}; medians of {args.repeat} runs")
    records_bench(args.mb, args.repeat)
    arrays_bench(args.elements, args.repeat)


if __name__ == "__main__":
    main()
