"""Run coroutines from a test, whatever runs in the test's thread.

A worker process that has run a browser test keeps Playwright's event loop running in its
main thread for the rest of the session (the browser is session-scoped), and asyncio refuses
to start another loop there: so the coroutines get a thread and a loop of their own."""

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor


class LoopInThread:
    """One event loop in one thread of its own, for several coroutines in turn (a stream
    opened by one and closed by a later one), with the test's own code run in between:

        with LoopInThread() as loop:
            stream = loop.run(open_stream())
            ...
            loop.run(stream.close())
    """

    def __enter__(self) -> "LoopInThread":
        self.pool = ThreadPoolExecutor(max_workers=1)
        self.loop = self.pool.submit(asyncio.new_event_loop).result()
        return self

    def run(self, coroutine: Coroutine):
        return self.pool.submit(self.loop.run_until_complete, coroutine).result()

    def __exit__(self, *exc_info) -> None:
        self.pool.submit(self.loop.close).result()
        self.pool.shutdown()


def run(coroutine: Coroutine):
    """The coroutine run to its end on a loop of its own, as asyncio.run does."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coroutine).result()
