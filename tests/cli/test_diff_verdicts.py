"""``intentus-tui diff`` names each record's verdict, as ``verify`` and ``inspect`` give it,
and warns when a side's evidence fails its integrity check (a tampered record, a broken
write-ahead log chain): its differences come from that evidence. Snapshots have no verdict.

Records written by the real IntentusNet 1.3.0; the tampered one is a copy whose envelope
payload was edited after its hash was taken."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from intentus_tui.cli import run
from intentus_tui.cli.exit_codes import ExitCode
from tests.core.wal.support import RECORD_WITH_EDITED_LOG, write_record_with_edited_log
from tests.intentusnet_world import RealWorld

UNTRUSTED = "its differences come from evidence that fails its integrity check"
CLEAN_LINE = "verdict: outcome succeeded, integrity verified; replayable"
TAMPERED_LINE = (
    "verdict: outcome unknown (untrusted), integrity tampered; not replayable (untrusted)"
)
BROKEN_LINE = (
    "verdict: outcome unknown (untrusted), integrity chain_broken; not replayable (untrusted)"
)


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = run(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def tamper(source: Path, target: Path, execution_id: str | None = None) -> Path:
    """A copy of ``source`` with its envelope's payload edited after the hash was taken."""
    record = json.loads(source.read_text("utf-8"))
    record["envelope"]["payload"]["text"] = "refund 1,000,000"
    if execution_id is not None:
        record["header"]["executionId"] = execution_id
    target.write_text(json.dumps(record, ensure_ascii=False, indent=2), "utf-8")
    return target


@pytest.fixture
def incident(tmp_path: Path, real_world: RealWorld) -> dict[str, Any]:
    """The real records in ``.intentusnet/records``, one record whose log was edited (its
    chain breaks), and a tampered copy of the fallback record outside the store."""
    base = tmp_path / ".intentusnet"
    records = base / "records"
    shutil.copytree(real_world.records_dir, records)
    edited_log = write_record_with_edited_log(base)
    tampered = tamper(records / f"{real_world.fallback}.json", tmp_path / "tamp-01.json")
    return {
        "base": base,
        "records": records,
        "success": real_world.success,
        "fallback": real_world.fallback,
        "tampered": tampered,
        "edited_log": edited_log,
    }


def verify_verdict(capsys: pytest.CaptureFixture[str], path: Path) -> str:
    """The ``verdict:`` line ``intentus-tui verify`` prints for one record file."""
    _, out, _ = cli(capsys, "verify", str(path))
    (line,) = [text.strip() for text in out.splitlines() if text.strip().startswith("verdict:")]
    return line


def inspect_verdict(capsys: pytest.CaptureFixture[str], *target: str) -> dict[str, Any]:
    code, out, err = cli(capsys, "inspect", *target, "--json")
    assert code in (None, ExitCode.OK), err  # (returning normally, click gives None)
    verdict: dict[str, Any] = json.loads(out)["verdict"]
    return verdict


def test_text_names_both_verdicts_and_warns_about_the_tampered_side(
    incident: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    base, success, tampered = str(incident["base"]), incident["success"], incident["tampered"]
    code, out, err = cli(capsys, "diff", "--dir", base, success[:8], str(tampered))
    assert code == ExitCode.PROBLEMS, err
    lines = out.splitlines()
    assert lines[0] == f"A: {success[:8]} (record {success})"
    assert lines[1] == f"B: {tampered} (record {incident['fallback']})"
    assert lines[2] == f"A  {success}  {CLEAN_LINE}"
    assert lines[3] == f"B  {incident['fallback']}  {TAMPERED_LINE}"
    warnings = [line for line in lines if line.startswith("warning:")]
    assert warnings == [lines[4]]
    assert lines[4].startswith(f"warning: B is untrusted (integrity tampered): {UNTRUSTED} (")
    assert "possible tampering" in lines[4]
    # verify's words for each file, exactly.
    assert lines[2].endswith(verify_verdict(capsys, incident["records"] / f"{success}.json"))
    assert lines[3].endswith(verify_verdict(capsys, tampered))

    # The other way round, the warning names A.
    code, out, _ = cli(capsys, "diff", "--dir", base, str(tampered), success[:8])
    assert code == ExitCode.PROBLEMS
    warnings = [line for line in out.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and warnings[0].startswith("warning: A is untrusted")


def test_json_carries_each_verdict_as_inspect_gives_it(
    incident: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    base, success, tampered = str(incident["base"]), incident["success"], incident["tampered"]
    code, out, _ = cli(capsys, "diff", "--dir", base, success[:8], str(tampered), "--json")
    assert code == ExitCode.PROBLEMS
    doc = json.loads(out)
    assert doc["a"]["verdict"] == inspect_verdict(capsys, success, "--dir", base)
    assert doc["b"]["verdict"] == inspect_verdict(capsys, str(tampered))
    assert doc["a"]["verdict"]["integrity"] == "verified"
    assert (doc["b"]["verdict"]["integrity"], doc["b"]["verdict"]["replay"]) == (
        "tampered",
        "untrusted",
    )
    (warning,) = doc["warnings"]
    assert warning.startswith(f"B is untrusted (integrity tampered): {UNTRUSTED}")


def test_a_clean_pair_shows_both_verdicts_and_no_warning(
    incident: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    base, success, fallback = str(incident["base"]), incident["success"], incident["fallback"]
    code, out, _ = cli(capsys, "diff", "--dir", base, success, fallback)
    assert code == ExitCode.PROBLEMS  # they differ; both can be believed
    lines = out.splitlines()
    assert lines[2:4] == [f"A  {success}  {CLEAN_LINE}", f"B  {fallback}  {CLEAN_LINE}"]
    assert not any(line.startswith("warning:") for line in lines)
    assert "untrusted" not in out
    _, out, _ = cli(capsys, "diff", "--dir", base, success, fallback, "--json")
    doc = json.loads(out)
    assert doc["warnings"] == []
    assert doc["a"]["verdict"]["needs_attention"] is doc["b"]["verdict"]["needs_attention"] is False


@pytest.mark.parametrize("by", ["id", "path"])
def test_a_record_whose_log_chain_breaks_is_untrusted_as_inspect_says(
    incident: dict[str, Any], capsys: pytest.CaptureFixture[str], by: str
) -> None:
    """The record hashes fine; its write-ahead log beside it was edited. Named by id or by
    path, its verdict is made with its log, as ``inspect`` and ``verify`` make it."""
    base = str(incident["base"])
    other = RECORD_WITH_EDITED_LOG[:8] if by == "id" else str(incident["edited_log"])
    code, out, _ = cli(capsys, "diff", "--dir", base, incident["success"], other)
    assert code == ExitCode.PROBLEMS
    lines = out.splitlines()
    assert lines[3] == f"B  {RECORD_WITH_EDITED_LOG}  {BROKEN_LINE}"
    assert lines[3].endswith(verify_verdict(capsys, incident["edited_log"]))
    assert lines[4].startswith(f"warning: B is untrusted (integrity chain broken): {UNTRUSTED}")
    assert "hash chain broken at line 3" in lines[4]
    _, out, _ = cli(capsys, "diff", "--dir", base, incident["success"], other, "--json")
    doc = json.loads(out)
    assert doc["b"]["verdict"] == inspect_verdict(capsys, RECORD_WITH_EDITED_LOG, "--dir", base)
    assert doc["b"]["verdict"]["integrity"] == "chain_broken"


def test_a_snapshot_has_no_verdict(
    incident: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    base, success, tampered = str(incident["base"]), incident["success"], incident["tampered"]
    snapshot = tmp_path / "pinned.json"
    code, _, err = cli(
        capsys, "snapshot", str(incident["records"] / f"{success}.json"), "-o", str(snapshot)
    )
    assert code == ExitCode.OK, err
    code, out, _ = cli(capsys, "diff", "--dir", base, str(tampered), str(snapshot))
    lines = out.splitlines()
    assert lines[1].startswith(f"B: {snapshot} (snapshot")
    assert [line for line in lines if "verdict:" in line] == [
        f"A  {incident['fallback']}  {TAMPERED_LINE}"
    ]
    assert [line for line in lines if line.startswith("warning:")] == [
        next(line for line in lines if line.startswith("warning: A is untrusted"))
    ]
    _, out, _ = cli(capsys, "diff", "--dir", base, success, str(snapshot), "--json")
    doc = json.loads(out)
    assert "verdict" not in doc["b"] and doc["b"]["kind"] == "snapshot"
    assert doc["a"]["verdict"]["integrity"] == "verified" and doc["warnings"] == []


def test_verdict_lines_are_terminal_safe(
    incident: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    hostile = "exec-[b]x[/b]\x1b[2J\x1b]0;title\x07\u202eevil"
    source = incident["records"] / f"{incident['fallback']}.json"
    path = tamper(source, tmp_path / "hostile.json", execution_id=hostile)
    code, out, _ = cli(
        capsys, "diff", "--dir", str(incident["base"]), incident["success"], str(path)
    )
    assert code == ExitCode.PROBLEMS
    assert "\x1b" not in out and "\x07" not in out and "\u202e" not in out
    line = next(text for text in out.splitlines() if text.startswith("B  "))
    assert line.startswith("B  exec-[b]x[/b]") and line.endswith(TAMPERED_LINE)
    _, out, _ = cli(
        capsys, "diff", "--dir", str(incident["base"]), incident["success"], str(path), "--json"
    )
    assert "\x1b" not in out and "\u202e" not in out
    assert json.loads(out)["b"]["verdict"]["integrity"] == "tampered"


def test_equal_from_an_untrusted_side_is_said_and_is_no_clean_exit(
    incident: dict[str, Any], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A record whose only edit is in a path the ignore rules hide (its trace id): the
    values compared match, but from evidence that fails its integrity check. It ended
    ``equal`` with exit 0, which a script takes for a clean result."""
    original = incident["records"] / f"{incident['fallback']}.json"
    record = json.loads(original.read_text("utf-8"))
    record["envelope"]["metadata"]["traceId"] = "edited"
    edited = tmp_path / "trace-edited.json"
    edited.write_text(json.dumps(record, ensure_ascii=False, indent=2), "utf-8")

    code, out, _ = cli(capsys, "diff", str(original), str(edited))
    lines = out.splitlines()
    assert code == ExitCode.PROBLEMS
    assert lines[-2:] == [
        "1 changed value hidden by the ignore rules (--all shows them)",
        "equal, from untrusted evidence",
    ]
    assert any(line.startswith("warning: B is untrusted (integrity tampered)") for line in lines)
    code, out, _ = cli(capsys, "diff", str(original), str(edited), "--json")
    assert code == ExitCode.PROBLEMS and json.loads(out)["equal"] is True

    # Two trusted copies of it: equal, exit 0, as before.
    copy = shutil.copy(original, tmp_path / "copy.json")
    code, out, _ = cli(capsys, "diff", str(original), str(copy))
    assert code == ExitCode.OK and out.splitlines()[-1] == "equal"
