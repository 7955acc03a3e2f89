"""Active Graph run databases (PyPI ``activegraph``, its SQLite store), read-only.

- ``store``: opening a store, its runs, each run's full event log, normalized payloads, display
  rows;
- ``lineage``: how two runs are related (parent, any ancestor, a common ancestor), their fork
  points and shared prefix;
- ``structure``: the objects and relations a run built, and two runs compared as
  ``activegraph diff`` compares them.
"""

from intentus_tui.core.activegraph.lineage import (
    ForkComparison,
    ForkPoint,
    RelationKind,
    RunRelation,
    compare_fork,
    compare_lineage,
    relate_runs,
)
from intentus_tui.core.activegraph.store import (
    RUN_ID_PLACEHOLDER,
    VOLATILE_KEYS,
    ActiveGraphError,
    GraphEvent,
    RunDatabase,
    RunInfo,
    TimelineRow,
    comparable_events,
    is_sqlite_file,
    lineage,
    list_runs,
    normalize_payload,
    open_run_database,
    run_divergence,
    run_events,
    timeline,
)
from intentus_tui.core.activegraph.structure import (
    LIFECYCLE_PREFIXES,
    GraphState,
    ItemChange,
    ItemStatus,
    StructuralDiff,
    compare_structure,
    graph_state,
    project_graph,
)

__all__ = [
    "LIFECYCLE_PREFIXES",
    "RUN_ID_PLACEHOLDER",
    "VOLATILE_KEYS",
    "ActiveGraphError",
    "ForkComparison",
    "ForkPoint",
    "GraphEvent",
    "GraphState",
    "ItemChange",
    "ItemStatus",
    "RelationKind",
    "RunDatabase",
    "RunInfo",
    "RunRelation",
    "StructuralDiff",
    "TimelineRow",
    "comparable_events",
    "compare_fork",
    "compare_lineage",
    "compare_structure",
    "graph_state",
    "is_sqlite_file",
    "lineage",
    "list_runs",
    "normalize_payload",
    "open_run_database",
    "project_graph",
    "relate_runs",
    "run_divergence",
    "run_events",
    "timeline",
]
