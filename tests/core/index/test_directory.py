"""The directory view: parallel scan, persistent cache, live updates, the WAL join."""

from __future__ import annotations

import os
import shutil
import sqlite3
from pathlib import Path

import pytest

from intentus_tui.core.index.cache import CACHE_ENV, NO_STAMP, STAMP_WIDTH, IndexCache
from intentus_tui.core.index.directory import DirectoryIndex, scan_root
from intentus_tui.core.paths import resolve_root
from intentus_tui.core.records.load import LoadStatus
from intentus_tui.core.records.timeline import ExecutionState
from intentus_tui.demo.writer import build_demo_world
from intentus_tui.render.rows import LISTING_ROWS
from tests.factories import make_record, write_record


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(path))
    return path


def _many(directory: Path, count: int) -> None:
    for i in range(count):
        write_record(
            directory,
            make_record(execution_id=f"r{i:05d}", final_status=None if i % 7 == 0 else "success"),
        )


def test_parallel_scan_equals_sequential(records_dir: Path) -> None:
    _many(records_dir, 2100)  # above the parallel threshold
    root = resolve_root(records_dir)
    parallel = scan_root(root, use_cache=False, workers=2)
    sequential = scan_root(root, use_cache=False, workers=1)
    assert parallel == sequential and len(parallel) == 2100
    assert sum(s.state is ExecutionState.INCOMPLETE for s in parallel) == 300


def test_a_listing_made_by_the_workers_alone_equals_the_listing_of_summaries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``inspect --list --json --no-cache`` skips the summaries: the workers send rows and
    counts, in the order the files were listed and the chunks finished; the rows' keys put
    them in order. Same rows, and once ordered the same listing, as rows made from
    summaries."""
    from intentus_tui.core.index import scan as scan_module
    from intentus_tui.render.listing_order import time_ordered_rows
    from intentus_tui.render.rows import LISTING_ROWS, listing_counts
    from tests.hostile.corpus import build_corpus

    corpus = build_corpus(tmp_path)
    shutil.rmtree(corpus.wal_dir)  # no WAL to join: the case the workers' listing serves
    _many(corpus.records_dir, 300)
    monkeypatch.setattr(scan_module, "PARALLEL_THRESHOLD", 10)
    monkeypatch.setattr(scan_module, "_CHUNK", 7)  # many chunks, finished out of order
    root = resolve_root(corpus.records_dir)
    assert root.wal_dir is None
    direct = DirectoryIndex(root, use_cache=False, workers=2, rows=LISTING_ROWS).listing_json()
    assert direct is not None
    scanned = DirectoryIndex(root, use_cache=False, workers=1, keep_rows=True, rows=LISTING_ROWS)
    summaries = scanned.scan()
    assert direct[0] == listing_counts(summaries)
    made = [row for block in direct[1] for row in block.rows.split(b",\n")]
    lines = list(scanned.listing_lines())
    assert sorted(made) == sorted(lines) and len(made) == len(lines)
    printed = b"".join(piece for batch in time_ordered_rows(direct[1]) for piece in batch)
    assert printed == b"".join(
        piece for batch in time_ordered_rows([b",\n".join(lines)]) for piece in batch
    )
    assert len(summaries) > 300 and direct[0]["executions"] == len(summaries)
    assert direct[0]["outcome.unknown"] and direct[0]["outcome.in_flight"]
    # with a cache to fill or a WAL to join, the summaries are needed: no shortcut
    assert DirectoryIndex(root, rows=LISTING_ROWS).listing_json() is None


def test_warm_scan_comes_from_the_cache_and_sees_changes(
    records_dir: Path, cache_dir: Path
) -> None:
    _many(records_dir, 30)
    root = resolve_root(records_dir)
    cold = scan_root(root)
    assert (cache_dir / IndexCache().path.name).exists()
    assert not [
        p for p in os.listdir(records_dir) if not p.endswith(".json")
    ]  # nothing written there
    assert scan_root(root) == cold
    # change one file, delete one, add one: the warm scan must notice each
    write_record(records_dir, make_record(execution_id="r00001", final_status=None))
    (records_dir / "r00002.json").unlink()
    write_record(records_dir, make_record(execution_id="new"))
    warm = {s.key: s for s in scan_root(root)}
    assert warm["r00001.json"].state is ExecutionState.INCOMPLETE
    assert "r00002.json" not in warm and "new.json" in warm
    assert {s.key: s for s in scan_root(root, use_cache=False)} == warm


def test_corrupt_cache_is_rebuilt(records_dir: Path, cache_dir: Path) -> None:
    _many(records_dir, 5)
    root = resolve_root(records_dir)
    expected = scan_root(root)
    path = IndexCache().path
    path.write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    assert scan_root(root) == expected
    assert scan_root(root) == expected
    with sqlite3.connect(path) as db:  # rebuilt as a real cache
        (names,) = db.execute("select names from snapshots").fetchone()
        assert names.decode().split("\0") == [s.key for s in expected]


def test_unwritable_cache_is_bypassed(
    records_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    monkeypatch.setenv(CACHE_ENV, str(blocker / "cache"))
    _many(records_dir, 3)
    assert len(scan_root(resolve_root(records_dir))) == 3


def test_update_touches_only_the_given_paths(records_dir: Path) -> None:
    _many(records_dir, 5)
    index = DirectoryIndex(resolve_root(records_dir), use_cache=False)
    index.scan()
    path = write_record(records_dir, make_record(execution_id="r00003", final_status=None))
    (records_dir / "r00004.json").unlink()
    changed, removed = index.update(
        [path, records_dir / "r00004.json", records_dir / "r00000.json"]
    )
    assert {s.key for s in changed} == {"r00003.json", "r00000.json"}
    assert next(s for s in changed if s.key == "r00003.json").state is ExecutionState.INCOMPLETE
    assert "r00004.json" in removed
    assert {s.key for s in index.summaries()} == {f"r0000{i}.json" for i in range(4)}


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory):
    return build_demo_world(tmp_path_factory.mktemp("demo"))


def test_wal_only_executions_are_listed_as_incomplete(demo) -> None:
    summaries = {s.execution_id: s for s in scan_root(resolve_root(demo.root), use_cache=False)}
    wal_only = summaries[demo.first("crash_wal_only")]
    assert wal_only.source == "wal" and wal_only.state is ExecutionState.INCOMPLETE
    assert wal_only.load_status is LoadStatus.NO_RECORD and wal_only.wal_state == "in_flight"
    assert not demo.record_path(wal_only.execution_id).exists()
    tampered = summaries[demo.first("wal_tampered")]
    assert (
        tampered.source == "record+wal"
        and tampered.wal_problem
        and "hash_mismatch" in tampered.wal_problem
    )
    crash = summaries[demo.first("crash_mid_attempt")]
    assert crash.source == "record+wal" and crash.wal_problem is None


def test_live_wal_changes_join_and_unjoin(demo, tmp_path: Path) -> None:
    root_dir = tmp_path / ".intentusnet"
    shutil.copytree(demo.root, root_dir)
    root = resolve_root(tmp_path)
    index = DirectoryIndex(root, use_cache=False)
    index.scan()
    wal_only = demo.first("crash_wal_only")
    wal_path = root.wal_dir / f"{wal_only}.wal"
    # the record finally lands: the WAL-only row is replaced by a joined record row
    write_record(root.records_dir, make_record(execution_id=wal_only))
    changed, removed = index.update([root.records_dir / f"{wal_only}.json"])
    assert [s.source for s in changed] == ["record+wal"] and f"{wal_only}.wal" in removed
    wal_path.unlink()
    changed, removed = index.update([wal_path])
    assert [s.source for s in changed] == ["record"]


@pytest.mark.parametrize(
    ("final", "cut", "state", "reason"),
    [
        ("success", 0, ExecutionState.COMPLETED, None),
        (None, 0, ExecutionState.INCOMPLETE, "execution_incomplete"),
        ("success", 5000, ExecutionState.CORRUPTED, "record_corrupted"),
    ],
)
def test_huge_files_are_listed_from_head_and_tail(
    records_dir: Path, final, cut, state, reason
) -> None:
    from intentus_tui.core.index.summarize import summarize_path
    from intentus_tui.core.records.load import HUGE_FILE_BYTES
    from intentus_tui.core.records.verify import HashStatus

    record = make_record(execution_id="huge", final_status=final)
    record["envelope"]["payload"] = {"blob": "x" * (HUGE_FILE_BYTES + 20_000)}
    path = write_record(records_dir, record)
    if cut:
        path.write_bytes(path.read_bytes()[:-cut])
    summary = summarize_path(path)
    assert summary.load_status is LoadStatus.HEAD_ONLY and "select it" in summary.message
    assert summary.state is state and summary.replay_reason == reason
    assert summary.execution_id == "huge" and summary.intent == "Summarize"
    assert summary.hash_status is HashStatus.UNVERIFIABLE  # the envelope is beyond the head


def test_the_wal_names_the_step_in_flight_when_the_partial_record_cannot(tmp_path: Path) -> None:
    from intentus_tui.demo.recorder import ExecutionRecorder

    root = tmp_path / ".intentusnet"
    recorder = ExecutionRecorder(root, envelope=make_record()["envelope"])
    recorder.intent_received()
    recorder.attempt_start("payments-adyen")  # crash here: the WAL has it, the record may not
    summaries = {s.execution_id: s for s in scan_root(resolve_root(tmp_path), use_cache=False)}
    (summary,) = summaries.values()
    assert summary.state is ExecutionState.INCOMPLETE and summary.source == "record+wal"
    assert summary.in_flight_agent == "payments-adyen"


def _listing_json(root_dir: Path, *, use_cache: bool = True) -> bytes:
    """What ``inspect --list --json`` prints, through the cache's fast path when it can."""
    from click.testing import CliRunner

    from intentus_tui.cli import main

    args = ["inspect", "--list", "--json", str(root_dir)] + ([] if use_cache else ["--no-cache"])
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, result.output
    return result.stdout_bytes


def test_warm_listing_is_printed_from_the_cache_byte_for_byte(
    records_dir: Path, cache_dir: Path
) -> None:
    _many(records_dir, 12)
    (records_dir / "evil\x1b]0;x\x07\u202e.json").write_text("{}")  # a name a terminal acts on
    cold = _listing_json(records_dir, use_cache=False)
    assert _listing_json(records_dir) == cold  # fills the cache
    index = DirectoryIndex(resolve_root(records_dir), rows=LISTING_ROWS)
    assert index.fresh_listing_json() is not None  # nothing changed: straight from the cache
    assert _listing_json(records_dir) == cold
    assert b"\x1b" not in cold and "\u202e".encode() not in cold


def test_a_file_rewritten_in_place_is_seen_on_the_next_open(
    records_dir: Path, cache_dir: Path
) -> None:
    _many(records_dir, 6)
    _listing_json(records_dir)
    path = records_dir / "r00003.json"
    data = path.read_bytes()
    assert data.count(b'"Summarize"') >= 1
    with path.open("r+b") as f:  # same size, same name: only the stamp tells
        f.write(data.replace(b'"Summarize"', b'"Summarizf"'))
    assert DirectoryIndex(resolve_root(records_dir), rows=LISTING_ROWS).fresh_listing_json() is None
    warm = _listing_json(records_dir)
    assert b'"intent":"Summarizf"' in warm and warm == _listing_json(records_dir, use_cache=False)
    assert (
        DirectoryIndex(resolve_root(records_dir), rows=LISTING_ROWS).fresh_listing_json()
        is not None
    )


def test_parallel_stat_equals_sequential(
    records_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from intentus_tui.core.index import scan as index_module

    _many(records_dir, 40)
    os.symlink("r00001.json", records_dir / "link.json")
    os.symlink("missing-target", records_dir / "dangling.json")
    names = sorted(os.listdir(records_dir))
    sequential = index_module.stat_names(records_dir, names, workers=1)
    monkeypatch.setattr(index_module, "PARALLEL_STAT_THRESHOLD", 10)
    assert index_module.stat_names(records_dir, names, workers=2) == sequential

    def stamp(name: str) -> tuple[int, ...]:
        i = names.index(name) * STAMP_WIDTH
        return tuple(sequential[i : i + STAMP_WIDTH])

    assert stamp("dangling.json") == NO_STAMP
    assert stamp("link.json") == stamp("r00001.json") != NO_STAMP


def test_a_reopen_stats_while_it_lists_and_sees_every_change(
    records_dir: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A warm open stats the snapshot's files (a forked helper its share) while it lists
    the directory: the listing unchanged, the stamps are theirs and a file changed since is
    read again; a file added or removed makes those stats useless (the helper is stopped,
    none left behind) and the new listing's files are stat-ed instead."""
    from intentus_tui.core.index import scan as scan_module

    _many(records_dir, 40)
    monkeypatch.setattr(scan_module, "PARALLEL_STAT_THRESHOLD", 10)
    root = resolve_root(records_dir)
    first = DirectoryIndex(root, workers=2, rows=LISTING_ROWS).scan()
    fresh = scan_root(root, use_cache=False, workers=1)
    assert first == fresh
    stopped: list[int] = []
    forked: list[int] = []
    real_kill, real_fork = os.kill, os.fork

    def kill(pid: int, sig: int) -> None:
        stopped.append(pid)
        real_kill(pid, sig)

    def fork() -> int:
        pid = real_fork()
        if pid:
            forked.append(pid)
        return pid

    monkeypatch.setattr(scan_module.os, "kill", kill)
    monkeypatch.setattr(scan_module.os, "fork", fork)

    def reopened() -> list[str]:
        index = DirectoryIndex(root, workers=2, rows=LISTING_ROWS)
        summaries = index.scan()
        assert summaries == scan_root(root, use_cache=False, workers=1)
        return sorted(s.execution_id for s in summaries if s.final_status is None)

    in_flight = reopened()  # unchanged: nothing to stop
    assert stopped == [] and len(in_flight) == 6
    write_record(records_dir, make_record(execution_id="r00001", final_status=None))
    os.utime(records_dir / "r00001.json", ns=(1, 1))  # a new stamp, same listing
    assert reopened() == sorted([*in_flight, "r00001"]) and stopped == []
    write_record(records_dir, make_record(execution_id="r99999", final_status=None))
    assert reopened() == sorted([*in_flight, "r00001", "r99999"]) and len(stopped) == 1
    (records_dir / "r00000.json").unlink()  # r00000 had no final response (0 % 7)
    assert reopened() == sorted([*in_flight[1:], "r00001", "r99999"]) and len(stopped) == 2
    assert len(forked) == 6  # a helper each open after the first, two for a changed listing
    for pid in forked:  # every helper reaped
        with pytest.raises(ChildProcessError):
            os.waitpid(pid, os.WNOHANG)


def test_warm_listing_reaches_a_real_pipe_whole(records_dir: Path, cache_dir: Path) -> None:
    """The cached rows go from file to pipe by the kernel (sendfile): same bytes."""
    import subprocess
    import sys

    _many(records_dir, 40)
    argv = [sys.executable, "-m", "intentus_tui.cli", "inspect", "--list", "--json"]
    env = {**os.environ, CACHE_ENV: str(cache_dir)}

    def run(*extra: str) -> bytes:
        done = subprocess.run([*argv, *extra, str(records_dir)], capture_output=True, env=env)
        assert done.returncode == 0, done.stderr
        return done.stdout

    cold = run("--no-cache")
    assert run() == cold  # fills the cache
    assert (
        DirectoryIndex(resolve_root(records_dir), rows=LISTING_ROWS).fresh_listing_json()
        is not None
    )
    assert run() == cold  # printed from the cache


def test_a_warm_listing_never_loads_the_summary_lane(records_dir: Path, cache_dir: Path) -> None:
    """A re-open with nothing changed reads no record file, so it never imports the code
    that summarizes one (8 ms of a warm listing's 0.3 s); one file changed, it does."""
    import subprocess
    import sys

    _many(records_dir, 5)
    code = (
        "import sys\nimport intentus_tui.cli as cli\n"
        "sys.argv = ['intentus-tui', 'inspect', '--list', '--json', sys.argv[1]]\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
        "print('intentus_tui.core.index.summarize' in sys.modules, file=sys.stderr)\n"
    )
    env = {**os.environ, CACHE_ENV: str(cache_dir)}

    def loads_the_lane() -> bool:
        done = subprocess.run(
            [sys.executable, "-c", code, str(records_dir)], capture_output=True, env=env, text=True
        )
        assert '"executions"' in done.stdout, done.stderr
        return done.stderr.strip().splitlines()[-1] == "True"

    assert loads_the_lane()  # the first open summarizes every file
    assert not loads_the_lane()  # printed from the cache
    write_record(records_dir, make_record(execution_id="r-new"))
    assert loads_the_lane()  # the new file is summarized


def test_damaged_side_files_are_rebuilt(records_dir: Path, cache_dir: Path) -> None:
    _many(records_dir, 8)
    expected = _listing_json(records_dir, use_cache=False)
    summaries = scan_root(resolve_root(records_dir), use_cache=False)
    for damage in ("rows.json", "summaries.json"):
        assert _listing_json(records_dir) == expected  # (re)fills the cache
        (side,) = cache_dir.glob(f"*-{damage}")
        side.write_bytes(side.read_bytes()[:-7])  # cut short, as a full disk would leave it
        assert (
            DirectoryIndex(resolve_root(records_dir), rows=LISTING_ROWS).fresh_listing_json()
            is None
        )
        assert scan_root(resolve_root(records_dir)) == summaries
        assert _listing_json(records_dir) == expected


def test_listing_rows_follow_live_updates_and_the_wal_join(records_dir: Path, demo) -> None:
    from intentus_tui.render.rows import LISTING_ROWS, listing_row_lines

    _many(records_dir, 5)
    index = DirectoryIndex(
        resolve_root(records_dir), use_cache=False, keep_rows=True, rows=LISTING_ROWS
    )
    index.scan()
    path = write_record(records_dir, make_record(execution_id="r00003", final_status=None))
    index.update([path])
    assert list(index.listing_lines()) == list(listing_row_lines(index.summaries()))
    assert b'"status":"incomplete"' in b"".join(index.listing_lines())
    joined = DirectoryIndex(
        resolve_root(demo.root), use_cache=False, keep_rows=True, rows=LISTING_ROWS
    )
    joined.scan()
    assert list(joined.listing_lines()) == list(listing_row_lines(joined.summaries()))
    assert any(s.source != "record" for s in joined.summaries())


def test_a_summaries_file_damaged_in_place_falls_back_to_the_records(
    records_dir: Path, cache_dir: Path
) -> None:
    """Same size, same mtime, garbage inside: the stamp cannot tell, the decoder can."""
    _many(records_dir, 1500)  # two chunks of summaries
    expected = scan_root(resolve_root(records_dir), use_cache=False)
    assert scan_root(resolve_root(records_dir)) == expected  # fills the cache
    (side,) = cache_dir.glob("*-summaries.json")
    st = side.stat()
    data = bytearray(side.read_bytes())
    data[-40:-30] = b"#" * 10  # the second chunk no longer parses
    with side.open("r+b") as f:
        f.write(data)
    os.utime(side, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert scan_root(resolve_root(records_dir)) == expected


@pytest.mark.parametrize("pure", ["", "1"], ids=["native", "pure-python"])
def test_a_file_dated_after_2262_is_listed_with_its_real_stamp_on_every_path(
    records_dir: Path, cache_dir: Path, pure: str
) -> None:
    # tar extraction and bad clocks make such files; the stamp is more nanoseconds than a
    # signed 64-bit number holds. Cold, cached, warm and --no-cache must all list it.
    import json
    import subprocess
    import sys

    far = records_dir / "far.json"
    write_record(records_dir, make_record(execution_id="far"))
    os.utime(far, ns=(10**19, 10**19))  # as `touch -d @10000000000`
    env = {**os.environ, CACHE_ENV: str(cache_dir), "INTENTUS_TUI_PURE_PYTHON": pure}
    argv = [sys.executable, "-m", "intentus_tui.cli", "inspect", "--list", "--json"]
    outputs = []
    for extra in (["--no-cache"], [], []):  # no cache, then a cold and a warm open
        run = subprocess.run([*argv, *extra, str(records_dir)], env=env, capture_output=True)
        assert run.returncode in (0, 1), run.stderr.decode()
        assert b"Traceback" not in run.stderr
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1] == outputs[2]
    rows = {row["file"]: row for row in json.loads(outputs[0])["executions"]}
    assert rows["far.json"]["status"] == "completed"
    summaries = {s.key: s for s in scan_root(resolve_root(records_dir), rows=LISTING_ROWS)}
    assert summaries["far.json"].mtime_ns == 10**19  # warm, from the cache: the real stamp


def test_a_snapshot_stored_without_rows_gains_them_on_the_next_listing(
    records_dir: Path, cache_dir: Path
) -> None:
    from intentus_tui.render.rows import listing_row_lines

    _many(records_dir, 3)
    root = resolve_root(records_dir)
    summaries = scan_root(root)  # no row format: the snapshot holds no rows
    assert DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() is None
    listing = DirectoryIndex(root, rows=LISTING_ROWS, keep_rows=True)
    assert listing.scan() == summaries  # from the snapshot, and now with rows stored
    counts, rows_path = DirectoryIndex(root, rows=LISTING_ROWS).fresh_listing_json() or ({}, None)
    assert rows_path is not None and counts["executions"] == len(summaries)
    assert rows_path.read_bytes() == b",\n".join(listing_row_lines(summaries))


def test_every_summary_comes_before_the_cache_is_written(
    records_dir: Path, cache_dir: Path
) -> None:
    """An empty batch marks the end of the records: the cache is written after it, so a
    consumer can show every row first."""
    _many(records_dir, 12)
    index = DirectoryIndex(resolve_root(records_dir))
    seen: list[str] = []
    batches = index.scan_batches()
    for batch in batches:
        if not batch:
            assert len(seen) == 12
            assert not list(cache_dir.rglob("*.json")), "the cache was written first"
            break
        seen += [s.key for s in batch]
    else:
        raise AssertionError("no empty batch before the cache write")
    assert list(batches) == []  # the cache write: no more batches
    assert list(cache_dir.rglob("*-summaries.json"))


def test_path_chunks_are_the_paths_a_chunk_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    """The workers get each file's full path, ``_CHUNK`` at a time, made when asked."""
    from intentus_tui.core.index import scan as scan_module

    monkeypatch.setattr(scan_module, "_CHUNK", 3)
    names = [f"{n}.json" for n in range(8)]
    chunked = scan_module.PathChunks("/d/", names)
    eager = [[f"/d/{name}" for name in names[i : i + 3]] for i in range(0, 8, 3)]
    assert len(chunked) == 3 and list(chunked) == eager
    assert chunked[-1] == eager[-1] and chunked[1:] == eager[1:]
    with pytest.raises(IndexError):
        chunked[3]
    assert len(scan_module.PathChunks("/d/", [])) == 0


def test_the_file_count_comes_from_the_scans_own_listing(
    records_dir: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The debugger's progress total: before a scan the directory is listed; after it, the
    scan's listing answers (a million names are not listed twice)."""
    from intentus_tui.core.index import directory as directory_module

    _many(records_dir, 5)
    (records_dir / "notes.txt").write_text("not a record")
    index = DirectoryIndex(resolve_root(records_dir))
    assert index.file_count() == 5
    index.scan()

    def no_listing(_: Path) -> list[str]:
        raise AssertionError("listed again")

    monkeypatch.setattr(directory_module, "listdir", no_listing)
    assert index.file_count() == 5


def test_every_summary_is_out_before_the_cache_is_written(
    demo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mark that the list is complete comes after the WAL join (WAL-only executions
    included) and before the snapshot is stored; an unchanged re-open stores nothing and
    needs no mark."""
    from intentus_tui.core.index.directory import EVERY_SUMMARY_OUT

    shutil.copytree(demo.root, tmp_path / ".intentusnet")
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    root = resolve_root(tmp_path)
    events: list[str] = []
    real_store = IndexCache.store

    def store(self: IndexCache, *args: object, **kwargs: object) -> None:
        events.append("store")
        real_store(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(IndexCache, "store", store)
    seen: set[str] = set()
    for batch in DirectoryIndex(root).scan_batches():
        if batch is EVERY_SUMMARY_OUT:
            events.append(f"out: {len(seen)}")
        else:
            assert "store" not in events  # nothing comes after the snapshot
            seen.update(s.key for s in batch)
            events.append("batch")
    everything = {s.key for s in scan_root(root, use_cache=False)}
    assert events[-2:] == [f"out: {len(everything)}", "store"]
    assert seen == everything and any(key.endswith(".wal") for key in seen)
    events.clear()
    warm = list(DirectoryIndex(root).scan_batches())
    assert events == [] and not any(batch is EVERY_SUMMARY_OUT for batch in warm)


def test_several_roots_mark_every_summary_out_once_after_the_last_root(
    tmp_path: Path, cache_dir: Path
) -> None:
    from intentus_tui.core.index.directory import EVERY_SUMMARY_OUT
    from intentus_tui.core.index.multi import MultiIndex

    for name in ("one", "two"):
        _many(tmp_path / name, 3)
    index = MultiIndex([(name, resolve_root(tmp_path / name)) for name in ("one", "two")])
    batches = list(index.scan_batches())
    marks = [i for i, batch in enumerate(batches) if batch is EVERY_SUMMARY_OUT]
    assert marks == [len(batches) - 1]
    assert sum(len(batch) for batch in batches) == 6


@pytest.mark.parametrize("use_cache", [False, True])
def test_a_record_is_never_yielded_before_its_log_says_what_it_says(
    tmp_path: Path, use_cache: bool, cache_dir: Path
) -> None:
    """A record whose write-ahead log's hash chain breaks: every batch the scan yields
    shows it with its log (the list showed it succeeded and verified until every log was
    read), cold and warm; the executions known only from a log come too."""
    from intentus_tui.core.model import Integrity
    from intentus_tui.core.verdict import verdict_of
    from tests.core.wal.support import RECORD_WITH_EDITED_LOG, write_record_with_edited_log

    base = tmp_path / ".intentusnet"
    write_record_with_edited_log(base)
    _many(base / "records", 300)  # enough files for batches before the last one
    (base / "wal" / "only-a-log.wal").write_bytes(
        (base / "wal" / f"{RECORD_WITH_EDITED_LOG}.wal").read_bytes()
    )
    for _ in range(2):  # cold, then warm (from the cache when it is on)
        seen = []
        index = DirectoryIndex(resolve_root(tmp_path), use_cache=use_cache)
        for batch in index.scan_batches():
            if isinstance(batch, list):
                seen += [s for s in batch if s.key == f"{RECORD_WITH_EDITED_LOG}.json"]
        assert seen, "the record was listed"
        assert all(verdict_of(s).integrity is Integrity.CHAIN_BROKEN for s in seen)
        assert "only-a-log.wal" in {s.key for s in index.summaries()}
