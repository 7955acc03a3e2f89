"""Every key the debugger binds, answered on 100,000 records: the real program in a real
pseudo-terminal (the terminal model of ``bench_tui_start``).

The program opens the directory (the index cache filled by a first, untimed open), the
index completes, then each key of ``KEYS`` is sent in turn: its latency runs from the
write to the pty until the first byte of the screen's answer (a frame that changes what
is shown), then the screen is left to settle before the next key. Each key's median over
``--runs`` rounds is set against the same key on a 1,000-record directory measured in the
same run (the baseline: what the key costs when the size does not matter).

The escape key: a terminal sends it as a lone ESC byte, which the app tells from the start
of an escape sequence only by waiting (``ESCDELAY``: the app's default unless set). Each
round is run twice: with ``esc`` sent as that lone byte (what xterm sends: its figure
includes the wait), and sent as the kitty keyboard protocol's ``ESC [ 27 u`` (a complete
sequence: no wait, the app's work alone, rows "(no wait)").

A big list's sort is made by a thread worker: the key is answered at once ("sorting…" in
the list's subtitle) and the rows follow; rows "(rows sorted)": until the mark is gone.

``--before TREE``: another checkout of the project, measured on the same records in the
same run, its rounds taken in turn with this one's (column "before", and now/before).

Usage: ``python bench/bench_keys.py [--count 100000] [--baseline-count 1000] [--runs 3]
[--dir DIR] [--before TREE]``. Linux only. The target: every key within 100 ms.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).absolute().parent))
from bench_tui_start import ROOT, App, header_done, prepare_records

TARGET = 0.100
LONE_ESC = b"\x1b"
KITTY_ESC = b"\x1b[27u"  # the escape key in the kitty keyboard protocol
SORTING_MARK = "sorting:"  # the list's subtitle while a worker sorts
FILTERING_MARK = "filtering…"  # the list's subtitle while a query waits for the texts
FILTER_PLACEHOLDER = "filter: id, intent"  # the filter box, empty
# Typed right after the first "/" is answered (not once the screen has settled): the
# searched texts are still being made. Its answer: the letter in the box.
TYPED_AT_ONCE = "a  filter: typed at once after the 1st /"
# (what the user does, the bytes sent). In order: each starts where the one before left the
# screen. Keys that open something are followed by the key that closes it.
KEYS: list[tuple[str, bytes]] = [
    ("j  list: first key after the open", b"j"),
    ("j  list: next row", b"j"),
    ("k  list: previous row", b"k"),
    ("pgdn  list: page down", b"\x1b[6~"),
    ("G  list: last row", b"G"),
    ("g  list: first row", b"g"),
    ("o  sort: oldest first", b"o"),
    ("o  sort: by intent", b"o"),
    ("v  view: needs attention", b"v"),
    ("!  failures first", b"!"),
    ("/  filter box (first: texts made)", b"/"),
    (TYPED_AT_ONCE, b"a"),
    ("esc  filter cleared", b"\x1b"),
    ("/  filter box", b"/"),
    ("a  filter: one keystroke", b"a"),
    ("esc  filter cleared again", b"\x1b"),
    ("enter  open the timeline", b"\r"),
    ("j  timeline: next event", b"j"),
    ("G  timeline: last event", b"G"),
    ("g  timeline: first event", b"g"),
    ("esc  back to the list", b"\x1b"),
    ("m  mark for diff", b"m"),
    ("j  list: the next row", b"j"),
    ("d  full-screen comparison", b"d"),
    ("n  next difference", b"n"),
    ("esc  comparison closed", b"\x1b"),
    ("D  compare picker", b"D"),
    ("esc  picker closed", b"\x1b"),
    ("T  follow on", b"T"),
    ("T  follow off", b"T"),
    ("z  maximise", b"z"),
    ("z  restore", b"z"),
    ("L  layout: stacked", b"L"),
    ("L  layout: two panes", b"L"),
    ("L  layout: columns", b"L"),
    ("?  help", b"?"),
    ("esc  help closed", b"\x1b"),
    ("ctrl+p  palette", b"\x10"),
    ("esc  palette closed", b"\x1b"),
    ("2  Replay tab", b"2"),
    ("1  Verify tab", b"1"),
    ("3  Diff tab", b"3"),
    ("4  Post-mortem tab", b"4"),
]


def snapshot(app: App) -> tuple[tuple[str, ...], tuple[str, ...]]:
    screen = app.screen
    return tuple(map("".join, screen.text)), tuple(map("".join, screen.sgr))


def one_round(
    directory: Path, count: int, cache: Path, home: Path, esc: bytes = LONE_ESC, root: Path = ROOT
) -> dict[str, list[float]]:
    argv = [sys.executable, "-m", "intentus_tui.cli", str(directory)]
    app = App(argv, cache, home, root)
    latencies: dict[str, list[float]] = {}
    try:
        if app.wait_for(lambda: header_done(app.screen, count), 600) is None:
            sys.exit(f"the index of {directory} did not complete")
        app.settle(quiet=1.0)
        for index, (label, keys) in enumerate(KEYS):
            if keys == LONE_ESC and esc != LONE_ESC:
                label += " (no wait)"
                keys = esc
            before = snapshot(app)
            sent = time.perf_counter()
            app.send(keys)
            deadline = sent + 10
            answered = None
            while time.perf_counter() < deadline:
                app.pump(0.005)
                if label == TYPED_AT_ONCE:
                    done = not app.screen.contains(FILTER_PLACEHOLDER)
                else:
                    done = snapshot(app) != before
                if done:
                    answered = time.perf_counter() - sent
                    break
            latencies.setdefault(label, []).append(answered if answered is not None else 10.0)
            if label.startswith("o "):  # the rows in their new order
                while app.screen.contains(SORTING_MARK) and time.perf_counter() < deadline:
                    app.pump(0.005)
                sorted_at = time.perf_counter() - sent
                latencies.setdefault(f"{label} (rows sorted)", []).append(sorted_at)
            if label == TYPED_AT_ONCE:  # the rows it filters
                # "filtering…" may follow the letter's own frame (never, rows filtered at once)
                shown_by = time.perf_counter() + 0.2
                while not app.screen.contains(FILTERING_MARK) and time.perf_counter() < shown_by:
                    app.pump(0.005)
                filtered_at = answered if answered is not None else 10.0
                if app.screen.contains(FILTERING_MARK):
                    while app.screen.contains(FILTERING_MARK) and time.perf_counter() < deadline:
                        app.pump(0.005)
                    filtered_at = time.perf_counter() - sent
                latencies.setdefault(f"{label} (rows filtered)", []).append(filtered_at)
            if index + 1 < len(KEYS) and KEYS[index + 1][0] == TYPED_AT_ONCE:
                continue  # typed as soon as this key is answered
            app.settle(quiet=0.3)
    finally:
        app.close()
    return latencies


def measure(
    directory: Path, count: int, runs: int, tmp: Path, name: str, roots: list[Path]
) -> list[dict[str, float]]:
    """Each key's median on ``directory`` for each checkout of ``roots``, their rounds
    taken in turn (so a busier moment of the machine falls on each alike)."""
    merged: list[dict[str, list[float]]] = []
    for number, root in enumerate(roots):
        home = tmp / f"home-{name}-{number}"
        (home / "index-cache").mkdir(parents=True)
        one_round(directory, count, home / "index-cache", home, root=root)  # fills the cache
        merged.append({})
    for _ in range(runs):
        for esc in (LONE_ESC, KITTY_ESC):
            for number, root in enumerate(roots):
                home = tmp / f"home-{name}-{number}"
                round_ = one_round(directory, count, home / "index-cache", home, esc, root)
                for label, values in round_.items():
                    merged[number].setdefault(label, []).extend(values)
    return [
        {label: statistics.median(values) for label, values in latencies.items()}
        for latencies in merged
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--baseline-count", type=int, default=1_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--dir", type=Path, help="a directory of --count records to reuse")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--before",
        type=Path,
        help="another checkout of the project (e.g. `git archive HEAD~1 | tar -x -C /tmp/old`, "
        "with its built extension copied in), "
        "measured on the same records round by round with this one (column 'before')",
    )
    args = parser.parse_args()
    roots = [ROOT] if args.before is None else [ROOT, args.before.absolute()]
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        big_dir = prepare_records(args, tmp)
        small_args = argparse.Namespace(**{**vars(args), "count": args.baseline_count, "dir": None})
        small_dir = prepare_records(small_args, tmp / "small")
        (small,) = measure(small_dir, args.baseline_count, args.runs, tmp, "small", [ROOT])
        big, *before = measure(big_dir, args.count, args.runs, tmp, "big", roots)
    print(
        f"\nkey latency, {args.count:,} records vs {args.baseline_count:,} "
        f"(median of {2 * args.runs} rounds; esc: of {args.runs} each way)"
    )
    then = f"{'before':>9}{'now/before':>11}" if before else ""
    print(f"  {'key':<40}{'big':>9}{'baseline':>10}{'ratio':>7}{then}  within 100 ms")
    worst = 0.0
    labels = [label for label, _ in KEYS]

    def order(label: str) -> tuple[int, int]:
        """Each key's extra rows right after it (a label's key: the longest it starts with)."""
        named = [(len(name), index) for index, name in enumerate(labels) if label.startswith(name)]
        if not named:
            return len(labels), 0
        return max(named)[1], len(label)

    for label, value in sorted(big.items(), key=lambda item: order(item[0])):
        base = small[label]
        if label.endswith(("(rows sorted)", "(rows filtered)")):  # what follows the answer
            mark = "(follows)"
        else:
            worst = max(worst, value)
            mark = "yes" if value <= TARGET else "NO"
        then = ""
        if before:
            old = before[0].get(label)
            then = (
                f"{'-':>9}{'':>11}" if old is None else f"{old * 1000:>7.0f}ms{value / old:>11.2f}"
            )
        print(
            f"  {label:<40}{value * 1000:>7.0f}ms{base * 1000:>8.0f}ms{value / base:>7.2f}"
            f"{then}  {mark}"
        )
    print(f"\nslowest key: {worst * 1000:.0f} ms (target {TARGET * 1000:.0f} ms)")


if __name__ == "__main__":
    main()
