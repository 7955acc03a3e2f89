"""An event loop in a thread of its own, for one remote root's SSH connection.

fsspec runs every async filesystem on one loop thread that lives until the process ends.
A command that syncs a remote root once and then indexes its mirror would keep that idle
thread, and a process with other threads does not fork its index helpers (forking would
copy locks those threads may hold): it indexes through a slower pool. With a loop of its
own, the mirror ends the thread (and the connection) when it is closed, and the index
runs as fast as for a local directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from typing import Any


class LoopThread:
    """A running event loop in a daemon thread; ``stop`` closes what runs on it."""

    def __init__(self, name: str) -> None:
        self.loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self.loop.run_forever, name=name, daemon=True)
        self._thread.start()

    def stop(self, client: Any = None, timeout: float = 2.0) -> None:
        """Close ``client`` (an asyncssh connection) and everything else on the loop,
        then end the thread; bounded by ``timeout`` (a dead link is not waited for)."""
        loop = self.loop
        if loop.is_closed():
            return
        with contextlib.suppress(Exception):
            asyncio.run_coroutine_threadsafe(_close_all(client, timeout / 2), loop).result(timeout)
        loop.call_soon_threadsafe(loop.stop)
        self._thread.join(timeout)
        if not self._thread.is_alive():
            loop.close()


async def _close_all(client: Any, timeout: float) -> None:
    if client is not None:
        client.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(client.wait_closed(), timeout)
    current = asyncio.current_task()
    pending = [task for task in asyncio.all_tasks() if task is not current]
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(asyncio.get_running_loop().shutdown_default_executor(), timeout)
