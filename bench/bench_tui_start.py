"""The debugger's start on a big directory, as a user sees it: in a real pseudo-terminal.

Each run launches the real program (``python -m intentus_tui.cli DIR``) in a 160x45
pseudo-terminal and reads what it draws into a small screen model (cursor moves, text,
and each cell's SGR colours: enough to find the list's cursor row). Timed from just
before the process is started:

- ``first paint``: the header is on screen (drawn by the start frame, before Textual
  has loaded, or by the app; nothing indexed yet).
- ``first row``: an execution id from the directory is on screen (the start frame's or
  the app's).
- ``app ready``: the app's own first frame is out (its timeline pane, which only the app
  draws, is on screen): keys are answered from here on (keys typed before wait for it).
- ``index complete``: the header counts every record and no longer says "indexing".
- ``j mid-fill``: one ``j`` is sent as soon as the app is ready (while the index is
  still filling); answered when the list's cursor is on another execution (the one first
  shown stays selected while rows arrive, so only the key can do that).
- ``/ mid-fill``: every ``--probe-every`` seconds until the index is complete, ``/``
  (the filter box appears) then enter (it disappears); each answer timed separately.
  Reported: median and worst of all probes. ``--probe-every 0``: no probes (each costs
  the app two layouts and a footer rebuild, which slow the scan a little).
- memory: ``VmRSS`` (steady, once the index is complete and the screen settled) and
  ``VmHWM`` (peak) of the app's process, from ``/proc``; the same app opened on an empty
  directory in the same run is the baseline ("above the empty app"). Helper processes
  the scan starts (a forkserver and its workers) are reported apart.

Cold runs use a fresh ``INTENTUS_TUI_CACHE_DIR``; each warm run reopens right after its
cold run with that cache filled. The floor, also in every run: a bare Textual app that
draws one line (``textual`` row): Python's and Textual's own start, which no change of
ours can beat.

``--baseline TREE``: another checkout of the project (e.g. ``git archive HEAD~3 | tar -x
-C /tmp/old``) measured the same way, alternating with this one in every run (rows
``old …``), and the ratios of this one to it.

Usage: ``python bench/bench_tui_start.py [--count 100000] [--runs 3] [--dir DIR]
[--baseline TREE]`` (``--count 10000`` for a quick run). Linux only (``/proc``, ``pty``).
"""

from __future__ import annotations

import argparse
import codecs
import contextlib
import fcntl
import os
import pty
import re
import select
import shutil
import signal
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parent))
from gen_records import generate

ROOT = Path(__file__).absolute().parent.parent  # not resolved: a checkout may link it in
ROWS, COLS = 45, 160
FILTER_PLACEHOLDER = "filter: id, intent"
# The floor: a bare Textual app drawing one line (Python + Textual's own start).
BARE_TEXTUAL = """
from textual.app import App
from textual.widgets import Static
class Bare(App):
    def compose(self):
        yield Static(" intentus-tui  (bare Textual app)")
Bare().run()
"""
_TOKEN = re.compile(
    r"\x1b\[([0-?]*)[ -/]*([@-~])"  # CSI
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    r"|\x1b[@-Z\\-_]"  # two-byte escape
    r"|(\x1b)"  # an escape whose end has not arrived yet
    r"|([\r\n])"
    r"|([^\x1b\r\n]+)"
)
_HEX8 = re.compile(r"(?<![0-9a-f])[0-9a-f]{8}(?![0-9a-f-])")


class Screen:
    """Just enough of a terminal for Textual's output: absolute moves, text, SGR."""

    def __init__(self, rows: int, cols: int) -> None:
        self.rows, self.cols = rows, cols
        self.text = [[" "] * cols for _ in range(rows)]
        self.sgr = [[""] * cols for _ in range(rows)]
        self.y = self.x = 0
        self._style = ""
        self._decoder = codecs.getincrementaldecoder("utf-8")("replace")
        self._rest = ""

    def feed(self, data: bytes) -> None:
        buffer = self._rest + self._decoder.decode(data)
        self._rest = ""
        for match in _TOKEN.finditer(buffer):
            if match.group(3):  # incomplete escape: wait for the rest
                self._rest = buffer[match.start() :]
                return
            if match.group(2):
                self._csi(match.group(1), match.group(2))
            elif match.group(4):
                if match.group(4) == "\r":
                    self.x = 0
                else:
                    self.y = min(self.rows - 1, self.y + 1)
            elif match.group(5):
                self._put(match.group(5))

    def _csi(self, params: str, final: str) -> None:
        if final in "Hf":
            parts = [int(p) if p.isdigit() else 1 for p in params.split(";")] + [1, 1]
            self.y = max(0, min(self.rows - 1, parts[0] - 1))
            self.x = max(0, min(self.cols - 1, parts[1] - 1))
        elif final == "m":
            self._style = "" if params in ("", "0") else params
        elif final == "J" and params == "2":
            for y in range(self.rows):
                self.text[y] = [" "] * self.cols
                self.sgr[y] = [""] * self.cols

    def _put(self, text: str) -> None:
        row, styles = self.text[self.y], self.sgr[self.y]
        for char in text:
            if self.x < self.cols:
                row[self.x] = char
                styles[self.x] = self._style
            self.x += 1

    def line(self, y: int) -> str:
        return "".join(self.text[y])

    def contains(self, needle: str) -> bool:
        return any(needle in self.line(y) for y in range(self.rows))

    def id_rows(self, ids: set[str]) -> list[tuple[int, str, str]]:
        """(screen row, id, SGR of the id's first cell) of every execution id shown."""
        found = []
        for y in range(self.rows):
            line = self.line(y)
            for match in _HEX8.finditer(line):
                if match.group() in ids:
                    found.append((y, match.group(), self.sgr[y][match.start()]))
                    break
        return found

    def cursor(self, ids: set[str]) -> tuple[int, str] | None:
        """Index (among the shown execution rows) and id of the one drawn unlike the
        others (the cursor's)."""
        rows = self.id_rows(ids)
        if len(rows) < 3:
            return None
        styles = [style for _, _, style in rows]
        odd = [i for i, style in enumerate(styles) if styles.count(style) == 1]
        return (odd[0], rows[odd[0]][1]) if len(odd) == 1 else None


@dataclass
class Run:
    first_paint: float | None = None
    first_row: float | None = None
    app_ready: float | None = None
    complete: float | None = None
    j_latency: float | None = None
    probes: list[float] = field(default_factory=list)
    rss_kib: int = 0
    hwm_kib: int = 0
    helpers_rss_kib: int = 0
    timed_out: bool = False


def proc_status(pid: int) -> dict[str, int]:
    out = {}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0])
    except OSError:
        pass
    return out


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (a forkserver, its pool workers)."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            out.append(child)
            todo.append(child)
    return out


class App:
    """One launch of the real program in a pseudo-terminal."""

    def __init__(self, argv: list[str], cache_dir: Path, home: Path, root: Path = ROOT) -> None:
        env = {
            **os.environ,
            "TERM": "xterm-256color",
            "COLORTERM": "",
            "INTENTUS_TUI_CACHE_DIR": str(cache_dir),
            "INTENTUS_TUI_KEYMAP": str(home / "no-keymap.toml"),
            "XDG_CACHE_HOME": str(home / "cache"),
            "XDG_DATA_HOME": str(home / "data"),
            "XDG_CONFIG_HOME": str(home / "config"),
        }
        env.pop("NO_COLOR", None)
        env.pop("PYTHONPATH", None)  # the program comes from ``root`` (the current directory)
        self.screen = Screen(ROWS, COLS)
        self.start = time.perf_counter()
        pid, fd = pty.fork()
        if pid == 0:  # the child: size the terminal before the app asks, then the program
            try:
                fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", ROWS, COLS, 0, 0))
                os.chdir(root)
                os.execve(sys.executable, argv, env)
            finally:
                os._exit(127)
        self.pid, self.fd = pid, fd
        self.eof = False

    def now(self) -> float:
        return time.perf_counter() - self.start

    def pump(self, timeout: float) -> bool:
        """Read what arrived within ``timeout`` into the screen; whether anything did."""
        if self.eof:
            time.sleep(timeout)
            return False
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return False
        try:
            data = os.read(self.fd, 1 << 20)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            return False
        self.screen.feed(data)
        return True

    def wait_for(self, condition, timeout: float) -> float | None:  # type: ignore[no-untyped-def]
        """Seconds since start when ``condition()`` first held, or None at the timeout."""
        deadline = time.perf_counter() + timeout
        while True:
            if condition():
                return self.now()
            left = deadline - time.perf_counter()
            if left <= 0 or self.eof:
                return None
            self.pump(min(left, 0.02))

    def settle(self, quiet: float = 0.5, limit: float = 5.0) -> None:
        """Read until nothing has been drawn for ``quiet`` seconds."""
        deadline = time.perf_counter() + limit
        while time.perf_counter() < deadline and self.pump(quiet):
            pass

    def send(self, keys: bytes) -> float:
        os.write(self.fd, keys)
        return self.now()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.write(self.fd, b"q")
        deadline = time.perf_counter() + 5
        while time.perf_counter() < deadline:
            self.pump(0.05)
            done, _ = os.waitpid(self.pid, os.WNOHANG)
            if done:
                break
        else:
            for child in [self.pid, *descendants(self.pid)]:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child, signal.SIGKILL)
            os.waitpid(self.pid, 0)
        os.close(self.fd)


def app_drawn(screen: Screen) -> bool:
    """The app's own frame is out: its timeline pane (the start frame draws none) shows."""
    return "─ Timeline " in screen.line(2)


def header_done(screen: Screen, count: int) -> bool:
    top, counts = screen.line(0), screen.line(1)
    word = "execution" if count == 1 else "executions"
    return (
        f" {count:,} {word}" in counts
        and "indexing" not in top
        and "listing files" not in top
        and " intentus-tui " in top
    )


def measure(
    directory: Path,
    count: int,
    ids: set[str],
    cache_dir: Path,
    home: Path,
    args: argparse.Namespace,
    root: Path = ROOT,
) -> Run:
    run = Run()
    argv = [sys.executable, "-m", "intentus_tui.cli", str(directory)]
    app = App(argv, cache_dir, home, root)
    screen = app.screen
    try:
        run.first_paint = app.wait_for(lambda: " intentus-tui " in screen.line(0), args.timeout)
        if count:
            run.first_row = app.wait_for(lambda: bool(screen.id_rows(ids)), args.timeout)
        run.app_ready = app.wait_for(lambda: app_drawn(screen), args.timeout)
        if count:
            if run.first_row is not None and not header_done(screen, count):
                # Only `j` moves the cursor to another execution below the first row (the
                # one first shown stays selected while rows arrive; a tree where the
                # cursor follows the top row until the user moves changes the top row's).
                app.wait_for(lambda: screen.cursor(ids) is not None, 1.0)
                before = screen.cursor(ids)
                if before is not None and not header_done(screen, count):
                    sent = app.send(b"j")

                    def moved(before: tuple[int, str] = before) -> bool:
                        now = screen.cursor(ids)
                        return now is not None and now[1] != before[1] and now[0] > 0

                    answered = app.wait_for(moved, 5.0)
                    run.j_latency = None if answered is None else answered - sent
            if args.probe_every > 0:
                run.probes = probe_until_complete(app, count, args)
        run.complete = app.wait_for(lambda: header_done(screen, count), args.timeout)
        run.timed_out = run.complete is None
        app.settle()
        status = proc_status(app.pid)
        run.rss_kib, run.hwm_kib = status.get("VmRSS", 0), status.get("VmHWM", 0)
        run.helpers_rss_kib = sum(proc_status(p).get("VmRSS", 0) for p in descendants(app.pid))
    finally:
        app.close()
    return run


def measure_bare_textual(home: Path) -> Run:
    app = App([sys.executable, "-c", BARE_TEXTUAL], home / "c-bare", home)
    try:
        first = app.wait_for(lambda: " intentus-tui " in app.screen.line(0), 60)
        app.settle()
        status = proc_status(app.pid)
        return Run(
            first_paint=first,
            app_ready=first,
            rss_kib=status.get("VmRSS", 0),
            hwm_kib=status.get("VmHWM", 0),
        )
    finally:
        app.close()


def probe_until_complete(app: App, count: int, args: argparse.Namespace) -> list[float]:
    """``/`` then enter, over and over until the index is complete: each answer's delay."""
    screen = app.screen
    latencies: list[float] = []
    deadline = time.perf_counter() + args.timeout
    while not header_done(screen, count) and time.perf_counter() < deadline:
        app.wait_for(lambda: header_done(screen, count), args.probe_every)
        if header_done(screen, count):
            break
        for keys, shown in ((b"/", True), (b"\r", False)):
            sent = app.send(keys)
            answered = app.wait_for(
                lambda shown=shown: screen.contains(FILTER_PLACEHOLDER) is shown, 10.0
            )
            if answered is None:
                return latencies
            latencies.append(answered - sent)
    return latencies


def median(values: list[float | None]) -> float | None:
    present = [v for v in values if v is not None]
    return statistics.median(present) if present else None


def ms(value: float | None) -> str:
    return "-" if value is None else f"{value * 1000:,.0f} ms"


def mib(kib: float) -> str:
    return f"{kib / 1024:,.1f} MiB"


def prepare_records(args: argparse.Namespace, tmp: Path) -> Path:
    if args.dir is None:
        directory = tmp / "records"
        print(f"generating {args.count:,} records …", flush=True)
        generate(directory, args.count, args.seed)
        return directory
    directory = args.dir
    have = sum(1 for name in os.listdir(directory) if name.endswith(".json"))
    if have != args.count:
        if have:
            sys.exit(f"{directory} holds {have:,} records, not --count {args.count:,}")
        print(f"generating {args.count:,} records into {directory} …", flush=True)
        generate(directory, args.count, args.seed)
    return directory


def _empty_of(name: str) -> str:
    """The empty-app row a row's memory is measured above (each tree has its own)."""
    return "old empty" if name.startswith("old ") else "empty"


def report(count: int, runs: dict[str, list[Run]]) -> None:
    def med_kib(name: str, attr: str) -> float:
        return median([getattr(r, attr) for r in runs[name]]) or 0

    print(
        f"\nTUI start in a {COLS}x{ROWS} pty, {count:,} records, "
        f"medians of {len(runs['empty'])} runs"
    )
    header = (
        f"{'':<10}{'first paint':>12}{'first row':>11}{'app ready':>11}{'complete':>11}"
        f"{'j mid-fill':>12}"
        f"{'/ median':>10}{'/ worst':>9}{'probes':>7}{'RSS':>11}{'peak':>11}"
        f"{'RSS-empty':>11}{'helpers':>10}"
    )
    print(header)
    for name, group in runs.items():
        probes = [p for r in group for p in r.probes]
        rss = med_kib(name, "rss_kib")
        hwm = med_kib(name, "hwm_kib")
        empty = _empty_of(name)
        above = (
            ""
            if name in ("empty", "old empty", "textual")
            else mib(rss - med_kib(empty, "rss_kib"))
        )
        print(
            f"{name:<10}{ms(median([r.first_paint for r in group])):>12}"
            f"{ms(median([r.first_row for r in group])):>11}"
            f"{ms(median([r.app_ready for r in group])):>11}"
            f"{ms(median([r.complete for r in group])):>11}"
            f"{ms(median([r.j_latency for r in group])):>12}"
            f"{ms(median(list(probes))):>10}{ms(max(probes) if probes else None):>9}"
            f"{len(probes):>7}{mib(rss):>11}{mib(hwm):>11}{above:>11}"
            f"{mib(median([r.helpers_rss_kib for r in group]) or 0):>10}"
        )
        if any(r.timed_out for r in group):
            print(f"  ({name}: {sum(r.timed_out for r in group)} run(s) never completed)")
    paint = median([r.first_paint for r in runs["textual"]])
    for name in ("cold", "warm"):
        rss = med_kib(name, "rss_kib") - med_kib("empty", "rss_kib")
        hwm = med_kib(name, "hwm_kib") - med_kib("empty", "hwm_kib")
        first = median([r.first_row for r in runs[name]])
        ready = median([r.app_ready for r in runs[name]])
        print(
            f"{name}: RSS above the empty app {mib(rss)} "
            f"({rss / max(1, count) * 1024:,.0f} B per record; target < 150 MiB "
            f"at 100,000), peak above {mib(hwm)}; first row {ms(first)} "
            f"= {first / paint if first and paint else 0:.2f}x a bare Textual app's first paint; "
            f"app ready {ms(ready)} = {ready / paint if ready and paint else 0:.2f}x"
        )
        if f"old {name}" not in runs:
            continue

        def ratio(attr: str, name: str = name) -> str:
            new = median([getattr(r, attr) for r in runs[name]])
            old = median([getattr(r, attr) for r in runs[f"old {name}"]])
            return f"{new / old:.2f}" if new and old else "-"

        old_rss = med_kib(f"old {name}", "rss_kib") - med_kib("old empty", "rss_kib")
        print(
            f"  this / old ({name}): first row {ratio('first_row')}, complete "
            f"{ratio('complete')}, app ready {ratio('app_ready')}, j mid-fill {ratio('j_latency')}, RSS above the empty app "
            f"{rss / old_rss if old_rss else 0:.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, help="reuse (or fill) this directory of records")
    parser.add_argument("--probe-every", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument(
        "--baseline", type=Path, help="another checkout to measure alternately (old rows)"
    )
    args = parser.parse_args()
    if sys.platform != "linux":
        sys.exit("needs Linux (/proc and a pty)")
    trees = {"": ROOT}
    if args.baseline is not None:
        if not (args.baseline / "intentus_tui" / "cli").is_dir():
            sys.exit(f"--baseline {args.baseline}: no intentus_tui package there")
        trees["old "] = args.baseline.absolute()
    # PYTHONDONTWRITEBYTECODE may be set: then every launch would compile the package from
    # source again, and we would time the compiler. Compile once, up front.
    for tree in trees.values():
        subprocess.run([sys.executable, "-m", "compileall", "-q", str(tree / "intentus_tui")])
    with tempfile.TemporaryDirectory(prefix="bench-tui-") as name:
        tmp = Path(name)
        directory = prepare_records(args, tmp)
        ids = {n[:8] for n in os.listdir(directory) if n.endswith(".json")}
        (tmp / "empty").mkdir()
        runs: dict[str, list[Run]] = {"textual": []}
        for prefix in trees:
            for kind in ("empty", "cold", "warm"):
                runs[prefix + kind] = []
        for n in range(args.runs):
            home = tmp / f"home-{n}"
            home.mkdir()
            runs["textual"].append(measure_bare_textual(home))
            for prefix, tree in trees.items():  # alternating: each run measures both
                cache = home / f"c{len(prefix)}"
                empty = measure(tmp / "empty", 0, set(), cache / "empty", home, args, tree)
                cold = measure(directory, args.count, ids, cache / "dir", home, args, tree)
                warm = measure(directory, args.count, ids, cache / "dir", home, args, tree)
                runs[prefix + "empty"].append(empty)
                runs[prefix + "cold"].append(cold)
                runs[prefix + "warm"].append(warm)
                print(
                    f"run {n + 1}{' (old)' if prefix else ''}: first row cold "
                    f"{ms(cold.first_row)} warm {ms(warm.first_row)}; app ready cold "
                    f"{ms(cold.app_ready)} warm {ms(warm.app_ready)}; complete cold "
                    f"{ms(cold.complete)} warm {ms(warm.complete)}; "
                    f"j {ms(cold.j_latency)}/{ms(warm.j_latency)}",
                    flush=True,
                )
            shutil.rmtree(home, ignore_errors=True)
        report(args.count, runs)


if __name__ == "__main__":
    main()
