"""An untrusted execution's attempts are only claimed, and every place that tells them says
so where the Post-mortem does: its timeline's chain line, the command palette's entry and
``inspect ID``'s agents line said ``ticket-classifier ✗ 2.65s → ticket-classifier-backup
✓`` of a log whose chain breaks, as of a trusted execution."""

from __future__ import annotations

import pytest

from intentus_tui.core.detail import ExecutionDetail, load_detail
from intentus_tui.demo.writer import DemoManifest, build_demo_world
from intentus_tui.tui.commands import execution_hit_help
from intentus_tui.tui.presenters.timeline_summary import summary_content
from tests.cli.support import cli
from tests.tui.app_support import make_app, screen_text, settle

CLAIMED = "(claimed)"


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> DemoManifest:
    return build_demo_world(tmp_path_factory.mktemp("demo"))


def chain_line(detail: ExecutionDetail) -> str:
    lines = summary_content(detail, detail.verdict).content.plain.splitlines()
    return next(line for line in lines if line.startswith(("chain ", "broadcast ", "parallel ")))


def agents_line(execution_id: str, demo: DemoManifest) -> str:
    run = cli("inspect", execution_id, "--dir", str(demo.records_dir))
    assert run.returncode in (0, 1), run.stderr
    return next(line for line in run.stdout.splitlines() if line.startswith("agents "))


def test_every_chain_says_claimed_where_the_postmortem_does(demo: DemoManifest) -> None:
    claimed: set[str] = set()
    for execution_id in demo.execution_ids:
        path = demo.record_path(execution_id)
        if not path.exists():  # known from its log alone: no record, no chain
            continue
        detail = load_detail(path, demo.wal_dir)
        pm, summary = detail.postmortem, detail.summary
        assert pm is not None and summary is not None and detail.timeline is not None
        said = pm.untrusted is not None  # the Post-mortem's: its attempts "(claimed)"
        if said:
            claimed.add(execution_id)
            assert all(item.endswith(CLAIMED) for item in pm.completed_before), pm
        chain = chain_line(detail)
        palette = execution_hit_help(summary, 200).plain.splitlines()[0]
        agents = agents_line(execution_id, demo)
        for where in (chain, palette, agents):
            assert (CLAIMED in where) is said, (execution_id, where)
    untrusted = {*demo.ids("tampered_envelope"), *demo.ids("tampered_final_response")}
    assert claimed == {*untrusted, *demo.ids("wal_tampered")}


def test_the_chain_broken_execution_says_it_in_each_place(demo: DemoManifest) -> None:
    (execution_id,) = demo.ids("wal_tampered")
    detail = load_detail(demo.record_path(execution_id), demo.wal_dir)
    assert detail.summary is not None
    assert chain_line(detail).startswith(f"chain {CLAIMED} ticket-classifier ✗ ")
    assert execution_hit_help(detail.summary, 200).plain.splitlines()[0] == (
        f"open execution · {CLAIMED} ticket-classifier ✗ → ticket-classifier-backup ✓"
    )
    assert agents_line(execution_id, demo) == (
        f"agents      {CLAIMED} ticket-classifier ✗ → ticket-classifier-backup ✓"
    )


async def test_a_narrow_timeline_keeps_it_in_sight(demo: DemoManifest) -> None:
    """Said first: at 80x24 the chain is cut, "(claimed)" stays, and so does the end of the
    chain, its last mark whole (its names shorten); the Post-mortem's chain row says it as
    its attempts do."""
    (execution_id,) = demo.ids("wal_tampered")
    app = make_app(demo.records_dir)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot, timeout=20)
        assert app.execution_list.select_key(f"{execution_id}.json")
        await settle(pilot)
        shown = screen_text(app)
        await pilot.press("4")
        await settle(pilot)
        postmortem = " ".join(app.side_pane.postmortem_pane.text.split())
    assert f"│ chain {CLAIMED} … → ticket-classifi… ✓ " in shown, shown
    assert f"Chain {CLAIMED} ticket-classifier ✗ → ticket-classifier-backup ✓" in postmortem
