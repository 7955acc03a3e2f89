"""``intentus-tui diff`` and ``intentus-tui snapshot``: every flag and exit code."""

from __future__ import annotations

import copy
import hashlib
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from activegraph import Behavior, FrozenClock, Graph, Runtime
from intentusnet.recording.recorder import InMemoryExecutionRecorder
from intentusnet.recording.store import FileExecutionStore as RealStore

from intentus_tui.cli import run
from intentus_tui.cli.exit_codes import ExitCode
from intentus_tui.core.records.hashing import runtime_envelope_hash
from tests.activegraph_world import NotesWorld, copy_store, notes_world, real_diff
from tests.cli.diff_project import FALLBACK, cli, write_diff_project
from tests.factories import make_record, write_record
from tests.intentusnet_world import RealWorld


@pytest.fixture
def root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project directory with ``.intentusnet/records``; the tests run from it."""
    monkeypatch.chdir(tmp_path)
    return write_diff_project(tmp_path)


# --------------------------------------------------------------------------- records


def test_equal_records_exit_0(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    file_a = ".intentusnet/records/exec-a.json"
    code, out, err = cli(capsys, "diff", file_a, "exec-same")
    assert code == ExitCode.OK, err
    assert "(no changes)" in out and out.rstrip().endswith("equal")
    assert "first divergence: none" in out


def test_payload_drift_exit_1_with_format_diff_lines(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, "diff", "exec-a", "exec-drift")
    assert code == ExitCode.PROBLEMS
    assert (
        '  events[2].payload.exception: "agent-a failed" → "agent-a timed out"' in out.splitlines()
    )
    assert "first divergence: events[2] (seq 3 / 3): same type AGENT_ATTEMPT_END" in out
    assert "same agent path: yes" in out and "same response: yes" in out
    assert out.rstrip().endswith("different: 1 changed value, 1 changed event")


def test_a_huge_value_is_cut_in_text_and_whole_in_json(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A megabyte payload that differs takes one short line of text, saying how much was
    left out; ``--json`` has it whole."""
    records = root / ".intentusnet" / "records"
    big = copy.deepcopy(make_record(execution_id="exec-big", agents=FALLBACK))
    document = "quarterly revenue " * 60_000
    big["envelope"]["payload"]["document"] = document
    write_record(records, big)
    code, out, _ = cli(capsys, "diff", "exec-a", "exec-big")
    assert code == ExitCode.PROBLEMS
    line = next(t for t in out.splitlines() if "envelope.payload.document" in t)
    assert len(line) < 300
    assert f"… ({len(document) + 2 - 200:,} more characters)" in line
    code, out, _ = cli(capsys, "diff", "exec-a", "exec-big", "--json")
    entries = {e["path_text"]: e for e in json.loads(out)["entries"]}
    assert entries["envelope.payload.document"]["after"] == document


def test_json_document(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "diff", "exec-a", "exec-direct", "--json")
    assert code == ExitCode.PROBLEMS
    doc = json.loads(out)
    assert doc["equal"] is False and doc["compared"] == "records"
    verdict = doc["a"].pop("verdict")  # as inspect gives it: tests/cli/test_diff_verdicts.py
    assert doc["a"] == {"source": "exec-a", "kind": "record", "execution_id": "exec-a"}
    assert (verdict["outcome"], verdict["integrity"], verdict["replay"]) == (
        "succeeded",
        "verified",
        "replayable",
    )
    assert doc["warnings"] == []
    summary = doc["summary"]
    assert summary["same_agent_path"] is False
    assert summary["agent_path_a"] == ["agent-a", "agent-b"]
    assert summary["agent_path_b"] == ["agent-a"]
    divergence = doc["first_divergence"]
    assert divergence["kind"] == "payload" and divergence["index"] == 2
    assert {e["path_text"] for e in divergence["payload_entries"]} == {
        "payload.exception",
        "payload.status",
    }
    by_path = {e["path_text"]: e for e in doc["entries"]}
    removed = by_path["events[2].payload.exception"]
    assert removed["kind"] == "removed" and "after" not in removed
    assert removed["before"] == "agent-a failed"
    # A's fallback is A's alone (removed, at A's index), never one event whose type changed
    # into B's decision; the two decisions are one pair whose agent differs, at A's index
    # and B's: "events[3]" alone named both A's fallback and B's decision.
    removed_event = by_path["events[3]"]
    assert removed_event["kind"] == "removed"
    assert removed_event["before"]["type"] == "FALLBACK_TRIGGERED"
    assert "path_in_a" not in removed_event
    decided = by_path["events[6→3].payload.agent"]
    assert (decided["before"], decided["after"]) == ("agent-b", "agent-a")
    assert decided["path"] == ["events", 3, "payload", "agent"]
    assert decided["path_in_a"] == ["events", 6, "payload", "agent"]
    changed = by_path["envelope.routing.strategy"]
    assert (changed["before"], changed["after"]) == ("fallback", "direct")
    assert doc["fork"] is None


def test_key_by(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = root / ".intentusnet" / "records"
    a = make_record(execution_id="chain-a")
    a["envelope"]["metadata"]["identityChain"] = [{"id": "x"}, {"id": "y"}]
    b = copy.deepcopy(a)
    b["header"]["executionId"] = "chain-b"
    b["envelope"]["metadata"]["identityChain"] = [{"id": "y"}, {"id": "x"}]
    # Recorded as written, not edited afterwards: each envelope hashes to its header (an
    # untrusted side's "equal" is no clean result).
    for record in (a, b):
        record["header"]["envelopeHash"] = runtime_envelope_hash(record["envelope"])
    write_record(records, a)
    write_record(records, b)
    assert cli(capsys, "diff", "chain-a", "chain-b")[0] == ExitCode.PROBLEMS
    code, _, err = cli(
        capsys, "diff", "chain-a", "chain-b", "--key-by", "envelope.metadata.identityChain=id"
    )
    assert code == ExitCode.OK, err
    code, _, _ = cli(
        capsys,
        "diff",
        "chain-a",
        "chain-b",
        "--key-by",
        "envelope.metadata.identityChain=id",
        "--key-by",
        "events=seq",
    )
    assert code == ExitCode.OK


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("events", "expected PATH=FIELD"),
        ("=seq", "expected PATH=FIELD"),
        ("events=", "expected PATH=FIELD"),
        ("events=type", 'duplicate key "AGENT_ATTEMPT_START"'),
        ("events=nope", 'has no field "nope"'),
    ],
)
def test_bad_key_by_is_a_usage_error(
    root: Path, capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    code, out, err = cli(capsys, "diff", "exec-a", "exec-drift", "--key-by", spec)
    assert code == ExitCode.USAGE and out == ""
    assert message in err and len(err.strip().splitlines()) == 1


def test_key_by_given_twice(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = cli(
        capsys, "diff", "exec-a", "exec-a", "--key-by", "events=seq", "--key-by", "events=type"
    )
    assert code == ExitCode.USAGE and "twice" in err


def test_aligned_reports_an_inserted_event_once(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = root / ".intentusnet" / "records"
    base = make_record(execution_id="ins-a")
    inserted = copy.deepcopy(base)
    inserted["header"]["executionId"] = "ins-b"
    inserted["events"].insert(1, {"type": "MODEL_CALL", "payload": {"model": "m"}})
    inserted["events"] = [{**e, "seq": i} for i, e in enumerate(inserted["events"], 1)]
    write_record(records, base)
    write_record(records, inserted)
    # Events are aligned event by event with or without --aligned: one insertion.
    for extra in ((), ("--aligned",)):
        code, out, _ = cli(capsys, "diff", "ins-a", "ins-b", "--json", *extra)
        assert code == ExitCode.PROBLEMS
        doc = json.loads(out)
        assert [(e["path_text"], e["kind"], e["array_op"]) for e in doc["entries"]] == [
            ("events[1]", "added", "insert")
        ]
        divergence = doc["first_divergence"]
        assert (divergence["kind"], divergence["index"], divergence["type_b"]) == (
            "only_b",
            1,
            "MODEL_CALL",
        )


def test_dir_option_resolves_ids_elsewhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "elsewhere"
    write_record(other, make_record(execution_id="x-1"))
    write_record(other, make_record(execution_id="x-2"))
    code, _, err = cli(capsys, "diff", "x-1", "x-2", "--dir", str(other))
    assert code in (ExitCode.OK, ExitCode.PROBLEMS), err
    code, _, err = cli(capsys, "diff", "x-1", "x-2", "--dir", str(tmp_path / "missing"))
    assert code == ExitCode.USAGE and "no such directory" in err


def test_a_damaged_record_is_compared_with_a_note(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    records = root / ".intentusnet" / "records"
    cut = write_record(records, make_record(execution_id="cut-1", agents=FALLBACK))
    cut.write_bytes(cut.read_bytes()[:-150])
    code, out, _ = cli(capsys, "diff", "exec-a", "cut-1")
    assert code == ExitCode.PROBLEMS
    assert "note: damaged record" in out


# --------------------------------------------------------------------------- the header


def _mkdir(path: Path) -> Path:
    path.mkdir(parents=True)
    return path


def _write_like_1_3_0(path: Path, record: dict[str, Any]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as f:
        json.dump(record, f, ensure_ascii=False, indent=2)
    return path


@pytest.fixture
def header_copies(tmp_path: Path, real_world: RealWorld) -> dict[str, Path]:
    """A record written by the real intentusnet 1.3.0 and copies of it that differ in the
    header alone: ``invalidated`` by 1.3.0 itself (``mark_not_replayable``), ``rerun`` with
    another execution id and creation time, ``rehashed`` with another request id and the
    envelope hash 1.3.0 computes for it."""
    source = real_world.records_dir / f"{real_world.success}.json"
    original = Path(shutil.copy(source, _mkdir(tmp_path / "original")))
    # 1.3.0 saves a record under its id: invalidate a copy in a directory of its own.
    store = RealStore(str(_mkdir(tmp_path / "invalidated")))
    shutil.copy(source, tmp_path / "invalidated")
    recorder = InMemoryExecutionRecorder(store.load(real_world.success))
    recorder.mark_not_replayable("manually_invalidated")
    store.save(recorder.get_record())
    record = json.loads(original.read_text("utf-8"))
    rerun = copy.deepcopy(record)
    rerun["header"]["executionId"] = "0b7c4a52-6f0e-4d5e-9d7a-3c1f2e8a9b10"
    rerun["header"]["createdUtcIso"] = "2026-01-06T08:00:00.000001+00:00"
    rehashed = copy.deepcopy(record)
    rehashed["envelope"]["metadata"]["requestId"] = "r-2"
    canonical = json.dumps(
        rehashed["envelope"], sort_keys=True, separators=(",", ":"), ensure_ascii=True
    )
    rehashed["header"]["envelopeHash"] = hashlib.sha256(canonical.encode()).hexdigest()
    return {
        "original": original,
        "invalidated": tmp_path / "invalidated" / f"{real_world.success}.json",
        "rerun": _write_like_1_3_0(tmp_path / "rerun" / "0b7c4a52.json", rerun),
        "rehashed": _write_like_1_3_0(
            tmp_path / "rehashed" / f"{real_world.success}.json", rehashed
        ),
    }


def test_an_invalidated_copy_differs_by_default(
    header_copies: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A copy of a record that 1.3.0 marked not replayable is a real difference, shown with
    the ignore rules on; its creation time is untouched, so nothing is hidden."""
    a, b = str(header_copies["original"]), str(header_copies["invalidated"])
    invalid = json.loads(header_copies["invalidated"].read_text("utf-8"))["header"]
    assert invalid["replayable"] is False and invalid["replayableReason"] == "manually_invalidated"
    code, out, _ = cli(capsys, "diff", a, b)
    assert code == ExitCode.PROBLEMS, out
    changed = [line for line in out.splitlines() if line.startswith("  ")]
    assert changed == [
        "  header.replayable: true → false",
        '  header.replayableReason: null → "manually_invalidated"',
    ]
    assert "hidden by the ignore rules" not in out
    assert out.rstrip().endswith("different: 2 changed values, 0 changed events")
    code, out, _ = cli(capsys, "diff", a, b, "--json")
    doc = json.loads(out)
    assert code == ExitCode.PROBLEMS and doc["equal"] is False and doc["hidden"] == 0
    assert [(e["path_text"], e["before"], e["after"]) for e in doc["entries"]] == [
        ("header.replayable", True, False),
        ("header.replayableReason", None, "manually_invalidated"),
    ]


def test_a_copy_with_another_id_and_time_is_equal_with_them_hidden(
    header_copies: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = str(header_copies["original"]), str(header_copies["rerun"])
    code, out, _ = cli(capsys, "diff", a, b)
    assert code == ExitCode.OK, out
    assert "2 changed values hidden by the ignore rules (--all shows them)" in out
    assert out.rstrip().endswith("equal")
    doc = json.loads(cli(capsys, "diff", a, b, "--json")[1])
    assert doc["equal"] is True and doc["entries"] == [] and doc["hidden"] == 2
    code, out, _ = cli(capsys, "diff", a, b, "--all")
    assert code == ExitCode.PROBLEMS
    changed = [line.split(":")[0] for line in out.splitlines() if line.startswith("  ")]
    assert changed == ["  header.createdUtcIso", "  header.executionId"]  # keys in sorted order
    doc = json.loads(cli(capsys, "diff", a, b, "--json", "--all")[1])
    assert doc["equal"] is False and doc["hidden"] == 0
    assert [e["path_text"] for e in doc["entries"]] == [
        "header.createdUtcIso",
        "header.executionId",
    ]


def test_the_envelope_hash_is_hidden_with_what_it_hashes(
    header_copies: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Another request id changes the hash of the whole envelope: both are hidden (the
    summary still says the hashes differ); ``--all`` shows both."""
    a, b = str(header_copies["original"]), str(header_copies["rehashed"])
    code, out, _ = cli(capsys, "diff", a, b)
    assert code == ExitCode.OK, out
    assert "same recorded envelope hash: no" in out
    doc = json.loads(cli(capsys, "diff", a, b, "--json")[1])
    assert doc["equal"] is True and doc["hidden"] == 2
    assert doc["summary"]["same_envelope_hash"] is False
    doc = json.loads(cli(capsys, "diff", a, b, "--json", "--all")[1])
    assert sorted(e["path_text"] for e in doc["entries"]) == [
        "envelope.metadata.requestId",
        "header.envelopeHash",
    ]


def test_copies_of_one_record_are_told_apart_by_their_file_names(
    header_copies: dict[str, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """Named by id, two copies of one record would read the same: the heading names the
    file. A path or file name given already names it."""
    records = header_copies["original"].parent
    shutil.copy(header_copies["invalidated"], records / "invalidated-copy.json")
    original = header_copies["original"]
    execution_id = original.stem
    code, out, _ = cli(capsys, "diff", execution_id[:8], "invalidated-copy", "--dir", str(records))
    assert code == ExitCode.PROBLEMS, out
    assert out.splitlines()[:2] == [
        f"A: {execution_id[:8]} (record {execution_id}, file {original.name})",
        f"B: invalidated-copy (record {execution_id})",  # the file's name, less .json
    ]
    code, out, _ = cli(capsys, "diff", str(original), str(header_copies["invalidated"]))
    assert out.splitlines()[0] == f"A: {original} (record {execution_id})"


# --------------------------------------------------------------------------- usage errors


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("missing.json", "exec-a"), "no such file"),
        (("exec-a", "no-such-id"), "no execution 'no-such-id'"),
        (("exec-a", ".hidden"), "refused"),
        (("exec-a", ".intentusnet"), "is a directory"),
        (("exec-a", "empty.json"), "empty"),
        (("exec-a", "other.json"), "neither a record nor a snapshot"),
        (("exec-a", "garbage.db#run"), "not a SQLite database"),
        (("exec-a", "nope.db#run"), "no such file"),
    ],
)
def test_usage_errors_exit_2_with_one_line(
    root: Path, capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    (root / "empty.json").write_text("")
    (root / "other.json").write_text('{"hello": "world"}')
    (root / "garbage.db").write_text("not sqlite at all")
    code, out, err = cli(capsys, "diff", *args)
    assert code == ExitCode.USAGE
    assert out == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_no_traceback_from_a_real_process(root: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", "diff", "exec-a", "nope"],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=60,
    )
    assert proc.returncode == ExitCode.USAGE
    assert proc.stdout == "" and "Traceback" not in proc.stderr
    proc = subprocess.run(
        [sys.executable, "-m", "intentus_tui.cli", "diff", "exec-a", "exec-drift"],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=60,
    )
    assert proc.returncode == ExitCode.PROBLEMS and "events[2].payload.exception" in proc.stdout


def test_hostile_text_stays_inert(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    records = root / ".intentusnet" / "records"
    evil = make_record(execution_id="evil", agents=FALLBACK)
    evil["events"][2]["payload"]["exception"] = "\x1b]0;pwned\x07\x1b[2J\u202e\x9b31m"
    write_record(records, evil)
    code, out, _ = cli(capsys, "diff", "exec-a", "evil")
    assert code == ExitCode.PROBLEMS
    assert not any(c in out for c in "\x1b\x07\u202e\x9b")
    assert "␛" in out
    code, out, _ = cli(capsys, "diff", "exec-a", "evil", "--json")
    assert not any(c in out for c in "\x1b\x07\u202e\x9b")
    doc = json.loads(out)
    assert doc["first_divergence"]["payload_entries"][0]["after"].startswith("\x1b]0;pwned")


# --------------------------------------------------------------------------- Active Graph runs


def _planner(status: str) -> Behavior:
    def planner(event: Any, graph: Any, ctx: Any) -> None:
        graph.add_object("task", {"title": "Research", "status": "open"})
        graph.add_object("task", {"title": "Draft", "status": status})

    return Behavior(name="planner", fn=planner, on=["goal.created"])


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    path = tmp_path_factory.mktemp("runs") / "runs.db"
    graph = Graph(clock=FrozenClock())
    parent = Runtime(graph, behaviors=[_planner("blocked")], persist_to=str(path))
    parent.run_goal("Plan")
    same = parent.fork(at_event="evt_001", label="same")
    same.run_until_idle()
    drift = parent.fork(at_event="evt_001", label="drift", behaviors=[_planner("on-hold")])
    drift.run_until_idle()
    other_path = path.with_name("other.db")
    other = Runtime(
        Graph(clock=FrozenClock()), behaviors=[_planner("blocked")], persist_to=str(other_path)
    )
    other.run_goal("Plan")
    for runtime in (parent, same, drift, other):
        runtime.graph.store.close()
    return {
        "db": str(path),
        "parent": f"{path}#{graph.run_id}",
        "same": f"{path}#{same.graph.run_id}",
        "drift": f"{path}#{drift.graph.run_id}",
        "other": f"{other_path}#{other.graph.run_id}",
    }


def test_a_payload_only_fork(runs: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "diff", runs["parent"], runs["drift"])
    assert code == ExitCode.PROBLEMS
    assert "same event types: yes" in out
    assert "shared prefix: 3 events" in out
    assert '  #4.payload.object.data.status: "blocked" → "on-hold"' in out.splitlines()
    code, out, _ = cli(capsys, "diff", runs["drift"], runs["parent"], "--json")
    doc = json.loads(out)
    assert doc["compared"] == "runs" and doc["equal"] is False
    fork = doc["fork"]
    assert fork["fork_run_id"] == runs["drift"].split("#")[1]
    assert fork["shared_prefix_len"] == 3 and fork["prefix_intact"] is True
    assert fork["first_divergence"]["kind"] == "payload"
    assert len(fork["parent_tail"]) == len(fork["fork_tail"]) == 3
    assert doc["first_divergence"]["event_a"]["id"] == "evt_004"


def test_the_first_divergence_of_two_runs_skips_what_the_ignore_rules_hide(
    runs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The drift's one difference is a task's status; `--ignore status` hid it from the
    list, but the first divergence still named that event (`payload differs`), which no
    line below showed: it ignored the rules, as two records' never did."""
    _, out, _ = cli(capsys, "diff", runs["parent"], runs["drift"], "--json")
    assert json.loads(out)["first_divergence"]["kind"] == "payload"
    _, out, _ = cli(capsys, "diff", runs["parent"], runs["drift"], "--ignore", "status", "--json")
    doc = json.loads(out)
    assert doc["entries"] == [] and doc["hidden"] == 1
    assert doc["first_divergence"] is None
    _, out, _ = cli(capsys, "diff", runs["parent"], runs["drift"], "--ignore", "status")
    assert "first divergence: none" in out.splitlines()


def test_a_fork_with_the_same_behaviours_is_equal(
    runs: dict[str, str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = cli(capsys, "diff", runs["parent"], runs["same"])
    assert code == ExitCode.OK, err
    assert "shared prefix: 6 events" in out


def test_runs_in_two_files(runs: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = cli(capsys, "diff", runs["parent"], runs["other"], "--json")
    doc = json.loads(out)
    assert code == ExitCode.OK and doc["fork"] is None and doc["equal"] is True


def test_run_usage_errors(runs: dict[str, str], capsys: pytest.CaptureFixture[str]) -> None:
    for args, message in (
        ((runs["db"], runs["parent"]), "name a run as"),
        ((runs["db"] + "#", runs["parent"]), "name a run after '#'"),
        ((runs["db"] + "#nope", runs["parent"]), "no run 'nope'"),
        ((runs["parent"], "exec-a.json"), "no such file"),
    ):
        code, out, err = cli(capsys, "diff", *args)
        assert code == ExitCode.USAGE and out == "" and message in err, (args, err)


def test_a_run_cannot_be_compared_with_a_record(
    runs: dict[str, str], root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = cli(capsys, "diff", runs["parent"], "exec-a")
    assert code == ExitCode.USAGE and "cannot compare an Active Graph run" in err


def test_a_missing_operand_is_a_usage_error(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(capsys, "diff", "exec-a")
    assert code == ExitCode.USAGE and out == "" and "Missing argument" in err
    code, out, err = cli(capsys, "snapshot")
    assert code == ExitCode.USAGE and out == "" and "Missing argument" in err


# --------------------------------------------------------------------------- one comparison


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("exec-a", "exec-drift"),  # two records
        ("exec-a", "exec-direct"),
        ("exec-drift", "snapshot-of-exec-direct"),  # a record against a snapshot
    ],
)
def test_the_debugger_and_the_command_line_find_the_same_differences(
    root: Path, capsys: pytest.CaptureFixture[str], a: str, b: str
) -> None:
    """``diff --json`` and the use case the Diff tab calls give the same entries."""
    from intentus_tui.cli.diff import entry_json
    from intentus_tui.core import actions

    records = root / ".intentusnet" / "records"
    if b.startswith("snapshot-of-"):
        snapshot = root / "pinned.json"
        code, _, err = cli(capsys, "snapshot", b.removeprefix("snapshot-of-"), "-o", str(snapshot))
        assert code == ExitCode.OK, err
        b_path = snapshot
    else:
        b_path = records / f"{b}.json"
    a_path = records / f"{a}.json"
    code, out, err = cli(capsys, "diff", str(a_path), str(b_path), "--json")
    assert code == ExitCode.PROBLEMS, err
    doc = json.loads(out)

    # What the debugger does: the selected execution's detail, the other side as it is read.
    left = actions.detail_operand(actions.load_detail(a_path))
    right = (
        actions.file_operand(b_path.name, b_path, prefer="snapshot")
        if b_path == root / "pinned.json"
        else actions.detail_operand(actions.load_detail(b_path))
    )
    shown = actions.compare_view(actions.VIEW_WHAT_HAPPENED, left, right)

    assert shown.compared == doc["compared"]
    assert shown.equal is doc["equal"] is False
    assert [actions.path_text(e) for e in shown.entries] == [e["path_text"] for e in doc["entries"]]
    assert [entry_json(e) for e in shown.entries] == doc["entries"]


# --------------------------------------------------------------------------- lineage, objects


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> NotesWorld:
    return notes_world(tmp_path_factory.mktemp("notes"))


def test_a_grandchild_against_its_grandparent_as_text(
    notes: NotesWorld, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = cli(capsys, "diff", notes.ref(notes.parent), notes.ref(notes.grandchild))
    assert code == ExitCode.PROBLEMS
    lines = out.splitlines()
    assert (
        f"lineage: A is B's grandparent: {notes.parent} → (at #7) "
        f"{notes.child} → (at #11) {notes.grandchild}"
    ) in lines  # the fork points numbered as the picker and the events are (not evt_007)
    assert (notes.child_fork_event, notes.grandchild_fork_event) == ("evt_007", "evt_011")
    assert f"inherited from {notes.parent}: 7 events (to #7)" in lines
    assert "shared prefix: 7 events" in lines
    assert "events as activegraph diff counts them: 6 shared, 2 only in A, 6 only in B" in lines
    assert "objects: 1 shared, 0 only in A, 1 only in B, 3 differ" in lines
    assert "  - note#2 differs (A v1 ↔ B v3)" in lines
    assert "relations: 1 shared, 1 only in A, 1 only in B, 0 differ" in lines
    assert "  - rel_002 only in A (note#2 --cites--> note#3)" in lines


@pytest.mark.parametrize(
    ("a", "b", "relation"),
    [
        ("parent", "grandchild", "ancestor"),
        ("grandchild", "parent", "ancestor"),
        ("child", "grandchild", "parent"),
        ("sibling", "grandchild", "common-ancestor"),
    ],
)
def test_lineage_and_objects_in_json_agree_with_activegraph_diff(
    notes: NotesWorld,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    a: str,
    b: str,
    relation: str,
) -> None:
    run_a, run_b = getattr(notes, a), getattr(notes, b)
    code, out, _ = cli(capsys, "diff", notes.ref(run_a), notes.ref(run_b), "--json")
    assert code == ExitCode.PROBLEMS
    doc = json.loads(out)
    fork = doc["fork"]
    assert fork is not None and fork["relation"] == relation
    assert fork["common_ancestor_run_id"] == (notes.child if relation == "parent" else notes.parent)
    points = [p["at_event_id"] for p in fork["fork_points_a"] + fork["fork_points_b"]]
    expected_points = {
        "ancestor": [notes.child_fork_event, notes.grandchild_fork_event],
        "parent": [notes.grandchild_fork_event],
        "common-ancestor": [
            notes.sibling_fork_event,
            notes.child_fork_event,
            notes.grandchild_fork_event,
        ],
    }[relation]
    assert points == expected_points
    assert fork["shared_prefix_len"] == fork["inherited_len"] and fork["prefix_intact"]
    structure = doc["structure"]
    real = real_diff(notes.path, run_a, run_b, tmp_path)
    assert structure["activegraph"] == real.counts
    objects = structure["objects"]
    assert (
        objects["only_a"] + objects["only_b"] + objects["differs"]
        == (real.counts["divergent_objects"])
    )
    assert [o["summary"] for o in structure["divergent_objects"]] == [
        line.replace("parent", "A").replace("fork", "B") for line in real.object_lines
    ]


def test_runs_in_two_files_still_compare_their_objects(
    notes: NotesWorld, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    other = tmp_path / "other.db"
    copy_store(notes.path, other)
    code, out, _ = cli(
        capsys, "diff", notes.ref(notes.parent), f"{other}#{notes.grandchild}", "--json"
    )
    doc = json.loads(out)
    assert code == ExitCode.PROBLEMS and doc["fork"] is None  # lineage needs one file
    assert doc["structure"]["objects"] == {"shared": 1, "only_a": 0, "only_b": 1, "differs": 3}


def test_an_event_only_one_side_has_does_not_say_the_other_side_ended(
    root: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """B tried agent-a first; A went to agent-b at once and goes on after that place."""
    records = root / ".intentusnet" / "records"
    write_record(records, make_record(execution_id="went-b", agents=(("agent-b", "ok"),)))
    write_record(records, make_record(execution_id="tried-a", agents=FALLBACK))
    code, out, _ = cli(capsys, "diff", "went-b", "tried-a")
    assert code == ExitCode.PROBLEMS
    lines = out.splitlines()
    at = next(n for n, line in enumerate(lines) if line.startswith("first divergence:"))
    assert "only in B (AGENT_ATTEMPT_START)" in lines[at]
    assert lines[at + 1] == "    A: (no such event here: it goes on)"


def test_a_baseline_changed_since_it_was_saved_is_said_in_both_forms(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A name edited in a Verist baseline's output: its stored hash no longer holds, and
    ``diff`` showed the difference with no word of it (a tampered reference passed as one).
    The note names the side; the title in the debugger says it too."""
    from intentus_tui.core.compare.operands import file_operand
    from intentus_tui.tui.presenters.compare_text import side_title_versions
    from tests.core.verist.support import BASELINE

    edited = tmp_path / "doc-a-edited.json"
    edited.write_text(BASELINE.read_text("utf-8").replace('"John"', '"Jon"'), "utf-8")
    assert run(["diff", str(BASELINE), str(edited)]) == ExitCode.PROBLEMS
    out = capsys.readouterr().out
    assert (
        "   note: its content does not hash to what it recorded (artifacts[0]): changed since "
        "it was saved" in out
    )
    assert out.count("   note: ") == 1  # the saved one holds
    assert run(["diff", str(BASELINE), str(edited), "--json"]) == ExitCode.PROBLEMS
    doc = json.loads(capsys.readouterr().out)
    assert "note" not in doc["a"] and doc["b"]["note"].startswith("its content does not hash")
    title = side_title_versions(file_operand("B", edited, prefer="snapshot"))[0]
    assert title.endswith(" · ⚠ changed since it was saved"), title


@pytest.mark.parametrize(("b", "aligned"), [("exec-direct", ()), ("exec-drift", ("--aligned",))])
def test_json_counts_what_the_text_counts(
    root: Path, capsys: pytest.CaptureFixture[str], b: str, aligned: tuple[str, ...]
) -> None:
    """The text ends `different: 3 changed values, 2 changed events`; `--json` had no
    count of the changed events at all (a script had to recount them): it has both."""
    _, out, _ = cli(capsys, "diff", "exec-a", b, *aligned)
    last = out.rstrip().splitlines()[-1]
    _, out, _ = cli(capsys, "diff", "exec-a", b, "--json", *aligned)
    doc = json.loads(out)
    values, events = doc["changed_values"], doc["changed_events"]
    assert values == len(doc["entries"])
    assert last == (
        f"different: {values} changed value{'s' * (values != 1)}, "
        f"{events} changed event{'s' * (events != 1)}"
    )


def test_json_has_no_event_count_where_the_events_were_not_compared(
    root: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    snapshot = tmp_path / "a.snapshot.json"
    assert cli(capsys, "snapshot", "exec-a", "-o", str(snapshot))[0] == ExitCode.OK
    _, out, _ = cli(capsys, "diff", "exec-direct", str(snapshot), "--json")
    doc = json.loads(out)
    assert doc["changed_values"] == len(doc["entries"]) > 0 and doc["changed_events"] is None


def test_a_baseline_edited_to_match_is_not_a_clean_equal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A baseline whose output was edited to match what it is compared with: diff said
    ``equal`` and exited 0 (a CI check passed) beside a note that its content no longer
    hashes to what it recorded; it is untrusted evidence, as a tampered record is."""
    from tests.core.verist.support import BASELINE

    a = tmp_path / "doc-a-edited.json"
    b = tmp_path / "doc-b-edited.json"
    for side in (a, b):
        side.write_text(BASELINE.read_text("utf-8").replace('"John"', '"Jon"'), "utf-8")
    assert run(["diff", str(BASELINE), str(BASELINE)]) == ExitCode.OK
    capsys.readouterr()
    assert run(["diff", str(a), str(b)]) == ExitCode.PROBLEMS
    out = capsys.readouterr().out
    assert out.splitlines()[-1] == "equal, from untrusted evidence"
    assert run(["diff", str(a), str(b), "--json"]) == ExitCode.PROBLEMS
    assert json.loads(capsys.readouterr().out)["equal"] is True
