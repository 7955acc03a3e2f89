"""Execution comparison: record vs record, and Active Graph fork comparison.

Prints medians and the ratio to a baseline measured in the same run:
- ``compare_records`` on two records of N events that differ in the last event's payload,
  against one plain ``diff`` of the same two records (the floor: the walk itself);
- ``run_events`` / ``compare_fork`` on a real Active Graph store, against a bare
  ``SELECT ... WHERE run_id = ?`` plus ``json.loads`` of every payload.

    python3 bench/bench_compare.py [--events 5000] [--objects 1000] [--repeat 7]
"""

from __future__ import annotations

import argparse
import copy
import json
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_ms
from intentus_tui.core.activegraph import RunDatabase
from intentus_tui.core.compare import compare_records
from intentus_tui.core.verist.diff import diff
from tests.factories import make_record


def big_records(n_events: int) -> tuple[dict[str, Any], dict[str, Any]]:
    agents = (*tuple((f"agent-{i}", "error") for i in range(n_events // 3)), ("last", "ok"))
    a = make_record(agents=agents)
    b = copy.deepcopy(a)
    b["header"]["executionId"] = "other"
    b["events"][-3]["payload"]["status"] = "drifted"
    return a, b


def build_store(path: Path, objects: int) -> tuple[str, str]:
    from activegraph import Behavior, FrozenClock, Graph, Runtime

    def planner(status: str) -> Behavior:
        def fn(event: Any, graph: Any, ctx: Any) -> None:
            for i in range(objects):
                graph.add_object("task", {"n": i, "status": status if i == objects - 1 else "ok"})

        return Behavior(name="planner", fn=fn, on=["goal.created"])

    graph = Graph(clock=FrozenClock())
    parent = Runtime(graph, behaviors=[planner("a")], persist_to=str(path))
    parent.run_goal("bench")
    fork = parent.fork(at_event="evt_001", behaviors=[planner("b")])
    fork.run_until_idle()
    parent.graph.store.close()
    fork.graph.store.close()
    return graph.run_id, fork.graph.run_id


def raw_select(path: Path, run_id: str) -> list[Any]:
    with sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True) as conn:
        rows = conn.execute(
            "SELECT seq, id, type, actor, payload FROM events WHERE run_id = ? ORDER BY seq",
            (run_id,),
        ).fetchall()
    return [json.loads(r[4]) for r in rows]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--objects", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    a, b = big_records(args.events)
    n = len(a["events"])
    base = median_ms(lambda: diff(a, b), args.repeat)
    ours = median_ms(lambda: compare_records(a, b), args.repeat)
    print(f"records, {n} events each, one payload drift near the end")
    print(f"  baseline diff(a, b)        {base:8.2f} ms")
    print(f"  compare_records(a, b)      {ours:8.2f} ms   ratio {ours / base:5.2f}x")

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "runs.db"
        parent, fork = build_store(path, args.objects)
        with RunDatabase(path) as db:
            count = len(db.run_events(parent))
            base = median_ms(lambda: raw_select(path, parent), args.repeat)
            events = median_ms(lambda: db.run_events(parent), args.repeat)
            both = median_ms(lambda: db.compare_fork(fork), args.repeat)
            divergence = db.compare_fork(fork).first_divergence
        print(f"Active Graph run of {count} events and a fork diverging near the end")
        print(f"  baseline SELECT + json.loads {base:8.2f} ms")
        print(f"  run_events(run)              {events:8.2f} ms   ratio {events / base:5.2f}x")
        print(f"  compare_fork(fork)           {both:8.2f} ms   ratio {both / base:5.2f}x")
        assert divergence is not None and divergence.kind == "payload"


if __name__ == "__main__":
    main()
