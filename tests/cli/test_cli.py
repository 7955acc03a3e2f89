"""Every command, flag and exit code of the scriptable CLI, run as a real subprocess."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.support import cli
from tests.factories import make_record, write_record


@pytest.fixture
def world(tmp_path: Path) -> Path:
    records = tmp_path / ".intentusnet" / "records"
    write_record(records, make_record(execution_id="ok-1", agents=(("a", "error"), ("b", "ok"))))
    write_record(records, make_record(execution_id="open-1", final_status=None))
    write_record(
        records, make_record(execution_id="inv-1", replayable=False, reason="manually_invalidated")
    )
    tampered = make_record(execution_id="tamper-1")
    tampered["envelope"]["payload"] = {"text": "changed"}
    write_record(records, tampered)
    cut = write_record(records, make_record(execution_id="cut-1"))
    cut.write_bytes(cut.read_bytes()[:-120])
    (records / "empty.json").write_text("")
    return tmp_path


def test_inspect_list_json_from_the_default_directory(world: Path) -> None:
    out = cli("inspect", "--list", "--json", cwd=world)
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    by_id = {e["execution_id"]: e for e in doc["executions"]}
    assert set(by_id) == {"ok-1", "open-1", "inv-1", "tamper-1", "cut-1", "empty"}
    assert by_id["ok-1"]["status"] == "completed" and by_id["ok-1"]["replayable"] is True
    assert by_id["ok-1"]["attempts"] == 2 and by_id["ok-1"]["agent_chain"] == "a ✗ → b ✓"
    assert by_id["open-1"]["status"] == "incomplete"
    assert by_id["open-1"]["replayable_reason"] == "execution_incomplete"
    assert by_id["inv-1"]["replayable_reason"] == "manually_invalidated"
    assert by_id["tamper-1"]["hash_status"] == "mismatch"
    assert by_id["cut-1"]["status"] == "corrupted" and by_id["cut-1"]["load_status"] == "salvaged"
    assert by_id["empty"]["load_status"] == "empty"
    # The verdict: what happened, can it be believed, can it be replayed.
    ok = by_id["ok-1"]
    assert (ok["outcome"], ok["integrity"], ok["needs_attention"]) == (
        "succeeded",
        "verified",
        False,
    )
    tampered = by_id["tamper-1"]
    assert (tampered["outcome"], tampered["integrity"]) == ("unknown", "tampered")
    assert tampered["replayable"] is False and tampered["replayable_reason"] == "untrusted"
    assert "investigate" in tampered["outcome_reason"] and tampered["needs_attention"]
    assert by_id["open-1"]["outcome"] == "in_flight"
    assert by_id["cut-1"]["integrity"] == "unverifiable"
    counts = doc["counts"]
    assert counts["outcome.unknown"] == 3 and counts["outcome.succeeded"] == 2
    assert counts["integrity.tampered"] == 1 and counts["replay.untrusted"] == 1
    assert counts["needs_attention"] == 4 and counts["outcome.failed"] == 0


def test_inspect_list_text_is_an_aligned_table(world: Path) -> None:
    out = cli("inspect", "--list", str(world / ".intentusnet"))
    assert out.returncode == 0
    lines = out.stdout.splitlines()
    assert lines[0].split()[:6] == [
        "EXECUTION",
        "CREATED",
        "INTENT",
        "OUTCOME",
        "INTEGRITY",
        "REPLAY",
    ]
    ok_line = next(line for line in lines if line.startswith("ok-1"))
    assert "succeeded" in ok_line and "verified" in ok_line
    assert lines[0].index("OUTCOME") == ok_line.index("succeeded")
    assert lines[0].index("INTEGRITY") == ok_line.index("verified")
    tampered = next(line for line in lines if line.startswith("tamper-1"))
    assert "unknown" in tampered and "tampered" in tampered and "untrusted" in tampered


def test_inspect_one_execution(world: Path) -> None:
    records = world / ".intentusnet" / "records"
    out = cli("inspect", "open-1", "--dir", str(records), "--json")
    doc = json.loads(out.stdout)
    assert doc["execution_id"] == "open-1" and doc["status"] == "incomplete"
    assert doc["last_event"]["type"] == "AGENT_ATTEMPT_END"
    assert doc["replayable"] is False and doc["replayable_reason"] == "execution_incomplete"
    cut = json.loads(cli("inspect", str(records / "cut-1.json"), "--json").stdout)
    assert cut["salvage"]["truncated"] is True and "header" in cut["salvage"]["recovered"]
    text = cli("inspect", "cut-1", "--dir", str(records))
    assert "damage" in text.stdout and "truncated" in text.stdout


def test_inspect_json_answers_replayable_as_the_listing_does(world: Path) -> None:
    """A tampered record's writer library still calls it replayable: ``inspect ID --json``
    said ``"replayable": true`` at its top level (a script reading it would replay it)
    while its verdict said no. The top level is the verdict's, as in the listing; what the
    library alone answers has its own key."""
    records = world / ".intentusnet" / "records"
    rows = {
        row["execution_id"]: row
        for row in json.loads(cli("inspect", "--list", str(records), "--json").stdout)["executions"]
    }
    for execution_id in ("tamper-1", "ok-1", "open-1", "cut-1"):
        doc = json.loads(cli("inspect", execution_id, "--dir", str(records), "--json").stdout)
        row = rows[execution_id]
        for key in ("replayable", "replayable_reason", "replayable_detail"):
            assert doc[key] == row[key], (execution_id, key)
        assert doc["replayable"] is doc["verdict"]["replayable"]
    tampered = json.loads(cli("inspect", "tamper-1", "--dir", str(records), "--json").stdout)
    assert tampered["replayable"] is False and tampered["replayable_reason"] == "untrusted"
    assert tampered["library_replayable"] == {"replayable": True, "reason": None}


def test_verify_exit_codes(world: Path) -> None:
    records = world / ".intentusnet" / "records"
    assert cli("verify", str(records / "ok-1.json")).returncode == 0
    out = cli("verify", str(records), "--json")
    assert out.returncode == 1
    doc = json.loads(out.stdout)
    failed = {Path(f["file"]).stem for f in doc["files"] if not f["ok"]}
    assert failed == {"tamper-1", "cut-1", "empty"}
    tamper = next(f for f in doc["files"] if f["file"].endswith("tamper-1.json"))
    assert (
        tamper["hash"]["status"] == "mismatch"
        and tamper["hash"]["expected"] != tamper["hash"]["actual"]
    )


def test_replay_exit_codes(world: Path, tmp_path: Path) -> None:
    records = world / ".intentusnet" / "records"
    ok = cli("replay", "ok-1", "--dir", str(records), "--json")
    assert ok.returncode == 0
    doc = json.loads(ok.stdout)
    assert doc["from_replay"] is True and doc["payload"] == {"summary": "done"}
    refused = cli("replay", "inv-1", "--dir", str(records))
    assert refused.returncode == 3 and "manually_invalidated" in refused.stderr
    assert refused.stdout == ""  # a refusal is not an answer: `replay X > answer` stays empty
    forced = json.loads(cli("replay", "inv-1", "--dir", str(records), "--force", "--json").stdout)
    assert "Forced replay of non-replayable record" in forced["warnings"]
    recorded_envelope = json.loads((records / "ok-1.json").read_text())["envelope"]
    envelope = tmp_path / "env.json"
    envelope.write_text(json.dumps(recorded_envelope))
    assert cli("replay", "ok-1", "--dir", str(records), "--envelope", str(envelope)).returncode == 0
    envelope.write_text(json.dumps({**recorded_envelope, "payload": {"x": 1}}))
    mismatch = cli("replay", "ok-1", "--dir", str(records), "--envelope", str(envelope), "--json")
    assert mismatch.returncode == 4 and json.loads(mismatch.stdout)["envelope_match"] is False


@pytest.mark.parametrize("held", ["null", "record"])
def test_an_envelope_file_holding_no_envelope_is_refused_not_skipped(
    world: Path, tmp_path: Path, held: str
) -> None:
    # --envelope of a file holding null (or a record with no envelope) skipped the check
    # and replayed, exit 0, as if no envelope had been given.
    records = world / ".intentusnet" / "records"
    envelope = tmp_path / "envelope.json"
    record = json.loads((records / "ok-1.json").read_text())
    envelope.write_text(json.dumps({**record, "envelope": None}) if held == "record" else "null")
    out = cli("replay", "ok-1", "--dir", str(records), "--envelope", str(envelope))
    assert out.returncode == 2, out
    said = "it is a record that holds no envelope" if held == "record" else "it holds null"
    assert out.stderr.startswith(f"intentus-tui: cannot read envelope file {envelope}: {said}")
    assert out.stdout == ""


@pytest.mark.parametrize(
    "args",
    [
        ("inspect", "--list", "/does/not/exist"),
        ("inspect", "nope", "--dir", "{records}"),
        ("inspect", "../../etc/passwd.json"),
        ("replay", "..", "--dir", "{records}"),
        ("verify", "/does/not/exist"),
        ("replay",),
        ("no-such-command",),
    ],
)
def test_usage_errors_exit_2_without_traceback(world: Path, args: tuple[str, ...]) -> None:
    records = str(world / ".intentusnet" / "records")
    out = cli(*(a.replace("{records}", records) for a in args))
    assert out.returncode == 2, out
    assert "Traceback" not in out.stderr and out.stderr.strip()


@pytest.mark.parametrize("command", ["inspect", "replay", "snapshot", "diff"])
def test_an_empty_argument_is_said_to_name_nothing(world: Path, command: str) -> None:
    # It was "'.' is a directory, not a record file or execution id" (Path("") is ".").
    out = cli(command, "", *(["x"] if command == "diff" else []), cwd=world)
    assert out.returncode == 2, out
    assert out.stderr == (
        "intentus-tui: an empty argument names nothing: give an execution id or a file\n"
    )


@pytest.mark.parametrize(
    "args",
    [
        ("verify", ""),
        ("inspect", "--list", ""),
        ("inspect", "--list", "--dir", ""),
        ("inspect", "ok-1", "--dir", ""),
        ("replay", "ok-1", "--dir", ""),
        ("export", "--format", "json", "-o", "-", "--dir", ""),
        ("serve", ""),
    ],
)
def test_an_empty_root_is_refused_not_read_as_the_current_directory(
    world: Path, args: tuple[str, ...]
) -> None:
    # An unset variable (`verify "$DIR"`) verified, listed or served the current directory.
    out = cli(*args, cwd=world)
    assert out.returncode == 2, out
    assert out.stderr == (
        "intentus-tui: an empty argument names no directory: give a directory or a URL\n"
    )
    assert "ok-1" not in out.stdout


def test_an_empty_root_beside_others_fails_alone(world: Path) -> None:
    out = cli("inspect", "--list", ".", "", cwd=world)
    assert out.returncode == 1, out
    assert "root '': failed: an empty argument names no directory" in out.stderr
    assert "ok-1" in out.stdout


@pytest.mark.parametrize("command", ["inspect", "replay", "snapshot", "verify", "diff"])
def test_a_name_too_long_for_the_system_is_said_in_words_and_cut(world: Path, command: str) -> None:
    # It was "[Errno 36] File name too long: 'xxx…'", all 5,000 characters of it.
    name = "x" * 5000
    out = cli(command, name, *(["ok-1"] if command == "diff" else []), cwd=world)
    assert out.returncode == 2, out
    assert out.stderr == (f"intentus-tui: {'x' * 119}… (5,000 characters): file name too long\n")


def test_a_run_database_named_to_inspect_or_verify_is_no_damaged_record(tmp_path: Path) -> None:
    # A real Active Graph run store was "the file is damaged: Not UTF-8 text: invalid UTF-8
    # at byte 102" (its verdict record_corrupted): a claim of damage about a sound database.
    from tests.activegraph_world import notes_world

    path = notes_world(tmp_path).path
    shown = cli("inspect", str(path))
    assert "the file is damaged:" not in shown.stdout and "UTF-8" not in shown.stdout
    assert (
        "  outcome     unknown: the file is not a record: binary SQLite database, not an "
        "execution record (an Active Graph run store is one: diff notes.db#RUN_ID compares "
        "its runs)" in shown.stdout
    )
    checked = cli("verify", str(path))
    assert checked.returncode == 1
    assert checked.stdout.splitlines()[:2] == [
        "FAIL  notes.db  hash not checked (not a record)",
        "      - Binary SQLite database, not an execution record (an Active Graph run store "
        "is one: diff notes.db#RUN_ID compares its runs)",
    ]


def test_hostile_text_never_reaches_the_terminal(tmp_path: Path) -> None:
    evil = make_record(execution_id="evil", intent="\x1b]0;pwned\x07[b]x[/b]\x9b2J\u202e")
    write_record(tmp_path, evil)
    text = cli("inspect", "--list", str(tmp_path))
    js = cli("inspect", "--list", str(tmp_path), "--json")
    for out in (text.stdout, js.stdout):
        assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out and "\x07" not in out
    assert "[b]x[/b]" in text.stdout
    json.loads(js.stdout)


def test_verify_gives_each_record_its_verdict(world: Path) -> None:
    out = cli("verify", cwd=world)
    assert out.returncode == 1
    lines = out.stdout.splitlines()
    after = {
        lines[i].split()[1]: lines[i + 1 : i + 4]
        for i in range(len(lines))
        if lines[i][:4] in ("ok  ", "FAIL")
    }
    assert any(
        "verdict: outcome succeeded, integrity verified; replayable" in line
        for line in after["ok-1.json"]
    )
    assert any(
        "verdict: outcome unknown (untrusted), integrity tampered; not replayable (untrusted)"
        in line
        for line in after["tamper-1.json"]
    )
    doc = json.loads(cli("verify", "--json", cwd=world).stdout)
    by_file = {Path(f["file"]).name: f for f in doc["files"]}
    assert by_file["tamper-1.json"]["verdict"]["integrity"] == "tampered"
    assert by_file["open-1.json"]["verdict"]["outcome"] == "in_flight"
    assert by_file["empty.json"]["verdict"]["outcome"] == "unknown"  # nothing to go on


def test_a_huge_response_is_listed_unknown_not_damaged(tmp_path: Path) -> None:
    """A whole 1.3.0 record whose echoed response fills its last bytes: the listing cannot
    see the final response, so it says unknown and "to check", not "damaged"; read whole,
    the same execution succeeded, verified and replayable."""
    from intentus_tui.core.records.load import HUGE_FILE_BYTES
    from tests.intentusnet_world import huge_echo_record

    records, execution_id = huge_echo_record(tmp_path, HUGE_FILE_BYTES // 2 + 1000)
    listed = cli("inspect", "--list", "--json", "--no-cache", str(records))
    [row] = json.loads(listed.stdout)["executions"]
    assert row["load_status"] == "head_only" and row["status"] == "unknown"
    assert row["outcome"] == "unknown" and "damaged" not in row["outcome_reason"]
    assert row["outcome_reason"].startswith("too large to read whole")
    assert (row["replayable"], row["replayable_reason"]) == (False, "unchecked")
    assert json.loads(listed.stdout)["counts"]["replay.record_corrupted"] == 0
    # What to do, in the command line's words (it said only "select it", the debugger's).
    assert "inspect ID reads and verifies it whole" in row["message"]
    whole = json.loads(cli("inspect", execution_id, "--dir", str(records), "--json").stdout)
    assert (whole["verdict"]["outcome"], whole["verdict"]["integrity"]) == (
        "succeeded",
        "verified",
    )
    assert whole["verdict"]["replay"] == "replayable"


def test_a_huge_file_whose_head_holds_no_section_is_listed_unknown_not_damaged(
    tmp_path: Path,
) -> None:
    """A huge JSON object, whole, whose first megabyte is one long value: the listing
    said "the file is damaged: Large file …", a claim nothing it read supports (inspect,
    reading it whole, finds it well-formed, not a record)."""
    from intentus_tui.core.records.load import HUGE_FILE_BYTES

    records = tmp_path / "records"
    records.mkdir()
    (records / "big.json").write_text('{"x": "' + "a" * (HUGE_FILE_BYTES + 1000) + '"}')
    listed = cli("inspect", "--list", "--json", "--no-cache", str(records))
    [row] = json.loads(listed.stdout)["executions"]
    assert row["outcome"] == "unknown" and "damaged" not in row["outcome_reason"], row
    assert row["outcome_reason"].startswith("too large to read whole")
    assert (row["replayable"], row["replayable_reason"]) == (False, "unchecked")
    whole = json.loads(cli("inspect", "big", "--dir", str(records), "--json").stdout)
    assert whole["verdict"]["outcome_reason"].startswith("the file is not a record")


def test_a_huge_record_is_never_listed_as_replayable_before_it_is_read_whole(
    tmp_path: Path,
) -> None:
    """Listed from its head and tail, an edited 17 MB record cannot be hashed: the
    listing says "unchecked", never "replayable" (a script selecting replayable rows
    must not pick it); read whole, it is untrusted."""
    import json as json_module

    from intentus_tui.core.records.load import HUGE_FILE_BYTES
    from tests.factories import make_record, write_record

    records = tmp_path / "records"
    record = make_record(execution_id="0b16b16b-0000-4000-8000-00000000b16b")
    record["envelope"]["payload"] = {"blob": "x" * (HUGE_FILE_BYTES + 1000)}
    path = write_record(records, record)
    path.write_bytes(path.read_bytes().replace(b'"Summarize"', b'"Edited!!!"', 1))
    listed = cli("inspect", "--list", "--json", "--no-cache", str(records))
    [row] = json_module.loads(listed.stdout)["executions"]
    assert (row["replayable"], row["replayable_reason"]) == (False, "unchecked")
    assert row["integrity"] == "unverifiable" and row["load_status"] == "head_only"
    whole = json_module.loads(cli("inspect", "0b16b16b", "--dir", str(records), "--json").stdout)
    assert whole["verdict"]["integrity"] == "tampered"
    assert whole["verdict"]["replay"] == "untrusted"


def test_a_record_file_given_to_open_says_how_to_inspect_it(world: Path, tmp_path: Path) -> None:
    """``intentus-tui FILE.json`` opens no debugger (it takes directories): the line says
    which command reads one file, where it said only "try --help"."""
    record = next((world / ".intentusnet" / "records").glob("*.json"))
    done = cli(str(record), cwd=tmp_path)
    assert done.returncode == 2 and not done.stdout
    assert done.stderr == (
        f"intentus-tui: not a directory: {str(record)!r} (inspect it with "
        f"`intentus-tui inspect {str(record)!r}`, or open its directory)\n"
    )
    done = cli(str(tmp_path / "nothing-here"), cwd=tmp_path)
    assert done.returncode == 2 and done.stderr.endswith("(try --help)\n")


def test_a_link_given_to_open_that_cannot_be_followed_says_which(tmp_path: Path) -> None:
    """``intentus-tui LINK`` said "a link that loops or leads nowhere" where a listing and
    every other command say which of the two."""
    (tmp_path / "gone").symlink_to(tmp_path / "nowhere")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for name, said in (
        ("gone", "the link leads nowhere (its target does not exist)"),
        ("loop", "the link loops (it leads back to itself)"),
    ):
        done = cli(str(tmp_path / name), cwd=tmp_path)
        assert done.returncode == 2 and not done.stdout
        assert done.stderr == f"intentus-tui: {said}: {str(tmp_path / name)!r} (try --help)\n"
