"""A headless Chromium driven through the Chrome DevTools Protocol (no driver binary, no
browser download: Debian's ``chromium`` and the ``websockets`` client Textual already needs).

``Browser.terminal_text`` reads what the page's xterm.js terminal shows. textual-serve
draws it on a canvas (WebGL or 2D), so the text is not in the DOM: a script that runs
before the page's own catches the ``Terminal`` object as textual.js stores it (the
``terminal`` property of its session object) and the test reads the terminal's screen
buffer, the cells the canvas is painted from.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

from websockets.sync.client import ClientConnection, connect

CHROMIUM = "/usr/bin/chromium"
INSTALL_HINT = "needs Debian's chromium (apt-get install chromium; .ci/run installs it)"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-port=0",
)

# Runs before textual.js: the first object that gets a ``terminal`` property holding an
# xterm.js Terminal (it has a buffer and onData) is kept as window.__terminal. The property
# is then defined on that object as an ordinary one, so the page works as before.
CATCH_TERMINAL = """
Object.defineProperty(Object.prototype, "terminal", {
  configurable: true,
  set(value) {
    Object.defineProperty(this, "terminal", {
      value, writable: true, configurable: true, enumerable: true,
    });
    if (value && value.buffer && value.onData && !window.__terminal) {
      window.__terminal = value;
    }
  },
});
"""

READ_SCREEN = """
(() => {
  const t = window.__terminal;
  if (!t) return null;
  const buffer = t.buffer.active;
  const lines = [];
  for (let y = 0; y < t.rows; y++) {
    const line = buffer.getLine(buffer.viewportY + y);
    lines.push(line ? line.translateToString(true) : "");
  }
  return lines.join("\\n");
})()
"""


def chromium_available() -> bool:
    return os.access(CHROMIUM, os.X_OK)


def wait_for(what: str, check: Callable[[], Any], timeout: float) -> Any:
    """Poll ``check`` until it returns something true; its value. ``AssertionError``
    naming ``what`` at the deadline."""
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(0.1)


def stop_process_group(process: subprocess.Popen[bytes]) -> None:
    """End a process started with ``start_new_session`` and everything it started."""
    if process.poll() is not None:
        return
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            return
        try:
            process.wait(grace)
            return
        except subprocess.TimeoutExpired:
            continue


class Browser:
    """One headless Chromium with a fresh profile, one page, driven over CDP."""

    def __init__(self, width: int = 1600, height: int = 1000) -> None:
        self.profile = Path(tempfile.mkdtemp(prefix="intentus-chromium-"))
        self.process = subprocess.Popen(
            [
                CHROMIUM,
                *FLAGS,
                f"--user-data-dir={self.profile}",
                f"--window-size={width},{height}",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        self._next_id = 0
        self._stack = contextlib.ExitStack()
        self.socket: ClientConnection | None = None
        try:
            port = wait_for("Chromium's DevTools port", self._devtools_port, 20)
            targets = json.load(urllib.request.urlopen(f"http://127.0.0.1:{port}/json/list"))
            page = next(t for t in targets if t["type"] == "page")
            self.socket = self._stack.enter_context(
                connect(page["webSocketDebuggerUrl"], max_size=None)
            )
            self.call("Page.enable")
            self.call("Page.addScriptToEvaluateOnNewDocument", source=CATCH_TERMINAL)
        except BaseException:
            self.close()
            raise

    def _devtools_port(self) -> int | None:
        try:
            first = (self.profile / "DevToolsActivePort").read_text().splitlines()[0]
        except (OSError, IndexError):
            return None
        return int(first) if first.isdigit() else None

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        assert self.socket is not None
        self._next_id += 1
        ident = self._next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv(timeout=30))
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError(f"{method}: {message['error']}")
                result: dict[str, Any] = message.get("result", {})
                return result

    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    def open(self, url: str) -> None:
        self.call("Page.navigate", url=url)

    def terminal_text(self) -> str | None:
        """The terminal's screen, one line per row, or None before it exists."""
        text = self.evaluate(READ_SCREEN)
        return text if isinstance(text, str) else None

    def press(self, key: str, code: str, key_code: int) -> None:
        """A key press in the terminal (it has the keyboard focus once clicked)."""
        self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")
        for kind in ("rawKeyDown", "keyUp"):
            self.call(
                "Input.dispatchKeyEvent",
                type=kind,
                key=key,
                code=code,
                windowsVirtualKeyCode=key_code,
                nativeVirtualKeyCode=key_code,
            )

    def screenshot(self, path: Path) -> None:
        data = self.call("Page.captureScreenshot", format="png")["data"]
        path.write_bytes(base64.b64decode(data))

    def close(self) -> None:
        self._stack.close()
        stop_process_group(self.process)
        shutil.rmtree(self.profile, ignore_errors=True)
