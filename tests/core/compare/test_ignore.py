"""Ignore rules: the default set hides what two real 1.3.0 executions of the same intent
differ in; the user's rules come from compare.toml; paths have one notation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.core.compare import (
    DEFAULT_RULES,
    NO_RULES,
    IgnoreRules,
    compare,
    file_operand,
    format_path_text,
    load_ignore_config,
    path_text,
)
from intentus_tui.core.verist.diff import DiffEntry
from tests.intentusnet_world import RealWorld


def _sides(world: RealWorld, a: str, b: str) -> tuple[Any, Any]:
    records = world.records_dir
    return (
        file_operand("A", records / f"{a}.json"),
        file_operand("B", records / f"{b}.json"),
    )


def test_same_intent_twice_shows_only_the_invalidation(real_world: RealWorld) -> None:
    # Two real executions of one envelope by 1.3.0, the second invalidated: apart from that
    # they differ only in ids, times and trace ids, which the rules hide.
    a, b = _sides(real_world, real_world.success, real_world.invalidated)
    everything = compare(a, b)
    assert not everything.equal and everything.hidden == 0
    invalidation = ["header.replayable", "header.replayableReason"]
    volatile = {e.path[-1] for e in everything.entries if path_text(e) not in invalidation}
    assert volatile <= {"executionId", "createdUtcIso", "timestamp", "traceId"}, volatile
    assert {"executionId", "createdUtcIso"} <= volatile
    filtered = compare(a, b, ignore=DEFAULT_RULES)
    assert [path_text(e) for e in filtered.entries] == invalidation
    assert filtered.hidden == len(everything.entries) - len(invalidation)
    assert filtered.records is not None and filtered.records.summary.same_response
    assert filtered.divergence is None  # a payload whose timestamp alone changed does not part


def test_the_defaults_hide_the_headers_id_time_and_hash_never_its_replayability() -> None:
    for key in ("executionId", "createdUtcIso", "envelopeHash"):
        assert DEFAULT_RULES.covers(("header", key)), key
    for key in ("replayable", "replayableReason"):
        assert not DEFAULT_RULES.covers(("header", key)), key


def test_a_real_difference_survives_the_rules(real_world: RealWorld) -> None:
    a, b = _sides(real_world, real_world.success, real_world.fallback)
    filtered = compare(a, b, ignore=DEFAULT_RULES)
    assert not filtered.equal and filtered.hidden > 0
    shown = {path_text(e) for e in filtered.entries}
    assert "envelope.routing.strategy" in shown
    assert not any(DEFAULT_RULES.covers(e.path) for e in filtered.entries)
    assert len(filtered.entries) + filtered.hidden == len(compare(a, b).entries)


@pytest.mark.parametrize(
    ("rule", "path", "hidden"),
    [
        ("timestamp", ("routerDecision", "timestamp"), True),
        ("timestamp", ("events", 3, "payload", "timestamp"), True),
        ("*_iso", ("entries", 0, "timestamp_iso"), True),
        ("*Iso", ("header", "createdUtcIso"), True),
        ("header.envelopeHash", ("header", "envelopeHash"), True),
        ("header.envelopeHash", ("header", "replayable"), False),
        ("traceId", ("finalResponse", "metadata", "traceIdentity"), False),
        ("events[*].payload.agent", ("events", 4, "payload", "agent"), True),
        ("events[*].payload.agent", ("events", 4, "payload", "agents"), False),
        ("events[*].payload.agent", ("routerDecision", "agent"), False),
        ("**.metadata.traceId", ("events", 7, "payload", "metadata", "traceId"), True),
        ("envelope.*.requestId", ("envelope", "metadata", "requestId"), True),
        ("envelope.*.requestId", ("envelope", "a", "b", "requestId"), False),
        # A hidden key hides what it holds.
        ("metadata", ("finalResponse", "metadata", "agent"), True),
        # An index is not a key name.
        ("0", ("events", 0), False),
    ],
)
def test_rule_globs(rule: str, path: tuple[Any, ...], hidden: bool) -> None:
    assert IgnoreRules((rule,)).covers(path) is hidden


def test_one_path_notation() -> None:
    assert format_path_text(("events", 0, "payload", "x")) == "events[0].payload.x"
    assert format_path_text((0, "type")) == "[0].type"
    assert format_path_text(("byId", "7", "name")) == 'byId["7"].name'
    assert format_path_text(("headers", "x-id")) == 'headers["x-id"]'
    assert format_path_text(("a", 'q"uote')) == 'a["q\\"uote"]'
    assert format_path_text(()) == "(root)"
    assert path_text(DiffEntry(("events", 2), 1, 2)) == "events[2]"


def test_user_rules_from_the_config_file(tmp_path: Path, real_world: RealWorld) -> None:
    config = tmp_path / "compare.toml"
    config.write_text('ignore = ["reason", "events[*].payload.strategy"]\n', encoding="utf-8")
    loaded = load_ignore_config(config)
    assert loaded.problem is None and loaded.user_rules == ("reason", "events[*].payload.strategy")
    assert set(DEFAULT_RULES.patterns) <= set(loaded.rules.patterns)
    a, b = _sides(real_world, real_world.success, real_world.fallback)
    defaults_only = {path_text(e) for e in compare(a, b, ignore=DEFAULT_RULES).entries}
    with_user = compare(a, b, ignore=loaded.rules)
    shown = {path_text(e) for e in with_user.entries}
    assert "routerDecision.reason" in defaults_only and "routerDecision.reason" not in shown
    assert any(p.endswith(".payload.strategy") for p in defaults_only)
    assert not any(p.endswith(".payload.strategy") for p in shown)
    assert with_user.hidden > compare(a, b, ignore=DEFAULT_RULES).hidden
    # Without the default set: only the user's rules.
    config.write_text('use_default_ignore = false\nignore = ["reason"]\n', encoding="utf-8")
    assert load_ignore_config(config).rules.patterns == ("reason",)


def test_a_missing_or_broken_config_means_the_defaults(tmp_path: Path) -> None:
    missing = load_ignore_config(tmp_path / "absent.toml")
    assert missing.rules == DEFAULT_RULES and missing.problem is None
    broken = tmp_path / "compare.toml"
    broken.write_text("ignore = [1, 2", encoding="utf-8")
    loaded = load_ignore_config(broken)
    assert loaded.rules == DEFAULT_RULES and loaded.problem and "compare.toml" in loaded.problem
    broken.write_text("ignore = [1, 2]\n", encoding="utf-8")
    assert "list of strings" in (load_ignore_config(broken).problem or "")
    assert load_ignore_config(tmp_path / "absent.toml", extra=["x"]).rules.covers(("a", "x"))


def test_no_rules_hide_nothing(real_world: RealWorld) -> None:
    a, b = _sides(real_world, real_world.success, real_world.invalidated)
    assert compare(a, b, ignore=NO_RULES).hidden == 0
    assert json.dumps(list(DEFAULT_RULES.patterns))  # plain strings, for the JSON output
