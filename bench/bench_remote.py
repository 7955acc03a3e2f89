"""Time a remote root over SSH on loopback against a local cold open of the same files.

A real OpenSSH server (``/usr/sbin/sshd``, as the tests start it) serves N generated
records on 127.0.0.1. Measured, each in a fresh process with an empty cache where it says
cold:

- ``local cold``: the local index of the directory, no cache (every file read and summarized);
  and a first open with the cache on (the same, and its snapshot written, as the index of
  a remote root's mirror writes one);
- ``remote first row``: from the open until the first copied file is summarized (the
  debugger's watcher shows it then);
- ``remote full``: the sync (listing, copying into the local mirror) and the mirror's
  first index, until every summary is made; once through each lane: ``tar`` (the server's
  find lists the directory, racing SFTP, and its tar sends the files as one stream over
  an exec channel, the default) and ``sftp`` (an SFTP listing, one SFTP session, many
  reads in flight: what a server without tar gets);
- ``remote warm``: a re-open with nothing changed: an SFTP listing only (no process is
  started on the server); the bytes of records
  read from the remote are counted (0 expected) and the index comes from the cache;
- ``local copy``: the same files copied from the served directory into a fresh directory
  beside the mirror (read, write, set the time), no network: what writing the mirror
  alone costs on this disk. This machine's disk makes 10,000 small files in 0.2 s at
  times and in 3 s or more at others; this line says which it was in this run.

- ``stages`` (with ``--timeline``): one more tar-lane cold open per round, noting when
  each stage is reached: connected (the SSH client imported, logged in), the directory
  found over SFTP, the tar stream's first and last bytes, the copy done, the index done;
- ``base``, with ``--baseline-tree TREE``: the tar lane's cold and warm opens by another
  checkout (its ``intentus_tui``, this script's measurement), in the same rounds, right
  after this tree's: a before/after on the same machine at the same moment.

``--ssh-user NAME``: log in as NAME rather than as the current account (the server is
run by root, which can switch to it). What the account's shell reads before running a
command is part of every exec channel's start: a ``.bashrc`` that runs ``pyenv init``
(as root's does on the machine these figures were first taken on) adds a tenth of a
second before the server's tar starts. An account as Debian makes it (``useradd -m -s
/bin/bash NAME && usermod -p '*' NAME``: its ``.bashrc`` returns at once in a shell
that is not interactive; ``*``: no password, but not locked, so sshd takes its key)
shows the figures without that.

Usage: ``python bench/bench_remote.py [--count 10000] [--parallel 8] [--runs 3]
[--cache-base DIR] [--baseline-tree TREE] [--skip-sftp] [--timeline] [--ssh-user NAME]
[--wait-quiet]`` (``--cache-base``: where the
mirrors are written, e.g. a tmpfs such as ``/dev/shm`` to see the figures without this
disk's moods; by default the temp directory).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def _one(mode: str, directory: str, url: str, parallel: int) -> dict[str, float]:
    """One measurement, in this (fresh) process."""
    from intentus_tui.core.index.directory import DirectoryIndex
    from intentus_tui.core.index.summarize import summarize_path
    from intentus_tui.core.paths import resolve_root
    from intentus_tui.core.remote.location import RemoteOptions, parse_remote
    from intentus_tui.core.remote.mirror import RemoteMirror

    cpu = time.process_time()
    if mode == "copy":
        source = resolve_root(directory).records_dir
        target = Path(os.environ["INTENTUS_TUI_CACHE_DIR"]) / "local-copy"
        started = time.perf_counter()
        target.mkdir(parents=True)
        count = 0
        for path in source.iterdir():
            data = path.read_bytes()
            fd = os.open(target / path.name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
            os.write(fd, data)
            mtime = path.stat().st_mtime
            os.utime(fd, (mtime, mtime))
            os.close(fd)
            count += 1
        return {"seconds": time.perf_counter() - started, "count": count, "cpu": 0.0}
    if mode in ("local", "local-cached"):
        started = time.perf_counter()
        index = DirectoryIndex(resolve_root(directory), use_cache=mode == "local-cached")
        count = len(index.scan())
        return {
            "seconds": time.perf_counter() - started,
            "count": count,
            "cpu": time.process_time() - cpu,
        }
    started = time.perf_counter()
    options = RemoteOptions(parallel=parallel, timeout=30, tar_lane=mode != "sftp")
    mirror = RemoteMirror(parse_remote(url), options)
    first: list[float] = []
    marks: dict[str, float] = {}
    if mode == "timeline":
        _mark_stages(mirror, marks, started)

    def on_file(path: str) -> None:
        if not first:
            summarize_path(path)
            first.append(time.perf_counter() - started)

    report = mirror.sync(on_file)
    synced = time.perf_counter() - started
    mirror.close()  # as the command line does once a root is synced
    count = len(DirectoryIndex(mirror.root).scan())
    return {
        **marks,
        "seconds": time.perf_counter() - started,
        "synced": synced,
        "first_row": first[0] if first else float("nan"),
        "read_files": report.read_files,
        "read_bytes": report.read_bytes,
        "count": count,
        "problem": 0 if report.problem is None else 1,
        "cpu": time.process_time() - cpu,  # this process only (not sshd, not pool workers)
    }


def _mark_stages(mirror: Any, marks: dict[str, float], started: float) -> None:
    """Note when each stage of a tar-lane sync is reached (from the mirror's creation):
    the connection up (the SSH client imported, the server's key checked, logged in),
    the directory found over SFTP, the first and last bytes of the tar stream."""
    from intentus_tui.core.remote import mirror as mirror_module
    from intentus_tui.core.remote import tar_lane

    def mark(stage: str, always: bool = False) -> None:
        if always or stage not in marks:
            marks[stage] = time.perf_counter() - started

    opened = mirror_module.open_filesystem

    def open_filesystem(*args: Any, **kwargs: Any) -> Any:
        found = opened(*args, **kwargs)
        mark("connected")
        return found

    mirror_module.open_filesystem = open_filesystem  # type: ignore[assignment]
    find_layout = mirror._find_layout

    def layout(base: str) -> Any:
        found = find_layout(base)
        mark("directory found")
        return found

    mirror._find_layout = layout
    push = tar_lane._Unpacker.push

    def pushed(self: Any, chunk: bytes) -> None:
        mark("first byte")
        mark("last byte", always=True)
        push(self, chunk)

    tar_lane._Unpacker.push = pushed  # type: ignore[method-assign]


def _idle_share(seconds: float = 1.0) -> float | None:
    """The share of the cores' time spent idle over ``seconds`` (None where /proc/stat is
    not there to say)."""
    try:
        before = _cpu_times()
        time.sleep(seconds)
        after = _cpu_times()
    except (OSError, ValueError, IndexError):
        return None
    spent = [b - a for a, b in zip(before, after, strict=True)]
    return spent[3] / max(1, sum(spent))  # the fourth field is idle time


def _cpu_times() -> list[int]:
    with open("/proc/stat") as stat:
        return [int(field) for field in stat.readline().split()[1:8]]


def _wait_quiet(limit: float = 60.0) -> bool:
    """Wait until the cores were 95% idle for a second; False when that did not come
    within ``limit`` seconds (the round runs anyway, and is counted as noisy)."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        share = _idle_share()
        if share is None or share >= 0.95:
            return True
    return False


def _open_to_others(base: Path, server: Any) -> None:
    """Let another account read the served records and its authorized key (the server
    reads that file as the account logging in)."""
    for directory in (base, server.config.parent, server.served):
        directory.chmod(0o755)
    (server.config.parent / "authorized_keys").chmod(0o644)
    for path in server.served.rglob("*"):
        path.chmod(0o755 if path.is_dir() else 0o644)


def _run(
    mode: str, directory: Path, url: str, parallel: int, env: dict[str, str]
) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--one", mode, str(directory), url, str(parallel)],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--parallel", type=int, default=8)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--cache-base", type=Path, default=None)
    parser.add_argument("--baseline-tree", type=Path, default=None)
    parser.add_argument("--skip-sftp", action="store_true", help="no sftp lane (faster rounds)")
    parser.add_argument(
        "--wait-quiet",
        action="store_true",
        help="start each round only once the machine's cores were 95%% idle for a second "
        "(Linux; waits up to a minute): other work on the same cores skews every figure",
    )
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="one more tar-lane cold open per round, timing each stage (and the baseline's)",
    )
    parser.add_argument(
        "--ssh-user",
        default=None,
        help="log in as this account (one the server's sshd, run by root, can switch to; "
        "see the module's docstring) instead of the current one",
    )
    parser.add_argument("--one", nargs=4, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        mode, directory, url, parallel = args.one
        print(json.dumps(_one(mode, directory, url, int(parallel))))
        return
    sys.path.insert(0, str(ROOT))
    from bench.gen_records import generate
    from tests.core.remote.sshd import SSHD, make_server

    if not SSHD.is_file():
        sys.exit(f"needs {SSHD}: sudo apt-get install openssh-server")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        server = make_server(base)
        server.trust()
        records = server.served / "host" / ".intentusnet" / "records"
        records.mkdir(parents=True)
        generate(records, args.count)
        if args.ssh_user:
            _open_to_others(base, server)
        server.start()
        url = server.url(server.served / "host")
        if args.ssh_user:
            url = f"ssh://{args.ssh_user}@127.0.0.1:{server.port}{server.served / 'host'}"
        env = dict(os.environ, HOME=str(server.home), PYTHONPATH=str(ROOT))
        env.pop("SSH_AUTH_SOCK", None)
        local, cold, warm, sftp, copy = [], [], [], [], []
        local_cached: list[dict[str, float]] = []
        base_cold: list[dict[str, float]] = []
        base_warm: list[dict[str, float]] = []
        timeline: list[dict[str, float]] = []
        base_timeline: list[dict[str, float]] = []
        directory = records.parent.parent
        noisy_rounds = 0
        caches = Path(tempfile.mkdtemp(dir=args.cache_base)) if args.cache_base else base
        try:
            for run in range(args.runs):
                if args.wait_quiet and not _wait_quiet():
                    noisy_rounds += 1
                env["INTENTUS_TUI_CACHE_DIR"] = str(caches / f"cache-{run}")
                local.append(_run("local", directory, url, args.parallel, env))
                local_cached.append(_run("local-cached", directory, url, args.parallel, env))
                copy.append(_run("copy", directory, url, args.parallel, env))
                cold.append(_run("tar", directory, url, args.parallel, env))
                warm.append(_run("tar", directory, url, args.parallel, env))
                if args.baseline_tree:
                    base_env = dict(
                        env,
                        PYTHONPATH=str(args.baseline_tree.resolve()),
                        INTENTUS_TUI_CACHE_DIR=str(caches / f"cache-base-{run}"),
                    )
                    base_cold.append(_run("tar", directory, url, args.parallel, base_env))
                    base_warm.append(_run("tar", directory, url, args.parallel, base_env))
                if args.timeline:
                    for tree, rows in ((ROOT, timeline), (args.baseline_tree, base_timeline)):
                        if tree is None:
                            continue
                        stage_env = dict(
                            env,
                            PYTHONPATH=str(Path(tree).resolve()),
                            INTENTUS_TUI_CACHE_DIR=str(
                                caches / f"cache-stages-{tree == ROOT}-{run}"
                            ),
                        )
                        rows.append(_run("timeline", directory, url, args.parallel, stage_env))
                if not args.skip_sftp:
                    env["INTENTUS_TUI_CACHE_DIR"] = str(caches / f"cache-sftp-{run}")
                    sftp.append(_run("sftp", directory, url, args.parallel, env))
        finally:
            server.stop()
            if caches != base:
                shutil.rmtree(caches, ignore_errors=True)

    def median(rows: list[dict[str, float]], key: str) -> float:
        return statistics.median(row[key] for row in rows)

    if any(row["problem"] for row in cold + warm + sftp + base_cold + base_warm):
        sys.exit("a remote sync failed: no figures (run it again, or look at sshd)")
    local_s = median(local, "seconds")
    print(
        f"{args.count} records over ssh on 127.0.0.1, median of {args.runs} runs, each in "
        f"a fresh process; mirrors written in {args.cache_base or 'the temp directory'}"
    )
    if args.wait_quiet:
        print(f"  rounds started without a quiet second first: {noisy_rounds} of {args.runs}")
    print(f"  local cold open (no cache)      {local_s:7.3f} s")
    cached_s = median(local_cached, "seconds")
    print(
        f"  local first open, cache on      {cached_s:7.3f} s  (writes its snapshot, as the "
        f"remote's index does: the tar lane's full index is "
        f"{median(cold, 'seconds') / cached_s:.2f}x this)"
    )
    lanes = [("tar", cold)]
    if base_cold:
        lanes.append((f"tar, baseline tree {args.baseline_tree}", base_cold))
    if sftp:
        lanes.append((f"sftp, {args.parallel}x8 in flight", sftp))
    for lane, rows in lanes:
        ratios = ", ".join(
            f"{row['seconds'] / base_row['seconds']:.2f}x"
            for row, base_row in zip(rows, local, strict=True)
        )
        print(f"  remote, {lane} lane:")
        print(f"    first row                     {median(rows, 'first_row'):7.3f} s")
        print(f"    sync (copy)                   {median(rows, 'synced'):7.3f} s")
        print(
            f"    full index (cold)             {median(rows, 'seconds'):7.3f} s  "
            f"= {median(rows, 'seconds') / local_s:.2f}x local cold "
            f"(each run: {ratios})"
        )
    for label, rows in (("this tree", timeline), ("baseline tree", base_timeline)):
        if not rows:
            continue
        stages = ("connected", "directory found", "first byte", "last byte", "synced", "seconds")
        shown = "  ".join(
            f"{stage.replace('seconds', 'indexed')} {median(rows, stage):.3f}" for stage in stages
        )
        print(f"  stages of a tar-lane cold open, {label} (s from the start, medians): {shown}")
    copies = ", ".join(f"{row['seconds']:.2f}" for row in copy)
    print(
        f"  local copy of the files (disk)  {median(copy, 'seconds'):7.3f} s  "
        f"(each run: {copies} s)"
    )
    print(
        f"  CPU of the measuring process: local {median(local, 'cpu'):.2f} s, remote cold "
        f"tar {median(cold, 'cpu'):.2f} s"
        + (f", sftp {median(sftp, 'cpu'):.2f} s" if sftp else "")
        + " (not sshd's, "
        "not the index's worker processes)"
    )
    print(
        f"  remote warm re-open             {median(warm, 'seconds'):7.3f} s, "
        f"{int(max(r['read_bytes'] for r in warm))} record bytes read, "
        f"{int(max(r['read_files'] for r in warm))} files"
        + (f" (baseline tree: {median(base_warm, 'seconds'):.3f} s)" if base_warm else "")
    )
    print(
        f"  summaries: local {int(local[0]['count'])}, remote tar {int(cold[0]['count'])}"
        + (f", sftp {int(sftp[0]['count'])}" if sftp else "")
        + f"; faults: {int(sum(r['problem'] for r in cold + warm))}"
    )


if __name__ == "__main__":
    main()
